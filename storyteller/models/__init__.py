from .card_stats import CardDeal, StorytellerTableCard
from .cards import Card, Deck
from .rounds import StorytellerRound

__all__ = ["Card", "CardDeal", "Deck", "StorytellerRound", "StorytellerTableCard"]
