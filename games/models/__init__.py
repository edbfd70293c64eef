from .cards import Card, Deck
from .game import Game, Move, Seat
from .storyteller import StorytellerRound

__all__ = ["Card", "Deck", "Game", "Move", "Seat", "StorytellerRound"]
