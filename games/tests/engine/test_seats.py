"""games.engine.seats: who is in, who is present, whose turn is next, who won."""

from __future__ import annotations

import pytest

from games.engine import seats
from games.engine.errors import RuleError


def test_active_seats_are_those_that_did_not_resign():
    assert seats.active(5, {1, 3}) == (0, 2, 4)
    assert seats.active(3, frozenset()) == (0, 1, 2)


def test_too_few_left_once_fewer_than_three_remain():
    assert not seats.too_few_left(4, {0})
    assert seats.too_few_left(4, {0, 2})
    assert seats.MIN_SEATS == 3


def test_absent_after_two_missed_deadlines():
    assert seats.ABSENT_AFTER == 2
    misses = (0, 1, 2, 5)
    assert [seats.is_absent(misses, s) for s in range(4)] == [False, False, True, True]


def test_present_seats_are_in_and_not_absent():
    assert seats.present(5, {4}, (0, 2, 1, 0, 0)) == {0, 2, 3}


def test_a_game_pauses_below_three_present_seats():
    assert not seats.too_few_present(4, set(), (0, 0, 0, 2))
    assert seats.too_few_present(4, {0}, (0, 0, 0, 2))
    assert seats.too_few_present(4, set(), (2, 0, 0, 2))


def test_misses_count_for_the_awaited_and_clear_for_who_acts():
    assert seats.count_misses((0, 1, 0), {1, 2}) == (0, 2, 1)
    assert seats.clear_misses((3, 1, 2), 2) == (3, 1, 0)


@pytest.mark.parametrize(
    ("seat", "n", "resigned", "order"),
    [(0, 4, set(), (1, 2, 3, 0)), (2, 4, {3}, (0, 1, 2)), (1, 5, {2, 3, 4}, (0, 1)), (3, 4, {3}, (0, 1, 2))],
)
def test_clockwise_after_skips_the_resigned(seat, n, resigned, order):
    assert seats.clockwise_after(seat, n, resigned) == order
    assert seats.next_active(seat, n, resigned) == order[0]


def test_next_active_with_nobody_left_is_a_bug():
    with pytest.raises(AssertionError):
        seats.next_active(0, 3, {0, 1, 2})


def test_winners_share_the_top_score_and_the_resigned_never_win():
    assert seats.winners((5, 9, 9, 2), set()) == (1, 2)
    assert seats.winners((5, 9, 9, 2), {1}) == (2,)
    assert seats.winners((5, 9, 9, 2), {1, 2}) == (0,)
    assert seats.winners((1, 1), {0, 1}) == ()


@pytest.mark.parametrize(
    ("seat", "finished", "code"),
    [
        (0, True, "game_finished"),
        (-1, False, "not_a_player"),
        (4, False, "not_a_player"),
        (True, False, "not_a_player"),
        ("1", False, "not_a_player"),
        (2, False, "resigned"),
    ],
)
def test_check_seat_refuses_strangers_the_resigned_and_a_finished_game(seat, finished, code):
    with pytest.raises(RuleError) as error:
        seats.check_seat(seat, seats=4, resigned={2}, finished=finished)
    assert error.value.code == code


def test_check_seat_lets_a_player_act():
    seats.check_seat(3, seats=4, resigned={2}, finished=False)
