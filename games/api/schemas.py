"""The shapes of the API's requests and answers, from which its OpenAPI schema is made.

Answers allow more fields than they name (clients are promised that fields may
be added, never renamed). Requests name every field they take; the services and
the engine judge the values.
"""

from typing import Annotated, Literal

from ninja import Schema
from pydantic import BaseModel, ConfigDict, Field, StrictInt

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


class GameCreateIn(Request):
    kind: str = Field(default=Game.Kind.STORYTELLER, max_length=20, json_schema_extra={"enum": ["storyteller"]})
    seats: StrictInt = Field(default=4, description="How many players, 3 to 6; the game starts when the last seat is taken.")
    pace: str = Field(default=Game.Pace.ASYNC, max_length=10, json_schema_extra={"enum": list(Game.Pace.values)})
    visibility: str = Field(
        default=Game.Visibility.PUBLIC, max_length=10, json_schema_extra={"enum": list(Game.Visibility.values)}
    )
    phase_seconds: StrictInt | None = Field(
        default=None, description="Asynchronous games: the time for each phase, 3600 to 259200 seconds (default a day)."
    )
    target_score: StrictInt | None = Field(
        default=None, description="House rule: the game also ends after the round in which someone reaches this score (5 to 100)."
    )


class JoinIn(Request):
    invite_code: str | None = Field(default=None, max_length=64, pattern=TEXT, description="Needed for a private game.")


CardId = Annotated[str, Field(pattern=r"^[0-9]{1,18}$")] | StrictInt


class ActionIn(Schema):
    """Any action: its ``type`` says which; the rules engine judges the rest."""

    model_config = ConfigDict(extra="allow")
    type: str = Field(max_length=20)
    round: StrictInt | None = Field(
        default=None,
        description="Optional: the round the action is meant for. A game that has moved on answers 409 `stale`.",
    )


class ClueAction(Request):
    type: Literal["clue"]
    card: CardId = Field(description="A card id from your hand.")
    text: str = Field(max_length=200, pattern=TEXT)
    round: StrictInt | None = None


class SubmitAction(Request):
    type: Literal["submit"]
    cards: list[CardId] = Field(description="Card ids from your hand: one, or two with 3 players (`cards_to_submit`).")
    round: StrictInt | None = None


class VoteAction(Request):
    type: Literal["vote"]
    position: StrictInt = Field(description="A table position, from 1; not your own card.")
    round: StrictInt | None = None


class ResignAction(Request):
    type: Literal["resign"]


# The actions the rules engine understands now, for the documentation: the API
# passes any action on to the engine, which is the one judge of it.
ACTION_MODELS = (ClueAction, SubmitAction, VoteAction, ResignAction)


class Card(Answer):
    id: str
    image: str = Field(description="An absolute URL.")


class TableCard(Answer):
    position: int
    image: str
    mine: bool


class RevealedCard(Answer):
    position: int
    image: str
    owner: str | None
    voters: list[str | None]


class LastRound(Answer):
    round: int
    storyteller: str | None
    clue: str | None
    storyteller_position: int | None
    table: list[RevealedCard]
    points: dict[str, int]


class Player(Answer):
    username: str
    seat: int
    score: int


class You(Answer):
    username: str
    to_act: bool


class GameView(Answer):
    """The game as the caller may see it."""

    id: int
    kind: str
    status: str = Field(description="`open`, `active`, `finished` (or `cancelled`).")
    version: int = Field(description="Goes up with every change.")
    round: int | None
    phase: str | None = Field(description="`clue`, `submit`, `vote`, or null before the start and after the end.")
    deadline_at: str | None
    storyteller: str | None
    clue: str | None
    players: list[Player]
    hand: list[Card] = Field(description="The caller's own cards only.")
    table: list[TableCard] = Field(description="In the vote phase; `mine` marks the caller's own card(s).")
    you: You
    last_round: LastRound | None
    winners: list[str | None]


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
