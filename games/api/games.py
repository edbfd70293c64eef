"""Games: list, create, join, leave, start, look, act. Each handler makes one service or selector call."""

import typing
from functools import reduce
from operator import or_
from typing import TYPE_CHECKING, Annotated, Any, Literal

from django.http import Http404, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy
from ninja import Body, Query, Router, Status
from pydantic import Field, TypeAdapter, create_model

from games import kinds
from games.pages import cached_view, not_modified, tagged, view_etag
from games.selectors.games import game_get_for_viewer, game_view, games_listed, kind_of
from games.services.errors import GameError
from games.services.games import (
    game_act,
    game_create,
    game_decline,
    game_holds_open,
    game_join,
    game_leave,
    game_rematch,
    game_start,
    kind_get,
)
from games.services.weeks import nudge_send

from .encoding import summary_out, view_out
from .errors import errors
from .limits import rate_hit
from .schemas import GameCreateBase, GameList, GameSummary, JoinIn, LeaveOut, NudgeIn, NudgeOut, Within

router = Router(tags=["games"])

GAME = "/games/{id:game_id}"

# Built from the kinds registered (the URLconf, and so this module, loads after every app is ready).
KINDS = kinds.every()
# Types made at run time from the kinds registered: to mypy, any type.
KindSlug: Any = Literal[tuple(kind.slug for kind in KINDS)]
AnyGameView: Any = Annotated[reduce(or_, [kind.presentation.api_view for kind in KINDS]), Field(discriminator="kind")]


def _phases() -> tuple[str, ...]:
    """Every phase of every kind, as their views' ``phase`` literals name them, and a list's ``finished``."""
    phases: dict[str, None] = {}
    for kind in KINDS:
        for option in typing.get_args(kind.presentation.api_view.model_fields["phase"].annotation):
            phases.update(dict.fromkeys(typing.get_args(option)))
    return (*phases, "finished")


KindPhase: Any = Literal[_phases()]


# The lists' summaries: their ``kind`` one of the kinds registered, their ``phase`` one of theirs.
KindGameSummary = create_model(
    "GameSummary",
    __base__=GameSummary,
    kind=(KindSlug, ...),
    phase=(KindPhase | None, ...),
)
KindGameList = create_model("GameList", __base__=GameList, games=(list[KindGameSummary], ...))  # type: ignore[valid-type]


# From the fewest seats any kind takes to the most; each kind judges its own.
SEATS = (min(kind.min_seats for kind in KINDS), max(kind.max_seats for kind in KINDS))


def _create_fields() -> dict:
    """The create body's fields: which kind, and every kind's options, flat (each names its kind)."""
    fields: dict = {
        "kind": (
            str,
            Field(
                default_factory=kinds.default_slug,
                max_length=20,
                json_schema_extra={"enum": [kind.slug for kind in KINDS]},
                description=f"The kind of game (default `{kinds.default_slug()}`).",
            ),
        ),
        "seats": (
            Annotated[int, Within("bad_seats", gettext_lazy("A game is for %(min)d to %(max)d players."), *SEATS)],
            Field(
                default=4,
                description="How many players: "
                + "; ".join(f"`{kind.slug}` {kind.min_seats} to {kind.max_seats}" for kind in KINDS)
                + ". The game starts when the last seat is taken.",
            ),
        ),
    }
    for kind in KINDS:
        if kind.presentation.api_create_options is not None:
            for name, info in kind.presentation.api_create_options.model_fields.items():
                fields.setdefault(name, (info.annotation, info))
    return fields


if TYPE_CHECKING:

    class GameCreateIn(GameCreateBase):
        """What mypy can know of the model made below from the kinds registered: the base's fields and the kind."""

        kind: str

else:
    GameCreateIn = create_model("GameCreateIn", __base__=GameCreateBase, **_create_fields())
GameCreateIn.__doc__ = "A new game: its kind, seats, pace and visibility, and the kind's own options."


_VIEWS = TypeAdapter(AnyGameView)


def view_response(request, game_id, status: int = 200) -> HttpResponse:
    """The game as the request's user may see it: its JSON made as ninja makes an operation's answer (validated
    against the view's schema, the fields set only), but by pydantic's own serializer in one step, where ninja
    dumps to Python objects and then through ``json.dumps`` (about twice the cost, on every action and view).
    The JSON is what is kept for the version, so a view asked again is neither built nor checked again."""
    game, seats = game_get_for_viewer(game_id=game_id, user=request.user)
    extra = request.build_absolute_uri("/")  # its links are absolute
    if request.method == "GET":  # a view asked again at the version the client has: 304, no body
        etag = view_etag("api", request, game=game, extra=extra)
        unchanged = not_modified(request, etag)
        if unchanged is not None:
            return unchanged
    body = view_body(request, game=game, seats=seats, extra=extra)
    response = HttpResponse(body, status=status, content_type="application/json; charset=utf-8")
    return tagged(response, etag) if request.method == "GET" else response


