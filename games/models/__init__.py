from .card_stats import CardDeal, StorytellerTableCard
from .cards import Card, Deck
from .game import Game, Move, Seat
from .storyteller import StorytellerRound
from .think_alike import BoardField, TaskCard, ThinkAlikeRound

__all__ = [
    "BoardField", "Card", "CardDeal", "Deck", "Game", "Move", "Seat", "StorytellerRound", "StorytellerTableCard",
    "TaskCard", "ThinkAlikeRound",
]
