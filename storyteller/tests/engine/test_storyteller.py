"""The Storyteller rules engine, rule by rule (rules/storyteller.md)."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from storyteller.engine import rules as st
from storyteller.engine.rules import Phase
from storyteller.tests.engine.storyteller_play import (
    DECK,
    NoShuffle,
    check_invariants,
    clue,
    decoy_position,
    own_positions,
    play_to_end,
    position_of,
    raises_unchanged,
    start,
    storyteller_position,
    submit,
    submit_all,
)


def to_vote(seats: int, *, seed: int = 0, **options):
    """A game in its first vote phase, seat 0 storyteller."""
    state, rng = start(seats, seed=seed, **options)
    return submit_all(clue(state, 0), rng), rng


def vote(state, seat, position, rng):
    return st.cast_vote(state, seat=seat, position=position, rng=rng)


# --- setting up --------------------------------------------------------------------


@pytest.mark.parametrize(("seats", "size"), [(3, 7), (4, 6), (5, 6), (6, 6)])
def test_new_game_deals_hands_and_leaves_the_rest_as_pile(seats, size):
    state, _ = start(seats)
    assert [len(hand) for hand in state.hands] == [size] * seats
    assert len(state.draw_pile) == 84 - size * seats
    assert sorted(state.draw_pile + sum(state.hands, ())) == list(DECK)
    assert (state.round, state.phase, state.storyteller) == (1, Phase.CLUE, None)
    assert state.scores == state.misses == (0,) * seats
    assert st.hand_size(state) == size
    assert st.cards_to_submit(state) == (2 if seats == 3 else 1)
    assert st.to_act(state) == frozenset(range(seats))


def test_deal_is_one_card_at_a_time_round_robin_after_the_shuffle():
    state = st.new_game(seats=4, deck=range(1, 31), rng=NoShuffle(0))
    assert state.hands[0] == (1, 5, 9, 13, 17, 21)
    assert state.hands[3] == (4, 8, 12, 16, 20, 24)
    assert state.draw_pile == (25, 26, 27, 28, 29, 30)


def test_deck_is_shuffled_with_the_given_rng():
    a = st.new_game(seats=4, deck=DECK, rng=random.Random(1))
    b = st.new_game(seats=4, deck=DECK, rng=random.Random(1))
    c = st.new_game(seats=4, deck=DECK, rng=random.Random(2))
    assert a == b
    assert a.hands != c.hands


@pytest.mark.parametrize("seats", [0, 2, 7, True, "4"])
def test_three_to_six_players(seats):
    with pytest.raises(st.RuleError) as error:
        st.new_game(seats=seats, deck=DECK, rng=random.Random(0))
    assert error.value.code == "bad_seats"


def test_deck_too_small_for_the_deal():
    with pytest.raises(st.RuleError) as error:
        st.new_game(seats=3, deck=range(20), rng=random.Random(0))
    assert error.value.code == "deck_too_small"
    st.new_game(seats=3, deck=range(21), rng=random.Random(0))  # exactly the deal is enough


def test_deck_with_a_card_twice_is_refused():
    with pytest.raises(st.RuleError) as error:
        st.new_game(seats=4, deck=[1] * 40, rng=random.Random(0))
    assert error.value.code == "bad_deck"


@pytest.mark.parametrize("target_score", [0, -3, True, "10"])
def test_bad_options(target_score):
    with pytest.raises(st.RuleError) as error:
        st.new_game(seats=4, deck=DECK, rng=random.Random(0), options=st.Options(target_score=target_score))
    assert error.value.code == "bad_options"


# --- clue ----------------------------------------------------------------------------


def test_any_player_may_give_the_first_clue_and_becomes_storyteller():
    state, _ = start(4)
    card = state.hands[2][3]
    after = st.give_clue(state, seat=2, card=card, text="  the moon  ")
    assert after.storyteller == 2
    assert after.clue == "the moon"
    assert after.storyteller_card == card
    assert card not in after.hands[2]
    assert after.phase == Phase.SUBMIT
    assert st.to_act(after) == {0, 1, 3}
    raises_unchanged("wrong_phase", lambda: clue(after, 2), after)


def test_later_rounds_only_the_storyteller_gives_the_clue():
    state, rng = to_vote(4)
    for seat in (1, 2, 3):
        state = vote(state, seat, decoy_position(state, seat), rng)
    assert (state.round, state.phase, state.storyteller) == (2, Phase.CLUE, 1)
    assert st.to_act(state) == {1}
    raises_unchanged("not_your_turn", lambda: clue(state, 0), state)
    assert clue(state, 1).phase == Phase.SUBMIT


def test_clue_text_checks():
    state, _ = start(4)
    card = state.hands[0][0]

    def give(text):
        return lambda: st.give_clue(state, seat=0, card=card, text=text)

    raises_unchanged("clue_empty", give(" \n "), state)
    raises_unchanged("clue_too_long", give("x" * (st.CLUE_MAX_LENGTH + 1)), state)
    longest = st.give_clue(state, seat=0, card=card, text=" " + "x" * st.CLUE_MAX_LENGTH + " ")
    assert longest.clue == "x" * st.CLUE_MAX_LENGTH


def test_clue_card_must_be_in_the_givers_hand():
    state, _ = start(4)
    other = state.hands[1][0]
    for card in (other, 999):
        raises_unchanged("not_in_hand", lambda c=card: st.give_clue(state, seat=0, card=c, text="x"), state)


# --- submissions --------------------------------------------------------------------


def test_submission_checks():
    state, rng = start(4)
    state = clue(state, 0)
    hand = state.hands[1]
    raises_unchanged("not_your_turn", lambda: submit(state, 0, rng), state)

    def hand_in(cards):
        return lambda: st.submit_cards(state, seat=1, cards=cards, rng=rng)

    raises_unchanged("wrong_card_count", hand_in([]), state)
    raises_unchanged("wrong_card_count", hand_in(hand[:2]), state)
    raises_unchanged("not_in_hand", hand_in([state.hands[2][0]]), state)
    raises_unchanged("not_in_hand", hand_in([state.storyteller_card]), state)
    raises_unchanged("wrong_phase", lambda: vote(state, 1, 1, rng), state)
    after = submit(state, 1, rng)
    assert after.submissions == {1: (hand[0],)}
    assert hand[0] not in after.hands[1]
    assert after.phase == Phase.SUBMIT
    assert st.to_act(after) == {2, 3}
    raises_unchanged("already_submitted", lambda: submit(after, 1, rng), after)


def test_three_players_hand_in_two_distinct_cards():
    state, rng = start(3)
    state = clue(state, 0)
    hand = state.hands[1]

    def hand_in(cards):
        return lambda: st.submit_cards(state, seat=1, cards=cards, rng=rng)

    raises_unchanged("wrong_card_count", hand_in(hand[:1]), state)
    raises_unchanged("duplicate_cards", hand_in([hand[0], hand[0]]), state)
    state = submit_all(state, rng)
    assert state.phase == Phase.VOTE
    assert len(state.table) == 5
    assert sorted(state.table) == sorted((state.storyteller_card,) + state.submissions[1] + state.submissions[2])


def test_last_submission_lays_the_table_shuffled_with_the_rng():
    state, _ = start(6)
    state = clue(state, 0)
    for seat in range(1, 5):
        state = submit(state, seat, None)  # no rng needed before the last one
    laid = [submit(state, 5, random.Random(seed)).table for seed in range(6)]
    assert all(sorted(t) == sorted(laid[0]) for t in laid)
    assert len(set(laid)) > 1
    tabled = submit(state, 5, random.Random(0))
    assert tabled.phase == Phase.VOTE
    assert set(tabled.table) == {tabled.storyteller_card} | {c for cards in tabled.submissions.values() for c in cards}
    assert st.to_act(tabled) == {1, 2, 3, 4, 5}


# --- votes --------------------------------------------------------------------------


def test_vote_checks():
    state, rng = to_vote(4)
    raises_unchanged("not_your_turn", lambda: vote(state, 0, 1, rng), state)
    raises_unchanged("own_card", lambda: vote(state, 1, own_positions(state, 1)[0], rng), state)
    raises_unchanged("bad_position", lambda: vote(state, 1, 0, rng), state)
    raises_unchanged("bad_position", lambda: vote(state, 1, len(state.table) + 1, rng), state)
    raises_unchanged("bad_position", lambda: vote(state, 1, True, rng), state)
    raises_unchanged("wrong_phase", lambda: submit(state, 1, rng), state)
    raises_unchanged("wrong_phase", lambda: clue(state, 0), state)
    after = vote(state, 1, storyteller_position(state), rng)
    assert after.votes == {1: storyteller_position(state)}
    raises_unchanged("already_voted", lambda: vote(after, 1, 1, rng), after)


def test_three_players_cannot_vote_for_either_of_their_cards():
    state, rng = to_vote(3)
    for position in own_positions(state, 2):
        raises_unchanged("own_card", lambda p=position: vote(state, 2, p, rng), state)


def test_last_vote_reveals_scores_discards_refills_and_passes_the_role():
    state, rng = to_vote(4)
    table = state.table
    pile = state.draw_pile
    found = storyteller_position(state)
    state = vote(state, 1, found, rng)
    state = vote(state, 2, position_of(state, state.submissions[3][0]), rng)
    state = vote(state, 3, position_of(state, state.submissions[2][0]), rng)
    result = state.last_round
    assert state.history == (result,)
    assert result.round == 1 and not result.skipped
    assert result.table == table
    assert result.owners[result.storyteller_card] == 0
    assert result.votes[1] == found
    assert result.points == {0: 3, 1: 3, 2: 1, 3: 1}
    assert state.scores == tuple(result.points[s] for s in range(4))
    assert state.discard == table
    assert state.draw_pile == pile[4:]
    assert all(len(hand) == 6 for hand in state.hands)
    assert (state.round, state.phase, state.storyteller) == (2, Phase.CLUE, 1)
    assert (state.clue, state.storyteller_card, state.submissions, state.table, state.votes) == (
        None,
        None,
        {},
        (),
        {},
    )
    check_invariants(state, DECK)


def test_refill_deals_one_at_a_time_from_the_storytellers_left():
    # 3 players, hand 7: after a round each hand is 2 short (storyteller 1).
    rng = NoShuffle(0)
    state = st.new_game(seats=3, deck=range(1, 40), rng=rng)
    state = clue(state, 1)
    state = submit_all(state, rng)
    pile = state.draw_pile
    for seat in (0, 2):
        state = vote(state, seat, decoy_position(state, seat), rng)
    # Seat 2 (left of storyteller 1) first, then 0, then 1; the storyteller lacks only one.
    assert state.hands[2][-2:] == (pile[0], pile[3])
    assert state.hands[0][-2:] == (pile[1], pile[4])
    assert state.hands[1][-1] == pile[2]
    assert state.draw_pile == pile[5:]


# --- scoring ------------------------------------------------------------------------


def score(votes, *, st_pos=1, owners=None, three=False):
    owners = owners or {1: 0, 2: 1, 3: 2, 4: 3}
    return st.score_round(
        storyteller=0,
        storyteller_position=st_pos,
        owners_by_position=owners,
        votes=votes,
        three_players=three,
    )


@pytest.mark.parametrize(
    ("votes", "points"),
    [
        # all found: storyteller 0, every voter 2
        ({1: 1, 2: 1, 3: 1}, {0: 0, 1: 2, 2: 2, 3: 2}),
        # none found: storyteller 0, every voter 2, plus 1 per vote on own card
        ({1: 3, 2: 4, 3: 2}, {0: 0, 1: 3, 2: 3, 3: 3}),
        ({1: 3, 2: 2, 3: 3}, {0: 0, 1: 3, 2: 4, 3: 2}),
        # some found: storyteller and finders 3, decoys 1 a vote
        ({1: 1, 2: 1, 3: 2}, {0: 3, 1: 4, 2: 3, 3: 0}),
        ({1: 1, 2: 4, 3: 2}, {0: 3, 1: 4, 2: 0, 3: 1}),
        # abstainer 3: only votes cast count, still 1 per vote on own card
        ({1: 1, 2: 4}, {0: 3, 1: 3, 2: 0, 3: 1}),
        ({1: 1, 2: 1}, {0: 0, 1: 2, 2: 2, 3: 0}),
        ({1: 4, 2: 4}, {0: 0, 1: 2, 2: 2, 3: 2}),
        # nobody voted: nothing
        ({}, {0: 0, 1: 0, 2: 0, 3: 0}),
    ],
)
def test_scoring_table(votes, points):
    assert score(votes) == points


def test_seeds_worked_example():
    # Storyteller 0's card at 4; A (seat 1) owns 1, B (seat 2) owns 3.
    points = st.score_round(
        storyteller=0,
        storyteller_position=4,
        owners_by_position={1: 1, 2: 3, 3: 2, 4: 0, 5: 4},
        votes={1: 4, 2: 1, 3: 1, 4: 3},
        three_players=False,
    )
    assert points == {0: 3, 1: 5, 2: 1, 3: 0, 4: 0}
    assert sorted(points.values(), reverse=True) == [5, 3, 1, 0, 0]


def test_seeds_worked_example_played_through_the_engine():
    state, rng = to_vote(5)
    a, b, c, d = 1, 2, 3, 4
    state = vote(state, a, storyteller_position(state), rng)
    state = vote(state, b, own_positions(state, a)[0], rng)
    state = vote(state, c, own_positions(state, a)[0], rng)
    state = vote(state, d, own_positions(state, b)[0], rng)
    assert state.last_round.points == {0: 3, a: 5, b: 1, c: 0, d: 0}
    assert state.scores == (3, 5, 1, 0, 0)


@pytest.mark.parametrize(
    ("votes", "points"),
    [
        # exactly one finds: 4 each (and the other voter's vote is on a card of theirs)
        ({1: 1, 2: 3}, {0: 4, 1: 5, 2: 0}),
        ({1: 4, 2: 1}, {0: 4, 1: 0, 2: 5}),
        # both find / none finds: as usual
        ({1: 1, 2: 1}, {0: 0, 1: 2, 2: 2}),
        ({1: 4, 2: 2}, {0: 0, 1: 3, 2: 3}),
    ],
)
def test_three_player_scoring(votes, points):
    owners = {1: 0, 2: 1, 3: 1, 4: 2, 5: 2}
    assert score(votes, owners=owners, three=True) == points


def test_the_four_point_bonus_is_for_three_players_only():
    assert score({1: 1, 2: 2, 3: 2})[0] == 3


def test_three_player_round_through_the_engine():
    state, rng = to_vote(3)
    state = vote(state, 1, storyteller_position(state), rng)
    state = vote(state, 2, own_positions(state, 1)[0], rng)
    assert state.last_round.points == {0: 4, 1: 5, 2: 0}
    assert all(len(hand) == 7 for hand in state.hands)


# --- timeouts -----------------------------------------------------------------------


def test_first_clue_timeout_names_the_first_seat_and_counts_no_miss():
    state, rng = start(4)
    assert st.first_clue_race(state)
    after = st.expire(state, rng=rng)
    assert (after.round, after.phase, after.storyteller) == (1, Phase.CLUE, 0)
    assert not st.first_clue_race(after)
    # The race is nobody's own turn: running out of it marks no one nearer absent (issue 15).
    assert after.misses == (0, 0, 0, 0)
    assert after.history == ()
    assert st.to_act(after) == {0}
    assert after.hands == state.hands


def test_first_clue_timeout_prefers_present_and_skips_resigned_seats():
    state, rng = start(5)
    state = st.resign(state, seat=0, rng=rng)
    absent = replace(state, misses=(0, st.ABSENT_AFTER, 0, 0, 0))
    assert st.expire(absent, rng=rng).storyteller == 2
    assert st.expire(state, rng=rng).storyteller == 1


def test_storyteller_who_gives_no_clue_loses_the_turn():
    state, rng = start(4)
    state = st.expire(state, rng=rng)  # seat 0 named
    after = st.expire(state, rng=rng)
    result = after.last_round
    assert result.skipped and result.clue is None and result.storyteller_card is None
    assert result.round == 1 and result.storyteller == 0
    assert result.table == () and result.owners == {} and result.votes == {}
    assert result.points == {0: 0, 1: 0, 2: 0, 3: 0}
    assert (after.round, after.phase, after.storyteller) == (2, Phase.CLUE, 1)
    assert after.hands == state.hands and after.draw_pile == state.draw_pile
    assert after.misses == (1, 0, 0, 0)  # only the storyteller's own turn ran out
    check_invariants(after, DECK)


def test_a_clue_beaten_to_it_in_round_1_is_told_so():
    state, rng = start(4)
    state = st.give_clue(state, seat=1, card=state.hands[1][0], text="first")
    with pytest.raises(st.RuleError) as refused:
        st.give_clue(state, seat=0, card=state.hands[0][0], text="second")
    assert refused.value.code == "clue_taken"
    state = st.submit_cards(state, seat=0, cards=[state.hands[0][0]], rng=rng)
    with pytest.raises(st.RuleError) as refused:  # handed in already: the plain refusal
        st.give_clue(state, seat=0, card=state.hands[0][0], text="third")
    assert refused.value.code == "wrong_phase"


def test_submit_timeout_draws_random_cards_for_the_missing_and_lays_the_table():
    state, rng = start(5)
    state = clue(state, 0)
    state = submit(state, 1, rng)
    hands = state.hands
    after = st.expire(state, rng=rng)
    assert after.phase == Phase.VOTE
    assert set(after.submissions) == {1, 2, 3, 4}
    for seat in (2, 3, 4):
        (card,) = after.submissions[seat]
        assert card in hands[seat] and card not in after.hands[seat]
    assert after.misses == (0, 0, 1, 1, 1)
    assert len(after.table) == 5
    # the draw is random: another rng draws other cards
    draws = {st.expire(state, rng=random.Random(s)).submissions[2] for s in range(10)}
    assert len(draws) > 1


def test_vote_timeout_missing_voters_abstain():
    state, rng = to_vote(4)
    state = vote(state, 1, position_of(state, state.submissions[3][0]), rng)
    state = vote(state, 2, storyteller_position(state), rng)
    after = st.expire(state, rng=rng)
    result = after.last_round
    assert result.votes == {1: result.votes[1], 2: result.votes[2]}
    # storyteller 3, finder 3, abstainer 3 still gets 1 for the vote on their card
    assert result.points == {0: 3, 1: 0, 2: 3, 3: 1}
    assert after.misses == (0, 0, 0, 1)
    assert after.round == 2


def test_round_where_nobody_votes_scores_nothing():
    state, rng = to_vote(4)
    after = st.expire(state, rng=rng)
    assert after.last_round.votes == {}
    assert set(after.last_round.points.values()) == {0}
    assert not after.last_round.skipped
    assert after.scores == (0, 0, 0, 0)
    assert after.discard == state.table
    assert after.misses == (0, 1, 1, 1)


def test_acting_in_time_resets_misses():
    state, rng = start(4)
    state = replace(state, misses=(1, 1, 1, 1))
    state = clue(state, 2)
    assert state.misses == (1, 1, 0, 1)
    state = submit(state, 0, rng)
    assert state.misses == (0, 1, 0, 1)


# --- absence and pause ----------------------------------------------------------------


def make_absent(seats: int, seat: int):
    """A game in round 2's clue phase where ``seat`` missed two deadlines in round 1."""
    state, rng = start(seats)
    state = clue(state, 0)
    for other in sorted(st.to_act(state) - {seat}):
        state = submit(state, other, rng)
    state = st.expire(state, rng=rng)
    for other in sorted(st.to_act(state) - {seat}):
        state = vote(state, other, decoy_position(state, other), rng)
    state = st.expire(state, rng=rng)
    assert st.is_absent(state, seat)
    return state, rng


