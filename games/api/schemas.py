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


CardId = Annotated[str, Field(pattern=r"^[0-9]{1,18}$")] | StrictInt



class GameCreateIn(Request):
    kind: str = Field(
        default=Game.Kind.STORYTELLER, max_length=20, json_schema_extra={"enum": list(Game.Kind.values)}
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
    target_score: StrictInt | None = Field(
        default=None,
        description="Storyteller's house rule: the game also ends after the round in which someone reaches this score (5 to 100).",
    )
    # Think Alike
    stop: Literal["points", "tasks", "time"] | None = Field(
        default=None,
        description="Think Alike: how the game ends, after the round in which `target` points are reached "
        "(default), `count` task cards are played, or `minutes` have passed since the start.",
    )
    target: StrictInt | None = Field(default=None, description="Think Alike, stop `points`: 1 to 999 (default players × 6).")
    count: StrictInt | None = Field(default=None, description="Think Alike, stop `tasks`: how many task cards to play.")
    minutes: StrictInt | None = Field(default=None, description="Think Alike, stop `time`: 5 to 43200 minutes.")
    board: Literal["random", "draft", "course"] | None = Field(
        default=None,
        description="Think Alike: 16 random fields (default), a board the players draft field by field, "
        "or a `course` you choose.",
    )
    course: list[CardId] | None = Field(
        default=None,
        max_length=16,
        description="Think Alike, board `course`: 16 field ids (`GET /think-alike/fields`), the start field first, "
        "in order around the circle.",
    )
    lang: Literal["en", "da"] | None = Field(
        default=None, description="Think Alike: the language of the task cards and fields, and of matching answers."
    )


class JoinIn(Request):
    invite_code: str | None = Field(default=None, max_length=64, pattern=TEXT, description="Needed for a private game.")


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


# --- Think Alike's actions -----------------------------------------------------------

FieldId = Annotated[CardId, Field(description="A field id (`board[].id`, `choices`).")]


class PlaceFieldAction(Request):
    """Think Alike, phase `draft`: lay the next field of the board."""

    type: Literal["place_field"]
    field: FieldId = Field(description="A field not on the board yet (`choices.fields`).")
    round: StrictInt | None = None


class RollAction(Request):
    """Think Alike, phase `roll`: the turn holder rolls the die."""

    type: Literal["roll"]
    round: StrictInt | None = None


class MoveAction(Request):
    """Think Alike, phase `move`: the turn holder moves the token the die's number of fields."""

    type: Literal["move"]
    direction: Literal["cw", "ccw"] = Field(description="Clockwise (positions count up) or counter-clockwise.")
    round: StrictInt | None = None


class SwapAction(Request):
    """Think Alike, phase `swap`: replace a field of the board (not the start) by an unused one; the token goes to it."""

    type: Literal["swap"]
    remove: FieldId = Field(description="A field on the board (`choices.remove`).")
    add: FieldId = Field(description="A field not on the board (`choices.add`).")
    round: StrictInt | None = None


class MoveToAction(Request):
    """Think Alike, phase `move_to`: move the token to any other field."""

    type: Literal["move_to"]
    position: StrictInt = Field(description="A board position, 0 to 15 (`choices.positions`).")
    round: StrictInt | None = None


class DuelAction(Request):
    """Think Alike, phase `duel`: name the opponent and the association field the token moves to."""

    type: Literal["duel"]
    opponent: StrictInt = Field(description="The opponent's seat (`choices.opponents[].seat`).")
    position: StrictInt | None = Field(
        description="An association field's position (`choices.positions`); null only if the board has none."
    )
    round: StrictInt | None = None


class AnswerAction(Request):
    """Think Alike, phase `answer`: everyone's answers, as many as the task card asks for."""

    type: Literal["answer"]
    answers: list[Annotated[str, Field(max_length=60, pattern=TEXT)]] = Field(
        max_length=10, description="Exactly `task.answers` texts of at most 60 characters; a blank one matches nothing."
    )
    round: StrictInt | None = None


class MergeAction(Request):
    """Think Alike, phase `review`, the turn holder: these groups mean the same (for the rest of the game)."""

    type: Literal["merge"]
    groups: list[StrictInt] = Field(max_length=100, description="Two or more group ids (`groups[].id`).")
    round: StrictInt | None = None


class SplitAction(Request):
    """Think Alike, phase `review`, the turn holder: these answers of a group mean something else."""

    type: Literal["split"]
    group: StrictInt = Field(description="A group id.")
    items: list[Annotated[list[StrictInt], Field(min_length=2, max_length=2)]] = Field(
        max_length=100, description="`[seat, index]` of the answers to split off: some, not all, of the group's."
    )
    round: StrictInt | None = None


class ConfirmAction(Request):
    """Think Alike, phase `review`, the turn holder: the groups are right; score the round."""

    type: Literal["confirm"]
    round: StrictInt | None = None


class RejoinAction(Request):
    """Think Alike: a player marked absent says they are back (any other action does too)."""

    type: Literal["rejoin"]


# The actions the rules engines understand now, for the documentation: the API
# passes any action on to the engine, which is the one judge of it.
ACTION_MODELS = (
    ClueAction, SubmitAction, VoteAction, ResignAction,
    PlaceFieldAction, RollAction, MoveAction, SwapAction, MoveToAction, DuelAction, AnswerAction,
    MergeAction, SplitAction, ConfirmAction, RejoinAction,
)


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
    """A game of Storyteller as the caller may see it."""

    id: int
    kind: Literal["storyteller"]
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


# --- Think Alike's view ---------------------------------------------------------------


class BoardFieldOut(Answer):
    id: str
    kind: str = Field(description="`association` (its text is a hint), `swap`, `move` or `duel`.")
    text: str
    bonus: int | None = Field(description="Duel fields: 2 or 4 points.")
    start: bool


class OnBoard(BoardFieldOut):
    position: int = Field(description="0 to 15 around the circle; 0 is the start field.")


class TaskCardOut(Answer):
    id: str
    text: str
    answers: int = Field(description="How many answers it asks for.")


class DuelOut(Answer):
    challenger: str | None
    opponent: str | None
    bonus: int
    winner: str | None = Field(description="Once scored: who won the bonus; null for a tie.")


class TurnOut(Answer):
    """A round's setup, seen by all: the die, the way, the action, the hint and the task card."""

    number: int
    turn: str | None = Field(description="The turn holder.")
    die: int | None
    direction: str | None
    landed: int | None = Field(description="The position the die took the token to.")
    landed_kind: str = Field(description="The kind of field there; empty before the move.")
    swap: dict | None = Field(description="`{removed, added}` fields.")
    moved_to: int | None
    duel: DuelOut | None
    auto: bool = Field(description="The turn holder's choices were made at random (a timeout).")
    token: int | None
    hint: str | None = Field(description="The association of the field the token stands on, if any.")
    task: TaskCardOut | None


class GroupAnswer(Answer):
    player: str | None
    seat: int
    index: int = Field(description="Which of the player's answers.")
    text: str


class AnswerGroup(Answer):
    id: int
    key: str
    answers: list[GroupAnswer]
    players: list[str | None]
    points_each: int = Field(description="One point for every other player in the group.")
    merged: bool
    split: bool


class ScoredRound(TurnOut):
    groups: list[AnswerGroup] = Field(description="The final groups, merges and splits applied.")
    rulings: list[dict] = Field(description="The turn holder's merges and splits: `{kind, groups, result, items}`.")
    no_answer: list[str | None] = Field(description="Who gave no answer in time.")
    points: dict[str, int] = Field(description="Points this round by username, duel bonus included.")


class ThinkAlikeYou(You):
    is_turn_holder: bool = False
    answers: list[str] | None = Field(default=None, description="Your own answers this round, once given.")


class ThinkAlikeView(Answer):
    """A game of Think Alike as the caller may see it: nobody's answers but your own before the review."""

    id: int
    kind: Literal["think_alike"]
    status: str = Field(description="`open`, `active`, `finished` (or `cancelled`).")
    version: int = Field(description="Goes up with every change.")
    round: int | None = Field(description="0 while the board is drafted.")
    phase: str | None = Field(
        description="`draft`, `roll`, `move`, `swap`, `move_to`, `duel`, `answer`, `review`, or null before the start "
        "and after the end."
    )
    deadline_at: str | None
    lang: str
    stop: dict = Field(description="`{stop, target, count, minutes, ends_at, played, final_round}`.")
    players: list[Player]
    board: list[OnBoard] = Field(description="The circle, by position; shorter while it is drafted.")
    token: int | None = Field(description="The position of the turn token.")
    turn: str | None = Field(description="The turn holder.")
    drafter: str | None = Field(description="Who lays the next field while the board is drafted.")
    start_rolls: list[list[dict]] = Field(description="Who starts: every throw, `[{player, roll}]`; ties roll again.")
    current: TurnOut | None = Field(description="The round in play.")
    task: TaskCardOut | None
    hint: str | None
    groups: list[AnswerGroup] = Field(description="In the review phase: every answer of the round, grouped.")
    choices: dict | None = Field(
        description="When the game waits for you: what you may choose (`fields`, `remove`, `add`, `positions`, "
        "`opponents`, `directions`, `answers`: how many, `groups`)."
    )
    equivalences: list[list[str]] = Field(description="Answers ruled the same for the rest of the game.")
    you: ThinkAlikeYou
    last_round: ScoredRound | None
    winners: list[str | None]


AnyGameView = Annotated[GameView | ThinkAlikeView, Field(discriminator="kind")]


class FieldList(Answer):
    fields: list[BoardFieldOut]


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
