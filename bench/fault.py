"""Faults in the middle of live games: Redis restarted, the Celery worker killed, the web process restarted.

Run by hand, on PostgreSQL + Redis as production runs (README, "Faults"):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fabula_fault .venv/bin/python bench/fault.py

It starts, in a throw-away database (DATABASE_URL's name plus ``_bench``, dropped at
the end) and with a redis-server of its own on ``--redis-port`` (never the shared one:
it is restarted), the production processes: one web server (uvicorn, as bin/run),
a Celery worker and beat on Redis. N live games of P players play through the web
pages, as live.js does: each page holds its socket (and reconnects with live.js's
backoff when it drops), fetches its board when it hears of a new version, when its
socket opens and every 30 s whatever it hears; a player whose action fails (the
server away, a 5xx) tries again as a person would, from what the game shows then.
Some games play nobody and have deadlines that fall during the faults: the worker
must expire each once.

In the middle of play, one after the other: Redis is stopped and started again
(empty: it keeps nothing on disk, as in docker-compose.yml), the worker is killed
with SIGKILL and started again, the web server is stopped and started again.

It reports:
- actions lost: answered 200 but not in the database (aim 0); and actions refused
  or failed along the way, each tried again until it went through;
- per fault: the errors seen, and the time from the fault's end until every page
  shows at least the version its game had then ("every page current again");
- deadlines: games due during the faults, expired exactly once.
Exits 1 when an action was lost, a deadline was missed or expired twice, or a page
never caught up.

With ``--hostile`` it replays hostile input instead (bench/hostile/: slow and huge bodies, media, push
endpoints, accounts, ...) against the embedded default started as ``bin/run`` starts it (or the site at
``--base``), prints a row per check and a table, and exits 1 when any check fell:

    .venv/bin/python bench/fault.py --hostile [--only AREA.CHECK] [--base http://127.0.0.1:8000]
"""

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live_latency import VERSION, Player, drop_database, figures, make_games, next_action  # noqa: E402
from live_latency import prepare_environment as prepare_database  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

# live.js's timings (games/static/js/live.js)
RECONNECT_FIRST = 1.0
RECONNECT_MAX = 30.0
SAFETY_REFRESH = 30.0


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12, help="live games played at once (12)")
    parser.add_argument("--players", type=int, default=4, help="players per game (4)")
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds between two actions in a game (2)")
    parser.add_argument("--deadline-games", type=int, default=6, help="games no one plays, due during the faults (6)")
    parser.add_argument("--between", type=float, default=15.0, help="seconds of play before and between faults (15)")
    parser.add_argument("--down", type=float, default=3.0, help="seconds Redis and the worker stay down (3)")
    parser.add_argument("--catch-up", type=float, default=90.0, help="seconds a page may take to be current (90)")
    parser.add_argument("--redis-port", type=int, default=6392, help="the port of this script's own redis-server")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hostile", action="store_true", help="replay the hostile-input checks (bench/hostile/)")
    parser.add_argument("--base", help="with --hostile: a site already running, instead of starting bin/run")
    parser.add_argument("--only", help="with --hostile: only the checks whose 'area.check' contains this")
    parser.add_argument("--keep", action="store_true", help="with --hostile: keep the started site's files")
    args = parser.parse_args(argv)
    args.rounds = 1000  # games play until the run stops them
    args.servers = 1
    return args


# ---- The processes ------------------------------------------------------------------