def test_absent_players_are_played_at_once_when_only_they_are_awaited():
    state, rng = make_absent(5, 4)
    assert st.present_seats(state) == {0, 1, 2, 3}
    assert not st.is_paused(state)
    state = clue(state, 1)
    for seat in (0, 2, 3):
        state = submit(state, seat, rng)
    # seat 4 handed in at random without waiting for a deadline, and without a new miss
    assert state.phase == Phase.VOTE
    assert 4 in state.submissions
    assert state.misses[4] == st.ABSENT_AFTER
    for seat in (0, 2, 3):
        state = vote(state, seat, decoy_position(state, seat), rng)
    assert state.round == 3
    assert 4 not in state.history[-1].votes
    assert state.misses[4] == st.ABSENT_AFTER


def test_absent_player_still_takes_part_while_others_are_awaited_and_comes_back_by_acting():
    state, rng = make_absent(5, 4)
    state = clue(state, 1)
    assert 4 in st.to_act(state)
    state = submit(state, 4, rng)
    assert state.misses[4] == 0 and not st.is_absent(state, 4)


def test_absent_storyteller_loses_the_turn_at_once():
    state, rng = make_absent(5, 3)
    state = clue(state, 1)
    for seat in (0, 2, 4):
        state = submit(state, seat, rng)
    for seat in (0, 2, 4):
        state = vote(state, seat, decoy_position(state, seat), rng)
    assert state.round == 3 and state.storyteller == 2
    state = clue(state, 2)
    for seat in (0, 1, 4):
        state = submit(state, seat, rng)
    for seat in (0, 1, 4):
        state = vote(state, seat, decoy_position(state, seat), rng)
    # seat 3 (absent) would be storyteller of round 4: skipped at once
    assert state.history[3].skipped and state.history[3].storyteller == 3
    assert (state.round, state.storyteller) == (5, 4)
    assert state.misses[3] == st.ABSENT_AFTER
    check_invariants(state, DECK)


