"""Storyteller in the API: its create options and its view, key for key what ``selectors.storyteller_view`` gives.

Its actions are ``storyteller.actions``.
"""

from typing import Annotated, Literal

from django.utils.translation import gettext_lazy as _
from pydantic import Field

from games.api.schemas import Answer, GameViewBase, Request, Within, You
from storyteller.engine import rules as engine
from storyteller.services.game import TARGET_SCORE_MAX, TARGET_SCORE_MIN

Phase = Literal[tuple(str(phase) for phase in engine.Phase if phase != engine.Phase.FINISHED)]  # type: ignore[valid-type]


class StorytellerCreateIn(Request):
    target_score: Annotated[
        int | None,
        Within("bad_options", _("A target score is from 5 to 100 points."), TARGET_SCORE_MIN, TARGET_SCORE_MAX),
    ] = Field(
        default=None,
        description="Storyteller's house rule: the game also ends after the round in which someone reaches this "
        "score (5 to 100).",
    )


class StorytellerOptions(Answer):
    deck: int | None = Field(default=None, description="The card deck's id.")
    target_score: int | None = Field(default=None, description="The house rule's score, if chosen.")


class Card(Answer):
    id: str
    image: str = Field(description="An absolute URL (empty if the card's picture is gone).")
    alt: str = Field(description="The picture in words.")


class TableCard(Answer):
    """A card on the table in the vote phase: no id, no owner (an id would match it to a hand seen earlier)."""

    image: str
    alt: str
    position: int
    mine: bool = Field(description="The caller's own card (or the storyteller's, for the storyteller).")


class RevealedCard(Card):
    position: int
    owner: str | None
    voters: list[str | None]


class LastRound(Answer):
    round: int
    storyteller: str | None
    clue: str | None
    skipped: bool = Field(description="The storyteller gave no clue in time: no cards, no points.")
    storyteller_position: int | None
    table: list[RevealedCard]
    points: dict[str, int] = Field(description="Points this round by username.")


class StorytellerYou(You):
    is_storyteller: bool = Field(default=False, description="Players only.")
    submitted: list[Card] = Field(default=[], description="Players only: the card(s) you handed in this round.")
    vote: int | None = Field(default=None, description="Players only, in the vote phase: your vote's position.")
    storyteller_card: Card | None = Field(default=None, description="The storyteller only: the card of the clue.")


class StorytellerView(GameViewBase):
    """A game of Storyteller as the caller may see it."""

    kind: Literal["storyteller"]
    phase: Phase | None = Field(description="`clue`, `submit`, `vote`, or null before the start and after the end.")
    options: StorytellerOptions
    storyteller: str | None
    clue: str | None
    hand: list[Card] = Field(description="The caller's own cards only.")
    table: list[TableCard] = Field(description="In the vote phase; `mine` marks the caller's own card(s).")
    cards_to_submit: int | None = Field(description="How many cards each player hands in: 1, or 2 with 3 players.")
    draw_pile: int = Field(default=0, description="Once started: the cards left to draw.")
    you: StorytellerYou
    last_round: LastRound | None
