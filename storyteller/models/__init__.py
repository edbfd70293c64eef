from .card_stats import CardDeal, StorytellerTableCard
from .cards import Card, CardReport, Deck
from .media import ClueMedia, ClueMediaTally
from .rounds import StorytellerRound, StorytellerRoundScore, StorytellerVote

__all__ = [
    "Card",
    "CardDeal",
    "CardReport",
    "ClueMedia",
    "ClueMediaTally",
    "Deck",
    "StorytellerRound",
    "StorytellerRoundScore",
    "StorytellerTableCard",
    "StorytellerVote",
]
