"""Pages whose cost should not grow with the site: the lobby and "My games".

Two throw-away sites in one run: a small one (``--small`` open public games, and a
player with that many games) and a big one (``--open`` open public games, and a
player with ``--mine`` games). Each page is loaded ``--loads`` times, in-process
through Django's test client, signed in; the report gives the median time, this
process's CPU time, the size and the queries of each page on each site, and the ratio
big / small (the aim: within 2x, under 30 ms and 60 KB).

SQLite file in a temporary folder by default; with a PostgreSQL DATABASE_URL, a
database named after it with ``_bench`` (dropped at the end). From the repository root:

    .venv/bin/python bench/pages.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fabula .venv/bin/python bench/pages.py
"""

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live_latency import drop_database, prepare_environment  # noqa: E402

AIM_MS, AIM_KB, AIM_RATIO = 30, 60, 2.0


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=10, help="games on the small site (10)")
    parser.add_argument("--open", type=int, default=1000, help="open public games on the big site (1000)")
    parser.add_argument("--mine", type=int, default=2000, help="the player's games on the big site (2000)")
    parser.add_argument("--loads", type=int, default=15, help="loads of each page (15)")
    return parser.parse_args(argv)


def fill(*, open_games: int, mine: int) -> object:
    """``open_games`` public games waiting for players, and a player sitting in ``mine`` games of every
    status (a third waiting for them); returns that player."""
    from django.utils import timezone

    from games.models import Game, Seat
    from games.tests.factories import UserFactory

    player, other, third = UserFactory(), UserFactory(), UserFactory()
    now = timezone.now()
    statuses = [Game.Status.ACTIVE, Game.Status.FINISHED, Game.Status.OPEN]
    games = Game.objects.bulk_create(
        [
            Game(
                kind="storyteller",
                creator=other,
                status=Game.Status.OPEN,
                visibility="public",
                max_seats=4,
                phase_seconds=3600,
            )
            for _ in range(open_games)
        ]
        + [
            Game(
                kind="storyteller",
                creator=player,
                status=statuses[i % 3],
                visibility="private",
                max_seats=3,
                phase_seconds=3600,
                round=1,
                deadline_at=now if statuses[i % 3] == Game.Status.ACTIVE else None,
            )
            for i in range(mine)
        ],
        batch_size=500,
    )
    seats = [Seat(game=game, user=other, position=0) for game in games[:open_games]]
    for i, game in enumerate(games[open_games:]):
        seats += [
            Seat(game=game, user=player, position=0, to_act=i % 3 == 0),
            Seat(game=game, user=other, position=1),
            Seat(game=game, user=third, position=2),
        ]
    Seat.objects.bulk_create(seats, batch_size=1000)
    return player


def measure(client, path: str, loads: int) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(path)  # warm: templates, translations
    walls, cpus = [], []
    for _ in range(loads):
        started, cpu = time.perf_counter(), time.process_time()
        response = client.get(path)
        walls.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu)
        assert response.status_code == 200, (path, response.status_code)
    with CaptureQueriesContext(connection) as queries:
        client.get(path)
    return {
        "ms": statistics.median(walls) * 1000,
        "cpu_ms": statistics.median(cpus) * 1000,
        "kb": len(response.content) / 1024,
        "queries": len(queries),
    }


def site(args, *, open_games: int, mine: int) -> dict:
    from django.core.management import call_command
    from django.test import Client

    call_command("flush", interactive=False, verbosity=0)
    player = fill(open_games=open_games, mine=mine)
    client = Client()
    client.force_login(player)
    return {
        page: measure(client, path, args.loads) for page, path in (("lobby", "/games/"), ("My games", "/games/mine/"))
    }


def main(argv=None) -> int:
    args = parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="fabula-bench-pages-"))
    bench_database = prepare_environment(workdir)
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        call_command("migrate", verbosity=0)
        small = site(args, open_games=args.small, mine=args.small)
        big = site(args, open_games=args.open, mine=args.mine)
        print(
            f"\n{connection.vendor}; small site: {args.small} open games, {args.small} of mine; "
            f"big site: {args.open} open games, {args.mine} of mine; median of {args.loads} loads"
        )
        print(f"{'page':10} {'site':6} {'ms':>7} {'cpu ms':>7} {'KB':>6} {'queries':>8}")
        met = True
        for page in small:
            for name, figures in (("small", small[page]), ("big", big[page])):
                f = figures
                print(f"{page:10} {name:6} {f['ms']:7.1f} {f['cpu_ms']:7.1f} {f['kb']:6.1f} {f['queries']:8d}")
            ratio = big[page]["ms"] / small[page]["ms"]
            ok = ratio <= AIM_RATIO and big[page]["ms"] < AIM_MS and big[page]["kb"] < AIM_KB
            met &= ok
            print(f"{page:10} big / small: {ratio:.2f}x {'(aim met)' if ok else '(aim MISSED)'}")
        return 0 if met else 1
    finally:
        if bench_database:
            drop_database(bench_database)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