def view_body(request, *, game, seats, extra: str | None = None) -> bytes:
    """The JSON of the game's view as the request's user sees it, kept for the version (``extra``: the site's
    address its links start with, the request's by default)."""
    return cached_view(
        request,
        game=game,
        seats=seats,
        build=lambda game, seats: _view_json(
            view_out(game_view(game=game, seats=seats, user=request.user), request=request), request
        ),
        extra=request.build_absolute_uri("/") if extra is None else extra,
    )


def _view_json(view: dict, request) -> bytes:
    return _VIEWS.dump_json(_VIEWS.validate_python(view, context={"request": request}), exclude_unset=True)


def _kind_of(game_id: int):
    """The kind of a game (404 for none): it reads the game's actions."""
    kind = kind_of(game_id=game_id)
    if kind is None:
        raise Http404("no such game")
    return kind


@router.get("/games", summary="List games", response={200: KindGameList, **errors(400, 401, 429)})
def games_list(
    request,
    status: Literal["open", "active", "finished"] | None = Query(
        None, description="Without `mine`: public games in this state (default `open`)."
    ),
    mine: bool = Query(False, description="Only the games you have a seat in."),
    limit: int = Query(50, ge=1, le=100),
):
    """Games to join (public, open), to watch, or your own; newest first."""
    games = games_listed(user=request.user, status=status, mine=mine, limit=limit)
    return {"games": [summary_out(game) for game in games]}


@router.post(
    "/games",
    summary="Create a game",
    response={201: AnyGameView, **errors(400, 401, 404, 409, 429)},
    exclude_unset=True,
)
def games_create(request, payload: GameCreateIn = Body(default_factory=GameCreateIn)):
    """Create a game of any kind; you take its first seat.

    Every field is optional; a kind's options apply to a game of that kind. A private game's view carries its
    `invite_code`.
    """
    kind = kind_get(payload.kind)
    create_options = kind.presentation.api_create_options
    own = set(create_options.model_fields) if create_options is not None else set()
    options = {key: value for key, value in payload.model_dump(include=own).items() if value is not None}
    game = game_create(
        creator=request.user,
        kind=payload.kind,
        max_seats=payload.seats,
        pace=payload.pace,
        phase_seconds=payload.phase_seconds,
        visibility=payload.visibility,
        options=options,
        time_bank_hours=payload.time_bank_hours,
        min_reliability=payload.min_reliability,
    )
    return view_response(request, game.pk, status=201)


@router.get(GAME, summary="See a game", response={200: AnyGameView, **errors(401, 404, 429)}, exclude_unset=True)
def games_detail(request, game_id: int):
    """The game as you may see it: your hand, never another player's; owners and votes only once revealed."""
    return view_response(request, game_id)


@router.post(
    GAME + "/join",
    summary="Join a game",
    response={200: AnyGameView, **errors(400, 401, 403, 404, 409, 429)},
    exclude_unset=True,
)
def games_join(request, game_id: int, payload: JoinIn = Body(default_factory=JoinIn)):
    """Take a seat (a private game needs its `invite_code`). The last seat taken starts the game.

    A rematch holds a seat for each player of the old table (`seat_held` in `GET /games?mine=true`,
    `seat_held_for_you` in the game's view): they take it here, with or without the invite code. Anyone else
    gets 403 `seat_held` while only held seats are left; a player who declined gets 409 `declined`."""
    game_join(game_id=game_id, user=request.user, invite_code=payload.invite_code)
    return view_response(request, game_id)


@router.post(GAME + "/leave", summary="Leave a game", response={200: LeaveOut, **errors(401, 403, 404, 409, 429)})
def games_leave(request, game_id: int):
    """Give up your seat in a game that has not started (in a started game, resign instead).

    The creator who leaves hands the game on: a rematch to the next player of the old table (one seated first,
    else one whose seat is held; the held seats stay held), any other game to the first person seated. It is
    cancelled (`status`) only when nobody is left to play it."""
    game = game_leave(game_id=game_id, user=request.user)
    return {"id": game.pk, "status": game.status}


