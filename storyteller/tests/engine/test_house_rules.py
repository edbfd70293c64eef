"""House rules in the engine: a hand of 4 to 8 cards; a clue drawn or sung (a media id) beside or instead of words."""

from __future__ import annotations

import random

import pytest

from storyteller.engine import rules as st
from storyteller.engine.rules import Phase
from storyteller.tests.engine.storyteller_play import (
    DECK,
    check_invariants,
    play_to_end,
    raises_unchanged,
    start,
    submit_all,
)


@pytest.mark.parametrize(("seats", "size"), [(3, 4), (4, 8), (6, 5), (5, 7)])
def test_a_house_rule_hand_size_is_dealt_and_refilled(seats, size):
    state, rng = start(seats, hand_size=size)
    assert [len(hand) for hand in state.hands] == [size] * seats
    assert st.hand_size(state) == size
    state = st.give_clue(state, seat=0, card=state.hands[0][0], text="a clue")
    state = submit_all(state, rng)
    for voter in sorted(st.to_act(state)):
        own = set(state.submissions[voter])
        position = next(p for p, card in enumerate(state.table, 1) if card not in own)
        state = st.cast_vote(state, seat=voter, position=position, rng=rng)
    assert state.round == 2
    assert [len(hand) for hand in state.hands] == [size] * seats  # refilled to the house rule's size
    check_invariants(state, DECK)
    final = play_to_end(state, random.Random(seats))
    check_invariants(final, DECK)


@pytest.mark.parametrize("size", [3, 9, 0, -1, True, "6"])
def test_a_hand_size_out_of_range_is_refused(size):
    with pytest.raises(st.RuleError) as caught:
        start(4, hand_size=size)
    assert caught.value.code == "bad_options"


def test_a_bigger_hand_needs_a_bigger_deck():
    with pytest.raises(st.RuleError) as caught:
        st.new_game(seats=6, deck=range(1, 48), rng=random.Random(0), options=st.Options(hand_size=8))
    assert caught.value.code == "deck_too_small"
    state = st.new_game(seats=6, deck=range(1, 49), rng=random.Random(0), options=st.Options(hand_size=8))
    assert state.draw_pile == ()


def test_a_clue_may_be_a_drawing_or_sound_without_words():
    state, rng = start(4)
    card = state.hands[2][0]
    after = st.apply(state, seat=2, action={"type": "clue", "card": card, "text": "", "media": 17}, rng=rng)
    assert (after.phase, after.storyteller, after.clue, after.clue_media) == (Phase.SUBMIT, 2, "", 17)
    after = submit_all(after, rng)
    for voter in sorted(st.to_act(after)):
        own = set(after.submissions[voter])
        position = next(p for p, c in enumerate(after.table, 1) if c not in own)
        after = st.cast_vote(after, seat=voter, position=position, rng=rng)
    assert after.last_round.clue_media == 17 and after.last_round.clue == ""
    assert after.clue_media is None  # the next round starts without one
    assert st.from_dict(st.to_dict(after)) == after


def test_a_clue_with_neither_words_nor_media_is_empty():
    state, rng = start(4)
    card = state.hands[0][0]
    raises_unchanged("clue_empty", lambda: st.give_clue(state, seat=0, card=card, text="  "), state)
    raises_unchanged(
        "bad_action",
        lambda: st.apply(state, seat=0, action={"type": "clue", "card": card, "text": "", "media": "7"}, rng=rng),
        state,
    )


def test_a_schema_2_state_loads_with_no_hand_size_and_no_media():
    state, _ = start(4)
    data = st.to_dict(state)
    data["schema"] = 2
    del data["options"]["hand_size"]
    del data["clue_media"]
    assert st.from_dict(data) == state
