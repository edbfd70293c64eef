"""The shapes of the API's requests and answers, from which its OpenAPI schema is made.

Answers allow more fields than they name (clients are promised that fields may
be added, never renamed). Requests name every field they take; the services and
the engine judge the values.
"""

from typing import Annotated, Literal

from ninja import Schema
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from django.conf import settings

from games import kinds
from games.models import Game

# A string the database can store: PostgreSQL refuses the NUL character.
TEXT = r"^[^\x00]*$"


class Request(Schema):
    model_config = ConfigDict(extra="forbid")


class Answer(BaseModel):
    model_config = ConfigDict(extra="allow")


# --- errors ------------------------------------------------------------------------


class ErrorBody(Answer):
    code: str = Field(description="A stable slug a program can test, e.g. `own_card`, `game_full`.")
    message: str = Field(description="The same in words for a person, in the request's language.")


class Error(Answer):
    error: ErrorBody


# --- accounts and tokens ---------------------------------------------------------------


class AccountIn(Request):
    username: str = Field(max_length=150, pattern=TEXT)
    email: str = Field(max_length=254, pattern=TEXT)
    password: str = Field(max_length=4096, pattern=TEXT)


class AccountOut(Answer):
    username: str


class TokenIn(Request):
    username: str = Field(max_length=150, pattern=TEXT)
    password: str = Field(max_length=4096, pattern=TEXT)
    name: str | None = Field(default=None, max_length=60, pattern=TEXT, description="What the token is for.")


class TokenOut(Answer):
    token: str = Field(description="Send it as `Authorization: Bearer <token>`. It is shown only this once.")


# --- games ---------------------------------------------------------------------------


CardId = Annotated[str, Field(pattern=r"^[0-9]{1,18}$")] | StrictInt



class GameCreateBase(Request):
    """What every game is created with; each kind adds its options (``GameKind.api_create_options``)."""

    kind: str = Field(
        default_factory=lambda: settings.FABULA_DEFAULT_KIND,
        max_length=20,
        json_schema_extra={"enum": [kind.slug for kind in kinds.every()]},
    )
    seats: StrictInt = Field(
        default=4,
        description="How many players: 3 to 6 for Storyteller, 3 to 10 for Think Alike; "
        "the game starts when the last seat is taken.",
    )
    pace: str = Field(default=Game.Pace.ASYNC, max_length=10, json_schema_extra={"enum": list(Game.Pace.values)})
    visibility: str = Field(
        default=Game.Visibility.PUBLIC, max_length=10, json_schema_extra={"enum": list(Game.Visibility.values)}
    )
    phase_seconds: StrictInt | None = Field(
        default=None, description="Asynchronous games: the time for each phase, 3600 to 259200 seconds (default a day)."
    )


class JoinIn(Request):
    invite_code: str | None = Field(default=None, max_length=64, pattern=TEXT, description="Needed for a private game.")


class ResignAction(Request):
    type: Literal["resign"]


class Player(Answer):
    username: str
    seat: int
    score: int


class You(Answer):
    username: str
    to_act: bool


class GameSummary(Answer):
    id: int
    kind: str
    status: str
    pace: str
    visibility: str
    seats: int
    seated: int
    creator: str
    round: int | None
    phase: str | None
    deadline_at: str | None
    version: int
    joined: bool = Field(description="Whether the caller has a seat.")
    to_act: bool = Field(description="Whether the game waits for the caller.")


class LeaveOut(Answer):
    id: int
    status: str


class GameList(Answer):
    games: list[GameSummary]
