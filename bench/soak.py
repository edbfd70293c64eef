"""The soak (issue 31): live games with bots for half an hour; memory per process stays flat, nothing is lost.

The site runs as ``bin/run`` starts it, on the embedded default (SQLite, the file-system broker, the local
socket layer; ``bench.hostile.runner.start_site``): the web server (uvicorn), the Celery worker, the push
worker and beat. N live public games each seat one simulated person (acting through the API, or now and then
leaving the phase to its deadline, as ``bench/live_worker.py`` plays) and three bots (played by the worker).
When a game ends, its person starts a new one over the API and adds its bots. A spectator's socket follows
each game, as an open page does, and notes every version it hears.

Every ``--every`` seconds (30) it samples the resident memory (RSS, from /proc) of each of the site's
processes with their children. At the end it prints, per process, the RSS at the end of the warm-up
(``--warmup`` minutes, 5) and at the end, and the growth; and the changes no socket heard (a ``Move`` row the
spectator never heard of, counted as ``bench/live_worker.py`` counts them). It also shows the versions a socket
skipped: one per game is expected, as the last seat's join and the game's start bump the version twice in one
commit and say so once. The curve goes to ``var/soak-<time>.csv`` and ``.json``. It exits with 1 when a process grew by
more than ``--max-growth`` (10%) after the warm-up, or anything was lost.

With ``--tracemalloc`` each of the site's processes traces its allocations (infrastructure/memtrace.py) and the end
shows, per process, the lines whose memory grew most from the end of the warm-up to the end. Tracing slows
them and takes memory of its own: such a run finds a leak; its RSS figures are not the soak's.

    .venv/bin/python bench/soak.py                  # 30 minutes
    .venv/bin/python bench/soak.py --minutes 3 --warmup 1 --games 4    # a quick look
"""

import argparse
import asyncio
import csv
import json
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.hostile.runner import free_port, start_site, stop_site, wait_until_answering  # noqa: E402
from bench.live_latency import prepare_environment  # noqa: E402
from bench.live_worker import make_games, measure, person_action  # noqa: E402

ROLES = ("web", "worker", "push", "beat")


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="how long the games play (30)")
    parser.add_argument("--warmup", type=float, default=5.0, help="minutes of warm-up before the baseline (5)")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between two memory samples (30)")
    parser.add_argument("--games", type=int, default=10, help="live games played at once, each a person and 3 bots")
    parser.add_argument("--phase", type=int, default=8, help="seconds a live phase lasts before it expires (8)")
    parser.add_argument(
        "--idle", type=float, default=0.3, help="share of the person's turns left to expire by the deadline (0.3)"
    )
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds after the end a change may still come (5)")
    parser.add_argument("--max-growth", type=float, default=0.10, help="RSS growth after the warm-up allowed (0.10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start-timeout", type=float, default=600.0, help="seconds the site may take to start")
    parser.add_argument("--tracemalloc", action="store_true", help="trace allocations in the site's processes")
    parser.add_argument("--out", type=Path, default=ROOT / "var", help="folder of the curve's CSV and JSON (var/)")
    return parser.parse_args(argv)


# ---- The processes' memory -------------------------------------------------------------------------------


def children_of() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            tree[parent].append(int(entry.name))
    return tree


def role_of(pid: int) -> str | None:
    """Which of bin/run's processes ``pid`` is, from its command line."""
    try:
        words = (Path(f"/proc/{pid}/cmdline").read_bytes()).split(b"\0")
    except OSError:
        return None
    line = [word.decode(errors="replace") for word in words]
    names = [Path(word).name for word in line[:2]]
    if "uvicorn" in names:
        return "web"
    if "celery" in names:
        if "beat" in line:
            return "beat"
        if "worker" in line:
            return "push" if "push" in line else "worker"
    return None


def site_processes(root: int) -> dict[str, int]:
    """The pid of each of the site's processes under ``root`` (bin/run's shell)."""
    tree, found, todo = children_of(), {}, [root]
    while todo:
        pid = todo.pop()
        role = role_of(pid)
        if role is not None and role not in found:
            found[role] = pid
            continue
        todo.extend(tree.get(pid, ()))
    return found


