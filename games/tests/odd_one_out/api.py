"""Odd one out in the API: its options, its one action and its view, for the OpenAPI document."""

from typing import Literal

from pydantic import Field, StrictInt

from games.api.schemas import TEXT, Answer, Player, Request, You

from .engine import rules


class OddOneOutCreateIn(Request):
    rounds: StrictInt | None = Field(
        default=None, description=f"Odd one out: how many rounds, 1 to {rules.ROUNDS_MAX} (default {rules.ROUNDS})."
    )


class PickAction(Request):
    """Odd one out, phase `pick`: one of the `words` shown, or a word of your own."""

    type: Literal["pick"]
    word: str = Field(max_length=200, pattern=TEXT)
    round: StrictInt | None = None


class Word(Answer):
    word: str
    label: str


class OddRound(Answer):
    round: int
    majority: str | None
    picks: dict[str, str]
    points: dict[str, int]


class OddOneOutView(Answer):
    """A game of odd one out as the caller may see it."""

    id: int
    kind: Literal["odd_one_out"]
    status: str
    version: int
    round: int | None
    rounds: int
    phase: str | None = Field(description="`pick`, or null before the start and after the end.")
    deadline_at: str | None
    words: list[Word]
    picked: list[str | None] = Field(description="Who has picked this round (not what).")
    players: list[Player]
    you: You
    last_round: OddRound | None
    winners: list[str | None]


ACTION_MODELS = (PickAction,)