def test_game_with_fewer_than_three_present_players_pauses():
    state, rng = make_absent(3, 2)
    assert st.present_seats(state) == {0, 1}
    assert st.is_paused(state)
    raises_unchanged("paused", lambda: st.expire(state, rng=rng), state)
    state = clue(state, 1)
    state = submit(state, 0, rng)
    # nobody plays the absent seat while paused: the game waits for it
    assert st.to_act(state) == {2} and state.phase == Phase.SUBMIT
    state = submit(state, 2, rng)
    assert not st.is_paused(state)
    assert state.phase == Phase.VOTE


# --- resigning ------------------------------------------------------------------------


def test_resigned_seat_leaves_the_rotation_and_cannot_act():
    state, rng = start(5)
    state = st.resign(state, seat=3, rng=rng)
    assert st.to_act(state) == {0, 1, 2, 4}
    assert st.present_seats(state) == {0, 1, 2, 4}
    raises_unchanged("resigned", lambda: clue(state, 3), state)
    raises_unchanged("resigned", lambda: st.resign(state, seat=3, rng=rng), state)
    state = clue(state, 2)
    state = submit_all(state, rng)
    assert set(state.submissions) == {0, 1, 4}
    for seat in (0, 1, 4):
        state = vote(state, seat, decoy_position(state, seat), rng)
    assert state.storyteller == 4
    state = clue(state, 4)
    state = submit_all(state, rng)
    for seat in (0, 1, 2):
        state = vote(state, seat, decoy_position(state, seat), rng)
    assert state.storyteller == 0
    check_invariants(state, DECK)