def rss_kib(pid: int) -> int:
    """The resident memory of ``pid`` and every process under it, in KiB (0 once it is gone)."""
    tree, total, todo = children_of(), 0, [pid]
    while todo:
        current = todo.pop()
        try:
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
        todo.extend(tree.get(current, ()))
    return total


# ---- The games ----------------------------------------------------------------------------------------------


class Soak:
    def __init__(self, args, base: str, games):
        self.args = args
        self.base = base
        self.games: list[int] = []  # every game played, in order
        self.heard: dict[int, dict[int, float]] = defaultdict(dict)
        self.reconnects = 0
        self.open_sockets = 0
        self.finished = 0
        self.refused: dict[int, int] = defaultdict(int)  # the person's requests answered with an error, by status
        self.people = games  # (first game id, person, token)

    async def spectate(self, game_id: int, opened: asyncio.Event, stop: asyncio.Event):
        """Hear every change of ``game_id`` until ``stop``; a dropped socket opens again (and counts). A finished
        game's spectator stops ``--timeout`` seconds after the game was seen over, as a page is closed: the
        sockets open at once stay one a game being played, not one for every game played since the start."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        url = self.base.replace("http://", "ws://") + f"/ws/live/?game={game_id}"
        while not stop.is_set():
            try:
                async with connect(url, origin=self.base, open_timeout=60) as socket:
                    opened.set()
                    self.open_sockets += 1
                    receiving = asyncio.ensure_future(self._receive(game_id, socket))
                    stopping = asyncio.ensure_future(stop.wait())
                    await asyncio.wait({receiving, stopping}, return_when=asyncio.FIRST_COMPLETED)
                    for task in (receiving, stopping):
                        task.cancel()
                    await asyncio.gather(receiving, stopping, return_exceptions=True)
                    self.open_sockets -= 1
            except (OSError, ConnectionClosed, TimeoutError):
                pass
            if not stop.is_set():
                self.reconnects += 1
                await asyncio.sleep(1)  # live.js's first backoff

    @staticmethod
    async def close_with(closed: asyncio.Event, stop: asyncio.Event):
        """Close a spectator at the end of the run too."""
        await stop.wait()
        closed.set()

    async def _receive(self, game_id: int, socket):
        async for raw in socket:
            message = json.loads(raw)
            if message.get("type") == "game.changed":
                self.heard[game_id].setdefault(message["version"], time.time())

    async def new_game(self, http, headers) -> int:
        response = await http.post(
            "/games",
            json={"seats": 4, "pace": "live", "visibility": "public"},
            headers=headers,
        )
        if response.status_code != 201:
            raise RuntimeError(f"a new game was refused: {response.status_code} {response.text[:500]}")
        return response.json()["id"]

    async def person(self, game_id: int, who, token: str, rng: random.Random, http, ends_at: float, stop):
        """One person: plays ``game_id`` and, when it ends, a new game after it, until ``ends_at``."""
        headers = {"Authorization": f"Bearer {token}"}
        listeners = []
        while time.monotonic() < ends_at:
            self.games.append(game_id)
            opened, closed = asyncio.Event(), asyncio.Event()
            listeners.append(asyncio.create_task(self.spectate(game_id, opened, closed)))
            listeners.append(asyncio.create_task(self.close_with(closed, stop)))
            await asyncio.wait_for(opened.wait(), 60)  # the spectator hears from the first bot on
            for _ in range(3):  # the last bot starts the game
                (await http.post(f"/games/{game_id}/bots", headers=headers)).raise_for_status()
            left_to_expire: set[int] = set()  # the versions whose turn the person lets pass
            while time.monotonic() < ends_at:
                action = await asyncio.to_thread(person_action, game_id, who, rng)
                if action is not None and action["type"] == "done":
                    self.finished += 1
                    asyncio.get_running_loop().call_later(self.args.timeout, closed.set)  # what is on its way
                    game_id = await self.new_game(http, headers)
                    break
                if action is not None:
                    version = max(self.heard[game_id], default=0)
                    if version in left_to_expire or rng.random() < self.args.idle:
                        left_to_expire.add(version)  # beat will expire the phase
                    else:
                        await asyncio.sleep(rng.uniform(0.2, 1.0))  # a person reads, then acts
                        response = await http.post(f"/games/{game_id}/actions", json=action, headers=headers)
                        if response.status_code != 200:
                            self.refused[response.status_code] += 1  # a bot or the deadline came first
                        continue
                await asyncio.sleep(0.25)
        return listeners

    async def sample(self, pids: dict[str, int], started: float, stop: asyncio.Event, rows: list[dict]):
        """A row of every process's RSS (KiB) now and every ``--every`` seconds, until ``stop``."""
        while True:
            row = {"minute": round((time.monotonic() - started) / 60, 2)}
            row.update({role: rss_kib(pid) for role, pid in pids.items()})
            rows.append(row)
            print(
                f"  {row['minute']:6.1f} min  "
                + "  ".join(f"{role} {row[role] / 1024:6.1f} MiB" for role in pids)
                + f"  (games {len(self.games)}, finished {self.finished}, sockets open {self.open_sockets})",
                flush=True,
            )
            try:
                await asyncio.wait_for(stop.wait(), self.args.every)
                return
            except TimeoutError:
                pass

    async def run(self, pids: dict[str, int]) -> tuple[list[dict], float]:
        import httpx

        rows: list[dict] = []
        stop, sampled = asyncio.Event(), asyncio.Event()
        started = time.monotonic()
        sampler = asyncio.create_task(self.sample(pids, started, sampled, rows))
        ends_at = started + self.args.minutes * 60
        seeds = random.Random(self.args.seed)
        async with httpx.AsyncClient(base_url=f"{self.base}/api/v1", timeout=60) as http:
            listeners = await asyncio.gather(
                *(
                    self.person(game_id, who, token, random.Random(seeds.random()), http, ends_at, stop)
                    for game_id, who, token in self.people
                )
            )
        played_until = time.time()
        sampled.set()  # the last sample: the end of play
        await sampler
        await asyncio.sleep(self.args.timeout)  # what is still on its way
        stop.set()
        await asyncio.gather(*(task for tasks in listeners for task in tasks), return_exceptions=True)
        return rows, played_until


