"""Many simultaneous loads of one game's page against a real server: does every one get an answer?

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fabula .venv/bin/python bench/burst.py
    .venv/bin/python bench/burst.py --loads 200 --pool-max 20     # the embedded default: SQLite

It makes a throw-away database (as bench/live_latency.py does), starts ``--servers``
server processes (uvicorn, as bin/run; --server daphne to compare) on it, opens
``--loads`` connections at once, spread over the servers, each asking for the same
public game's page, and reports the answers by status, their latency (median, p95,
max) and the PostgreSQL connections in use at the peak. The aim (issue 12): every
load answered 200, or 503 with Retry-After for one that waited too long for a
connection; no 500, no connection refused. It exits with 1 when the aim is missed.
"""

import argparse
import concurrent.futures
import http.client
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from live_latency import drop_database, prepare_environment  # noqa: E402


def load(port: int, path: str, start: threading.Event) -> tuple[int | str, float, bool]:
    start.wait()
    began = time.perf_counter()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        status, retry_after = response.status, response.getheader("Retry-After") is not None
        connection.close()
    except OSError as error:
        return type(error).__name__, time.perf_counter() - began, False
    return status, time.perf_counter() - began, retry_after


def peak_connections(stop: threading.Event, peak: list[int]) -> None:
    """The most connections PostgreSQL held at once while the loads ran."""
    import psycopg

    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as connection:
        while not stop.is_set():
            count = connection.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
            peak[0] = max(peak[0], count.fetchone()[0])
            time.sleep(0.02)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=200, help="simultaneous page loads (default 200)")
    parser.add_argument("--servers", type=int, default=1, help="server processes (default 1)")
    parser.add_argument("--server", choices=("uvicorn", "daphne"), default="uvicorn", help="the ASGI server")
    parser.add_argument("--pool-max", type=int, default=20, help="DATABASE_POOL_MAX of each server (default 20)")
    args = parser.parse_args(argv)

    workdir = Path(tempfile.mkdtemp(prefix="fabula-burst-"))
    dropped = prepare_environment(workdir)
    os.environ["DATABASE_POOL_MAX"] = str(args.pool_max)
    import django

    django.setup()
    from django.core.management import call_command

    from games.services.games import game_create, game_join
    from games.tests.factories import UserFactory, deck_with_cards
    from games.tests.live.server import AsgiServer, free_port

    servers = []
    try:
        call_command("migrate", verbosity=0)
        deck = deck_with_cards()
        users = UserFactory.create_batch(4)
        game = game_create(creator=users[0], max_seats=4, options={"deck": deck.pk})
        for user in users[1:]:
            game_join(game_id=game.pk, user=user)
        from django.db import connections

        connections.close_all()
        for number in range(args.servers):
            server = AsgiServer(
                env=dict(os.environ), port=free_port(), log_path=workdir / f"server{number}.log", server=args.server
            )
            server.start()
            servers.append(server)
        path = f"/games/{game.pk}/"
        start, stop, peak = threading.Event(), threading.Event(), [0]
        watcher = None
        if dropped:
            watcher = threading.Thread(target=peak_connections, args=(stop, peak))
            watcher.start()
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.loads) as pool:
            futures = [pool.submit(load, servers[n % len(servers)].port, path, start) for n in range(args.loads)]
            time.sleep(0.5)  # every thread waits at the line
            start.set()
            results = [future.result() for future in futures]
        stop.set()
        if watcher:
            watcher.join()
    finally:
        for server in servers:
            server.stop()
        if dropped:
            drop_database(dropped)

    by_status: dict = {}
    for status, _seconds, _retry in results:
        by_status[status] = by_status.get(status, 0) + 1
    times = sorted(seconds for _status, seconds, _retry in results)
    busy_without_retry = sum(1 for status, _s, retry in results if status == 503 and not retry)
    database = "PostgreSQL" if dropped else "SQLite"
    print(f"{args.loads} simultaneous loads of one game page, {args.servers} {args.server}, {database}")
    print(f"  load average at the end: {os.getloadavg()[0]:.2f}")
    print("  answers: " + ", ".join(f"{status}: {count}" for status, count in sorted(by_status.items(), key=str)))
    print(
        f"  latency: median {statistics.median(times) * 1000:.0f} ms, "
        f"p95 {times[int(len(times) * 0.95) - 1] * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms"
    )
    if dropped:
        print(f"  PostgreSQL connections at the peak: {peak[0]} (pool max {args.pool_max} per server)")
    met = set(by_status) <= {200, 503} and not busy_without_retry
    print("  aim met: every load 200, or 503 with Retry-After" if met else "  aim MISSED")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
