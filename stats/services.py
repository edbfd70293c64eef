"""Every write of statistics: a finished game's records, ratings, totals and leaderboards.

Two ways in, one result (an abandoned game, ended before any round was scored, in neither):
- ``stats_game_finished`` (a Celery task after a game's commit) adds one game: its
  players' records and ratings, then their totals and leaderboard entries, then
  re-ranks the boards;
- ``stats_rebuild`` (nightly) derives everything again from the games.

Both use the same functions for each step, rate games in the order they finished
(finish time, then id), and compute the 30-day window from the ``now`` they are
given, so an update and a rebuild at the same moment leave identical rows (tested).
A game whose task arrives after a later game's (two games finishing together) has
its ratings replayed from that game on. Each kind's updates run one at a time,
under the lock of its ``Progress`` row.
"""

import gc
import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from operator import attrgetter
from typing import TypedDict, cast

from django.db import connection, transaction
from django.db.models import Q

from games.models import Game, Seat
from games.places import competition_places
from infrastructure.raw_sql import SqlValues, sql_values

from . import ratings
from .kinds import Contribution, KindStats, Totals, every_kind_stats
from .kinds import kind_stats as kind_stats_of
from .models import GameRecord, Leaderboard, LeaderboardEntry, Period, PlayerStats, Progress

log = logging.getLogger(__name__)

# A rebuild's report after each chunk: (kind, games done, games in all).
OnChunk = Callable[[str, int, int], None]

WINDOW = timedelta(days=30)
MIN_PEOPLE = 2  # people (not bots) in a game for it to be recorded and rated
CHUNK = 2000  # games read at a time by a rebuild
BATCH = 5000  # rows written per INSERT


@dataclass(slots=True)
class _Row:
    """A GameRecord before it becomes a model: light enough to hold 100,000s of them (not frozen: quicker made)."""

    game_id: int
    user_id: int
    kind: str
    finished_at: datetime
    seat: int
    players: int
    rank: int
    score: int
    won: bool
    resigned: bool
    rounds: int
    points: int
    counts: dict
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float

    def same_as(self, record: list) -> bool:
        """Whether a record read back (``RECORD_COLUMNS`` values, as Django reads them) holds this row."""
        return record == list(_in_column_order(self))

    def values(self, sql: SqlValues) -> tuple:
        """The row in ``RECORD_COLUMNS`` order, ready for the database (``sql``: ``sql_values()``, read once)."""
        row = list(_in_column_order(self))
        row[_FINISHED_AT] = sql.datetime(self.finished_at)
        row[_COUNTS] = sql.json(self.counts)
        return tuple(row)


# A row's fields in ``RECORD_COLUMNS`` order (the dataclass's own order), read in one C call.
_ROW_FIELDS = tuple(_Row.__dataclass_fields__)
_in_column_order = attrgetter(*_ROW_FIELDS)
_FINISHED_AT, _COUNTS = _ROW_FIELDS.index("finished_at"), _ROW_FIELDS.index("counts")


RECORD_COLUMNS = (
    "game",
    "user",
    "kind",
    "finished_at",
    "seat",
    "players",
    "rank",
    "score",
    "won",
    "resigned",
    "rounds",
    "points",
    "counts",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
)
STATS_COLUMNS = ("user", "kind", "games", "wins", "rounds", "points", "counts", "rating_mu", "rating_sigma")
ENTRY_COLUMNS = ("leaderboard", "user", "value", "sample", "hits")


