import datetime
import functools

from django.conf import settings
from django.db import connection
from django.db.models import Case, Count, Exists, F, IntegerField, OuterRef, Prefetch, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.http import Http404
from django.utils.dateparse import parse_datetime

from games import kinds
from games.models import Game, Seat, SeatHold
from infrastructure.caches import BoundedCache, register
from infrastructure.raw_sql import raw_sql


def game_visible_to(*, game: Game, user, seats=None, invite_code: str | None = None) -> bool:
    if game.visibility == Game.Visibility.PUBLIC:
        return True
    if invite_code and invite_code == game.invite_code:
        return True
    if user is None or not user.is_authenticated:
        return False
    seats = seats if seats is not None else game.seats.all()
    if any(seat.user_id == user.pk for seat in seats):
        return True
    # A player of the old table that a private rematch holds (or held) a seat for sees it without the code.
    return SeatHold.objects.filter(game=game, user=user).exists()


def _game_row(game_id, *columns: str) -> tuple | None:
    """``columns`` of one game by its id, or None for no such game (or no id at all).

    The hot path's first reads (every page, board, action and API view asks one): a primary-key
    lookup whose SQL is written once per set of columns, so no ORM query is built and compiled for
    it on every request.
    """
    game_id = as_game_id(game_id)
    if game_id is None:
        return None
    with connection.cursor() as cursor:
        cursor.execute(_row_sql(columns), [game_id])
        return cursor.fetchone()


