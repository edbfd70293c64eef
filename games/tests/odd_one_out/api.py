"""Odd one out in the API: its options, its one action and its view, for the OpenAPI document."""

from typing import Annotated, Literal

from pydantic import Field, StrictInt, TypeAdapter

from games.actions import TEXT, Action, Resign
from games.api.schemas import Answer, GameViewBase, Request, You

from .engine import rules


class OddOneOutCreateIn(Request):
    rounds: StrictInt | None = Field(
        default=None, description=f"Odd one out: how many rounds, 1 to {rules.ROUNDS_MAX} (default {rules.ROUNDS})."
    )


class PickAction(Action):
    """Odd one out, phase `pick`: one of the `words` shown, or a word of your own."""

    type: Literal["pick"]
    word: str = Field(max_length=200, pattern=TEXT)


ACTION_MODELS = (PickAction, Resign)
ACTION = TypeAdapter(Annotated[PickAction | Resign, Field(discriminator="type")])


def to_engine(action: Action) -> dict:
    if isinstance(action, PickAction):
        return {"type": "pick", "word": action.word}
    return {"type": action.type}


class Word(Answer):
    word: str
    label: str


class OddRound(Answer):
    round: int
    majority: str | None
    picks: dict[str, str]
    points: dict[str, int]


class OddOptions(Answer):
    rounds: int


class OddYou(You):
    pick: str | None = None


class OddOneOutView(GameViewBase):
    """A game of odd one out as the caller may see it."""

    kind: Literal["odd_one_out"]
    rounds: int
    phase: Literal["pick"] | None = Field(description="`pick`, or null before the start and after the end.")
    options: OddOptions
    words: list[Word]
    picked: list[str | None] = Field(description="Who has picked this round (not what).")
    you: OddYou
    last_round: OddRound | None
