"""Every read of statistics: replays, player profiles and leaderboards.

Each page reads a fixed number of queries, whatever the number of rounds, games
or players behind it (the tests count them).
"""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery, Window
from django.db.models.functions import Coalesce, RowNumber
from django.http import Http404

from accounts.text import text_storable
from games import kinds
from games.models import Game, Move, Seat
from games.selectors.reliability import games_finished_count, reliability_of
from games.selectors.timeouts import timeout_text

from . import ratings
from .charts import Series
from .kinds import Board, Totals, board_of, kind_stats
from .kinds import kind_stats as _kind_stats
from .models import GameRecord, Leaderboard, LeaderboardEntry, Period, PlayerStats

LEADERBOARD_PAGE_SIZE = 50
PROFILE_PAGE_SIZE = 20


# --- replays ---------------------------------------------------------------------------


def game_replay(*, game: Game, seats: list[Seat]) -> dict:
    """The replay of a game the viewer may see (``games.selectors.games.game_get_for_viewer`` says who)."""
    presentation = game.game_kind.presentation
    replay = presentation.replay(game=game, seats=seats)
    if replay is not None:  # each round with what its deadlines did
        timeouts = replay_timeouts(game=game, seats=seats)
        for round_ in replay.get("rounds", ()):
            round_["timeouts"] = timeouts.get(round_.get("number"), [])
    if replay is None or not presentation.templates.replay:
        raise Http404("no replay for this kind of game")
    return replay | {
        "template": presentation.templates.replay,
        "with_bots": any(seat.user.is_bot for seat in seats),
        "scores": replay_scores(replay),
    }


def replay_scores(replay: dict) -> dict:
    """Each player's score from the start (0) and after each round of a replay, for its chart and table.

    ``{"x": [0, 1, ...], "players": [...], "rows": [{"number", "scores"}], "series": [Series]}``;
    read from the rounds' standings, no query. A score missing from a round stays as it was.
    """
    players = replay.get("players", [])
    current = {player["seat"]: 0 for player in players}
    rows = []
    for round_ in replay.get("rounds", ()):
        for standing in round_.get("standings", ()):
            if standing.get("seat") in current:
                current[standing["seat"]] = standing["score"]
        rows.append({"number": round_["number"], "scores": [current[player["seat"]] for player in players]})
    series = [
        Series(name=player["name"], colour=player["colour"], values=[0, *(row["scores"][index] for row in rows)])
        for index, player in enumerate(players)
    ]
    return {"x": [0, *(row["number"] for row in rows)], "players": players, "rows": rows, "series": series}


def replay_timeouts(*, game: Game, seats: list[Seat]) -> dict[int, list[str]]:
    """What each missed deadline did, round by round, in words ("Ada ran out of time..."): one query."""
    names = {seat.pk: seat.user.name for seat in seats}
    texts: dict[int, list[str]] = {}
    for round_number, seat_id, payload in (
        Move.objects.filter(game=game, by_timeout=True).order_by("id").values_list("round", "seat_id", "payload")
    ):
        texts.setdefault(round_number, []).append(timeout_text(game, payload, names.get(seat_id, "?")))
    return texts


# --- profiles -------------------------------------------------------------------------------


@dataclass(frozen=True)
class KindProfile:
    kind: str
    label: str
    games: int
    wins: int
    rounds: int
    points: int
    points_per_round: float | None
    rating: int  # as people read it (``ratings.shown``)
    rating_mu: float
    rating_sigma: float
    figures: list
    ranks: list  # [(board, period label, entry)]
    history: "KindHistory | None" = None  # the latest games, for the charts (``player_history``)


HISTORY_GAMES = 30  # games of each kind in a player's charts


@dataclass(frozen=True)
class KindHistory:
    """A player's latest games of one kind, oldest first: each with its points per round and the rating after it.

    ``games``: dicts of ``number`` (1 for the oldest shown), ``game_id``, ``finished_at``,
    ``points``, ``rounds``, ``points_per_round`` (None without a round) and ``rating`` (as people read it,
    ``ratings.shown``); ``rating_before``: the rating before the oldest of them.
    """

    games: list[dict]
    rating_before: int


def player_get(*, username: str):
    if not text_storable(username):  # no one's name, and PostgreSQL takes no NUL to look for one
        raise Http404("no such player")
    try:
        return get_user_model().objects.get(username=username, is_active=True)
    except get_user_model().DoesNotExist:
        raise Http404("no such player") from None