class Process:
    """A subprocess that can be stopped (gracefully or with SIGKILL) and started again."""

    def __init__(self, name: str, command: list[str], env: dict, workdir: Path, port: int | None = None):
        self.name, self.command, self.env, self.workdir, self.port = name, command, env, workdir, port
        self.process = None

    def start(self) -> None:
        with open(self.workdir / f"{self.name}.log", "ab") as log:
            self.process = subprocess.Popen(self.command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        if self.port is not None:
            wait_for_port(self.port, self.process)

    def stop(self, sig=signal.SIGTERM) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def log_tail(self, chars: int = 3000) -> str:
        path = self.workdir / f"{self.name}.log"
        return path.read_text(errors="replace")[-chars:] if path.exists() else ""


def wait_for_port(port: int, process, timeout: float = 60.0) -> None:
    import socket

    give_up_at = time.monotonic() + timeout
    while time.monotonic() < give_up_at and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


def processes(workdir: Path, args) -> dict[str, Process]:
    from games.tests.live.server import free_port, server_command

    env = dict(os.environ)
    web_port = free_port()
    return {
        "redis": Process(
            "redis",
            ["redis-server", "--port", str(args.redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            env,
            workdir,
            port=args.redis_port,
        ),
        "web": Process("web", server_command("uvicorn", host="127.0.0.1", port=web_port), env, workdir, port=web_port),
        "worker": Process(
            "worker",
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-l", "INFO"],
            env,
            workdir,
        ),
        "beat": Process(
            "beat",
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "beat",
                "-l",
                "INFO",
                "-s",
                str(workdir / "beat-schedule"),
            ],
            env,
            workdir,
        ),
    }


# ---- Pages and players --------------------------------------------------------------


@dataclass
class Page:
    """What one player's game page shows, kept as live.js keeps it."""

    player: Player
    shown: int = 0
    seen_at: dict = field(default_factory=dict)  # version -> when the page first showed it (or a later one)

    def show(self, version: int) -> None:
        now = time.monotonic()
        for missed in range(self.shown + 1, version + 1):
            self.seen_at[missed] = now
        self.shown = max(self.shown, version)


@dataclass
class Tally:
    acknowledged: list = field(default_factory=list)  # (game id, version) answered 200
    acted: list = field(default_factory=list)  # (game id, version, actor's user id, when, phase)
    failed: dict = field(default_factory=dict)  # what went wrong -> how often (each tried again)
    errors_by_phase: dict = field(default_factory=dict)  # phase -> failed requests of any kind
    phase: str = "warm-up"

    def fail(self, what: str) -> None:
        self.failed[what] = self.failed.get(what, 0) + 1
        self.errors_by_phase[self.phase] = self.errors_by_phase.get(self.phase, 0) + 1


async def page_loop(page: Page, base: str, port: int, http, tally: Tally, stop: asyncio.Event) -> None:
    """live.js: the socket, a fetch on open and on news, the backoff, the safety refresh."""
    from websockets.asyncio.client import connect

    player = page.player

    async def fetch() -> None:
        try:
            response = await http.get(
                f"{base}/games/{player.game_id}/board/", headers={"Cookie": player.cookie, "HX-Request": "true"}
            )
        except Exception:
            tally.fail("page fetch: no answer")
            return
        shown = VERSION.search(response.text)
        if response.status_code == 200 and shown:
            page.show(int(shown.group(1)))
        else:
            tally.fail(f"page fetch: {response.status_code}")

    async def safety_refresh() -> None:
        while not stop.is_set():
            await asyncio.sleep(SAFETY_REFRESH * random.uniform(0.9, 1.1))
            await fetch()

    refresher = asyncio.create_task(safety_refresh())
    attempts = 0
    try:
        while not stop.is_set():
            opened_at = 0.0
            try:
                async with connect(
                    f"ws://127.0.0.1:{port}/ws/live/?game={player.game_id}",
                    origin=base,
                    additional_headers={"Cookie": player.cookie},
                    open_timeout=10,
                ) as socket:
                    opened_at = time.monotonic()
                    await fetch()
                    async for raw in socket:
                        if stop.is_set():
                            break
                        message = json.loads(raw)
                        if message.get("game") == player.game_id and message.get("version", 0) > page.shown:
                            await fetch()
            except Exception:
                pass
            if stop.is_set():
                break
            tally.fail("socket dropped")
            if opened_at and time.monotonic() - opened_at > 10:
                attempts = 0
            ceiling = min(RECONNECT_MAX, RECONNECT_FIRST * 2**attempts)
            attempts += 1
            await asyncio.sleep(ceiling / 2 + random.random() * ceiling / 2)
    finally:
        refresher.cancel()


async def game_loop(players: list[Player], base: str, http, tally: Tally, stop: asyncio.Event, args, rng) -> None:
    """One player at a time acts, as the page posts it; a failed action is tried again from what the game shows."""
    await asyncio.sleep(rng.uniform(0, args.think))
    while not stop.is_set():
        try:
            actor, form, version = await asyncio.to_thread(next_action, players, rng)
        except IndexError:  # no one to act: the game is over
            return
        except Exception:
            tally.fail("choosing an action (database)")
            await asyncio.sleep(1)
            continue
        try:
            response = await http.post(
                f"{base}/games/{actor.game_id}/act/",
                data=form,
                headers={"Cookie": actor.cookie, "X-CSRFToken": actor.csrf, "HX-Request": "true"},
            )
        except Exception:
            tally.fail("action: no answer")
            await asyncio.sleep(0.5)
            continue
        shown = VERSION.search(response.text)
        if response.status_code == 200 and shown is not None and int(shown.group(1)) >= version:
            tally.acknowledged.append((actor.game_id, version))
            tally.acted.append((actor.game_id, version, actor.user_id, time.monotonic(), tally.phase))
            await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
        else:
            tally.fail(f"action: {response.status_code}")
            await asyncio.sleep(0.5)


# ---- Faults -------------------------------------------------------------------------


def versions_now(game_ids) -> dict[int, int]:
    from django.db import close_old_connections

    from games.models import Game

    try:
        return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "version"))
    finally:
        close_old_connections()


