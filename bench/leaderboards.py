"""Statistics at size: 10,000 players and 50,000 finished Storyteller games.

The benchmark fills a throw-away database with synthetic finished games (each
round scored by the engine's own ``score_round``, bulk-inserted), then reports:

- the full rebuild (``stats_rebuild``): records, ratings, totals and all six
  boards derived from every game;
- the per-game update (``stats_game_finished``), for a few games finishing after
  the rebuild;
- latency (median, p95, and this process's CPU time) and query counts of the
  leaderboard, player and replay pages against a trivial page (the rules page),
  all measured in the same run, in-process through Django's test client, signed
  in as a player with many games.

On a busy machine the CPU times say more than the wall times: with SQLite they
hold the database's work too (PostgreSQL's is in its own processes).

The database is an SQLite file in a temporary folder; with a PostgreSQL
DATABASE_URL, a database named after it with ``_bench_stats`` on the same
server, dropped at the end. Run from the repository root:

    .venv/bin/python bench/leaderboards.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fabula .venv/bin/python bench/leaderboards.py

Smaller runs: ``--players 1000 --games 5000``.
"""

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _postgres_database(url: str, reuse: bool) -> tuple[str, str]:
    """A database beside the one in ``url``, fresh unless ``reuse`` finds it; returns (its url, the admin url)."""
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/") + "_bench_stats"
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not (reuse and exists):
            connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
            connection.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}")), admin


def _drop_postgres_database(url: str, admin: str) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')


def _setup(workdir: Path, reuse: bool) -> tuple[str, str | None]:
    url = os.environ.get("DATABASE_URL", "")
    admin = None
    if url.startswith(("postgres://", "postgresql://")):
        url, admin = _postgres_database(url, reuse)
    else:
        url = f"sqlite:///{workdir / 'bench.sqlite3'}"
    os.environ["DATABASE_URL"] = url
    os.environ["FABULA_VAR_DIR"] = str(workdir)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.base"
    os.environ["DJANGO_DEBUG"] = "false"
    os.environ["DJANGO_LOG_LEVEL"] = "WARNING"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return url, admin


