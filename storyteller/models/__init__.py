from .card_stats import CardDeal, StorytellerTableCard
from .cards import Card, Deck
from .rounds import StorytellerRound, StorytellerRoundScore, StorytellerVote

__all__ = [
    "Card",
    "CardDeal",
    "Deck",
    "StorytellerRound",
    "StorytellerRoundScore",
    "StorytellerTableCard",
    "StorytellerVote",
]