def test_storyteller_resigning_in_clue_phase_loses_the_turn():
    state, rng = start(4)
    state = st.expire(state, rng=rng)  # seat 0 named storyteller
    state = st.resign(state, seat=0, rng=rng)
    assert state.last_round.skipped and state.last_round.storyteller == 0
    assert (state.round, state.storyteller, state.phase) == (2, 1, Phase.CLUE)


def test_resigning_in_submit_phase_hands_in_a_random_card():
    state, rng = start(4)
    state = clue(state, 0)
    state = submit(state, 1, rng)
    state = submit(state, 2, rng)
    hand = state.hands[3]
    state = st.resign(state, seat=3, rng=rng)
    assert state.phase == Phase.VOTE
    assert state.submissions[3][0] in hand
    assert st.to_act(state) == {1, 2}
    # the resigned seat's card still earns a point per vote
    state = vote(state, 1, own_positions(state, 3)[0], rng)
    state = vote(state, 2, storyteller_position(state), rng)
    assert state.last_round.points[3] == 1
    assert len(state.hands[3]) == 5  # no refill for a resigned seat
    check_invariants(state, DECK)


def test_resigning_as_the_last_awaited_voter_completes_the_round():
    state, rng = to_vote(5)
    for seat in (1, 2, 3):
        state = vote(state, seat, decoy_position(state, seat), rng)
    state = st.resign(state, seat=4, rng=rng)
    assert state.round == 2 and 4 not in state.last_round.votes