async def until_current(pages: list[Page], game_ids, limit: float) -> float | None:
    """Seconds until every page shows at least the version its game has now (None: not within ``limit``)."""
    targets = await asyncio.to_thread(versions_now, game_ids)
    started = time.monotonic()
    while time.monotonic() - started < limit:
        if all(page.shown >= targets[page.player.game_id] for page in pages):
            return time.monotonic() - started
        await asyncio.sleep(0.1)
    return None


async def run(args, procs, games, deadline_games) -> dict:
    import httpx

    web = procs["web"]
    base = f"http://127.0.0.1:{web.port}"
    stop = asyncio.Event()
    tally = Tally()
    pages = [Page(player) for players in games for player in players]
    game_ids = [players[0].game_id for players in games]
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    faults = {}
    health_seen = {}
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        seeds = random.Random(args.seed)
        tasks = [asyncio.create_task(page_loop(p, base, web.port, http, tally, stop)) for p in pages]
        tasks += [
            asyncio.create_task(game_loop(players, base, http, tally, stop, args, random.Random(seeds.random())))
            for players in games
        ]

        async def fault(name: str, action) -> None:
            tally.phase = name
            print(f"  {name} ...", flush=True)
            started = time.monotonic()
            await action()
            outage = time.monotonic() - started
            catch_up = await until_current(pages, game_ids, args.catch_up)
            faults[name] = {"outage": outage, "catch_up": catch_up, "errors": 0}
            print(f"    down {outage:.1f} s; every page current {_seconds(catch_up)} after (- never)", flush=True)
            tally.phase = f"after {name}"
            await asyncio.sleep(args.between)

        async def health(name: str) -> None:
            """What /healthz says while the part is away."""
            try:
                response = await http.get(f"{base}/healthz")
                health_seen[name] = {"status": response.status_code, **response.json()}
            except Exception as error:
                health_seen[name] = {"status": None, "error": str(error)}

        async def restart_redis():
            procs["redis"].stop(signal.SIGKILL)
            await asyncio.sleep(args.down)
            await health("Redis restarted")
            procs["redis"].start()

        async def kill_worker():
            procs["worker"].stop(signal.SIGKILL)
            await asyncio.sleep(args.down)
            await health("worker killed (SIGKILL)")
            procs["worker"].start()

        async def restart_web():
            await asyncio.to_thread(web.stop)  # SIGTERM: uvicorn finishes what it serves (5 s at most)
            await asyncio.to_thread(web.start)

        await asyncio.sleep(args.between)
        await fault("Redis restarted", restart_redis)
        await fault("worker killed (SIGKILL)", kill_worker)
        await fault("web restarted", restart_web)
        tally.phase = "end"
        stop.set()
        await asyncio.sleep(0.5)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    for name in faults:
        faults[name]["errors"] = tally.errors_by_phase.get(name, 0) + tally.errors_by_phase.get(f"after {name}", 0)
    return {"tally": tally, "faults": faults, "updates": page_updates(tally, pages), "health": health_seen}


def page_updates(tally: Tally, pages: list[Page]) -> dict:
    """Per phase of the run: from an action answered to each other player's page showing it."""
    by_game = {}
    for page in pages:
        by_game.setdefault(page.player.game_id, []).append(page)
    phases = {}
    for game_id, version, actor, at, phase in tally.acted:
        if phase == "end":  # answered as the run stopped: the pages were closing
            continue
        row = phases.setdefault(phase, {"seconds": [], "never": 0})
        for page in by_game[game_id]:
            if page.player.user_id == actor:
                continue
            if version in page.seen_at:
                row["seconds"].append(page.seen_at[version] - at)
            else:
                row["never"] += 1
    return {
        phase: {**figures(row["seconds"]), "count": len(row["seconds"]), "never": row["never"]}
        for phase, row in phases.items()
    }


def _seconds(value) -> str:
    return f"{value:.2f} s" if value is not None else "-"


def check(tally: Tally, deadline_games: dict[int, int]) -> dict:
    """What the database holds: every acknowledged action, every due game expired once."""
    from games.models import Game, Move

    acted = set(Move.objects.filter(by_timeout=False).values_list("game_id", "version"))
    lost = [pair for pair in tally.acknowledged if pair not in acted]
    expired, missed, twice = 0, [], []
    for game_id, version in deadline_games.items():
        game = Game.objects.get(pk=game_id)
        timed_out_versions = set(Move.objects.filter(game=game, by_timeout=True).values_list("version", flat=True))
        if game.version == version:
            missed.append(game_id)
        elif game.version == version + 1 and timed_out_versions == {version + 1}:
            expired += 1
        else:
            twice.append((game_id, version, game.version))
    return {"lost": lost, "expired": expired, "missed": missed, "twice": twice}


