"""The shapes of the API's requests and answers, from which its OpenAPI schema is made.

Requests name every field they take (``extra="forbid"``), validated strictly (JSON
has types: "4" is not a number); the services and the engine judge the values.
Answers name every key they carry: their schemas say ``additionalProperties:
false``, and a key no model declares is left out of the answer (a test checks that
the selectors put none in a view). A limit is written into the schema (``minimum``,
``maximum``, ``enum``) and enforced: by the service, which answers with its own
error code, or by ``Within``, which answers with the code the service would.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from django.utils.translation import gettext_lazy
from ninja import Schema
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo
from pydantic.json_schema import JsonDict
from pydantic_core import core_schema

from games.actions import FreeText, StorableText
from games.models import Game
from games.services.errors import GameError

if TYPE_CHECKING:
    # Literals made at run time from the model's choices (the schema's enums); mypy cannot read one, and to it
    # they are the strings the model's fields hold.
    GameStatus = str
    Pace = str
    Visibility = str
else:
    GameStatus = Literal[tuple(Game.Status.values)]
    Pace = Literal[tuple(Game.Pace.values)]
    Visibility = Literal[tuple(Game.Visibility.values)]
DATE_TIME: JsonDict = {"format": "date-time"}
# What an invite code is made of (``games.models.game.new_invite_code``): any other cannot be one.
INVITE_CODE = r"^[A-Za-z0-9_-]*$"


@dataclass(frozen=True)
class Within:
    """A number's (or a list's length's) bounds, in the schema and enforced, for a field the service may not read.

    Out of bounds is a ``GameError`` with the service's ``code`` and ``message``
    (pydantic lets it through), so the answer is the one the service gives.
    """

    code: str
    message: Any  # a lazy translation; it may name ``%(min)d``, ``%(max)d`` or ``%(n)d`` (the maximum)
    minimum: int | None = None
    maximum: int | None = None

    def __get_pydantic_core_schema__(self, source, handler):
        return core_schema.no_info_after_validator_function(self._check, handler(source))

    def __get_pydantic_json_schema__(self, schema, handler):
        json_schema = handler(schema)
        json_schema.update(self.bounds(json_schema))
        return json_schema

    def bounds(self, json_schema: dict) -> dict:
        is_list = json_schema.get("type") == "array" or any(
            branch.get("type") == "array" for branch in json_schema.get("anyOf", ())
        )
        names = ("minItems", "maxItems") if is_list else ("minimum", "maximum")
        return {name: value for name, value in zip(names, (self.minimum, self.maximum)) if value is not None}

    def _check(self, value):
        if value is None:
            return value
        size = len(value) if isinstance(value, list) else value
        if (self.minimum is not None and size < self.minimum) or (self.maximum is not None and size > self.maximum):
            bounds = {"min": self.minimum, "max": self.maximum, "n": self.maximum}
            raise GameError(self.code, str(self.message) % bounds, "invalid")
        return value


# A view's values in the API's terms, made as the view is validated (``games.api.games.view_response`` gives the
# request as the validation's context): no walk of the view of its own.


def _absolute(url: str, info: ValidationInfo) -> str:
    """A picture's URL, absolute (empty for none), for the request being answered."""
    request = info.context.get("request") if isinstance(info.context, dict) else None
    return request.build_absolute_uri(url) if request is not None and url else url


def _absolute_site_file(url: str, info: ValidationInfo) -> str:
    """A file of the site's (a path from its root), absolute, for the request being answered; any other as it is."""
    request = info.context.get("request") if isinstance(info.context, dict) else None
    return request.build_absolute_uri(url) if request is not None and url.startswith("/") else url


def _id_text(value: Any) -> Any:
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


# An id the engine keeps as a number, given as a string (``games.actions.Id`` takes either back).
IdText = Annotated[str, BeforeValidator(_id_text)]
# A card's picture: the absolute URL that serves it, or empty for none.
PictureUrl = Annotated[str, AfterValidator(_absolute)]
# A file the site serves (a clue's drawing or sound): its absolute URL.
SiteFileUrl = Annotated[str, AfterValidator(_absolute_site_file)]


class Request(Schema):
    model_config = ConfigDict(extra="forbid", strict=True)


