from .card_stats import CardDeal, StorytellerTableCard
from .cards import Card, Deck
from .media import ClueMedia
from .rounds import StorytellerRound, StorytellerRoundScore, StorytellerVote

__all__ = [
    "Card",
    "CardDeal",
    "ClueMedia",
    "Deck",
    "StorytellerRound",
    "StorytellerRoundScore",
    "StorytellerTableCard",
    "StorytellerVote",
]
