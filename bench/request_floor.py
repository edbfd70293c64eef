"""The server CPU of one request, by what it asks, through the whole stack as ``bin/run`` serves it (uvicorn,
the pooled-threads handler, every middleware): the floor under each of an action's fetches (issue 41).

One player of a live 4-player game, on a kept-alive connection, asks the same thing ``--requests`` times in a
row; the server's CPU (``/proc``, every process of its session) before and after, divided by the requests:

- ``healthz``: Django's smallest answer (no session, no user), the floor of any request through Django;
- ``api view``, ``api 304``: the API's game view (the version unchanged: its JSON kept, not built again) and the
  same with ``If-None-Match`` (no body);
- ``board``, ``board 304``: the page's board fragment (kept likewise) and its 304;
- ``static``: a collected script, served by whitenoise (a middleware, before the rest of the chain).

Each figure is split between the server's event loop (its main thread) and its other threads (where Django runs).
``--profile DIR`` records each kind with py-spy (``PY_SPY`` names it when it is not on the PATH; as root).

    .venv/bin/python bench/request_floor.py [--requests 2000] [--rounds 3]
"""

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.live_latency import cpu_seconds, make_games, stat_cpu_seconds, throwaway_site  # noqa: E402


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000, help="requests of each kind a round (2000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the median is reported (3)")
    parser.add_argument("--only", action="append", help="only this kind of request (again for more)")
    parser.add_argument("--profile", type=Path, help="record each kind's rounds with py-spy into this folder")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    os.environ["FABULA_API_RATES"] = "requests=1000000/60"  # one client asks thousands of times a minute here
    with throwaway_site("fabula-floor-") as (workdir, servers):
        import django

        django.setup()
        import httpx
        from django.core.management import call_command

        from games.tests.live.server import AsgiServer, free_port

        player = make_games(argparse.Namespace(games=1, players=4, servers=1))[0][1]
        call_command("collectstatic", interactive=False, verbosity=0)
        server = AsgiServer(env=dict(os.environ), port=free_port(), log_path=workdir / "server.log")
        servers.append(server)
        server.start()
        cookie = {"Cookie": player.cookie}
        api = {"Authorization": f"Bearer {player.token}"}
        board = {**cookie, "HX-Request": "true"}
        with httpx.Client(base_url=server.url, timeout=30) as http:
            api_tag = http.get(f"/api/v1/games/{player.game_id}", headers=api).headers["ETag"]
            board_tag = http.get(f"/games/{player.game_id}/board/", headers=board).headers["ETag"]
            kinds = {
                "healthz": ("/healthz", {}, 200),
                "static": ("/static/js/live.js", {}, 200),
                "api view": (f"/api/v1/games/{player.game_id}", api, 200),
                "api 304": (f"/api/v1/games/{player.game_id}", {**api, "If-None-Match": api_tag}, 304),
                "board": (f"/games/{player.game_id}/board/", board, 200),
                "board 304": (f"/games/{player.game_id}/board/", {**board, "If-None-Match": board_tag}, 304),
            }
            kinds = {kind: asked for kind, asked in kinds.items() if not args.only or kind in args.only}
            figures: dict[str, list[float]] = {kind: [] for kind in kinds}
            split: dict[str, list[dict]] = {kind: [] for kind in kinds}
            for _round in range(args.rounds):
                for kind, (path, headers, status) in kinds.items():
                    for _warm in range(50):
                        http.get(path, headers=headers)
                    spy = profile(args.profile, kind, server.process.pid) if args.profile else None
                    before = cpu_seconds(server.process.pid)
                    threads_cpu(server.process.pid, 0)  # the threads' counts at the start
                    for _ in range(args.requests):
                        answer = http.get(path, headers=headers)
                        if answer.status_code != status:
                            raise SystemExit(f"{kind}: {answer.status_code}, not {status}: {answer.text[:200]}")
                    figures[kind].append((cpu_seconds(server.process.pid) - before) / args.requests)
                    split[kind].append(threads_cpu(server.process.pid, args.requests))
                    if spy is not None:
                        spy.send_signal(signal.SIGINT)
                        spy.wait(timeout=60)
        load = os.getloadavg()[0]
        print(f"server CPU a request, median of {args.rounds} rounds of {args.requests} (load {load:.1f})")
        print("| request | server CPU | on the event loop | on the request threads |")
        print("| --- | ---: | ---: | ---: |")
        for kind, values in figures.items():
            middle = sorted(range(len(values)), key=values.__getitem__)[len(values) // 2]
            loop, threads = (split[kind][middle].get(part, 0) for part in ("loop", "threads"))
            print(f"| {kind} | {values[middle] * 1e6:.0f} us | {loop} us | {threads} us |")
        return 0


_THREADS: dict = {}


def threads_cpu(pid: int, requests: int) -> dict:
    """Since the last call: the CPU (us a request) of the server's main thread (its event loop) and of its other
    threads (the requests' and the channel layer's), from /proc."""
    now = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            now[task.name] = stat_cpu_seconds(task / "stat")
        except FileNotFoundError:  # a thread gone meanwhile
            continue
    spent = {}
    for tid, value in now.items():
        used = value - _THREADS.get(tid, 0)
        if requests and used > 0:
            label = "loop" if tid == str(pid) else "threads"
            spent[label] = spent.get(label, 0) + round(used / requests * 1e6)
    _THREADS.clear()
    _THREADS.update(now)
    return spent


def profile(folder: Path, kind: str, pid: int) -> subprocess.Popen:
    """py-spy (on the PATH, or PY_SPY) recording the server while one kind of request is asked (as root)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{kind.replace(' ', '-')}.txt"
    spy = subprocess.Popen(
        [os.environ.get("PY_SPY", "py-spy"), "record", "--pid", str(pid), "--subprocesses", "--rate", "1000",
         "--format", "raw", "--nonblocking", "-o", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    time.sleep(1)  # py-spy attached
    return spy


if __name__ == "__main__":
    sys.exit(main())
