"""Odd one out in the API: its options and its view, for the OpenAPI document (its actions: ``actions``)."""

from typing import Literal

from pydantic import Field, StrictInt

from games.api.schemas import Answer, GameViewBase, Request, You

from .engine import rules


class OddOneOutCreateIn(Request):
    rounds: StrictInt | None = Field(
        default=None, description=f"Odd one out: how many rounds, 1 to {rules.ROUNDS_MAX} (default {rules.ROUNDS})."
    )


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