class Answer(BaseModel):
    # Keys not declared are dropped, never sent; the schema says so.
    model_config = ConfigDict(extra="ignore", json_schema_extra={"additionalProperties": False})


# --- errors ------------------------------------------------------------------------


class Problem(Answer):
    field: str
    problem: str


class ErrorBody(Answer):
    code: str = Field(description="A stable slug a program can test, e.g. `own_card`, `game_full`.")
    message: str = Field(description="The same in words for a person, in the request's language.")
    details: list[Problem] = Field(default=[], description="`bad_request`: every field that is wrong.")
    fields: dict[str, list[str]] = Field(default={}, description="`bad_account`, `username_taken`: by field.")


class Error(Answer):
    error: ErrorBody


# --- accounts and tokens ---------------------------------------------------------------


class AccountIn(Request):
    username: StorableText = Field(max_length=150)
    email: StorableText = Field(max_length=254)
    password: StorableText = Field(max_length=4096)


class AccountOut(Answer):
    username: str


class TokenIn(Request):
    username: StorableText = Field(max_length=150)
    password: StorableText = Field(max_length=4096)
    name: FreeText | None = Field(default=None, max_length=60, description="What the token is for.")


class TokenOut(Answer):
    token: str = Field(description="Send it as `Authorization: Bearer <token>`. It is shown only this once.")


# --- games: requests -------------------------------------------------------------------


class GameCreateBase(Request):
    """What every game is created with; ``games.api.games`` adds ``kind`` and each kind's options."""

    seats: int = Field(
        default=4,
        description="How many players, within the limits of the game's kind (`min_seats` to `max_seats`); "
        "the game starts when the last seat is taken.",
    )
    pace: str = Field(default=Game.Pace.ASYNC, max_length=10, json_schema_extra={"enum": list(Game.Pace.values)})
    visibility: str = Field(
        default=Game.Visibility.PUBLIC, max_length=10, json_schema_extra={"enum": list(Game.Visibility.values)}
    )
    phase_seconds: Annotated[
        int | None,
        Within("bad_deadline", gettext_lazy("An asynchronous phase lasts from one hour to three days."), 3600, 259200),
    ] = Field(
        default=None,
        description="Asynchronous games: the time for each phase, 3600 to 259200 seconds (default a day).",
    )
    time_bank_hours: Annotated[
        int | None, Within("bad_options", gettext_lazy("A time bank holds from 0 to 72 hours."), 0, 72)
    ] = Field(
        default=None,
        description="Asynchronous games: each player's time bank, 0 to 72 hours (default 24). A missed deadline "
        "draws on the late players' banks before the game moves on without them.",
    )
    min_reliability: Annotated[
        float | None,
        Within("bad_options", gettext_lazy("The minimum share of games finished is from 0 to 1."), 0, 1),
    ] = Field(
        default=None,
        description="The least share of their games (0 to 1) a player must have finished over the last 12 months "
        "to join (`GET /players/{username}`); players with fewer than 5 counted games may always join. Others "
        "get 409 `unreliable`.",
    )


class NudgeIn(Request):
    seat: int = Field(description="The seat of the player to nudge: one the game waits for, not yours.")


class NudgeOut(Answer):
    game: int
    seat: int
    nudged_at: str = Field(json_schema_extra=DATE_TIME)


class JoinIn(Request):
    invite_code: str | None = Field(
        default=None, max_length=64, pattern=INVITE_CODE, description="Needed for a private game (its invite link's)."
    )


# --- games: answers ---------------------------------------------------------------------


class Player(Answer):
    username: str
    name: str = Field(description="The name the player shows.")
    seat: int
    score: int
    colour: str
    to_act: bool = Field(description="Whether the game waits for this player.")
    absent: bool = Field(description="Missed too many deadlines: the game plays on without them until they act.")
    resigned: bool
    place: int | None = Field(
        default=None,
        description="Once finished: the player's place, ties sharing it (1, 2, 2, 4); resigned players last.",
    )
    bot: bool = Field(default=False, description="A bot: it plays by itself (added with `POST /games/{id}/bots`).")
    bot_level: Literal["easy", "normal", "hard"] | None = Field(
        default=None, description="A bot's level: `easy`, `normal` or `hard`; null for a person."
    )
    away_until: str | None = Field(
        default=None,
        description="While the player is away: when they are back. A phase waiting on them does not run out "
        "meanwhile; null when they are not away.",
        json_schema_extra=DATE_TIME,
    )
    time_bank_seconds: int = Field(
        default=0,
        description="What is left of the player's time bank: a missed deadline draws on it before the game moves "
        "on without them (asynchronous games; 0 in a live game).",
    )