@router.post(
    GAME + "/decline",
    summary="Decline a held seat",
    response={200: LeaveOut, **errors(401, 403, 404, 409, 429)},
)
def games_decline(request, game_id: int):
    """Decline the seat a rematch holds for you (`seat_held`): it opens at once as the rematch's visibility says
    (a public game's to anyone, a private game's to its invite code), and you are not let in again (409 `declined`
    on a later join). 403 `no_seat_held` when no seat is held for you; 409 `already_declined`, `already_joined`
    or `not_open`. Nothing changes on an error."""
    game = game_decline(game_id=game_id, user=request.user)
    return {"id": game.pk, "status": game.status}


@router.post(
    GAME + "/open-seats",
    summary="Open the held seats",
    response={200: AnyGameView, **errors(401, 403, 404, 409, 429)},
    exclude_unset=True,
)
def games_open_seats(request, game_id: int):
    """The creator of a rematch opens the seats it still holds for the old table, before their time
    (`holds_until_at`): a public game's go to the lobby, a private game's to its invite code. 403 `not_creator`;
    409 `no_seats_held` when none is held (asked twice), `not_open` for a game under way."""
    game_holds_open(game_id=game_id, user=request.user)
    return view_response(request, game_id)


@router.post(
    GAME + "/start",
    summary="Start a game",
    response={200: AnyGameView, **errors(401, 403, 404, 409, 429)},
    exclude_unset=True,
)
def games_start(request, game_id: int):
    """Start your game before every seat is taken (at least 3 players)."""
    game_start(game_id=game_id, user=request.user)
    return view_response(request, game_id)


@router.post(
    GAME + "/rematch",
    summary="Play again",
    response={201: AnyGameView, **errors(401, 403, 404, 409, 429)},
    exclude_unset=True,
)
def games_rematch(request, game_id: int):
    """Play a finished game again with the same people: a new game of the same kind, pace, seats, visibility and
    options, you its creator in the first seat. Bots of the old game come back, seated at once; every other
    player gets a seat held for FABULA_REMATCH_HOLD_SECONDS (48 hours by default) and a notification, and finds
    the rematch in `GET /games?mine=true` (`seat_held`): they take the seat with `POST /games/{id}/join` or
    decline it with `POST /games/{id}/decline`. Seats left then (or opened early with
    `POST /games/{id}/open-seats`) follow the visibility; a public rematch is not in the lobby while it holds
    seats. The old game's view gives its `rematch` (and, to its players, a private rematch's
    `rematch_invite_code`). Asked again, by you or another player, it answers with the same rematch (taking the
    asker's held seat). 409 `not_finished` for a game not finished, `rematch_closed` when full or under way,
    `declined` for a player who declined it; 403 for a non-player."""
    try:
        game = game_rematch(game_id=game_id, user=request.user)
    except GameError as error:
        if error.kind == "forbidden":
            game_get_for_viewer(game_id=game_id, user=request.user)  # 404 for a game this caller may not see
        raise
    return view_response(request, game.pk, status=201)


@router.post(
    GAME + "/actions",
    summary="Act in a game",
    response={200: AnyGameView, **errors(400, 401, 403, 404, 409, 429)},
    exclude_unset=True,
)
def games_act(request, game_id: int, payload: dict = Body(...)):
    """Act in the game: the action its `phase` waits for from you (`you.to_act`), or resign.

    Each kind's actions are in the request body's schema, one model per `type`, each with its description.
    Optional `round` guards against acting on a round that has ended meanwhile. An action the game's
    kind does not take, or with a field missing, unknown or of the wrong type, is a 400 `bad_action`.
    """
    rate_hit("actions", request)
    kind = _kind_of(game_id)
    action = kind.action_parse(payload, strict=True)
    game_act(game_id=game_id, user=request.user, action=kind.action_to_engine(action), expected_round=action.round)
    return view_response(request, game_id)


@router.post(
    GAME + "/nudge",
    summary="Nudge a player",
    response={201: NudgeOut, **errors(400, 401, 403, 404, 409, 429)},
)
def games_nudge(request, game_id: int, payload: NudgeIn):
    """Remind a player the game waits for that it does: once half of the phase has run (`nudge_from_at` in the
    game's view), once per phase for each player. They get one notification ("<name> is waiting for you"), held
    during their quiet hours. 400 `not_waiting` for a seat the game does not wait for (or your own); 409
    `too_early` before half of the phase has run, `already_nudged` when that player was nudged in this phase;
    403 for a non-player."""
    rate_hit("actions", request)
    nudge = nudge_send(game_id=game_id, user=request.user, seat=payload.seat, now=timezone.now())
    return Status(201, {"game": nudge.game_id, "seat": payload.seat, "nudged_at": nudge.created_at.isoformat()})
