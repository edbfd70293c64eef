"""Odd one out's pure rules: no database."""

import random

import pytest

from games.engine.errors import RuleError
from games.tests.odd_one_out.engine import rules

WORDS = ["apple", "river", "lamp", "cloud", "owl"]


def new(seats=3, rounds=3, seed=1):
    return rules.new_game(seats=seats, rounds=rounds, words=WORDS, rng=random.Random(seed))


def pick(state, seat, word):
    return rules.apply(state, seat=seat, action={"type": "pick", "word": word})


def test_a_new_game_shows_words_from_the_list_every_round():
    state = new()
    assert state.round == 1 and state.phase == rules.Phase.PICK
    assert len(state.word_lists) == 3
    assert all(len(words) == rules.WORDS_SHOWN and set(words) <= set(WORDS) for words in state.word_lists)
    assert rules.to_act(state) == {0, 1, 2}


def test_the_majority_scores_and_the_round_moves_on_when_all_have_picked():
    state = pick(pick(new(), 0, "Apple"), 1, "  apple ")
    assert state.round == 1 and rules.to_act(state) == {2}
    state = pick(state, 2, "lamp")
    assert state.round == 2 and state.picks == {}
    assert state.scores == (1, 1, 0)
    assert state.last_round.majority == "apple"
    assert state.last_round.picks == {0: "apple", 1: "apple", 2: "lamp"}


@pytest.mark.parametrize(
    ("picks", "expected"),
    [({0: "a", 1: "b", 2: "c"}, None), ({0: "a", 1: "a", 2: "b", 3: "b"}, None), ({0: "a"}, None), ({}, None)],
)
def test_no_majority_no_points(picks, expected):
    assert rules.majority(picks) == expected


def test_a_deadline_makes_the_silent_abstain_and_ends_the_game_after_the_last_round():
    state = new(rounds=2)
    state = rules.expire(pick(pick(state, 0, "owl"), 1, "owl"))
    assert state.round == 2 and state.scores == (1, 1, 0) and state.misses == (0, 0, 1)
    state = rules.expire(state)
    assert state.phase == rules.Phase.FINISHED
    assert rules.winners(state) == (0, 1)
    assert rules.present_seats(state) == {0, 1}  # seat 2 missed two deadlines in a row
    assert not rules.is_paused(state)
    with pytest.raises(RuleError) as refused:
        rules.expire(state)
    assert refused.value.code == "game_finished"


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "pick", "word": ""}, "word_empty"),
        ({"type": "pick", "word": "x" * 31}, "word_too_long"),
        ({"type": "pick", "word": 3}, "word_empty"),
        ({"type": "pick"}, "bad_action"),
        ({"type": "pick", "word": "owl", "extra": 1}, "bad_action"),
        ({"type": "vote", "position": 1}, "bad_action"),
    ],
)
def test_bad_actions_are_refused(action, code):
    with pytest.raises(RuleError) as refused:
        rules.apply(new(), seat=0, action=action)
    assert refused.value.code == code


def test_one_pick_per_round():
    with pytest.raises(RuleError) as refused:
        pick(pick(new(), 0, "owl"), 0, "lamp")
    assert refused.value.code == "already_picked"


def test_resigning_leaves_the_others_to_play_and_two_resignations_end_it():
    state = rules.resign(pick(pick(new(), 0, "owl"), 1, "owl"), seat=2)
    assert state.round == 2 and state.scores == (1, 1, 0)  # the last one awaited left: the round is scored
    state = rules.resign(state, seat=1)
    assert state.phase == rules.Phase.FINISHED and rules.winners(state) == (0,)
    with pytest.raises(RuleError):
        pick(state, 0, "owl")


def test_every_state_round_trips_through_its_dict():
    state = new(seats=4)
    seen = [state]
    for seat, word in [(0, "owl"), (1, "owl"), (2, "lamp"), (3, "mine")]:
        state = pick(state, seat, word)
        seen.append(state)
    seen.append(rules.resign(state, seat=3))
    seen.append(rules.expire(seen[-1]))
    for state in seen:
        assert rules.from_dict(rules.to_dict(state)) == state


def test_seats_and_options_are_checked():
    with pytest.raises(RuleError):
        new(seats=2)
    with pytest.raises(RuleError):
        new(rounds=0)
    with pytest.raises(RuleError):
        rules.new_game(seats=3, words=["a", "b"], rng=random.Random(1))
