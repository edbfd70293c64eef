"""Think Alike in the API: its create options, its view (key for key what ``selectors.think_alike_view``
gives) and its board fields. Its actions are ``think_alike.actions``.
"""

from typing import TYPE_CHECKING, Annotated, Literal

from django.utils import translation
from django.utils.translation import gettext_lazy as _
from ninja import Query, Router
from pydantic import Field

from games.actions import Id
from games.api.errors import errors
from games.api.schemas import DATE_TIME, Answer, GameViewBase, Request, Within, You
from think_alike.engine import rules as engine
from think_alike.models import LANGS, content_lang
from think_alike.services.game import MAX_MINUTES, MAX_TARGET, MIN_MINUTES

if TYPE_CHECKING:
    Phase = str  # a Literal made at run time from the engine's phases: mypy cannot read it
else:
    Phase = Literal[tuple(str(phase) for phase in engine.Phase if phase != engine.Phase.FINISHED)]
Stop = Literal[engine.STOPS]  # type: ignore[valid-type]
BoardWay = Literal[engine.BOARD_WAYS]  # type: ignore[valid-type]
Lang = Literal[LANGS]  # type: ignore[valid-type]
FieldKind = Literal[engine.FIELD_KINDS]  # type: ignore[valid-type]
Direction = Literal[engine.DIRECTIONS]  # type: ignore[valid-type]


class ThinkAlikeCreateIn(Request):
    stop: Stop | None = Field(
        default=None,
        description="Think Alike: how the game ends, after the round in which `target` points are reached "
        "(default), `count` task cards are played, or `minutes` have passed since the start.",
    )
    target: Annotated[
        int | None, Within("bad_options", _("A point target is from 1 to %(max)d points."), 1, MAX_TARGET)
    ] = Field(
        default=None,
        description=f"Think Alike, stop `points`: 1 to {MAX_TARGET} (default players × 6).",
    )
    count: Annotated[int | None, Within("bad_options", _("Play at least one task card."), 1)] = Field(
        default=None,
        description="Think Alike, stop `tasks`: how many task cards to play (at most those in play).",
    )
    minutes: Annotated[
        int | None,
        Within(
            "bad_options",
            _("A time limit is from %(min)d minutes to %(max)d minutes (30 days)."),
            MIN_MINUTES,
            MAX_MINUTES,
        ),
    ] = Field(
        default=None,
        description=f"Think Alike, stop `time`: {MIN_MINUTES} to {MAX_MINUTES} minutes.",
    )
    board: BoardWay | None = Field(
        default=None,
        description="Think Alike: 16 random fields (default), a board the players draft field by field, "
        "or a `course` you choose.",
    )
    course: Annotated[
        list[Id] | None,
        Within("bad_options", _("A course is a list of %(n)d fields."), engine.BOARD_SIZE, engine.BOARD_SIZE),
    ] = Field(
        default=None,
        description="Think Alike, board `course`: 16 field ids (`GET /think-alike/fields`), the start field first, "
        "in order around the circle.",
    )
    chat: bool | None = Field(default=None, description="Whether the table may chat during the game (default true).")
    lang: Lang | None = Field(
        default=None,
        description="Think Alike: the language of the task cards and fields, and of matching answers: "
        "`en`, `da`, `sv`, `nb`, `fi` or `fr`. Default: the request's language (`Accept-Language`) where it is "
        "one of them, else `en`.",
    )


class BoardField(Answer):
    id: str
    kind: FieldKind = Field(description="`association` (its text is a hint), `swap`, `move` or `duel`.")
    text: str
    bonus: int | None = Field(description="Duel fields: 2 or 4 points.")
    start: bool


class OnBoard(BoardField):
    position: int = Field(description="0 to 15 around the circle; 0 is the start field.")


class FieldList(Answer):
    fields: list[BoardField]


class ThinkAlikeOptions(Answer):
    stop: Stop | None = None
    target: int | None = None
    count: int | None = None
    minutes: int | None = None
    board: BoardWay | None = None
    course: list[int] | None = None
    lang: Lang | None = None
    chat: bool = True


class ThinkAlikeRules(Answer):
    """The options the game is played by, defaults filled in, and whether the table may chat."""

    stop: Stop
    target: int | None = Field(description="Stop `points`: the score to reach (null: players × 6 at the start).")
    count: int | None
    minutes: int | None
    board: BoardWay
    lang: Lang
    chat: bool


class StopOut(Answer):
    stop: Stop
    target: int | None = Field(description="Stop `points`: the score that ends the game.")
    count: int | None = Field(description="Stop `tasks`: how many task cards are played.")
    minutes: int | None = Field(description="Stop `time`, before the start: the minutes it lasts.")
    ends_at: str | None = Field(json_schema_extra=DATE_TIME, description="Stop `time`, once started: when it ends.")
    played: int = Field(description="The rounds played.")
    final_round: bool = Field(description="The round in play is the last.")


class StartRoll(Answer):
    player: str | None
    roll: int


class TaskCardOut(Answer):
    id: str
    text: str
    answers: int = Field(description="How many answers it asks for.")


class DuelOut(Answer):
    challenger: str | None
    opponent: str | None
    bonus: int
    winner: str | None = Field(description="Once scored: who won the bonus; null for a tie.")