def test_game_ends_when_fewer_than_three_players_remain():
    state, rng = to_vote(3)
    state = vote(state, 1, storyteller_position(state), rng)
    state = vote(state, 2, decoy_position(state, 2), rng)
    before = state.scores
    state = clue(state, 1)
    state = st.resign(state, seat=0, rng=rng)
    assert state.phase == Phase.FINISHED
    assert state.scores == before
    assert 0 not in st.winners(state)
    assert st.winners(state) == tuple(s for s in (1, 2) if state.scores[s] == max(state.scores[1], state.scores[2]))
    check_invariants(state, DECK)  # the abandoned round's cards are in the discard


def test_resigned_seat_never_wins():
    state, rng = start(4)
    state = st.resign(state, seat=0, rng=rng)
    state = replace(state, scores=(50, 0, 0, 0))
    state = st.resign(state, seat=1, rng=rng)
    assert state.phase == Phase.FINISHED
    assert st.winners(state) == (2, 3)


# --- the end --------------------------------------------------------------------------


@pytest.mark.parametrize(("seats", "rounds"), [(3, 13), (4, 15), (5, 11), (6, 8)])
@pytest.mark.parametrize("seed", range(3))
def test_whole_game_with_84_cards_lasts_the_seeds_number_of_rounds(seats, rounds, seed):
    state, rng = start(seats, seed=seed)
    state = play_to_end(state, rng)
    assert len(state.history) == rounds
    assert state.draw_pile == ()
    assert state.phase == Phase.FINISHED
    top = max(state.scores)
    assert st.winners(state) == tuple(s for s in range(seats) if state.scores[s] == top)
    check_invariants(state, DECK)


