from .card_stats import CardDeal, StorytellerTableCard
from .cards import Card, Deck
from .game import Game, Move, Seat
from .storyteller import StorytellerRound

__all__ = ["Card", "CardDeal", "Deck", "Game", "Move", "Seat", "StorytellerRound", "StorytellerTableCard"]