def make_deadline_games(args, first_at: float, last_at: float) -> dict[int, int]:
    """Games no one plays, their deadlines spread over the faults; game id -> version before."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Game
    from games.services.games import game_create, game_join
    from games.tests.factories import UserFactory, deck_with_cards

    deck = deck_with_cards()
    due = {}
    for index in range(args.deadline_games):
        users = UserFactory.create_batch(3)
        game = game_create(creator=users[0], max_seats=3, pace="live", options={"deck": deck.pk})
        for user in users[1:]:
            game_join(game_id=game.pk, user=user, invite_code=game.invite_code)
        step = (last_at - first_at) / max(1, args.deadline_games - 1)
        Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() + timedelta(seconds=first_at + index * step))
        game.refresh_from_db()
        due[game.pk] = game.version
    return due


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.hostile:
        from hostile.runner import main as hostile_main

        return hostile_main(base=args.base, only=args.only, keep=args.keep)
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        print("Set DATABASE_URL to a PostgreSQL database (its name plus _bench is made and dropped).", file=sys.stderr)
        return 2
    workdir = Path(tempfile.mkdtemp(prefix="fabula-fault-"))
    bench_database = prepare_database(workdir)
    redis_url = f"redis://127.0.0.1:{args.redis_port}/0"
    os.environ.update(
        {
            "REDIS_URL": redis_url,
            "CELERY_BROKER_URL": f"redis://127.0.0.1:{args.redis_port}/1",
            "CELERY_VISIBILITY_TIMEOUT": "10",  # a killed worker's task comes back after this
            "FABULA_EXPIRY_INTERVAL_SECONDS": "1",
            "DJANGO_LOG_LEVEL": "WARNING",
        }
    )
    procs = {}
    try:
        import django

        django.setup()
        procs = processes(workdir, args)
        procs["redis"].start()
        print(f"setting up {args.games} games of {args.players} and {args.deadline_games} with deadlines ...")
        games = make_games(args)
        # Deadlines from the first fault to the last one's end.
        first_at = args.between
        last_at = args.between + 3 * (args.between + args.down + 10)
        deadline_games = make_deadline_games(args, first_at, last_at)
        for name in ("web", "worker", "beat"):
            procs[name].start()
        print(f"playing; a fault every {args.between:g} s (work folder {workdir}):", flush=True)
        outcome = asyncio.run(run(args, procs, games, deadline_games))
        # The last deadlines: let the worker reach them.
        give_up_at = time.monotonic() + 60
        result = check(outcome["tally"], deadline_games)
        while (result["missed"]) and time.monotonic() < give_up_at:
            time.sleep(1)
            result = check(outcome["tally"], deadline_games)
        return report(args, outcome, result)
    except Exception:
        for proc in procs.values():
            print(f"--- the end of {proc.name}'s log:\n{proc.log_tail()}", file=sys.stderr)
        raise
    finally:
        for proc in reversed(list(procs.values())):
            proc.stop()
        if bench_database:
            drop_database(bench_database)


def report(args, outcome: dict, result: dict) -> int:
    tally, faults = outcome["tally"], outcome["faults"]
    print()
    print(
        f"{args.games} live games of {args.players} played through the web pages; {len(tally.acknowledged)} actions "
        f"answered 200; {args.deadline_games} games due during the faults"
    )
    print(f"actions lost (answered 200, not in the database): {len(result['lost'])}")
    print(f"failed requests, each tried again: {sum(tally.failed.values())}")
    for what, count in sorted(tally.failed.items(), key=lambda item: -item[1]):
        print(f"  {count:6}  {what}")
    print(f"{'fault':28} {'down':>8} {'errors':>7} {'every page current after':>26}")
    for name, figures_ in faults.items():
        print(f"{name:28} {figures_['outage']:7.1f}s {figures_['errors']:7} {_seconds(figures_['catch_up']):>26}")
    print("pages updated, from an action answered to each other player's page showing it, by phase of the run:")
    print(f"  {'phase':34} {'count':>6} {'median':>8} {'p95':>8} {'max':>8} {'never':>6}")
    for phase, row in outcome["updates"].items():
        print(
            f"  {phase:34} {row['count']:6} {_seconds(row['median']):>8} {_seconds(row['p95']):>8} "
            f"{_seconds(row['max']):>8} {row['never']:6}"
        )
    for name, seen in outcome["health"].items():
        print(f"/healthz during '{name}': {json.dumps(seen)}")
    print(
        f"deadlines: {result['expired']} of {args.deadline_games} expired exactly once; "
        f"missed {len(result['missed'])}; moved more than once {len(result['twice'])}"
    )
    ok = (
        not result["lost"]
        and not result["missed"]
        and not result["twice"]
        and all(f["catch_up"] is not None for f in faults.values())
    )
    print(f"aim (no action lost, every deadline once, every page current again): {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