def test_target_score_ends_the_game_after_the_round_it_is_reached():
    state, rng = to_vote(4, target_score=3)
    state = vote(state, 1, storyteller_position(state), rng)
    state = vote(state, 2, decoy_position(state, 2), rng)
    state = vote(state, 3, decoy_position(state, 3), rng)
    assert state.scores[0] == 3
    assert state.phase == Phase.FINISHED
    assert len(state.history) == 1
    top = max(state.scores)
    assert st.winners(state) == tuple(s for s in range(4) if state.scores[s] == top)
    check_invariants(state, DECK)


def test_target_score_not_reached_goes_on():
    state, rng = to_vote(4, target_score=3)
    for seat in (1, 2, 3):
        state = vote(state, seat, storyteller_position(state), rng)  # all found: 2 each
    assert state.phase == Phase.CLUE and state.round == 2


def test_a_finished_game_says_why_it_ended():
    """Issue 39: the end's reason, for the page to say it in words."""
    state, rng = start(4)
    assert st.end_reason(state) is None  # still going
    ended = st.resign(st.resign(state, seat=0, rng=rng), seat=1, rng=rng)
    assert st.end_reason(ended) == "too_few"
    state, rng = to_vote(4, target_score=3)
    state = vote(state, 1, storyteller_position(state), rng)
    state = vote(state, 2, decoy_position(state, 2), rng)
    state = vote(state, 3, decoy_position(state, 3), rng)
    assert st.end_reason(state) == "target"
    state, rng = start(4, seed=1)
    assert st.end_reason(play_to_end(state, rng)) == "cards_out"


