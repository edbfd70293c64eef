"""Storyteller in the API: its options, actions and view, for the OpenAPI document."""

from typing import Literal

from pydantic import Field, StrictInt

from games.api.schemas import TEXT, Answer, CardId, Player, Request, You


class StorytellerCreateIn(Request):
    target_score: StrictInt | None = Field(
        default=None,
        description="Storyteller's house rule: the game also ends after the round in which someone reaches this score (5 to 100).",
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


ACTION_MODELS = (ClueAction, SubmitAction, VoteAction)
