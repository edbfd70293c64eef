from .game import Game, Move, Nudge, Seat, SeatHold

__all__ = ["Game", "Move", "Nudge", "Seat", "SeatHold"]