class SwapOut(Answer):
    removed: BoardField
    added: BoardField


class Destinations(Answer):
    cw: int
    ccw: int


class TurnOut(Answer):
    """A round's setup, seen by all: the die, the way, the action, the hint and the task card."""

    number: int
    turn: str | None = Field(description="The turn holder.")
    start: int = Field(description="The token's position when the round began.")
    die: int | None
    direction: Direction | None
    destinations: Destinations | None = Field(description="Phase `move`: where each way takes the token.")
    landed: int | None = Field(description="The position the die took the token to.")
    landed_kind: Literal["", "association", "swap", "move", "duel"] = Field(
        description="The kind of field there; empty before the move."
    )
    swap: SwapOut | None
    moved_to: int | None
    duel: DuelOut | None
    auto: bool = Field(description="The turn holder's choices were made at random (a timeout).")
    token: int | None
    token_text: str | None = Field(description="What the token stands on: the hint, or the field's text.")
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


class Ruling(Answer):
    """A merge or a split by the turn holder."""

    kind: Literal["merge", "split"]
    groups: list[int]
    result: int
    items: list[list[int]]


class PlayerAnswers(Answer):
    player: str | None
    answers: list[str] | None = Field(description="Null: no answer in time.")


class ScoredRound(TurnOut):
    groups: list[AnswerGroup] = Field(description="The final groups, merges and splits applied.")
    rulings: list[Ruling]
    answers: list[PlayerAnswers] = Field(description="Every seat's answers, by seat.")
    no_answer: list[str | None] = Field(description="Who gave no answer in time.")
    points: dict[str, int] = Field(description="Points this round by username, duel bonus included.")
    fresh: bool = Field(default=False, description="Just scored: the next round's answers have not begun.")


class Opponent(Answer):
    seat: int
    player: str | None


class Choices(Answer):
    """What the caller may choose now; which keys depends on the phase."""

    fields: list[BoardField] = Field(default=[], description="`draft`: the fields to lay.")
    remove: list[OnBoard] = Field(default=[], description="`swap`: the fields that may go.")
    add: list[BoardField] = Field(default=[], description="`swap`: the fields that may come.")
    positions: list[int] = Field(default=[], description="`swap`, `move_to`, `duel`: board positions.")
    opponents: list[Opponent] = Field(default=[], description="`duel`.")
    directions: list[Direction] = Field(default=[], description="`move`.")
    answers: int = Field(default=0, description="`answer`: how many answers.")
    groups: list[int] = Field(default=[], description="`review`: the group ids.")


class ThinkAlikeYou(You):
    is_turn_holder: bool = Field(default=False, description="Players only.")
    answers: list[str] | None = Field(
        default=None, description="Players only: your own answers this round, once given."
    )
    absent: bool = Field(default=False, description="Players only, once started: you are marked absent.")


class ThinkAlikeView(GameViewBase):
    """A game of Think Alike as the caller may see it: nobody's answers but your own before the review."""

    kind: Literal["think_alike"]
    round: int | None = Field(description="0 while the board is drafted.")
    phase: Phase | None = Field(
        description="`draft`, `roll`, `move`, `swap`, `move_to`, `duel`, `answer`, `review`, or null before the start "
        "and after the end."
    )
    options: ThinkAlikeOptions
    rules: ThinkAlikeRules
    lang: Lang
    stop: StopOut
    tasks_left: int = Field(default=0, description="Once started: the task cards left.")
    end_reason: str | None = Field(
        default=None, description="Once finished: why the game ended, in words in the request's language."
    )
    board: list[OnBoard] = Field(description="The circle, by position; shorter while it is drafted.")
    token: int | None = Field(description="The position of the turn token.")
    turn: str | None = Field(description="The turn holder.")
    drafter: str | None = Field(description="Who lays the next field while the board is drafted.")
    starter: str | None = Field(description="Who won the start rolls.")
    start_rolls: list[list[StartRoll]] = Field(description="Who starts: every throw; ties roll again.")
    current: TurnOut | None = Field(description="The round in play.")
    task: TaskCardOut | None
    hint: str | None
    groups: list[AnswerGroup] = Field(description="In the review phase: every answer of the round, grouped.")
    rulings: list[Ruling] = Field(description="In the review phase: the merges and splits so far.")
    no_answer: list[str | None] = Field(description="In the review phase: who gave no answer in time.")
    choices: Choices | None = Field(description="When the game waits for you: what you may choose.")
    equivalences: list[list[str]] = Field(description="Answers ruled the same for the rest of the game.")
    you: ThinkAlikeYou
    last_round: ScoredRound | None


router = Router(tags=["think alike"])  # its own endpoints, mounted by the kind (``ThinkAlikeKind.api_routers``)


@router.get(
    "/think-alike/fields",
    summary="Think Alike's board fields",
    response={200: FieldList, **errors(400, 401, 429)},
)
def think_alike_fields_list(request, lang: Lang | None = Query(None)):
    """The board fields in play, for choosing a `course` when you create a game of Think Alike; their texts in
    `lang`, by default the request's language where it is a content language, else English."""
    from .selectors import think_alike_fields

    return {"fields": think_alike_fields(lang=lang or content_lang(translation.get_language()))}