def test_winners_only_once_finished():
    state, _ = start(4)
    assert st.winners(state) == ()


@pytest.fixture
def finished():
    state, rng = start(4, seed=5)
    return play_to_end(state, rng), rng


def test_every_action_on_a_finished_game_is_refused(finished):
    state, rng = finished
    raises_unchanged("game_finished", lambda: clue(replace(state), 0), state)
    raises_unchanged("game_finished", lambda: st.submit_cards(state, seat=1, cards=[1], rng=rng), state)
    raises_unchanged("game_finished", lambda: vote(state, 1, 1, rng), state)
    raises_unchanged("game_finished", lambda: st.resign(state, seat=1, rng=rng), state)
    raises_unchanged("game_finished", lambda: st.expire(state, rng=rng), state)
    assert st.to_act(state) == frozenset() and not st.is_paused(state)


# --- seats and the action dict ---------------------------------------------------------


@pytest.mark.parametrize("seat", [-1, 4, None, "1", True])
def test_not_a_player(seat):
    state, rng = start(4)
    raises_unchanged("not_a_player", lambda: st.give_clue(state, seat=seat, card=1, text="x"), state)
    raises_unchanged("not_a_player", lambda: st.resign(state, seat=seat, rng=rng), state)


def test_apply_dispatches_each_action():
    state, rng = start(4)
    card = state.hands[0][0]
    state = st.apply(state, seat=0, action={"type": "clue", "card": card, "text": "hi"}, rng=rng)
    assert state.storyteller_card == card
    for seat in (1, 2, 3):
        cards = [state.hands[seat][0]]
        state = st.apply(state, seat=seat, action={"type": "submit", "cards": cards}, rng=rng)
    assert state.phase == Phase.VOTE
    position = storyteller_position(state)
    state = st.apply(state, seat=1, action={"type": "vote", "position": position}, rng=rng)
    assert state.votes == {1: position}
    state = st.apply(state, seat=2, action={"type": "resign"}, rng=rng)
    assert 2 in state.resigned


