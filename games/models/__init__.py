from .game import Game, Move, Nudge, Seat, SeatHold
from .rounds import RoundScoreBase

__all__ = ["Game", "Move", "Nudge", "RoundScoreBase", "Seat", "SeatHold"]
