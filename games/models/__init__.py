from .game import Game, Move, Seat, SeatHold

__all__ = ["Game", "Move", "Seat", "SeatHold"]