@pytest.mark.parametrize(
    "action",
    [
        None,
        [],
        {},
        {"type": "dance"},
        {"type": "clue", "card": 1},
        {"type": "clue", "card": "1", "text": "x"},
        {"type": "clue", "card": 1, "text": None},
        {"type": "clue", "card": 1, "text": "x", "extra": 1},
        {"type": "submit", "cards": 5},
        {"type": "submit", "cards": "12"},
        {"type": "submit", "cards": [1.0]},
        {"type": "vote"},
        {"type": "vote", "position": "2"},
        {"type": "vote", "position": False},
        {"type": "resign", "now": True},
    ],
)
def test_apply_refuses_malformed_actions(action):
    state, rng = start(4)
    raises_unchanged("bad_action", lambda: st.apply(state, seat=0, action=action, rng=rng), state)


def test_apply_passes_rule_errors_through():
    state, rng = start(4)
    action = {"type": "clue", "card": state.hands[0][0], "text": ""}
    raises_unchanged("clue_empty", lambda: st.apply(state, seat=0, action=action, rng=rng), state)


# --- serialisation --------------------------------------------------------------------


def test_to_dict_is_json_safe_and_round_trips_exactly(finished):
    state, rng = finished
    states = [state]
    game, rng = start(3, seed=2)
    states.append(game)
    game = clue(game, 1)
    states.append(game)
    game = submit(game, 0, rng)
    states.append(game)
    game = st.resign(game, seat=2, rng=rng)  # finished mid-round
    states.append(game)
    voting, rng = to_vote(5)
    states += [voting, vote(voting, 1, storyteller_position(voting), rng)]
    skipped = st.expire(st.expire(start(4)[0], rng=rng), rng=rng)
    states.append(skipped)
    for state in states:
        data = st.to_dict(state)
        text = json.dumps(data)
        assert st.from_dict(json.loads(text)) == state
        assert st.to_dict(st.from_dict(json.loads(text))) == data
        assert isinstance(st.from_dict(json.loads(text)).phase, Phase)


def test_from_dict_refuses_an_unknown_schema():
    state, _ = start(4)
    data = st.to_dict(state) | {"schema": 99}
    with pytest.raises(ValueError):
        st.from_dict(data)
