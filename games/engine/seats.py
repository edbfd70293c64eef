"""Seats, turns, absence and winners: the rules both games share, over plain values.

Seats are ``0..seats-1`` in clockwise order. A seat that resigned is out for good:
it neither acts, nor takes a turn, nor wins. A seat that let ``ABSENT_AFTER``
deadlines in a row pass (``misses``) is absent until it acts again: the game plays
it by the timeout rules, and pauses while fewer than ``MIN_PRESENT`` seats are
present. Every function takes and returns plain values, so each engine keeps its
state as it likes and asks here.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from games.engine.errors import RuleError

ABSENT_AFTER = 2  # consecutive missed deadlines that mark a player absent
MIN_SEATS = 3  # a game starts with, and goes on only with, at least this many players
MIN_PRESENT = 3  # fewer present players pause the game


def active(seats: int, resigned: Collection[int]) -> tuple[int, ...]:
    """The seats that have not resigned, in seat order."""
    return tuple(seat for seat in range(seats) if seat not in resigned)


def too_few_left(seats: int, resigned: Collection[int]) -> bool:
    """Resignations have left fewer players than a game needs: it ends."""
    return len(active(seats, resigned)) < MIN_SEATS


def check_seat(seat: object, *, seats: int, resigned: Collection[int], finished: bool) -> None:
    """Refuse an action of ``seat`` in a game that is over, by a stranger or by a resigned seat."""
    if finished:
        raise RuleError("game_finished", "The game is over.")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
        raise RuleError("not_a_player", "That seat is not in this game.")
    if seat in resigned:
        raise RuleError("resigned", "You have resigned from this game.")


def is_absent(misses: Sequence[int], seat: int) -> bool:
    return misses[seat] >= ABSENT_AFTER


def present(seats: int, resigned: Collection[int], misses: Sequence[int]) -> frozenset[int]:
    """The seats still in the game and not absent."""
    return frozenset(seat for seat in active(seats, resigned) if not is_absent(misses, seat))


def too_few_present(seats: int, resigned: Collection[int], misses: Sequence[int]) -> bool:
    """Fewer than ``MIN_PRESENT`` seats are present: a game still on is paused."""
    return len(present(seats, resigned, misses)) < MIN_PRESENT


def count_misses(misses: Sequence[int], waiting: Collection[int]) -> tuple[int, ...]:
    """A deadline passed: every seat in ``waiting`` missed it once more."""
    return tuple(missed + 1 if seat in waiting else missed for seat, missed in enumerate(misses))


def clear_misses(misses: Sequence[int], seat: int) -> tuple[int, ...]:
    """``seat`` acted: it is present again."""
    return tuple(0 if s == seat else missed for s, missed in enumerate(misses))


def clockwise_after(seat: int, seats: int, resigned: Collection[int]) -> tuple[int, ...]:
    """The seats still in the game, clockwise from ``seat``'s left (``seat`` itself last)."""
    order = ((seat + step) % seats for step in range(1, seats + 1))
    return tuple(s for s in order if s not in resigned)


def next_active(seat: int, seats: int, resigned: Collection[int]) -> int:
    """The next seat clockwise from ``seat`` that has not resigned."""
    following = clockwise_after(seat, seats, resigned)
    if not following:
        raise AssertionError("no player left")
    return following[0]


def winners(scores: Sequence[int], resigned: Collection[int]) -> tuple[int, ...]:
    """The seats still in the game with the top score (ties share), in seat order."""
    still_in = active(len(scores), resigned)
    if not still_in:
        return ()
    top = max(scores[seat] for seat in still_in)
    return tuple(seat for seat in still_in if scores[seat] == top)