def rows_insert(model, columns: tuple[str, ...], rows: Iterable[tuple]) -> None:
    """INSERT prepared rows, many to a statement (PostgreSQL: COPY), without a model instance each.

    A rebuild writes some 100,000s of rows, and building and preparing a model
    instance for each costs more than the writing. The values must be ready for
    the database (datetimes and JSON through ``infrastructure.raw_sql.sql_values``, as ``_Row.values``).
    Many rows to one INSERT, as ``bulk_create`` does: one row a statement costs a
    round trip each on PostgreSQL, where COPY streams them, parsing no statement.
    """
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    names = ", ".join(quote(model._meta.get_field(column).column) for column in columns)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor, cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        return
    head = f"INSERT INTO {table} ({names}) VALUES "
    one = f"({', '.join(['%s'] * len(columns))})"
    per_statement = max(1, min(BATCH, (connection.features.max_query_params or 30000) // len(columns)))
    batch: list[tuple] = []

    def flush(cursor):
        cursor.execute(head + ", ".join([one] * len(batch)), [value for row in batch for value in row])
        batch.clear()

    with connection.cursor() as cursor:
        for row in rows:
            batch.append(row)
            if len(batch) == per_statement:
                flush(cursor)
        if batch:
            flush(cursor)


def game_ranks(seats: list[tuple[int, bool]]) -> list[int]:
    """Ranks for (score, resigned) seats: higher score first, resigned seats after all others; ties share."""
    return competition_places([(resigned, -score) for score, resigned in seats])


# --- the steps both ways share ----------------------------------------------------------


class _SeatValues(TypedDict):
    """A seat of a finished game as the records read it."""

    game_id: int
    position: int
    user_id: int
    score: int
    has_resigned: bool
    is_winner: bool
    user__is_bot: bool


class _SeatRow(_SeatValues):
    """... with its place at the whole table."""

    place: int


class _GameRow(TypedDict):
    """A finished game as the records read it: the size of its table and the people it counts for."""

    id: int
    kind: str
    finished_at: datetime
    table_size: int
    seats: list[_SeatRow]


def _games(game_ids: Iterable[int]) -> list[_GameRow]:
    """The finished games among ``game_ids`` with their seats, in finish order."""
    ids = list(game_ids)
    games = list(
        Game.objects.filter(pk__in=ids, status=Game.Status.FINISHED, finished_at__isnull=False, abandoned=False)
        .order_by("finished_at", "id")
        .values("id", "kind", "finished_at")
    )
    seats: dict[int, list[_SeatValues]] = {game["id"]: [] for game in games}
    for seat in (
        Seat.objects.filter(game_id__in=list(seats))
        .order_by("game_id", "position")
        .values("game_id", "position", "user_id", "score", "has_resigned", "is_winner", "user__is_bot")
    ):
        seats[seat["game_id"]].append(seat)
    rows: list[_GameRow] = []
    for game in games:
        table = seats[game["id"]]
        # A person's place is at the whole table, bots and all ("Place 2 of 4" when a bot won) ...
        ranks = game_ranks([(seat["score"], seat["has_resigned"]) for seat in table])
        placed: list[_SeatRow] = [{**seat, "place": place} for seat, place in zip(table, ranks)]
        # ... but bots play without a record, rating or place on a board, and a person alone with bots is rated
        # against nobody: such a game is practice, not recorded (the player's page says so).
        people = [seat for seat in placed if not seat["user__is_bot"]]
        rows.append(
            {
                "id": game["id"],
                "kind": game["kind"],
                # The query keeps only games with a finish (finished_at__isnull=False), which mypy cannot follow.
                "finished_at": cast(datetime, game["finished_at"]),
                "table_size": len(table),
                "seats": people if len(people) >= MIN_PEOPLE else [],
            }
        )
    return rows


def _rate_games(
    games: list[_GameRow], contributions: dict[int, dict[int, Contribution]], current: dict[int, ratings.Rating]
) -> list[_Row]:
    """Records of ``games`` (in finish order), rating each from ``current``, which it moves on."""
    rows = []
    for game in games:
        seats = game["seats"]
        if not seats:
            continue
        ranks = game_ranks([(seat["score"], seat["has_resigned"]) for seat in seats])
        before = [current.get(seat["user_id"], ratings.INITIAL) for seat in seats]
        after = ratings.rate(before, ranks)
        by_seat = contributions.get(game["id"], {})
        for seat, (mu0, sigma0), (mu1, sigma1) in zip(seats, before, after):
            contribution = by_seat.get(seat["position"], Contribution())
            rows.append(
                _Row(
                    game_id=game["id"],
                    user_id=seat["user_id"],
                    kind=game["kind"],
                    finished_at=game["finished_at"],
                    seat=seat["position"],
                    players=game["table_size"],
                    rank=seat["place"],
                    score=seat["score"],
                    won=seat["is_winner"],
                    resigned=seat["has_resigned"],
                    rounds=contribution.rounds,
                    points=contribution.points,
                    counts=dict(sorted(contribution.counts.items())),
                    mu_before=mu0,
                    sigma_before=sigma0,
                    mu_after=mu1,
                    sigma_after=sigma1,
                )
            )
            current[seat["user_id"]] = (mu1, sigma1)
    return rows


def _add(totals: dict[int, Totals], user_id: int, won, rounds, points, counts) -> None:
    totals.setdefault(user_id, Totals()).add(won=won, rounds=rounds, points=points, counts=counts)


def _leaderboards(kind_stats: KindStats) -> dict[tuple[str, str], Leaderboard]:
    """The kind's board heads, by (board, period): one query, and a second the first time."""
    wanted = [(board.slug, period) for board in kind_stats.boards for period in Period.values]
    heads = {(b.board, b.period): b for b in Leaderboard.objects.filter(kind=kind_stats.kind)}
    if any(key not in heads for key in wanted):
        Leaderboard.objects.bulk_create(
            [Leaderboard(kind=kind_stats.kind, board=slug, period=period) for slug, period in wanted],
            ignore_conflicts=True,
        )
        heads = {(b.board, b.period): b for b in Leaderboard.objects.filter(kind=kind_stats.kind)}
    return {key: heads[key] for key in wanted}


def _entries(
    kind_stats: KindStats,
    boards: dict[tuple[str, str], Leaderboard],
    period: str,
    totals: dict[int, Totals],
    current: dict[int, ratings.Rating],
) -> list[tuple]:
    """Entry rows (``ENTRY_COLUMNS``) of the period's boards: pages number them as they read them."""
    entries = []
    for board in kind_stats.boards:
        leaderboard_id = boards[board.slug, period].pk
        for user_id, user_totals in totals.items():
            value = board.value(user_totals, current[user_id])
            if value is None:
                continue
            entries.append((leaderboard_id, user_id, value, board.sample(user_totals), board.hits(user_totals)))
    return entries


def _player_stats(kind: str, totals: dict[int, Totals], current: dict[int, ratings.Rating]) -> list[tuple]:
    to_json = sql_values().json
    return [
        (
            user_id,
            kind,
            t.games,
            t.wins,
            t.rounds,
            t.points,
            to_json(dict(sorted(t.counts.items()))),
            *current[user_id],
        )
        for user_id, t in totals.items()
    ]


def _lock(kind: str) -> Progress:
    Progress.objects.get_or_create(kind=kind)
    return Progress.objects.select_for_update().get(kind=kind)


# --- one game at a time ---------------------------------------------------------------------


def stats_game_finished(*, game_id: int, now: datetime) -> bool:
    """Add a finished game to its players' records, ratings and boards; False if there was nothing to do.

    Idempotent: a game already recorded changes nothing.
    """
    kind = (
        Game.objects.filter(pk=game_id, status=Game.Status.FINISHED, abandoned=False)
        .values_list("kind", flat=True)
        .first()
    )
    kind_stats = kind_stats_of(kind) if kind else None
    if kind is None or kind_stats is None:
        return False
    with transaction.atomic():
        _lock(kind)
        return _apply(kind_stats, [game_id], now)


def _apply(kind_stats: KindStats, game_ids: list[int], now: datetime) -> bool:
    """Record ``game_ids`` (those not yet recorded), re-rating later games if these finished before them.

    A fixed number of queries, whatever the number of games and players on the
    site (tested): the players' totals and ratings come from their ``PlayerStats``
    plus the new games, not from all their records.
    """
    kind = kind_stats.kind
    recorded = set(GameRecord.objects.filter(game_id__in=game_ids).values_list("game_id", flat=True))
    new = [game for game in _games(set(game_ids) - recorded) if game["kind"] == kind and game["seats"]]
    if not new:
        return False
    first = (new[0]["finished_at"], new[0]["id"])
    # A range on the time, then the tie by id here: the OR of both in SQL scanned far more.
    later = {
        game_id
        for game_id, finished_at in GameRecord.objects.filter(kind=kind, finished_at__gte=first[0])
        .values_list("game_id", "finished_at")
        .distinct()
        if (finished_at, game_id) > first
    }
    games = new
    if later:
        log.info(
            "games %s finished before %d recorded ones: replaying their ratings", [g["id"] for g in new], len(later)
        )
        GameRecord.objects.filter(game_id__in=later).delete()
        games = _games({game["id"] for game in new} | later)
    players = {seat["user_id"] for game in games for seat in game["seats"]}
    # Totals add up whatever the order: the later games' records are in them already.
    all_time: dict[int, Totals] = {}
    current: dict[int, ratings.Rating] = {}
    for user_id, games_, wins, rounds, points, counts, mu, sigma in PlayerStats.objects.filter(
        kind=kind, user_id__in=players
    ).values_list("user_id", "games", "wins", "rounds", "points", "counts", "rating_mu", "rating_sigma"):
        all_time[user_id] = Totals(games=games_, wins=wins, rounds=rounds, points=points, counts=dict(counts))
        current[user_id] = (mu, sigma)
    if later:
        current = _ratings_now(kind, players)  # as of the games before the first new one
    rows = _rate_games(games, kind_stats.contributions([game["id"] for game in games]), current)
    sql = sql_values()
    rows_insert(GameRecord, RECORD_COLUMNS, (row.values(sql) for row in rows))
    new_ids = {game["id"] for game in new}
    for row in rows:
        if row.game_id in new_ids:
            _add(all_time, row.user_id, row.won, row.rounds, row.points, row.counts)
    _refresh_players(kind_stats, players, all_time, current, now)
    return True


def _ratings_now(kind: str, users: set[int]) -> dict[int, ratings.Rating]:
    """Each user's rating after their latest recorded game of ``kind``.

    One query a user, each a step down that user's index: a single query over
    all of them was planned on the kind's index, reading every record of the kind.
    """
    current: dict[int, ratings.Rating] = {}
    for user_id in users:
        latest = (
            GameRecord.objects.filter(user_id=user_id, kind=kind)
            .order_by("-finished_at", "-game_id")
            .values_list("mu_after", "sigma_after")
            .first()
        )
        if latest is not None:
            current[user_id] = latest
    return current


def _refresh_players(
    kind_stats: KindStats,
    users: set[int],
    all_time: dict[int, Totals],
    current: dict[int, ratings.Rating],
    now: datetime,
) -> None:
    """Write the totals and entries of ``users``, and of whoever the 30-day window moved past.

    ``all_time``, ``current``: the users' totals and ratings, worked out by the caller.
    Their 30-day totals, and those of the players the window moved past, are read
    from their records in the window.
    """
    kind = kind_stats.kind
    boards = _leaderboards(kind_stats)
    window_start = now - WINDOW
    previous = boards[kind_stats.boards[0].slug, Period.LAST_30_DAYS].window_start
    moved: set[int] = set()
    if previous is not None and previous != window_start:
        low, high = sorted([previous, window_start])
        moved = (
            set(
                GameRecord.objects.filter(kind=kind, finished_at__gte=low, finished_at__lt=high)
                .values_list("user_id", flat=True)
                .distinct()
            )
            - users
        )

    recent: dict[int, Totals] = {}
    for user_id, won, rounds, points, counts in (
        GameRecord.objects.filter(kind=kind, user_id__in=users | moved, finished_at__gte=window_start)
        .order_by()
        .values_list("user_id", "won", "rounds", "points", "counts")
    ):
        _add(recent, user_id, won, rounds, points, counts)
    if moved:
        for user_id, mu, sigma in PlayerStats.objects.filter(kind=kind, user_id__in=moved).values_list(
            "user_id", "rating_mu", "rating_sigma"
        ):
            current[user_id] = (mu, sigma)

    PlayerStats.objects.filter(kind=kind, user_id__in=users).delete()
    board_ids = {period: [b.pk for (_, p), b in boards.items() if p == period] for period in Period.values}
    leaving = LeaderboardEntry.objects.filter(
        Q(leaderboard_id__in=board_ids[Period.ALL_TIME], user_id__in=users)
        | Q(leaderboard_id__in=board_ids[Period.LAST_30_DAYS], user_id__in=users | moved)
    )
    old_values: dict[int, int] = {board.pk: 0 for board in boards.values()}
    for board_id in leaving.values_list("leaderboard_id", flat=True):
        old_values[board_id] += 1
    leaving.delete()
    _write_players(kind_stats, boards, all_time, recent, current, now, old_values)


def _write_players(kind_stats, boards, all_time, recent, current, now, old_values=None) -> None:
    """Insert totals and entries (their old rows gone); note each board's size and moment.

    ``old_values``: per board, the number of entries taken away (None: the boards
    were emptied). Places are not stored: an entry's rank and position are counted
    when a page reads it (``selectors``), so a game that moves one player up a
    board writes that player's rows only, never the thousands below them.
    """
    rows_insert(PlayerStats, STATS_COLUMNS, _player_stats(kind_stats.kind, all_time, current))
    entries = _entries(kind_stats, boards, Period.ALL_TIME, all_time, current) + _entries(
        kind_stats, boards, Period.LAST_30_DAYS, recent, current
    )
    rows_insert(LeaderboardEntry, ENTRY_COLUMNS, entries)
    added: dict[int, int] = {board.pk: 0 for board in boards.values()}
    for board_id, *_ in entries:
        added[board_id] += 1
    for leaderboard in boards.values():
        left = 0 if old_values is None else old_values[leaderboard.pk]
        leaderboard.size = (0 if old_values is None else leaderboard.size) - left + added[leaderboard.pk]
    # One statement, written out: bulk_update's CASE expressions cost more to build than to run.
    table = connection.ops.quote_name(Leaderboard._meta.db_table)
    sizes = " ".join("WHEN %s THEN %s" for _ in boards)
    adapt = sql_values().datetime
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET size = CASE id {sizes} END, as_of = %s,"
            f" window_start = CASE WHEN period = %s THEN %s END WHERE id IN ({', '.join(['%s'] * len(boards))})",
            [
                *(value for board in boards.values() for value in (board.pk, board.size)),
                adapt(now),
                Period.LAST_30_DAYS.value,
                adapt(now - WINDOW),
                *(board.pk for board in boards.values()),
            ],
        )


# --- everything again ----------------------------------------------------------------------


def stats_rebuild(
    *, now: datetime, kinds: Iterable[str] | None = None, progress: OnChunk | None = None
) -> dict[str, int]:
    """Derive every record, rating, total and board again from the finished games; returns games per kind.

    ``progress(kind, games done, games in all)`` is called after each chunk of games.

    The games are read before the write transaction starts (so SQLite's writers
    wait only for the writing); games that finished meanwhile are then added the
    incremental way, inside it.
    """
    done = {}
    wanted = None if kinds is None else set(kinds)
    for kind_stats in every_kind_stats():
        if wanted is None or kind_stats.kind in wanted:
            done[kind_stats.kind] = _rebuild(kind_stats, now, progress)
    return done


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """No cyclic garbage collection while a rebuild builds its millions of small objects.

    They are plain dicts, lists and tuples without cycles, freed by their counts;
    but each allocation counts towards the collector's next pass, and every pass
    walked all that the rebuild holds so far: half of its time in Python.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def _reading() -> Iterator[None]:
    """The rebuild's reads: on PostgreSQL, in a transaction that prefers index probes to whole-table scans.

    Each chunk's rounds, table cards, votes and scores are a few percent of their
    tables: with the default ``random_page_cost`` (4, for spinning disks) the
    planner hashed whole tables (three scans, in parallel workers, per chunk),
    where following the rounds' index to their rows costs a quarter of it. 1.1 is the
    usual setting for SSDs and for data in memory; it lasts until the transaction ends.
    """
    if connection.vendor != "postgresql":
        yield
        return
    inside_another = connection.in_atomic_block
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL random_page_cost = 1.1")
        yield
        if inside_another:  # where SET LOCAL would outlast this block
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL random_page_cost TO DEFAULT")


def _records_replace(kind: str, rows: list[_Row]) -> None:
    """Make the kind's records ``rows``, writing only those that differ from the records there.

    A rebuild mostly finds what the updates wrote: rewriting all of them cost a
    DELETE, a COPY with its indexes, and at commit a foreign-key check on the
    game and the user of each row (on PostgreSQL, about 6 s of 225,000 records,
    where reading and comparing them costs about 2 s).
    """
    fresh = {(row.game_id, row.user_id): row for row in rows}
    stale: list[int] = []
    for pk, *record in (
        GameRecord.objects.filter(kind=kind).order_by().values_list("pk", *RECORD_COLUMNS).iterator(chunk_size=BATCH)
    ):
        row = fresh.get((record[0], record[1]))
        if row is not None and row.same_as(record):
            del fresh[record[0], record[1]]  # there already
        else:
            stale.append(pk)
    for start in range(0, len(stale), BATCH):
        GameRecord.objects.filter(pk__in=stale[start : start + BATCH]).delete()
    sql = sql_values()
    rows_insert(GameRecord, RECORD_COLUMNS, (row.values(sql) for row in fresh.values()))


def _rebuild(kind_stats: KindStats, now: datetime, progress: OnChunk | None = None) -> int:
    with _no_cycle_collection():
        return _rebuild_kind(kind_stats, now, progress)


def _rebuild_kind(kind_stats: KindStats, now: datetime, progress: OnChunk | None = None) -> int:
    kind = kind_stats.kind
    current: dict[int, ratings.Rating] = {}
    rows: list[_Row] = []
    with _reading():
        game_ids = list(
            Game.objects.filter(kind=kind, status=Game.Status.FINISHED, finished_at__isnull=False, abandoned=False)
            .order_by("finished_at", "id")
            .values_list("id", flat=True)
        )
        for start in range(0, len(game_ids), CHUNK):
            chunk = game_ids[start : start + CHUNK]
            rows.extend(_rate_games(_games(chunk), kind_stats.contributions(chunk), current))
            if progress is not None:
                progress(kind, start + len(chunk), len(game_ids))

    window_start = now - WINDOW
    all_time: dict[int, Totals] = {}
    recent: dict[int, Totals] = {}
    for row in rows:
        _add(all_time, row.user_id, row.won, row.rounds, row.points, row.counts)
        if row.finished_at >= window_start:
            _add(recent, row.user_id, row.won, row.rounds, row.points, row.counts)

    with transaction.atomic():
        if connection.vendor == "postgresql":
            # Its commit need not wait for the disk: a rebuild lost in a crash is run again.
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit = off")
        progress_row = _lock(kind)
        boards = _leaderboards(kind_stats)
        LeaderboardEntry.objects.filter(leaderboard__kind=kind).delete()
        PlayerStats.objects.filter(kind=kind).delete()
        _records_replace(kind, rows)
        _write_players(kind_stats, boards, all_time, recent, current, now)
        progress_row.rebuilt_at = now
        progress_row.save(update_fields=["rebuilt_at"])
        known = set(game_ids)
        missed = [
            game_id
            for game_id in Game.objects.filter(kind=kind, status=Game.Status.FINISHED, abandoned=False).values_list(
                "id", flat=True
            )
            if game_id not in known
        ]
        if missed:
            _apply(kind_stats, missed, now)
    if connection.vendor == "postgresql":
        # Fresh planner statistics for the rows just replaced, before the next update reads them:
        # with the old ones, an update's 30-day read took the kind's index past every record
        # where its players' index finds theirs (20 ms against 3 ms, until autovacuum came by).
        written = (GameRecord, PlayerStats, LeaderboardEntry)
        tables = ", ".join(connection.ops.quote_name(model._meta.db_table) for model in written)
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {tables}")
    return len(game_ids) + len(missed)