def player_abandoned_count(*, player) -> int:
    """How many of the player's games ended before any round was scored: abandoned, so not in their records."""
    return Seat.objects.filter(user=player, game__status=Game.Status.FINISHED, game__abandoned=True).count()


def _practice_games(*, player) -> QuerySet:
    """The player's finished games with fewer than two people at the table (a person alone with bots): played,
    but practice, so not in their records, ratings or places (``services.MIN_PEOPLE``)."""
    from .services import MIN_PEOPLE

    return (
        Game.objects.filter(
            status=Game.Status.FINISHED, abandoned=False, pk__in=Seat.objects.filter(user=player).values("game_id")
        )
        .annotate(people=Count("seats", filter=Q(seats__user__is_bot=False)))
        .filter(people__lt=MIN_PEOPLE)
    )


def player_practice_count(*, player) -> int:
    """How many of the player's finished games were practice (``_practice_games``)."""
    return _practice_games(player=player).count()


@dataclass(frozen=True)
class PracticeGame:
    """A practice game on the player's page: its place among everyone at the table (bots too) and its points."""

    game_id: int
    kind: str
    finished_at: object
    rank: int
    players: int
    score: int
    won: bool


def player_practice_games(*, player, viewer, limit: int = 10) -> list[PracticeGame]:
    """The player's latest practice games, newest first, that the viewer may see (a private one only by its
    players): a newcomer's first games, alone with bots, are on their page though they count for nothing."""
    games = _practice_games(player=player)
    if not (viewer.is_authenticated and viewer.pk == player.pk):
        visible = Q(visibility=Game.Visibility.PUBLIC)
        if viewer.is_authenticated:
            visible |= Q(Exists(Seat.objects.filter(game=OuterRef("pk"), user=viewer)))
        games = games.filter(visible)
    chosen = list(games.order_by("-finished_at", "-pk").values("pk", "kind", "finished_at")[:limit])
    scores: dict[int, list[tuple[int, int, bool]]] = {}
    for seat in Seat.objects.filter(game_id__in=[game["pk"] for game in chosen]).values(
        "game_id", "user_id", "score", "is_winner"
    ):
        scores.setdefault(seat["game_id"], []).append((seat["user_id"], seat["score"], seat["is_winner"]))
    practice = []
    for game in chosen:
        table = scores.get(game["pk"], [])
        mine = next(((score, won) for user_id, score, won in table if user_id == player.pk), None)
        if mine is None:
            continue
        practice.append(
            PracticeGame(
                game_id=game["pk"],
                kind=game["kind"],
                finished_at=game["finished_at"],
                rank=1 + sum(1 for _, score, _ in table if score > mine[0]),
                players=len(table),
                score=mine[0],
                won=mine[1],
            )
        )
    return practice


def player_games(*, player, viewer, page) -> Page:
    """The player's finished games, newest first, with their result; a private game only to its players.

    Each record on the page carries ``table``: every player's record in that game.
    """
    # The game's visibility comes with the page's rows (select_related), not as an
    # annotation: the paginator's count then needs no join on the player's own page.
    records = _visible_to(
        GameRecord.objects.filter(user=player)
        .select_related("game")
        .only("game_id", "kind", "finished_at", "rank", "players", "score", "won", "resigned", "game__visibility"),
        player=player,
        viewer=viewer,
    )
    records = records.order_by("-finished_at", "-game_id")
    page_obj = Paginator(records, PROFILE_PAGE_SIZE).get_page(page)
    tables: dict[int, list[GameRecord]] = {}
    game_ids = [record.game_id for record in page_obj]
    if game_ids:
        for other in (
            GameRecord.objects.filter(game_id__in=game_ids).select_related("user").order_by("game_id", "rank", "seat")
        ):
            tables.setdefault(other.game_id, []).append(other)
    # The games on the page that bots played in: marked, as their records rank the people only.
    with_bots = set(
        Seat.objects.filter(game_id__in=game_ids, user__is_bot=True).values_list("game_id", flat=True)
        if game_ids
        else ()
    )
    for record in page_obj:
        record.with_bots = record.game_id in with_bots
        record.table = tables.get(record.game_id, [])
        record.visibility = record.game.visibility
    return page_obj