def _fill(players: int, games: int, rounds: int, seed: int):
    """Users, a deck, finished games with seats and rounds; returns (users, a heavy player, game ids)."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone

    from games.models import Game, Seat
    from stats.services import rows_insert
    from storyteller.engine.rules import score_round
    from storyteller.models import (
        Card,
        Deck,
        StorytellerRound,
        StorytellerRoundScore,
        StorytellerTableCard,
        StorytellerVote,
    )

    SEAT_COLUMNS = (
        "game",
        "user",
        "position",
        "colour",
        "score",
        "to_act",
        "is_absent",
        "has_resigned",
        "is_winner",
        "joined_at",
    )
    ROUND_COLUMNS = (
        "game",
        "number",
        "storyteller",
        "storyteller_seat",
        "clue",
        "storyteller_card",
        "skipped",
        "table",
        "points",
        "scores_after",
        "revealed_at",
    )
    TABLE_CARD_COLUMNS = ("round", "card", "owner", "position", "is_storyteller_card", "votes", "votes_cast")
    VOTE_COLUMNS = ("round", "voter", "table_card")
    SCORE_COLUMNS = ("round", "seat", "points", "score_after")

    rng = random.Random(seed)
    User = get_user_model()
    colours = ["red", "orange", "yellow", "green", "blue", "purple", "pink", "white"]
    User.objects.bulk_create(
        (
            User(
                username=f"p{i:05d}",
                display_name=f"Player {i}",
                email=f"p{i}@example.com",
                password="!",
                colour=rng.choice(colours),
            )
            for i in range(players)
        ),
        batch_size=2000,
    )
    user_ids = list(User.objects.order_by("pk").values_list("pk", flat=True))
    heavy = user_ids[0]  # sits in about ten times as many games as the others
    deck = Deck.objects.create(slug="bench", name="Bench")
    Card.objects.bulk_create(Card(deck=deck, image=f"cards/bench/{i}.webp", alt_text=f"Card {i}") for i in range(84))
    cards = list(Card.objects.filter(deck=deck).values_list("pk", flat=True))

    now = timezone.now()
    batch = 1000
    made = []
    for start in range(0, games, batch):
        specs = []
        for _ in range(min(batch, games - start)):
            size = rng.choice((3, 4, 4, 5, 5, 6))
            seated = rng.sample(user_ids, size)
            if heavy not in seated and rng.random() < 0.04:
                seated[0] = heavy
            finished_at = now - timedelta(seconds=rng.uniform(60, 365 * 86400))
            specs.append((seated, finished_at))
        rows = Game.objects.bulk_create(
            Game(
                kind="storyteller",
                status=Game.Status.FINISHED,
                phase="finished",
                phase_seconds=86400,
                max_seats=len(seated),
                creator_id=seated[0],
                options={"deck": deck.pk},
                round=rounds,
                visibility=Game.Visibility.PRIVATE if rng.random() < 0.1 else Game.Visibility.PUBLIC,
                started_at=finished_at - timedelta(days=3),
                finished_at=finished_at,
            )
            for seated, finished_at in specs
        )
        seats, played = [], []  # played: (game id, number, storyteller, owners, cards, votes, points, scores, at)
        adapt_time, adapt_json = connection.ops.adapt_datetimefield_value, connection.ops.adapt_json_value
        for game, (seated, finished_at) in zip(rows, specs):
            size = len(seated)
            scores = [0] * size
            for number in range(1, rounds + 1):
                storyteller = (number - 1) % size
                owners = [storyteller] + [s for s in range(size) if s != storyteller] * (2 if size == 3 else 1)
                rng.shuffle(owners)
                table_cards = rng.sample(cards, len(owners))
                votes = {}
                for seat in range(size):
                    if seat != storyteller:
                        votes[seat] = rng.choice([p + 1 for p, owner in enumerate(owners) if owner != seat])
                points = score_round(
                    storyteller=storyteller,
                    storyteller_position=owners.index(storyteller) + 1,
                    owners_by_position={p + 1: owner for p, owner in enumerate(owners)},
                    votes=votes,
                    three_players=size == 3,
                )
                points = {seat: points.get(seat, 0) for seat in range(size)}
                for seat, gained in points.items():
                    scores[seat] += gained
                played.append(
                    (
                        game.pk,
                        number,
                        storyteller,
                        owners,
                        table_cards,
                        votes,
                        points,
                        list(scores),
                        adapt_time(finished_at - timedelta(hours=rounds - number)),
                    )
                )
            top = max(scores)
            started_at = adapt_time(finished_at - timedelta(days=3))
            seats.extend(
                (
                    game.pk,
                    user_id,
                    position,
                    colours[position],
                    scores[position],
                    False,
                    False,
                    False,
                    scores[position] == top,
                    started_at,
                )
                for position, user_id in enumerate(seated)
            )
            made.append(game.pk)
        rows_insert(Seat, SEAT_COLUMNS, seats)
        batch_ids = [game.pk for game in rows]
        seat_ids = {
            (game_id, position): pk
            for pk, game_id, position in Seat.objects.filter(game_id__in=batch_ids).values_list(
                "pk", "game", "position"
            )
        }
        # The rows storyteller_record writes: the round (with its JSON record), its table, votes and scores.
        round_rows = []
        for game_id, number, storyteller, owners, table_cards, votes, points, scores, at in played:
            table = [
                {
                    "position": p + 1,
                    "card": card,
                    "owner": owner,
                    "voters": sorted(v for v, voted in votes.items() if voted == p + 1),
                }
                for p, (owner, card) in enumerate(zip(owners, table_cards))
            ]
            round_rows.append(
                (
                    game_id,
                    number,
                    storyteller,
                    seat_ids[(game_id, storyteller)],
                    f"clue {number}",
                    table_cards[owners.index(storyteller)],
                    False,
                    adapt_json(table, None),
                    adapt_json({str(seat): gained for seat, gained in points.items()}, None),
                    adapt_json({str(seat): score for seat, score in enumerate(scores)}, None),
                    at,
                )
            )
        rows_insert(StorytellerRound, ROUND_COLUMNS, round_rows)
        round_ids = {
            (game_id, number): pk
            for pk, game_id, number in StorytellerRound.objects.filter(game_id__in=batch_ids).values_list(
                "pk", "game", "number"
            )
        }
        rows_insert(
            StorytellerTableCard,
            TABLE_CARD_COLUMNS,
            (
                (
                    round_ids[(game_id, number)],
                    card,
                    seat_ids[(game_id, owner)],
                    p + 1,
                    owner == storyteller,
                    sum(1 for voted in votes.values() if voted == p + 1),
                    len(votes),
                )
                for game_id, number, storyteller, owners, table_cards, votes, _points, _scores, _at in played
                for p, (owner, card) in enumerate(zip(owners, table_cards))
            ),
        )
        laid = {
            (round_id, position): pk
            for pk, round_id, position in StorytellerTableCard.objects.filter(round__game_id__in=batch_ids).values_list(
                "pk", "round", "position"
            )
        }
        rows_insert(
            StorytellerVote,
            VOTE_COLUMNS,
            (
                (round_ids[(game_id, number)], seat_ids[(game_id, voter)], laid[(round_ids[(game_id, number)], voted)])
                for game_id, number, _storyteller, _owners, _cards, votes, _points, _scores, _at in played
                for voter, voted in votes.items()
            ),
        )
        rows_insert(
            StorytellerRoundScore,
            SCORE_COLUMNS,
            (
                (round_ids[(game_id, number)], seat_ids[(game_id, seat)], points[seat], score)
                for game_id, number, _storyteller, _owners, _cards, _votes, points, scores, _at in played
                for seat, score in enumerate(scores)
            ),
        )
        print(f"\r  games {start + len(rows):>7,} / {games:,}", end="", flush=True)
    print()
    return user_ids, heavy, made


def _server_cpu() -> float:
    """CPU seconds of this connection's PostgreSQL backend so far; 0 for SQLite or a server elsewhere.

    The database's share of the work, which this process's CPU time leaves out on PostgreSQL.
    """
    from django.db import connection

    if connection.vendor != "postgresql":
        return 0.0
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _measure(client, url: str, times: int) -> tuple[float, float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(3):  # warm caches and templates
        assert client.get(url).status_code == 200, url
    durations, cpu = [], []
    for _ in range(times):
        with CaptureQueriesContext(connection) as ctx:
            start, start_cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            durations.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        assert response.status_code == 200, (url, response.status_code)
    durations.sort()
    p95 = durations[min(len(durations) - 1, int(round(0.95 * (len(durations) - 1))))]
    return statistics.median(durations) * 1000, p95 * 1000, statistics.median(cpu) * 1000, len(ctx.captured_queries)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=8, help="rounds per game (a real game of 4 has about 15)")
    parser.add_argument("--requests", type=int, default=40, help="requests per page measured")
    parser.add_argument("--updates", type=int, default=20, help="games timed one at a time after the rebuild")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--keep", action="store_true", help="PostgreSQL: keep the filled database (to time it again with --reuse)"
    )
    parser.add_argument(
        "--reuse", action="store_true", help="PostgreSQL: time the database a --keep run filled, without filling it"
    )
    parser.add_argument("--no-pages", action="store_true", help="time the rebuild and the updates only")
    parser.add_argument(
        "--no-records",
        action="store_true",
        help="with --reuse: delete the statistics first, so the rebuild writes every record (as a site's first one)",
    )
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="fabula-bench-stats-"))
    url, admin = _setup(workdir, args.reuse)
    try:
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.db import connection, transaction
        from django.test import Client
        from django.urls import reverse
        from django.utils import timezone

        from games.models import Game
        from stats.models import GameRecord, Leaderboard, LeaderboardEntry, PlayerStats
        from stats.selectors import entries_placed
        from stats.services import stats_game_finished, stats_rebuild
        from storyteller.models import StorytellerRound

        print(
            f"Database: {connection.vendor} ({settings.DATABASES['default']['NAME']}); "
            f"{os.cpu_count()} CPUs, load average at start {os.getloadavg()[0]:.1f}"
        )
        started = time.perf_counter()
        if args.reuse and admin and Game.objects.exists():
            # The games of a --keep run; those it left out of the rebuild are left out again.
            user_ids = list(get_user_model().objects.order_by("pk").values_list("pk", flat=True))
            heavy = user_ids[0]
            game_ids = list(Game.objects.filter(kind="storyteller").order_by("pk").values_list("pk", flat=True))
            print("Reusing the filled database", end="")
        else:
            with transaction.atomic():  # one commit: SQLite writes much faster so
                user_ids, heavy, game_ids = _fill(args.players, args.games, args.rounds, args.seed)
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")  # planner statistics, as a live database keeps them
            print(f"Filled in {time.perf_counter() - started:.1f} s", end="")
        print(
            f": {len(user_ids):,} players, {Game.objects.count():,} finished games, "
            f"{StorytellerRound.objects.count():,} rounds"
        )

        # The last few games are left out of the rebuild, to time the per-game update with them.
        late = game_ids[-args.updates :]
        now = timezone.now()
        Game.objects.filter(pk__in=late).update(status=Game.Status.ACTIVE)
        if args.no_records:
            for model in (LeaderboardEntry, PlayerStats, GameRecord):
                model.objects.all().delete()
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
        # Wall time, and this process's CPU time: on a busy machine the second says more
        # (with SQLite it holds the database's work too; PostgreSQL's is in its own processes).
        server = _server_cpu()
        started, cpu = time.perf_counter(), time.process_time()
        stats_rebuild(now=now)
        rebuild, rebuild_cpu = time.perf_counter() - started, time.process_time() - cpu
        rebuild_server = _server_cpu() - server
        boards = {
            f"{b.board}/{b.period}": b.size
            for b in Leaderboard.objects.filter(kind="storyteller").order_by("board", "period")
        }
        print(
            f"Full rebuild: {rebuild:.1f} s, CPU {rebuild_cpu:.1f} s"
            + (f" + PostgreSQL's {rebuild_server:.1f} s " if connection.vendor == "postgresql" else " ")
            + f"({GameRecord.objects.count():,} records; board sizes {boards})"
        )
        updates, updates_cpu, updates_server = [], [], []
        for step, game_id in enumerate(late):
            Game.objects.filter(pk=game_id).update(
                status=Game.Status.FINISHED, finished_at=now + timedelta(seconds=step)
            )
            server = _server_cpu()
            started, cpu = time.perf_counter(), time.process_time()
            stats_game_finished(game_id=game_id, now=now + timedelta(seconds=step + 1))
            updates.append(time.perf_counter() - started)
            updates_cpu.append(time.process_time() - cpu)
            updates_server.append(_server_cpu() - server)
        print(
            f"Per-game update: median {statistics.median(updates) * 1000:.0f} ms "
            f"(CPU {statistics.median(updates_cpu) * 1000:.0f} ms"
            + (
                f" + PostgreSQL's {statistics.median(updates_server) * 1000:.0f} ms"
                if connection.vendor == "postgresql"
                else ""
            )
            + f"), max {max(updates) * 1000:.0f} ms "
            f"({len(updates)} games)"
        )

        print(f"Load average now: {os.getloadavg()[0]:.1f}")
        if args.no_pages:
            return 0
        client = Client()
        client.force_login(get_user(heavy))
        heavy_name = get_user(heavy).username
        heavy_games = GameRecord.objects.filter(user_id=heavy).count()
        me = entries_placed(LeaderboardEntry.objects.all()).get(
            leaderboard__board="rating", leaderboard__period="all", user_id=heavy
        )
        replay_game = (
            GameRecord.objects.filter(user_id=heavy, game__visibility="public")
            .values_list("game_id", flat=True)
            .first()
        )
        pages = [
            ("trivial: rules page", reverse("games:rules", args=["storyteller"])),
            ("leaderboard, rating, page 1", reverse("stats:leaderboard", args=["storyteller", "rating"])),
            (
                f"leaderboard, rating, page of me (#{me.rank})",
                reverse("stats:leaderboard", args=["storyteller", "rating"]) + f"?page={-(-me.position // 50)}",
            ),
            (
                "leaderboard, wins, last 30 days",
                reverse("stats:leaderboard", args=["storyteller", "wins"]) + "?period=30d",
            ),
            ("leaderboard, best storyteller", reverse("stats:leaderboard", args=["storyteller", "storyteller"])),
            (f"player page ({heavy_games} games), page 1", reverse("stats:player", args=[heavy_name])),
            ("player page, page 5", reverse("stats:player", args=[heavy_name]) + "?page=5"),
            (
                f"player page of another ({GameRecord.objects.filter(user_id=user_ids[-1]).count()} games)",
                reverse("stats:player", args=[get_user(user_ids[-1]).username]),
            ),
            (f"replay ({args.rounds} rounds)", reverse("stats:replay", args=[replay_game])),
        ]
        print(f"\nPages, signed in, {args.requests} requests each (in-process test client):")
        print(f"  {'page':<44} {'median ms':>10} {'p95 ms':>8} {'CPU ms':>8} {'queries':>8}")
        for label, page_url in pages:
            median, p95, cpu, queries = _measure(client, page_url, args.requests)
            print(f"  {label:<44} {median:>10.1f} {p95:>8.1f} {cpu:>8.1f} {queries:>8}")
        print(f"Load average at the end: {os.getloadavg()[0]:.1f}")
        return 0
    finally:
        from django.db import connections

        connections.close_all()
        if admin and not (args.keep or args.reuse):
            _drop_postgres_database(url, admin)
        shutil.rmtree(workdir, ignore_errors=True)


def get_user(pk):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(pk=pk)


if __name__ == "__main__":
    sys.exit(main())