def as_game_id(value) -> int | None:
    """``value`` as the id a game could have (read as the ORM reads a key: ``int()``), or None: no such key
    (SQLite cannot even take one past 2**63)."""
    try:
        key = int(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return key if 0 < key < 2**63 else None


@functools.cache
def _row_sql(columns: tuple[str, ...]) -> str:
    quote = connection.ops.quote_name
    return "SELECT {} FROM {} WHERE {} = %s".format(
        ", ".join(quote(column) for column in columns), quote(Game._meta.db_table), quote("id")
    )


register("games.selectors.games._row_sql", _row_sql.cache_clear)  # one text per set of columns the code asks


def game_version(*, game_id) -> tuple[int, datetime.datetime] | None:
    """The game's version and a stamp of its creation (which tells a game from an earlier one that had
    its id), or None for no such game."""
    row = _game_row(game_id, "version", "created_at")
    return None if row is None else (row[0], _instant(row[1]))


def _instant(created_at) -> datetime.datetime:
    """A creation time as the cursor gives it (PostgreSQL: aware; SQLite: naive in UTC, or its text), aware: the
    same instant compares equal however it came, to the model's own ``created_at`` too."""
    if isinstance(created_at, str):
        created_at = parse_datetime(created_at)
    return created_at.replace(tzinfo=datetime.UTC) if created_at.tzinfo is None else created_at


def kind_of(*, game_id):
    """The kind of a game (its rules read its actions), or None for no such game."""
    row = _game_row(game_id, "kind")
    return None if row is None else kinds.get(row[0])


class _Recent:
    """The games read lately, each with its seats, by id and version.

    A game changes only through the services, and each change moves its version, so a game and its seats
    read at the version the database has now are still right: a board, a page and an API view of a game
    that has not moved since (every player's refresh after an action, a reload, a bot's polling) reuse
    them instead of querying and building them again. Each process keeps its own, bounded. A player's new
    name, or a deleted account's, moves the version of each of their games too (``games_show_player_anew``);
    an entry is dropped after ``FABULA_RECENT_GAMES_TTL_SECONDS`` besides, for whatever else changes without a
    new version; at most ``FABULA_RECENT_GAMES_ENTRIES`` games are kept, the least recently used dropped first.
    """

    def __init__(self):
        # Sized from settings, bounded, emptied by infrastructure.caches.reset_process_caches.
        self.entries = BoundedCache(
            "recent_games", size=settings.FABULA_RECENT_GAMES_ENTRIES, ttl=settings.FABULA_RECENT_GAMES_TTL_SECONDS
        )

    def get(self, game_id: int, stamp: tuple) -> tuple[Game, list[Seat]] | None:
        entry = self.entries.get(game_id)
        if entry is None or entry[0] != stamp:
            return None
        # Copies: a caller may set attributes on what it is given; the next one must not see them.
        return _copy(entry[1]), [_copy(seat) for seat in entry[2]]

    def put(self, game_id: int, stamp: tuple, game: Game, seats: list[Seat]) -> None:
        self.entries.put(game_id, (stamp, _copy(game), [_copy(s) for s in seats]))

    def clear(self) -> None:
        self.entries.clear()


recent_games = _Recent()


def _copy(instance):
    """What ``copy.copy`` makes of a model instance (its own fields, its own state and cache of related objects,
    the related objects themselves shared): the state Django's ``Model.__getstate__`` hands to pickle and copy,
    without ``copy.copy``'s look-up of the model by name and check of the pickling Django version (half the
    cost; a board's request makes several)."""
    clone = object.__new__(type(instance))
    clone.__dict__.update(instance.__getstate__())
    return clone


# Each game's state as its engine reads it, beside the stored dict it was read from: one entry a game (its latest
# dict replaces the one before), emptied by the one reset.
game_states = BoundedCache("game_states", size=settings.FABULA_RECENT_GAMES_ENTRIES)


def game_state(game: Game):
    """The game's state as its kind's engine reads it (None before the game starts), parsed once for every view
    of this version. Read it, never change it: every viewer of the game is given the same one.

    An entry is given only for the very dict it was read from (``is``, not ``==``): the copies ``recent_games``
    hands out share their game's dict, and a game read again, or written by a service, has a new one, so an entry
    can never be older than the game it is asked for. An engine's state is a value (frozen dataclasses; each
    action makes a new one), and ``games/tests/api/test_view_bytes.py`` checks that no view changes it."""
    data = game.state
    if data is None:
        return None
    entry = game_states.get(game.pk)
    if entry is not None and entry[0] is data:
        return entry[1]
    state = game.game_kind.engine.from_dict(data)
    game_states.put(game.pk, (data, state))
    return state


def game_get_for_viewer(*, game_id, user) -> tuple[Game, list[Seat]]:
    """The game and its seats (with users), or 404 for a game this viewer may not see."""
    stamp = game_version(game_id=game_id)
    if stamp is None:
        raise Http404("no such game")
    found = recent_games.get(int(game_id), stamp)
    if found is None:
        game = next(iter(_game(int(game_id))), None)
        if game is None:
            raise Http404("no such game")
        seats = seats_of(game, with_users=True)
        # Who made the game (a view shows it): nearly always one of its seated users, read with them.
        creator = next((seat.user for seat in seats if seat.user_id == game.creator_id), None)
        game.creator = creator if creator is not None else game.creator  # else read now, kept with the game
        if game.version == stamp[0]:  # not moved on between the two reads
            recent_games.put(game.pk, stamp, game, seats)
    else:
        game, seats = found
    if not game_visible_to(game=game, user=user, seats=seats):
        raise Http404("no such game")
    return game, seats


def game_remember(game: Game, seats: list[Seat]) -> None:
    """After a service's commit: ``game`` and ``seats`` (with their users) as it wrote them are what a read
    would give now, so the views asked next (the actor's own answer first) start from them instead of
    reading the game again. Kept only if its creator is one of the seated users (a view shows who made the
    game); else the next read does it, as before. Call it only once the write has committed."""
    creator = next((seat.user for seat in seats if seat.user_id == game.creator_id), None)
    if creator is None or any(not _SEAT_USER.is_cached(seat) for seat in seats):
        return
    # The stamp ``game_version`` reads, made from the game itself (the same instant, aware either way).
    # (Should another commit have moved the game on meanwhile, this entry is simply not asked for.)
    stamp = (game.version, _instant(game.created_at))
    game = _copy(game)
    game.creator = creator
    recent_games.put(game.pk, stamp, game, seats)


@raw_sql(
    lambda sql, game_id: sql.select(Game, where=f"{sql.column(Game, 'pk')} = %s", params=[game_id]),
    model=Game,
)
def _game(game_id: int):
    return Game.objects.filter(pk=game_id)


def _seats_sql(sql, game_id):
    return sql.select(Seat, where=f"{sql.column(Seat, 'game')} = %s", params=[game_id], order_by=["position"])


@raw_sql(_seats_sql, model=Seat)
def _seats(game_id: int):
    return Seat.objects.filter(game_id=game_id).order_by("position")


@raw_sql(_seats_sql, model=Seat, related=["user"])
def _seats_with_users(game_id: int):
    return Seat.objects.filter(game_id=game_id).select_related("user").order_by("position")


def seats_of(game: Game, *, with_users: bool = False) -> list[Seat]:
    """The game's seats in seat order, each knowing its game (as ``game.seats.all()`` gives them), with their
    users loaded too if asked."""
    seats = list((_seats_with_users if with_users else _seats)(game.pk))
    for seat in seats:
        seat.game = game
    return seats


_SEAT_USER = Seat._meta.get_field("user")


def game_view(*, game: Game, seats: list[Seat], user) -> dict:
    """The whole game as this viewer may see it; the pages and the API render this."""
    view = game.game_kind.presentation.view(game=game, seats=seats, viewer=user)
    if game.abandoned:  # ended before any round was scored: nobody won it (``GameKind.round_scored``)
        view["winners"] = []
    view["rematch"] = game.rematch_id if game.status == Game.Status.FINISHED else None
    if game.status == Game.Status.OPEN:
        view.update(_holds_view(game, user))
    if view["rematch"] is not None:
        # Who started it, and where to join it: a private rematch's invite only for the old game's players.
        rematch = Game.objects.select_related("creator").filter(pk=view["rematch"]).first()
        if rematch is None:
            view["rematch"] = None
        else:
            view["rematch_by"] = rematch.creator.name
            if rematch.visibility == Game.Visibility.PUBLIC:
                view["rematch_url"] = rematch.get_absolute_url()
            elif view.get("you") is not None:
                view["rematch_invite_code"] = rematch.invite_code
                view["rematch_url"] = rematch.get_invite_url()
    return view


def _holds_view(game: Game, user) -> dict:
    """An open rematch's held seats, as ``user`` sees them: how many are held and until when, and whether one is
    this viewer's (or was, declined)."""
    holds = list(SeatHold.objects.filter(game=game).values_list("user_id", "declined_at"))
    held = [user_id for user_id, declined_at in holds if declined_at is None]
    viewer = user.pk if user is not None and user.is_authenticated else None
    return {
        "seats_held": len(held),
        "holds_until_at": game.holds_until_at.isoformat() if held and game.holds_until_at else None,
        "seat_held_for_you": viewer in held,
        "you_declined": any(user_id == viewer and declined_at for user_id, declined_at in holds),
    }


def games_held_for(*, user):
    """The open rematches that hold a seat for ``user`` (who has not taken or declined it), soonest to end first:
    "My games" shows them above the games the user sits in."""
    return (
        Game.objects.filter(
            status=Game.Status.OPEN,
            holds_until_at__isnull=False,
            holds__user=user,
            holds__declined_at__isnull=True,
        )
        .select_related("creator")
        .only("kind", "status", "holds_until_at", "creator", *(f"creator__{f}" for f in _PLAYER_NAME))
        .order_by("holds_until_at", "pk")
    )


_seat_count = Coalesce(
    Subquery(
        Seat.objects.filter(game=OuterRef("pk")).order_by().values("game").annotate(n=Count("pk")).values("n")[:1],
        output_field=IntegerField(),
    ),
    0,
)


# What a row of the lists shows, and no more: not a game's state nor a user's password (a game in
# play carries its whole state, many times the rest of the row).
_PLAYER_NAME = ("username", "display_name", "deleted_at")  # User.name
_LOBBY_COLUMNS = (
    "kind",
    "pace",
    "max_seats",
    "options",
    "created_at",
    "creator",
    *(f"creator__{f}" for f in _PLAYER_NAME),
)
_MINE_COLUMNS = ("kind", "status", "abandoned", "max_seats", "round", "is_paused", "deadline_at", "created_at")


def _chip_seats():
    """A game's seats as "My games" shows them (games.templatetags.game_lists.player_chips), in seat order."""
    return (
        Seat.objects.select_related("user")
        .only(
            "game", "position", "colour", "score", "to_act", "is_winner", "user", *(f"user__{f}" for f in _PLAYER_NAME)
        )
        .order_by("position")
    )


def games_open_public(*, exclude_user=None):
    """The public games waiting for players, newest first: a queryset, to page through."""
    games = (
        # A rematch is not in the lobby while it holds seats for the old table.
        Game.objects.filter(status=Game.Status.OPEN, visibility=Game.Visibility.PUBLIC, holds_until_at__isnull=True)
        .select_related("creator")
        .only(*_LOBBY_COLUMNS)
        # A subquery, not a GROUP BY over every open game: only the page's games are counted.
        .annotate(seated=_seat_count)
        .order_by("-created_at", "-pk")
    )
    if exclude_user is not None and exclude_user.is_authenticated:
        games = games.annotate(joined=Exists(Seat.objects.filter(game=OuterRef("pk"), user=exclude_user)))
    return games


def games_for_user(*, user, status: str | None = None):
    """Every game the user sits in, those waiting for the user first, then by deadline, finished ones newest
    first: a queryset, sorted by the database (so that a page of it costs the same however many games the user has).

    Read from the user's seats (an index on the seat's user), joined to their games: no subquery per game,
    and nothing of the games the user does not sit in. Each game's seats come prefetched (a page's
    ``seated`` is how many there are)."""
    games = (
        Game.objects.filter(seats__user=user)
        .exclude(status=Game.Status.CANCELLED)
        .annotate(
            my_turn=F("seats__to_act"),  # the same join: the user's own seat
            status_rank=Case(
                When(status=Game.Status.ACTIVE, then=Value(0)),
                When(status=Game.Status.OPEN, then=Value(1)),
                When(status=Game.Status.FINISHED, then=Value(2)),
                default=Value(3),
            ),
            no_deadline=Case(When(deadline_at__isnull=True, then=Value(1)), default=Value(0)),
            sort_at=Coalesce("deadline_at", "created_at"),
        )
        .only(*_MINE_COLUMNS)
        .prefetch_related(Prefetch("seats", queryset=_chip_seats()))
        # Finished games newest first (they have no deadline: by their start they came oldest first).
        .order_by("-my_turn", "status_rank", "no_deadline", F("finished_at").desc(nulls_last=True), "sort_at", "-pk")
    )
    if status:
        games = games.filter(status=status)
    return games


def games_listed(*, user, status: str | None = None, mine: bool = False, limit: int = 50) -> list[Game]:
    """A list of games for the API: the user's own (those a rematch holds a seat for them in included), or the
    public ones (open ones unless ``status`` says; not a rematch while it holds seats).

    Each comes with ``seated``, ``joined`` (the user has a seat), ``my_turn`` and ``seat_held`` (a seat is held
    for the user: join to take it); newest first.
    """
    seats = Seat.objects.filter(game=OuterRef("pk"), user=user)
    holds = SeatHold.objects.filter(
        game=OuterRef("pk"),
        user=user,
        declined_at__isnull=True,
        game__status=Game.Status.OPEN,
        game__holds_until_at__isnull=False,
    )
    if mine:
        games = Game.objects.filter(Exists(seats) | Exists(holds)).exclude(status=Game.Status.CANCELLED)
    else:
        games = Game.objects.filter(
            visibility=Game.Visibility.PUBLIC, status=status or Game.Status.OPEN, holds_until_at__isnull=True
        )
    if status:
        games = games.filter(status=status)
    games = (
        games.select_related("creator")
        .annotate(
            seated=Count("seats", distinct=True),
            joined=Exists(seats),
            my_turn=Exists(seats.filter(to_act=True)),
            seat_held=Exists(holds) if mine else Value(False),
        )
        .order_by("-created_at", "-pk")
    )
    return list(games[:limit])


# A newcomer's new game (issue 39): one that starts soon, live, with bots in the empty seats (as "Play now").
NEWCOMER_CREATE_DEFAULTS = {"pace": Game.Pace.LIVE, "max_seats": 4, "with_bots": True}


def has_played_with_others(*, user) -> bool:
    """Whether ``user`` finished a game (not abandoned) with at least one other person at the table (bots aside)."""
    others = Seat.objects.filter(game=OuterRef("pk"), user__is_bot=False).exclude(user=user)
    return (
        Game.objects.filter(status=Game.Status.FINISHED, abandoned=False, seats__user=user)
        .filter(Exists(others))
        .exists()
    )


def game_create_defaults(*, user) -> tuple[dict, dict]:
    """The new-game form's starting values for ``user``, and those of the kind's options form: a newcomer (no
    finished game with another person) gets a game that starts soon (``NEWCOMER_CREATE_DEFAULTS``); a player who
    has played with others gets the settings of the last game they created (kind, seats, pace, time per phase,
    who can join, time bank, reliability, bots, the kind's options); without one, the site's defaults."""
    if not has_played_with_others(user=user):
        return dict(NEWCOMER_CREATE_DEFAULTS), {}
    last = Game.objects.filter(creator=user).order_by("-created_at", "-pk").first()
    if last is None or kinds.get(last.kind) is None:
        return {}, {}
    initial = {
        "kind": last.kind,
        "max_seats": last.max_seats,
        "pace": last.pace,
        "visibility": last.visibility,
        "time_bank_hours": last.time_bank_seconds // 3600,
        "with_bots": last.seats.filter(user__is_bot=True).exists(),
    }
    if last.pace == Game.Pace.ASYNC and last.phase_seconds % 3600 == 0:
        initial["phase_hours"] = last.phase_seconds // 3600
    if last.min_reliability is not None:
        initial["min_reliability"] = round(last.min_reliability * 100)
    return initial, dict(last.options or {})
