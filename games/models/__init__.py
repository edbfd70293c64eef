from .game import Game, Move, Seat

__all__ = ["Game", "Move", "Seat"]
