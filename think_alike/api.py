"""Think Alike in the API: its options, actions, view and board fields."""

from typing import Annotated, Literal

from ninja import Query, Router
from pydantic import Field, StrictInt

from games.api.errors import errors
from games.api.schemas import TEXT, Answer, CardId, Player, Request, You


class ThinkAlikeCreateIn(Request):
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


class FieldList(Answer):
    fields: list[BoardFieldOut]



ACTION_MODELS = (
    PlaceFieldAction, RollAction, MoveAction, SwapAction, MoveToAction, DuelAction, AnswerAction,
    MergeAction, SplitAction, ConfirmAction, RejoinAction,
)


def add_routes(router: Router) -> None:
    """Think Alike's own endpoints, beside the games'."""

    @router.get(
        "/think-alike/fields",
        summary="Think Alike's board fields",
        response={200: FieldList, **errors(400, 401, 429)},
        tags=["think alike"],
    )
    def think_alike_fields_list(request, lang: Literal["en", "da"] = Query("en")):
        """The board fields in play, for choosing a `course` when you create a game of Think Alike."""
        from .selectors import think_alike_fields

        return {"fields": think_alike_fields(lang=lang)}