def skipped_versions(heard: dict[int, float]) -> list[int]:
    """The versions between the first and the last one heard that were not heard."""
    if not heard:
        return []
    return [version for version in range(min(heard), max(heard)) if version not in heard]


def growth(rows: list[dict], role: str, warmup_minutes: float) -> tuple[int, int, int, float]:
    """(RSS at the end of the warm-up, peak after it, at the end, growth from the first to the last)."""
    after = [row for row in rows if row["minute"] >= warmup_minutes] or rows[-1:]
    base, end = after[0][role], rows[-1][role]
    return base, max(row[role] for row in after), end, (end - base) / base if base else 0.0


def stop_on_signals() -> None:
    """SIGTERM, and SIGINT even where a shell started this in the background (ignoring it), stop the run and
    the site it started (the ``finally`` below), instead of leaving the site running."""

    def stop(signum, _frame):
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)


def main(argv=None) -> int:
    args = parse_args(argv)
    stop_on_signals()
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        os.environ.pop(name, None)  # the embedded default, as bin/run starts it with no environment
    workdir = Path(tempfile.mkdtemp(prefix="fabula-soak-"))
    prepare_environment(workdir)
    os.environ["FABULA_LIVE_PHASE_SECONDS"] = str(args.phase)
    traces = workdir / "tracemalloc"
    process = None
    try:
        import django

        django.setup()
        print(f"setting up {args.games} games in {workdir} ...", flush=True)
        setup = argparse.Namespace(games=args.games)
        people = make_games(setup)
        if args.tracemalloc:  # the site's processes trace; this one, set up already, does not
            os.environ["FABULA_TRACEMALLOC"] = str(traces)
            os.environ["FABULA_TRACEMALLOC_EVERY"] = str(args.every)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        print(f"starting the site (bin/run) on {base} ...", flush=True)
        process = start_site(workdir, port)
        wait_until_answering(base, process, timeout=args.start_timeout)
        pids = site_processes(process.pid)
        missing = [role for role in ROLES if role not in pids]
        if missing:
            raise RuntimeError(f"bin/run's processes not found: {', '.join(missing)}")
        print("  processes: " + ", ".join(f"{role} {pid}" for role, pid in pids.items()), flush=True)
        soak = Soak(args, base, people)
        print(f"playing for {args.minutes:g} min; RSS every {args.every:g} s:", flush=True)
        rows, played_until = asyncio.run(soak.run(pids))
        lost = measure([(game_id, None, None) for game_id in soak.games], soak.heard, played_until)
        skipped = {game_id: skipped_versions(soak.heard[game_id]) for game_id in soak.games}
    except Exception:
        if (workdir / "site.log").exists():
            print((workdir / "site.log").read_text(errors="replace")[-3000:], file=sys.stderr)
        raise
    finally:
        if process is not None:
            stop_site(process)

    stamp = time.strftime("%Y%m%d-%H%M%S")
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / f"soak-{stamp}.csv", "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=["minute", *ROLES])
        writer.writeheader()
        writer.writerows(rows)

    print()
    print(
        f"{args.minutes:g} min of {args.games} live games (a person and 3 bots each; {len(soak.games)} games, "
        f"{soak.finished} finished), phases of {args.phase} s; embedded default; {os.cpu_count()} cores, "
        f"load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'process':8} {f'RSS at {args.warmup:g} min':>14} {'peak after':>12} {'at the end':>12} {'growth':>8}")
    grown = {}
    for role in ROLES:
        base, peak, end, change = growth(rows, role, args.warmup)
        grown[role] = {"warmup_kib": base, "peak_kib": peak, "end_kib": end, "growth": change}
        print(f"{role:8} {base / 1024:10.1f} MiB {peak / 1024:8.1f} MiB {end / 1024:8.1f} MiB {change:+8.1%}")
    changes = sum(row["count"] for row in lost.values())
    lost_count = sum(row["lost"] for row in lost.values())
    skipped_count = sum(len(versions) for versions in skipped.values())
    print(
        f"changes {changes}, lost {lost_count} ("
        + ", ".join(f"{maker}: {row['lost']} of {row['count']}" for maker, row in lost.items())
        + f"); versions skipped in what a socket heard: {skipped_count} (one per game at its start is expected)"
        f"; sockets reopened: {soak.reconnects}"
        f"; the person's actions refused: {dict(soak.refused) or 0}"
    )
    flat = all(row["growth"] <= args.max_growth for row in grown.values())
    met = flat and lost_count == 0 and changes > 0
    print(f"aim (RSS growth after the warm-up <= {args.max_growth:.0%}, nothing lost): {'met' if met else 'MISSED'}")
    document = {
        "args": {key: (str(value) if isinstance(value, Path) else value) for key, value in vars(args).items()},
        "curve_kib": rows,
        "processes": grown,
        "changes": lost,
        "skipped": {str(game_id): versions for game_id, versions in skipped.items() if versions},
        "games": len(soak.games),
        "finished": soak.finished,
        "aim_met": met,
    }
    (args.out / f"soak-{stamp}.json").write_text(json.dumps(document, indent=2))
    print(f"the curve: {args.out / f'soak-{stamp}.csv'} (and .json)")
    if args.tracemalloc:
        print_growth(traces, pids, args.warmup * 60)
    shutil.rmtree(workdir, ignore_errors=True)
    return 0 if met else 1


def print_growth(traces: Path, pids: dict[str, int], warmup_seconds: float) -> None:
    """Per process: what grew from its first snapshot after the warm-up to its last (infrastructure.memtrace)."""
    from infrastructure.memtrace import growth

    for role, pid in pids.items():
        snapshots = sorted(traces.glob(f"{role}-{pid}-*.tracemalloc"))
        after = [path for path in snapshots if int(path.stem.rsplit("-", 1)[1]) >= warmup_seconds] or snapshots
        print(f"\n--- {role}: the allocations that grew most after the warm-up")
        print(growth(after[0], after[-1]) if len(after) > 1 else "  (too few snapshots)")


if __name__ == "__main__":
    sys.exit(main())