def _visible_to(records: QuerySet, *, player, viewer) -> QuerySet:
    """The player's ``records`` the viewer may see: all to the player, a private game's only to its players."""
    if viewer.is_authenticated and viewer.pk == player.pk:
        return records
    visible = Q(game__visibility=Game.Visibility.PUBLIC)
    if viewer.is_authenticated:
        visible |= Q(Exists(Seat.objects.filter(game=OuterRef("game"), user=viewer)))
    return records.filter(visible)


def player_history(*, player, viewer) -> dict[str, KindHistory]:
    """The player's latest ``HISTORY_GAMES`` games of each kind the viewer may see (as ``player_games``): one query.

    The ratings are the player's after each game, private games included (as the
    rating the page shows): a hidden game is left out of the list, not out of the rating.
    """
    latest = Window(RowNumber(), partition_by=[F("kind")], order_by=[F("finished_at").desc(), F("game_id").desc()])
    rows = (
        _visible_to(GameRecord.objects.filter(user=player), player=player, viewer=viewer)
        .annotate(latest=latest)
        .filter(latest__lte=HISTORY_GAMES)
        .values_list(
            "kind", "game_id", "finished_at", "points", "rounds", "mu_before", "sigma_before", "mu_after", "sigma_after"
        )
    )
    by_kind: dict[str, list[tuple]] = {}
    for row in rows:
        by_kind.setdefault(row[0], []).append(row)
    history = {}
    for kind, records in by_kind.items():
        records.sort(key=lambda row: (row[2], row[1]))
        history[kind] = KindHistory(
            games=[
                {
                    "number": number,
                    "game_id": game_id,
                    "finished_at": finished_at,
                    "points": points,
                    "rounds": rounds,
                    "points_per_round": points / rounds if rounds else None,
                    "rating": ratings.shown(ratings.ordinal(mu, sigma)),
                }
                for number, (_kind, game_id, finished_at, points, rounds, _mu0, _sigma0, mu, sigma) in enumerate(
                    records, start=1
                )
            ],
            rating_before=ratings.shown(ratings.ordinal(records[0][5], records[0][6])),
        )
    return history


