"""A round's points line by line, with their reasons: every scoring case of the rules sheet, and
every line adds up to the points the round gave (in played games and in stored old states)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from storyteller.engine import rules as st
from storyteller.engine.rules import Reason
from storyteller.tests.engine.storyteller_play import (
    clue,
    own_positions,
    play_to_end,
    start,
    storyteller_position,
    submit_all,
)

OWNERS = {1: 0, 2: 1, 3: 2, 4: 3}  # storyteller 0's card at 1, seat s's at s + 1


def lines(votes, *, st_pos=1, owners=OWNERS, three=False):
    return st.score_breakdown(
        storyteller=0, storyteller_position=st_pos, owners_by_position=owners, votes=votes, three_players=three
    )


def totals(breakdown) -> dict[int, int]:
    out: dict[int, int] = {}
    for line in breakdown:
        out[line.seat] = out.get(line.seat, 0) + line.points
    return out


def test_some_but_not_all_found_it():
    # 1 and 2 find the storyteller's card; 3 votes for 1's card.
    assert lines({1: 1, 2: 1, 3: 2}) == (
        Reason(0, st.STORYTELLER_SOME_FOUND, 3, 2),
        Reason(1, st.FOUND, 3),
        Reason(1, st.VOTES_ON_CARD, 1, 1),
        Reason(2, st.FOUND, 3),
        Reason(3, st.NOT_FOUND, 0),
    )


def test_everyone_found_it():
    assert lines({1: 1, 2: 1, 3: 1}) == (
        Reason(0, st.STORYTELLER_ALL_FOUND, 0, 3),
        Reason(1, st.ALL_FOUND, 2),
        Reason(2, st.ALL_FOUND, 2),
        Reason(3, st.ALL_FOUND, 2),
    )


def test_nobody_found_it_and_votes_on_cards_count_on_top():
    # 1 and 3 vote for 2's card, 2 votes for 3's.
    assert lines({1: 3, 2: 4, 3: 3}) == (
        Reason(0, st.STORYTELLER_NONE_FOUND, 0, 0),
        Reason(1, st.NONE_FOUND, 2),
        Reason(2, st.NONE_FOUND, 2),
        Reason(2, st.VOTES_ON_CARD, 2, 2),
        Reason(3, st.NONE_FOUND, 2),
        Reason(3, st.VOTES_ON_CARD, 1, 1),
    )


def test_an_abstainer_gets_only_the_votes_on_their_card():
    assert lines({1: 1, 2: 4}) == (
        Reason(0, st.STORYTELLER_SOME_FOUND, 3, 1),
        Reason(1, st.FOUND, 3),
        Reason(2, st.NOT_FOUND, 0),
        Reason(3, st.NO_VOTE, 0),
        Reason(3, st.VOTES_ON_CARD, 1, 1),
    )


def test_nobody_voted():
    assert lines({}) == (
        Reason(0, st.STORYTELLER_NO_VOTES, 0),
        Reason(1, st.NO_VOTE, 0),
        Reason(2, st.NO_VOTE, 0),
        Reason(3, st.NO_VOTE, 0),
    )


def test_three_players_the_only_finder_and_the_storyteller_get_four():
    owners = {1: 0, 2: 1, 3: 1, 4: 2, 5: 2}
    assert lines({1: 1, 2: 3}, owners=owners, three=True) == (
        Reason(0, st.STORYTELLER_SOME_FOUND, 4, 1),
        Reason(1, st.FOUND, 4),
        Reason(1, st.VOTES_ON_CARD, 1, 1),
        Reason(2, st.NOT_FOUND, 0),
    )
    # The same votes with four or more players: 3 as usual.
    assert lines({1: 1, 2: 4, 3: 2})[0] == Reason(0, st.STORYTELLER_SOME_FOUND, 3, 1)


def test_the_seeds_worked_example_line_by_line():
    breakdown = st.score_breakdown(
        storyteller=0,
        storyteller_position=4,
        owners_by_position={1: 1, 2: 3, 3: 2, 4: 0, 5: 4},
        votes={1: 4, 2: 1, 3: 1, 4: 3},
        three_players=False,
    )
    assert totals(breakdown) == {0: 3, 1: 5, 2: 1, 3: 0, 4: 0}
    assert [line for line in breakdown if line.seat == 1] == [
        Reason(1, st.FOUND, 3),
        Reason(1, st.VOTES_ON_CARD, 2, 2),
    ]


def test_the_storyteller_earns_nothing_for_votes_on_their_card():
    assert all(line.code != st.VOTES_ON_CARD for line in lines({1: 1, 2: 1, 3: 1}) if line.seat == 0)


@pytest.mark.parametrize(
    "votes",
    [{1: 1, 2: 1, 3: 1}, {1: 3, 2: 4, 3: 2}, {1: 1, 2: 1, 3: 2}, {1: 1, 2: 4}, {1: 4, 2: 4}, {}],
)
def test_score_round_is_the_breakdown_added_up(votes):
    breakdown = lines(votes)
    assert st.score_round(
        storyteller=0, storyteller_position=1, owners_by_position=OWNERS, votes=votes, three_players=False
    ) == totals(breakdown)
    assert {line.code for line in breakdown} <= set(st.REASONS)
    assert [line.seat for line in breakdown] == sorted(line.seat for line in breakdown)


def test_a_lost_turn_is_one_line_of_nothing():
    state, rng = start(4)
    state = clue(state, 0)  # seat 0 is storyteller; round 2 passes to seat 1
    state = submit_all(state, rng)
    for seat in (1, 2, 3):
        state = st.cast_vote(state, seat=seat, position=storyteller_position(state), rng=rng)
    state = st.expire(state, rng=rng)  # seat 1 gives no clue in time
    result = state.last_round
    assert result.skipped
    assert st.round_breakdown(result, seats=4) == (Reason(1, st.STORYTELLER_LOST_TURN, 0),)


def test_a_played_rounds_breakdown_matches_its_points():
    state, rng = start(5)
    state = submit_all(clue(state, 0), rng)
    state = st.cast_vote(state, seat=1, position=storyteller_position(state), rng=rng)
    state = st.cast_vote(state, seat=2, position=own_positions(state, 1)[0], rng=rng)
    state = st.cast_vote(state, seat=3, position=own_positions(state, 1)[0], rng=rng)
    state = st.cast_vote(state, seat=4, position=own_positions(state, 2)[0], rng=rng)
    breakdown = st.round_breakdown(state.last_round, seats=5)
    assert totals(breakdown) == state.last_round.points == {0: 3, 1: 5, 2: 1, 3: 0, 4: 0}
    assert Reason(1, st.VOTES_ON_CARD, 2, 2) in breakdown


@pytest.mark.parametrize(("seats", "seed"), [(3, 1), (4, 2), (5, 3), (6, 4), (3, 5)])
def test_every_round_of_whole_games_adds_up(seats, seed):
    state, rng = start(seats, seed=seed)
    final = play_to_end(state, random.Random(seed))
    assert final.history
    for result in final.history:
        got = totals(st.round_breakdown(result, seats=seats))
        assert {seat: got.get(seat, 0) for seat in result.points} == result.points
        assert result.storyteller in got  # the storyteller always has a line


def test_rounds_of_states_stored_before_the_breakdown_add_up():
    stored = json.loads((Path(__file__).parent / "fixtures" / "states_schema1.json").read_text())
    checked = 0
    for data in stored:
        state = st.from_dict(data)
        for result in state.history:
            if result.skipped:
                continue
            got = totals(st.round_breakdown(result, seats=state.seats))
            assert all(got.get(seat, 0) == pts for seat, pts in result.points.items())
            assert set(got) <= set(result.points)
            checked += 1
    assert checked > 10
