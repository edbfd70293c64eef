"""Short hands and empty piles (issue 37): whatever the site withdrew from a game, the engine, the timeouts and
the moves the site plays for people (a random card at a deadline, the kind's sample move) never raise, and
every phase can be completed, or the game ends cleanly.

The states are games played some steps, then cut: every hand to any size from 0 to its own, the draw pile to
any size from 0 to its own (as withdrawn cards with nothing to replace them would leave them).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from games.engine.errors import RuleError
from storyteller.engine import rules as st
from storyteller.engine.rules import Phase
from storyteller.tests.engine.storyteller_play import all_cards, start

STEPS = 400  # far more than any game of these sizes needs


def move_of(state: st.State, seat: int, rng) -> dict | None:
    """A legal move of ``seat`` (in ``to_act``) as a person or the site's sample move would make it."""
    hand = list(state.hands[seat])
    if state.phase == Phase.CLUE:
        return {"type": "clue", "card": rng.choice(hand), "text": "a clue"} if hand else None
    if state.phase == Phase.SUBMIT:
        return {"type": "submit", "cards": rng.sample(hand, st.cards_to_submit(state, seat))}
    mine = set(state.submissions.get(seat, ()))
    positions = [p for p, card in enumerate(state.table, 1) if card not in mine]
    return {"type": "vote", "position": rng.choice(positions)} if positions else None


@hs.composite
def cut_games(draw):
    """A game played a few steps (moves and expiries), then its hands and pile cut short."""
    seats = draw(hs.integers(3, 6))
    extra = draw(hs.integers(0, 30))
    state, rng = start(seats, seed=draw(hs.integers(0, 10_000)), deck=tuple(range(1, seats * 7 + extra + 1)))
    for _ in range(draw(hs.integers(0, 12))):
        if state.phase == Phase.FINISHED or st.is_paused(state):
            break
        if draw(hs.booleans()):
            state = st.expire(state, rng=rng)
        else:
            seat = rng.choice(sorted(st.to_act(state)))
            state = st.apply(state, seat=seat, action=move_of(state, seat, rng), rng=rng)
    hands = tuple(hand[: draw(hs.integers(0, len(hand)))] for hand in state.hands)
    pile = state.draw_pile[: draw(hs.integers(0, len(state.draw_pile)))]
    return replace(state, hands=hands, draw_pile=pile), rng


@pytest.mark.parametrize("hand", range(8))
@pytest.mark.parametrize("seats", [3, 4, 6])
def test_a_submission_asks_no_more_than_the_hand_holds(seats, hand):
    state, rng = start(seats)
    state = st.give_clue(state, seat=0, card=state.hands[0][0], text="clue")
    short = replace(state, hands=tuple(h[:hand] if s == 1 else h for s, h in enumerate(state.hands)))
    wanted = min(st.cards_to_submit(state), hand)
    assert st.cards_to_submit(short, 1) == wanted
    if hand:
        after = st.submit_cards(short, seat=1, cards=short.hands[1][:wanted], rng=rng)
        assert after.submissions[1] == short.hands[1][:wanted]
        with pytest.raises(RuleError, match="card"):
            st.submit_cards(short, seat=1, cards=short.hands[1][: wanted - 1] if wanted > 1 else [], rng=rng)
    timed_out = st.expire(short, rng=rng)  # the deadline's random card: never "sample larger than population"
    assert timed_out.phase in (Phase.VOTE, Phase.CLUE, Phase.FINISHED)


def test_an_empty_hand_is_not_waited_for_and_hands_in_nothing():
    state, rng = start(4)
    state = replace(state, hands=(state.hands[0], (), state.hands[2], state.hands[3]))
    state = st.apply(state, seat=0, action={"type": "clue", "card": state.hands[0][0], "text": "x"}, rng=rng)
    assert state.phase == Phase.SUBMIT and st.to_act(state) == {2, 3} and state.submissions[1] == ()
    for seat in (2, 3):
        state = st.submit_cards(state, seat=seat, cards=state.hands[seat][:1], rng=rng)
    assert state.phase == Phase.VOTE and len(state.table) == 3 and st.to_act(state) == {1, 2, 3}


def test_a_storyteller_with_an_empty_hand_loses_the_turn_and_hands_refill_from_the_pile():
    state, rng = start(4)
    state = replace(st.expire(state, rng=rng), hands=((), *start(4)[0].hands[1:]))  # seat 0 named, no card
    assert state.storyteller == 0 and move_of(state, 0, rng) is None
    pile = len(state.draw_pile)
    state = st.expire(state, rng=rng)
    assert state.phase == Phase.CLUE and state.storyteller == 1 and state.history[-1].skipped
    assert all(len(hand) == 6 for hand in state.hands) and len(state.draw_pile) == pile - 6


def test_empty_hands_and_an_empty_pile_end_the_game():
    state, rng = start(3)
    state = replace(state, hands=((), (), ()), draw_pile=())
    state = st.expire(state, rng=rng)  # the race for the first clue names a storyteller, who cannot tell
    assert state.phase == Phase.FINISHED


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cut_games())
def test_short_hands_never_raise_and_every_game_ends(game):
    state, rng = game
    deck = all_cards(state)  # what the cut left: no card is lost or doubled from here on
    for step in range(STEPS):
        if state.phase == Phase.FINISHED:
            break
        if st.is_paused(state):
            break  # waits for a player to come back, as the rules say
        waiting = sorted(st.to_act(state))
        # Every seat the game waits on has a move (the site's sample move and the bots use the same counts).
        moves = {seat: move_of(state, seat, rng) for seat in waiting}
        assert all(move is not None for move in moves.values()) or state.phase == Phase.CLUE
        if step % 3 == 2 or not any(moves.values()):
            before = (state.round, state.phase)
            state = st.expire(state, rng=rng)  # the deadline: a random card, abstention, a lost turn
            assert (state.round, state.phase) != before  # a phase is always completed by its deadline
        else:
            seat, move = next((seat, move) for seat, move in moves.items() if move is not None)
            state = st.apply(state, seat=seat, action=move, rng=rng)
        assert all(len(hand) <= st.hand_size(state) for hand in state.hands)
        assert Counter(all_cards(state)) == Counter(deck)
    else:
        pytest.fail("the game never ended")
    assert state.phase == Phase.FINISHED or st.is_paused(state)