def player_profile(*, player) -> list[KindProfile]:
    """The player's statistics and leaderboard places, per kind of game: two queries."""
    entries: dict[str, list] = {}
    for entry in entries_placed(LeaderboardEntry.objects.filter(user=player).select_related("leaderboard")):
        entries.setdefault(entry.leaderboard.kind, []).append(entry)
    profiles = []
    for stats in PlayerStats.objects.filter(user=player).order_by("kind"):
        game_kind = kinds.get(stats.kind)
        kind_stats = _kind_stats(stats.kind)
        if game_kind is None or kind_stats is None:
            continue
        totals = Totals(
            games=stats.games, wins=stats.wins, rounds=stats.rounds, points=stats.points, counts=stats.counts
        )
        places = []
        for board in kind_stats.boards:
            for period in Period:
                entry = next(
                    (
                        e
                        for e in entries.get(stats.kind, [])
                        if e.leaderboard.board == board.slug and e.leaderboard.period == period
                    ),
                    None,
                )
                if entry is not None:
                    page = -(-entry.position // LEADERBOARD_PAGE_SIZE)
                    places.append({"board": board, "period": period, "entry": entry, "page": page})
        profiles.append(
            KindProfile(
                kind=stats.kind,
                label=game_kind.label,
                games=stats.games,
                wins=stats.wins,
                rounds=stats.rounds,
                points=stats.points,
                points_per_round=stats.points / stats.rounds if stats.rounds else None,
                rating=ratings.shown(ratings.ordinal(stats.rating_mu, stats.rating_sigma)),
                rating_mu=stats.rating_mu,
                rating_sigma=stats.rating_sigma,
                figures=kind_stats.figures(totals),
                ranks=places,
            )
        )
    return profiles


# --- leaderboards ------------------------------------------------------------------------------


def entries_placed(entries: QuerySet) -> QuerySet:
    """``entries`` with their ``rank`` (shared by equal values) and ``position`` (a unique place) on their board.

    Each is a count along the board's index: the rank counts the entries of
    higher values, the position adds those of the same value ahead (more sample,
    then a lower user id). For a few entries (a player's own), not for a page of
    them (``leaderboard_page`` numbers those from the first).
    """
    board = LeaderboardEntry.objects.filter(leaderboard=OuterRef("leaderboard")).order_by().values("leaderboard")

    def count(entries: QuerySet):
        return Coalesce(Subquery(entries.annotate(n=Count("pk")).values("n")), 0)

    value, sample = OuterRef("value"), OuterRef("sample")
    tied_ahead = board.filter(Q(sample__gt=sample) | Q(sample=sample, user__lt=OuterRef("user")), value=value)
    above = count(board.filter(value__gt=value))
    return entries.annotate(rank=above + 1, position=above + count(tied_ahead) + 1)


def leaderboard_order(entries: QuerySet) -> QuerySet:
    """A board's entries in their places (the board's index)."""
    return entries.order_by("-value", "-sample", "user_id")


@dataclass(frozen=True)
class LeaderboardView:
    kind: str
    board: Board
    period: str
    boards: tuple[Board, ...]
    size: int
    as_of: object
    page: int
    pages: int
    entries: list[LeaderboardEntry]
    mine: LeaderboardEntry | None
    my_page: int | None


def leaderboard_page(*, kind: str, board: str, period: str, page, viewer) -> LeaderboardView:
    """One page of a precomputed board and the viewer's own entry: four queries (five for the rating, whose
    estimates show in a tooltip), whatever the board's size.

    The page's entries are numbered from the first one's rank (one count): a rank
    changes only where the value does, and then it is the position.
    """
    stats = kind_stats(kind)
    definition = board_of(kind, board)
    if stats is None or definition is None or period not in Period.values:
        raise Http404("no such leaderboard")
    head = Leaderboard.objects.filter(kind=kind, board=board, period=period).first()
    size = head.size if head else 0
    pages = max(1, -(-size // LEADERBOARD_PAGE_SIZE))
    try:
        number = min(max(int(page), 1), pages)
    except (TypeError, ValueError):
        number = 1
    entries, mine = [], None
    if head is not None:
        first = (number - 1) * LEADERBOARD_PAGE_SIZE
        entries = list(
            leaderboard_order(LeaderboardEntry.objects.filter(leaderboard=head).select_related("user"))[
                first : first + LEADERBOARD_PAGE_SIZE
            ]
        )
        if entries:
            above = LeaderboardEntry.objects.filter(leaderboard=head, value__gt=entries[0].value).count()
        previous = None
        for offset, entry in enumerate(entries):
            entry.position = first + offset + 1
            if previous is None:
                entry.rank = above + 1
            elif entry.value == previous.value:
                entry.rank = previous.rank
            else:
                entry.rank = entry.position
            previous = entry
        if definition.style == "rating":  # the estimate behind each rating, for its tooltip
            estimates = {
                user_id: (mu, sigma)
                for user_id, mu, sigma in PlayerStats.objects.filter(
                    kind=kind, user_id__in=[entry.user_id for entry in entries]
                ).values_list("user_id", "rating_mu", "rating_sigma")
            }
            for entry in entries:
                entry.rating_mu, entry.rating_sigma = estimates.get(entry.user_id, (None, None))
        if viewer.is_authenticated:
            mine = entries_placed(LeaderboardEntry.objects.filter(leaderboard=head, user=viewer)).first()
    return LeaderboardView(
        kind=kind,
        board=definition,
        period=period,
        boards=stats.boards,
        size=size,
        as_of=head.as_of if head else None,
        page=number,
        pages=pages,
        entries=entries,
        mine=mine,
        my_page=-(-mine.position // LEADERBOARD_PAGE_SIZE) if mine else None,
    )


def player_record(*, username: str, now) -> dict:
    """``GET /players/{username}``: the player's best rating, games finished and reliability (issue 38); 404 for no
    such player or a deleted one."""
    player = player_get(username=username)
    if player.deleted_at is not None:
        raise Http404("no such player")
    record = reliability_of(user=player, now=now)
    ratings_shown = [
        ratings.shown(ratings.ordinal(mu, sigma))
        for mu, sigma in PlayerStats.objects.filter(user=player).values_list("rating_mu", "rating_sigma")
    ]
    return {
        "username": player.username,
        "rating": max(ratings_shown, default=None),
        "games_finished": games_finished_count(user=player),
        "reliability": {
            "finished_share": record.finished_share,
            "on_time_share": record.on_time_share,
            "games_counted": record.games_counted,
        },
    }