class You(Answer):
    """The caller: a player, or a spectator of a public game (``seat`` null)."""

    username: str
    seat: int | None
    to_act: bool
    is_creator: bool = Field(default=False, description="Players only.")


class GameViewBase(Answer):
    """What every kind's view of a game holds; a kind's view adds its own (``KindPresentation.api_view``)."""

    id: int
    kind: str
    status: GameStatus = Field(description="`open`, `active`, `finished` or `cancelled`.")
    abandoned: bool = Field(
        default=False,
        description="Finished before any round was scored (resignations, a deleted account, deadlines nobody "
        "met): nobody won it, and it counts for nothing.",
    )
    version: int = Field(description="Goes up with every change.")
    round: int | None
    phase: str | None = Field(description="What the game waits for; null before the start and after the end.")
    deadline_at: str | None = Field(json_schema_extra=DATE_TIME)
    paused: bool = Field(description="Too few players are present: the game waits, with no deadline.")
    nudge_from_at: str | None = Field(
        default=None,
        description="An asynchronous phase: from this moment (half of the phase run) a player may nudge one who "
        "must still act (`POST /games/{id}/nudge`).",
        json_schema_extra=DATE_TIME,
    )
    pace: Pace
    phase_seconds: int
    visibility: Visibility
    seats: int
    creator: str
    players: list[Player]
    names: dict[str, str] = Field(description="Every player's shown name, by username.")
    you: You
    waiting_for: list[str | None] = Field(description="The usernames the game waits for.")
    waiting_names: list[str]
    winners: list[str | None]
    standings: list[Player] = Field(
        default=[], description="Once finished: the players in their places (``place``), best score first."
    )
    invite_code: str = Field(default="", description="Only in a private game's view for its creator.")
    rematch: int | None = Field(
        default=None,
        description="Once finished: the game a player started to play again with the same people "
        "(`POST /games/{id}/rematch`); null until then.",
    )
    rematch_invite_code: str = Field(
        default="", description="A private rematch's invite code to join it, for the old game's players only."
    )
    seats_held: int = Field(
        default=0,
        description="An open rematch: how many seats it still holds for players of the old table. Only they may "
        "take them (others get 403 `seat_held`) until each joins or declines, the creator opens them "
        "(`POST /games/{id}/open-seats`) or `holds_until_at` passes.",
    )
    holds_until_at: str | None = Field(
        default=None, description="While seats are held: when they open.", json_schema_extra=DATE_TIME
    )
    seat_held_for_you: bool = Field(
        default=False,
        description="A seat is held for you: take it with `POST /games/{id}/join` (no invite code needed) or "
        "decline it with `POST /games/{id}/decline`.",
    )
    you_declined: bool = Field(default=False, description="You declined the seat held for you in this rematch.")


class GameSummary(Answer):
    id: int
    kind: str
    status: GameStatus
    pace: Pace
    visibility: Visibility
    seats: int
    seated: int
    creator: str
    round: int | None
    phase: str | None
    deadline_at: str | None = Field(json_schema_extra=DATE_TIME)
    version: int
    created_at: str = Field(json_schema_extra=DATE_TIME)
    joined: bool = Field(description="Whether the caller has a seat.")
    to_act: bool = Field(description="Whether the game waits for the caller.")
    seat_held: bool = Field(
        default=False,
        description="With `mine=true`: a rematch holds a seat for the caller (a player of the game it follows). "
        "Take it with `POST /games/{id}/join` or decline it with `POST /games/{id}/decline`; `joined` is false "
        "until then.",
    )


class LeaveOut(Answer):
    id: int
    status: GameStatus


class GameList(Answer):
    games: list[GameSummary]
