"""The Think Alike rules engine: rounds, field kinds, scoring, review, stops, timeouts."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest

from games.engine.errors import RuleError
from think_alike.engine import rules as ta
from think_alike.engine.rules import Phase
from think_alike.tests.engine.think_alike_play import (
    ASSOC,
    COURSE,
    DUEL2,
    DUEL4,
    FIELDS,
    MOVE,
    NOW,
    START,
    SWAP,
    TASKS,
    TWO,
    Dice,
    act,
    answer_all,
    check_board,
    course_with,
    group_of,
    play_round,
    snapshot,
    start,
    to_task,
)

# --- starting --------------------------------------------------------------------


def test_the_highest_roll_starts_and_ties_roll_again():
    rng = Dice([5, 6, 6, 2, 3, 4])
    state = ta.new_game(seats=4, rng=rng, options={}, fields=FIELDS, tasks=TASKS)
    assert state.start_rolls == ((5, 6, 6, 2), (None, 3, 4, None))
    assert state.starter == 2 and state.turn == 2
    assert state.phase == Phase.ROLL and state.round == 1
    assert ta.to_act(state) == {2}


def test_default_options():
    state, _ = start(5, board="random")
    assert state.options.stop == "points" and state.options.target == 30
    assert state.options.lang == "en"
    assert state.scores == (0,) * 5 and state.misses == (0,) * 5
    assert state.token == 0 and state.board[0] == START


@pytest.mark.parametrize("seats", [2, 11, True, "4"])
def test_bad_seat_counts(seats):
    with pytest.raises(RuleError) as error:
        ta.new_game(seats=seats, rng=Dice(), options={}, fields=FIELDS, tasks=TASKS)
    assert error.value.code == "bad_seats"


@pytest.mark.parametrize(
    "options",
    [
        {"stop": "forever"},
        {"stop": "points", "target": 0},
        {"stop": "points", "target": "ten"},
        {"stop": "tasks"},
        {"stop": "tasks", "count": 41},
        {"stop": "time"},
        {"stop": "time", "ends_at": "tomorrow"},
        {"lang": "de"},
        {"board": "spiral"},
        {"board": "course", "course": COURSE[:15]},
        {"board": "course", "course": COURSE[:15] + [COURSE[1]]},
        {"board": "course", "course": COURSE[1:] + [START]},
        {"board": "course", "course": COURSE[:15] + [999]},
        {"board": "course"},
    ],
)
def test_bad_options(options):
    with pytest.raises(RuleError) as error:
        ta.new_game(seats=4, rng=Dice(), options=options, fields=FIELDS, tasks=TASKS)
    assert error.value.code == "bad_options"


@pytest.mark.parametrize(
    "fields",
    [
        FIELDS[1:],  # no start field
        FIELDS + [{"id": 99, "kind": "swap", "text": "Start 2", "start": True}],
        [{**FIELDS[0], "kind": "move"}] + FIELDS[1:],  # the start field is a swap field
        FIELDS + [{"id": 99, "kind": "duel", "text": "Duel"}],  # a duel needs its bonus
        FIELDS + [{"id": 99, "kind": "duel", "text": "Duel", "bonus": 3}],
        FIELDS + [{"id": 2, "kind": "association", "text": "Again"}],
        FIELDS + [{"id": 99, "kind": "portal", "text": "?"}],
        FIELDS + [{"id": 99, "kind": "association"}],
        FIELDS[:10],  # fewer than 16 fields
    ],
)
def test_bad_fields(fields):
    with pytest.raises(RuleError) as error:
        ta.new_game(seats=4, rng=Dice(), options={}, fields=fields, tasks=TASKS)
    assert error.value.code == "bad_fields"


@pytest.mark.parametrize(
    "tasks",
    [
        [],
        [{"id": 1, "text": "x", "answers": 0}],
        [{"id": 1, "text": "x", "answers": 1}, {"id": 1, "text": "y", "answers": 1}],
        [{"id": 1, "text": "x"}],
    ],
)
def test_bad_tasks(tasks):
    with pytest.raises(RuleError) as error:
        ta.new_game(seats=4, rng=Dice(), options={}, fields=FIELDS, tasks=tasks)
    assert error.value.code == "bad_tasks"


# --- the board -------------------------------------------------------------------


def test_random_board():
    state, _ = start(board="random")
    check_board(state)
    boards = {
        ta.new_game(seats=4, rng=random.Random(seed), options={}, fields=FIELDS, tasks=TASKS).board for seed in range(5)
    }
    for board in boards:
        assert len(board) == 16 and len(set(board)) == 16 and board[0] == START
    assert len(boards) > 1


def test_course_board():
    course = course_with(p3=SWAP, p5=DUEL4)
    state, _ = start(course=course)
    assert state.board == tuple(course)
    assert state.phase == Phase.ROLL


def test_draft_board_in_seat_order_from_the_starter():
    rng = Dice([1, 1, 6, 1])  # seat 2 starts
    state = ta.new_game(seats=4, rng=rng, options={"board": "draft"}, fields=FIELDS, tasks=TASKS)
    assert state.phase == Phase.DRAFT and state.round == 0
    assert state.board == (START,)
    order = []
    for field_id in ASSOC[:15]:
        order.append(state.drafter)
        state = act(state, state.drafter, rng, "place_field", field=field_id)
    assert order[:6] == [2, 3, 0, 1, 2, 3]
    assert state.board == (START, *ASSOC[:15])
    assert state.phase == Phase.ROLL and state.round == 1 and state.turn == 2
    assert state.drafter is None


@pytest.mark.parametrize(
    ("seat", "field_id", "code"),
    [
        (3, 5, "not_your_turn"),
        (2, START, "field_in_use"),
        (2, 999, "unknown_field"),
        (2, "5", "bad_action"),
    ],
)
def test_draft_errors(seat, field_id, code):
    state, rng = start(board="draft")
    state = act(state, 0, rng, "place_field", field=2)
    state = act(state, 1, rng, "place_field", field=3)
    assert state.drafter == 2
    before = snapshot(state)
    with pytest.raises(RuleError) as error:
        act(state, seat, rng, "place_field", field=field_id)
    assert error.value.code == code
    assert snapshot(state) == before


def test_draft_refuses_a_field_already_laid():
    state, rng = start(board="draft")
    state = act(state, 0, rng, "place_field", field=2)
    with pytest.raises(RuleError) as error:
        act(state, 1, rng, "place_field", field=2)
    assert error.value.code == "field_in_use"


# --- a round on an association field ---------------------------------------------


def test_roll_then_move_either_way():
    state, rng = start(rolls=[3])
    state = act(state, 0, rng, "roll")
    assert state.phase == Phase.MOVE and state.current.die == 3
    assert ta.destination(state, "cw") == 3 and ta.destination(state, "ccw") == 13
    cw = act(state, 0, rng, "move", direction="cw")
    ccw = act(state, 0, rng, "move", direction="ccw")
    assert cw.token == 3 and cw.current.field == COURSE[3]
    assert ta.hint(cw) == f"Theme {COURSE[3]}"
    assert ccw.token == 13 and ccw.current.field == COURSE[13]
    for moved in (cw, ccw):
        assert moved.phase == Phase.ANSWER
        assert moved.current.task == 1 and moved.pile == tuple(range(2, 41))
        assert ta.to_act(moved) == {0, 1, 2, 3}


def test_four_same_answers_score_three_each():
    state, rng = start(5, rolls=[2])
    state = play_round(state, rng, {0: "Apple", 1: "apples", 2: "an apple", 3: "APPLE", 4: "pear"})
    assert state.scores == (3, 3, 3, 3, 0)
    assert state.last_round.points == (3, 3, 3, 3, 0)
    assert state.history == (state.last_round,)


def test_each_answer_scores_on_its_own_and_duplicates_count_once():
    state, rng = start(3, rolls=[2], tasks=[t for t in TASKS if t["id"] in TWO])
    state = to_task(state, rng)
    state = answer_all(state, rng, {0: ["apple", "Apples"], 1: ["apple", "pear"], 2: ["pear", "kiwi"]})
    state = act(state, 0, rng, "confirm")
    # apple: seats 0 and 1 (seat 0's two apples count once); pear: 1 and 2; kiwi: 2.
    assert state.scores == (1, 2, 1)


def test_blank_answers_match_nothing():
    state, rng = start(3, rolls=[2], tasks=[t for t in TASKS if t["id"] in TWO])
    state = to_task(state, rng)
    state = answer_all(state, rng, {0: ["", "apple"], 1: ["", "apple"], 2: ["", " "]})
    assert all(g.key for g in state.current.groups)
    state = act(state, 0, rng, "confirm")
    assert state.scores == (1, 1, 0)


def test_score_groups():
    groups = ta.matching.group_answers(
        [(0, 0, "a"), (1, 0, "a"), (2, 0, "a"), (3, 0, "a"), (0, 1, "b"), (1, 1, "b")], "en"
    )
    assert ta.score_groups(groups, 5) == (4, 4, 3, 3, 0)


def test_the_turn_passes_clockwise():
    state, rng = start(3, rolls=[1, 1, 1, 1])
    turns = []
    for _ in range(4):
        turns.append(state.turn)
        state = play_round(state, rng, {0: "x", 1: "y", 2: "z"})
    assert turns == [0, 1, 2, 0]
    assert state.round == 5 and [r.number for r in state.history] == [1, 2, 3, 4]


def test_task_cards_never_repeat():
    state, rng = start(3, rolls=[1] * 10)
    for _ in range(10):
        state = play_round(state, rng, {0: "x", 1: "y", 2: "z"})
    tasks = [r.task for r in state.history]
    assert tasks == list(range(1, 11))
    assert not set(tasks) & set(state.pile)


# --- action fields ---------------------------------------------------------------


def test_swap_field():
    state, rng = start(rolls=[3], course=course_with(p3=SWAP))
    state = to_task(state, rng)
    assert state.phase == Phase.SWAP and state.current.task is None
    assert ta.to_act(state) == {0}
    state = act(state, 0, rng, "swap", remove=COURSE[5], add=20)
    assert state.board[5] == 20 and COURSE[5] not in state.board
    assert state.token == 5 and state.current.token == 5
    assert state.current.swap == (COURSE[5], 20)
    assert ta.hint(state) == "Theme 20"
    assert state.phase == Phase.ANSWER and state.current.task == 1
    check_board(state)


def test_swap_may_replace_the_swap_field_itself():
    state, rng = start(rolls=[3], course=course_with(p3=SWAP))
    state = act(to_task(state, rng), 0, rng, "swap", remove=SWAP, add=MOVE)
    assert state.board[3] == MOVE and state.token == 3
    # A field reached by a swap does not act: no move phase, and no hint.
    assert state.phase == Phase.ANSWER and state.current.field is None


def test_the_start_field_is_a_swap_field():
    state, rng = start(3, rolls=[2, 2, 2, 2, 2, 2, 2, 2, 4])
    for _ in range(7):  # 7 rounds of 2 steps cw: token on 14
        state = play_round(state, rng, {0: "x", 1: "y", 2: "z"})
    state = to_task(state, rng)  # 14 + 2 = 16 = position 0
    assert state.token == 0 and state.phase == Phase.SWAP


@pytest.mark.parametrize(
    ("remove", "add", "code"),
    [
        (START, 20, "start_field"),
        (COURSE[5], COURSE[6], "field_in_use"),
        (COURSE[5], START, "field_in_use"),
        (20, 21, "not_on_board"),
        (COURSE[5], 999, "unknown_field"),
        ("2", 20, "bad_action"),
    ],
)
def test_swap_errors(remove, add, code):
    state, rng = start(rolls=[3], course=course_with(p3=SWAP))
    state = to_task(state, rng)
    before = snapshot(state)
    with pytest.raises(RuleError) as error:
        act(state, 0, rng, "swap", remove=remove, add=add)
    assert error.value.code == code
    assert snapshot(state) == before


def test_swap_with_no_unused_field_is_skipped():
    fields = [f for f in FIELDS if f["id"] in set(course_with(p3=SWAP))]
    state, rng = start(rolls=[3], course=course_with(p3=SWAP), fields=fields)
    state = to_task(state, rng)
    assert state.phase == Phase.ANSWER and state.token == 3
    assert state.current.field is None and state.current.swap is None


def test_move_field():
    state, rng = start(rolls=[3], course=course_with(p3=MOVE))
    state = to_task(state, rng)
    assert state.phase == Phase.MOVE_TO and state.current.task is None
    state = act(state, 0, rng, "move_to", position=9)
    assert state.token == 9 and state.current.moved_to == 9
    assert state.current.field == COURSE[9] and state.phase == Phase.ANSWER


def test_move_to_an_action_field_gives_no_hint_and_no_action():
    state, rng = start(rolls=[3], course=course_with(p3=MOVE, p8=DUEL2))
    state = act(to_task(state, rng), 0, rng, "move_to", position=8)
    assert state.phase == Phase.ANSWER and state.current.field is None


@pytest.mark.parametrize(("position", "code"), [(3, "same_position"), (16, "bad_position"), (-1, "bad_position")])
def test_move_to_errors(position, code):
    state, rng = start(rolls=[3], course=course_with(p3=MOVE))
    state = to_task(state, rng)
    with pytest.raises(RuleError) as error:
        act(state, 0, rng, "move_to", position=position)
    assert error.value.code == code


def duel_state(bonus_field=DUEL4, seats=4):
    state, rng = start(seats, rolls=[3], course=course_with(p3=bonus_field, p9=MOVE))
    return to_task(state, rng), rng


def test_duel_field_draws_the_task_first():
    state, rng = duel_state()
    assert state.phase == Phase.DUEL
    assert state.current.task == 1  # read out before the token moves
    state = act(state, 0, rng, "duel", opponent=2, position=7)
    assert state.current.duel == ta.Duel(challenger=0, opponent=2, bonus=4)
    assert state.token == 7 and state.current.field == COURSE[7]
    assert state.phase == Phase.ANSWER and state.current.task == 1


@pytest.mark.parametrize(
    ("opponent", "position", "code"),
    [
        (0, 7, "bad_opponent"),
        (4, 7, "bad_opponent"),
        (None, 7, "bad_opponent"),
        (1, 9, "not_association"),
        (1, 3, "not_association"),
        (1, 16, "bad_position"),
        (1, None, "bad_position"),
    ],
)
def test_duel_errors(opponent, position, code):
    state, rng = duel_state()
    before = snapshot(state)
    with pytest.raises(RuleError) as error:
        act(state, 0, rng, "duel", opponent=opponent, position=position)
    assert error.value.code == code
    assert snapshot(state) == before


def test_duel_may_not_challenge_a_resigned_player():
    state, rng = duel_state(seats=5)
    state = ta.resign(state, seat=3, rng=rng)
    with pytest.raises(RuleError) as error:
        act(state, 0, rng, "duel", opponent=3, position=7)
    assert error.value.code == "bad_opponent"


def duel_round(answers, bonus_field=DUEL4, opponent=1):
    state, rng = duel_state(bonus_field)
    state = act(state, 0, rng, "duel", opponent=opponent, position=7)
    state = answer_all(state, rng, answers)
    return act(state, 0, rng, "confirm")


def test_duel_won_by_the_challenger():
    state = duel_round({0: "apple", 1: "pear", 2: "apple", 3: "apple"})
    assert state.last_round.duel.winner == 0
    assert state.scores == (2 + 4, 0, 2, 2)


def test_duel_won_by_the_opponent_with_bonus_two():
    state = duel_round({0: "kiwi", 1: "pear", 2: "pear", 3: "fig"}, bonus_field=DUEL2)
    assert state.last_round.duel.winner == 1
    assert state.scores == (0, 1 + 2, 1, 0)


def test_duel_tie_gives_no_bonus():
    state = duel_round({0: "apple", 1: "apple", 2: "pear", 3: "fig"})
    assert state.last_round.duel.winner is None
    assert state.scores == (1, 1, 0, 0)


def test_duel_without_association_fields_takes_no_position():
    fields = FIELDS + [{"id": 100 + i, "kind": "move", "text": "Move"} for i in range(16)]
    course = [START, DUEL4] + [100 + i for i in range(14)]
    state, rng = start(rolls=[1], course=course, fields=fields)
    state = to_task(state, rng)
    assert ta.association_positions(state) == ()
    with pytest.raises(RuleError):
        act(state, 0, rng, "duel", opponent=1, position=2)
    state = act(state, 0, rng, "duel", opponent=1, position=None)
    assert state.token == 1 and state.phase == Phase.ANSWER


# --- answering -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answers", "code"),
    [
        ([], "wrong_answer_count"),
        (["a", "b"], "wrong_answer_count"),
        (["x" * 61], "answer_too_long"),
        ([5], "bad_action"),
        ("apple", "bad_action"),
    ],
)
def test_answer_errors(answers, code):
    state, rng = start(rolls=[2])
    state = to_task(state, rng)
    before = snapshot(state)
    with pytest.raises(RuleError) as error:
        act(state, 1, rng, "answer", answers=answers)
    assert error.value.code == code
    assert snapshot(state) == before


def test_answers_are_trimmed_and_once_only():
    state, rng = start(rolls=[2])
    state = to_task(state, rng)
    state = act(state, 1, rng, "answer", answers=["  big   " + "x" * 56 + "  "])
    assert state.current.answers[1] == ("big " + "x" * 56,)
    assert ta.to_act(state) == {0, 2, 3}
    with pytest.raises(RuleError) as error:
        act(state, 1, rng, "answer", answers=["again"])
    assert error.value.code == "already_answered"


def test_review_waits_for_everyone_then_groups():
    state, rng = start(rolls=[2])
    state = to_task(state, rng)
    state = answer_all(state, rng, {0: "cat", 1: "Cats", 2: "dog"})
    assert state.phase == Phase.ANSWER and ta.to_act(state) == {3}
    state = act(state, 3, rng, "answer", answers=["the dog"])
    assert state.phase == Phase.REVIEW and ta.to_act(state) == {0}
    assert {frozenset(g.items) for g in state.current.groups} == {
        frozenset({(0, 0), (1, 0)}),
        frozenset({(2, 0), (3, 0)}),
    }


# --- review: merge and split -----------------------------------------------------


def in_review(answers, rolls=(2,), seats=4, **kw):
    state, rng = start(seats, rolls=list(rolls) + [2] * 10, **kw)
    state = answer_all(to_task(state, rng), rng, answers)
    assert state.phase == Phase.REVIEW
    return state, rng


def test_merge_joins_groups_for_this_round_and_later_ones():
    state, rng = in_review({0: "sofa", 1: "couch", 2: "settee", 3: "chair"})
    sofa, couch = group_of(state, 0), group_of(state, 1)
    state = act(state, 0, rng, "merge", groups=[couch.id, sofa.id])
    merged = group_of(state, 0)
    assert merged.id == min(sofa.id, couch.id)
    assert set(merged.items) == {(0, 0), (1, 0)}
    assert state.current.rulings == (
        ta.Ruling(kind="merge", groups=tuple(sorted((sofa.id, couch.id))), result=merged.id),
    )
    state = act(state, 0, rng, "confirm")
    assert state.scores == (1, 1, 0, 0)
    assert len(state.last_round.groups) == 3  # the history keeps the merged groups
    assert state.last_round.rulings[0].kind == "merge"
    # Next round: "couches" and "sofa" are grouped without asking.
    state = to_task(state, rng)
    state = answer_all(state, rng, {0: "Sofas", 1: "couches", 2: "x", 3: "y"})
    assert set(group_of(state, 0).items) == {(0, 0), (1, 0)}


def test_split_parts_a_group_for_this_round_and_later_ones():
    state, rng = in_review({0: "apple", 1: "apples", 2: "Apple", 3: "pear"})
    group = group_of(state, 0)
    assert set(group.items) == {(0, 0), (1, 0), (2, 0)}
    state = act(state, 0, rng, "split", group=group.id, items=[[1, 0]])
    assert set(group_of(state, 0).items) == {(0, 0), (2, 0)}
    new = group_of(state, 1)
    assert new.items == ((1, 0),) and new.id == state.current.next_group - 1
    assert state.current.rulings[-1] == ta.Ruling(kind="split", groups=(group.id,), result=new.id, items=((1, 0),))
    state = act(state, 0, rng, "confirm")
    assert state.scores == (1, 0, 1, 0)
    state = to_task(state, rng)
    state = answer_all(state, rng, {0: "apples", 1: "apple", 2: "x", 3: "y"})
    assert group_of(state, 0) != group_of(state, 1)


def test_split_and_merge_back_in_one_round():
    state, rng = in_review({0: "bat", 1: "bat", 2: "bat", 3: "owl"})
    group = group_of(state, 0)
    state = act(state, 0, rng, "split", group=group.id, items=[[2, 0]])
    new = group_of(state, 2)
    rulings = state.equivalences
    assert rulings == ta.Equivalences()  # identical answers: nothing to remember
    state = act(state, 0, rng, "merge", groups=[group.id, new.id])
    assert set(group_of(state, 0).items) == {(0, 0), (1, 0), (2, 0)}
    assert [r.kind for r in state.current.rulings] == ["split", "merge"]


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "merge", "groups": [1]}, "bad_merge"),
        ({"type": "merge", "groups": [1, 1]}, "bad_merge"),
        ({"type": "merge", "groups": [1, 99]}, "unknown_group"),
        ({"type": "merge", "groups": "12"}, "bad_action"),
        ({"type": "split", "group": 99, "items": [[0, 0]]}, "unknown_group"),
        ({"type": "split", "group": 1, "items": []}, "bad_split"),
        ({"type": "split", "group": 1, "items": [[0, 0], [1, 0]]}, "bad_split"),
        ({"type": "split", "group": 1, "items": [[3, 0]]}, "bad_split"),
        ({"type": "split", "group": 1, "items": [[0]]}, "bad_action"),
        ({"type": "split", "group": 1, "items": [0, 0]}, "bad_action"),
        ({"type": "split", "group": 1}, "bad_action"),
    ],
)
def test_review_errors(action, code):
    state, rng = in_review({0: "cat", 1: "cat", 2: "dog", 3: "owl"})
    before = snapshot(state)
    with pytest.raises(RuleError) as error:
        ta.apply(state, seat=0, action=action, rng=rng)
    assert error.value.code == code
    assert snapshot(state) == before


def test_only_the_turn_holder_reviews():
    state, rng = in_review({0: "cat", 1: "cat", 2: "dog", 3: "dog"})
    for action in ({"type": "confirm"}, {"type": "merge", "groups": [1, 2]}):
        with pytest.raises(RuleError) as error:
            ta.apply(state, seat=1, action=action, rng=rng)
        assert error.value.code == "not_your_turn"


# --- stop conditions -------------------------------------------------------------


def test_stop_at_the_point_target_and_share_the_win():
    state, rng = start(4, rolls=[1, 1], stop="points", target=2)
    state = play_round(state, rng, {0: "a", 1: "a", 2: "b", 3: "b"})
    assert state.phase == Phase.ROLL and state.scores == (1, 1, 1, 1)
    state = play_round(state, rng, {0: "a", 1: "a", 2: "b", 3: "b"})
    assert state.phase == Phase.FINISHED and state.current is None
    assert ta.winners(state) == (0, 1, 2, 3)
    assert ta.to_act(state) == frozenset()
    assert ta.end_reason(state) == "target"


def test_stop_after_a_number_of_task_cards():
    state, rng = start(3, rolls=[1, 1, 1], stop="tasks", count=2)
    state = play_round(state, rng, {0: "a", 1: "a", 2: "b"})
    assert not state.final_round and state.phase == Phase.ROLL
    assert ta.end_reason(state) is None  # still going
    state = to_task(state, rng)
    assert state.final_round
    state = answer_all(state, rng, {0: "a", 1: "b", 2: "b"})
    state = act(state, state.turn, rng, "confirm")
    assert state.phase == Phase.FINISHED and len(state.history) == 2
    assert state.scores == (1, 2, 1) and ta.winners(state) == (1,)
    assert ta.end_reason(state) == "tasks"
    with pytest.raises(RuleError) as error:
        act(state, 0, rng, "roll")
    assert error.value.code == "game_finished"


def test_stop_at_a_time_finishes_the_round_it_is_met_in():
    ends = NOW + timedelta(hours=1)
    state, rng = start(3, rolls=[1, 1, 1], stop="time", ends_at=ends.isoformat())
    state = play_round(state, rng, {0: "a", 1: "a", 2: "b"}, now=NOW)
    assert state.phase == Phase.ROLL
    state = act(state, 1, rng, "roll", now=NOW + timedelta(minutes=30))
    state = act(state, 1, rng, "move", now=ends, direction="cw")  # time is up now
    assert state.final_round and state.phase == Phase.ANSWER
    state = answer_all(state, rng, {0: "a", 1: "a", 2: "b"}, now=ends)
    state = act(state, 1, rng, "confirm", now=ends)
    assert state.phase == Phase.FINISHED and len(state.history) == 2
    assert ta.end_reason(state) == "time"


def test_time_stop_accepts_a_naive_end_as_utc():
    state, rng = start(3, rolls=[1], stop="time", ends_at="2025-01-01T12:00:00")
    assert state.options.ends_at == "2025-01-01T12:00:00+00:00"
    state = play_round(state, rng, {0: "a", 1: "a", 2: "b"}, now=NOW)
    assert state.phase == Phase.FINISHED


def test_the_game_ends_when_the_task_pile_runs_out():
    state, rng = start(3, rolls=[1, 1], tasks=TASKS[:2])
    state = play_round(state, rng, {0: "a", 1: "a", 2: "b"})
    assert state.phase == Phase.ROLL
    state = play_round(state, rng, {0: "a", 1: "a", 2: "b"})
    assert state.phase == Phase.FINISHED and state.pile == ()
    assert ta.end_reason(state) == "cards_out"


def test_the_end_reason_names_the_stop_met_else_the_empty_pile():
    state, rng = start(3, rolls=[1, 1], tasks=TASKS[:2], stop="tasks", count=2)
    state = play_round(state, rng, {0: "a", 1: "a", 2: "b"})
    state = play_round(state, rng, {0: "a", 1: "a", 2: "b"})
    assert ta.end_reason(state) == "tasks"  # the count was met, as the pile ran out
    state, rng = start(3, rolls=[1, 1], tasks=TASKS[:2], stop="time", ends_at=(NOW + timedelta(days=1)).isoformat())
    state = play_round(state, rng, {0: "a", 1: "a", 2: "b"}, now=NOW)
    state = play_round(state, rng, {0: "a", 1: "a", 2: "b"}, now=NOW)
    assert state.phase == Phase.FINISHED and ta.end_reason(state) == "cards_out"  # before the end time


# --- timeouts and absence --------------------------------------------------------


@pytest.mark.parametrize("steps", [0, 1])
def test_expired_turn_holder_phases_are_played_at_random(steps):
    state, rng = start(rolls=[3], course=course_with(p3=MOVE))
    if steps:
        state = act(state, 0, rng, "roll")
    state = ta.expire(state, rng=rng)
    assert state.phase == Phase.ANSWER and state.current.auto
    assert state.current.die is not None and state.current.direction in ("cw", "ccw")
    assert state.current.task == 1
    assert state.misses == (1, 0, 0, 0)


@pytest.mark.parametrize("field_id", [SWAP, MOVE, DUEL2])
def test_expired_action_fields_are_played_at_random(field_id):
    state, rng = start(rolls=[3], course=course_with(p3=field_id))
    state = to_task(state, rng)
    assert state.phase in (Phase.SWAP, Phase.MOVE_TO, Phase.DUEL)
    state = ta.expire(state, rng=rng)
    assert state.phase == Phase.ANSWER and state.current.auto
    current = state.current
    if field_id == SWAP:
        assert current.swap is not None and current.swap[0] != START
        check_board(state)
    elif field_id == MOVE:
        assert current.moved_to is not None and current.moved_to != 3
    else:
        assert current.duel.opponent in (1, 2, 3)
        assert current.token in ta.association_positions(state)


def test_expired_answers_score_nothing():
    state, rng = start(rolls=[2])
    state = answer_all(to_task(state, rng), rng, {0: "a", 1: "a"})
    state = ta.expire(state, rng=rng)
    assert state.phase == Phase.REVIEW
    assert state.current.answers[2:] == (None, None)
    assert state.misses == (0, 0, 1, 1)
    state = act(state, 0, rng, "confirm")
    assert state.scores == (1, 1, 0, 0)


def test_expired_review_is_confirmed_without_a_miss():
    state, rng = in_review({0: "a", 1: "a", 2: "b", 3: "c"})
    state = ta.expire(state, rng=rng)
    assert state.phase == Phase.ROLL and state.turn == 1
    assert state.scores == (1, 1, 0, 0) and state.misses == (0, 0, 0, 0)


def test_expired_draft_places_a_random_field():
    state, rng = start(board="draft")
    state = ta.expire(state, rng=rng)
    assert len(state.board) == 2 and state.board[1] in ASSOC + (SWAP, MOVE, DUEL2, DUEL4)
    assert state.drafter == 1 and state.misses == (1, 0, 0, 0)


def test_expire_on_a_finished_game():
    state, rng = start(3, rolls=[1], tasks=TASKS[:1])
    state = play_round(state, rng, {0: "a", 1: "a", 2: "b"})
    with pytest.raises(RuleError) as error:
        ta.expire(state, rng=rng)
    assert error.value.code == "game_finished"


def miss_twice(state, rng, seat, rounds=2):
    """Play ``rounds`` rounds in which ``seat`` never answers (it expires)."""
    for _ in range(rounds):
        state = to_task(state, rng)
        others = {s: "a" for s in ta.to_act(state) if s != seat}
        state = ta.expire(answer_all(state, rng, others), rng=rng)
        state = act(state, state.turn, rng, "confirm")
    return state


def test_absent_players_are_played_when_only_they_are_awaited():
    state, rng = start(5, rolls=[1] * 10)
    state = miss_twice(state, rng, 4)
    assert ta.is_absent(state, 4) and ta.present_seats(state) == {0, 1, 2, 3}
    assert not ta.is_paused(state)
    state = to_task(state, rng)
    state = answer_all(state, rng, {0: "a", 1: "a", 2: "b"})
    assert state.phase == Phase.ANSWER  # seat 3 (present) is still awaited
    state = act(state, 3, rng, "answer", answers=["b"])
    assert state.phase == Phase.REVIEW and state.current.answers[4] is None
    assert state.misses[4] == 3


def test_an_absent_turn_holder_is_played_at_once():
    state, rng = start(4, rolls=[1] * 10)
    state = miss_twice(state, rng, 2)  # rounds of seats 0 and 1
    assert state.turn == 2 and state.phase == Phase.ANSWER  # seat 2's setup was done
    assert state.current.auto and state.current.turn == 2
    assert ta.to_act(state) == {0, 1, 2, 3}
    # Their review is confirmed at once too, once the others have answered.
    state = answer_all(state, rng, {0: "a", 1: "a", 3: "b"})
    assert state.phase == Phase.ROLL and state.turn == 3
    assert state.history[-1].turn == 2


def test_acting_again_ends_absence():
    state, rng = start(4, rolls=[1] * 10)
    state = miss_twice(state, rng, 3)
    assert ta.is_absent(state, 3)
    state = to_task(state, rng)
    state = act(state, 3, rng, "answer", answers=["b"])
    assert not ta.is_absent(state, 3) and state.misses[3] == 0


def test_a_game_with_too_few_present_players_pauses():
    state, rng = start(3, rolls=[1] * 10)
    state = miss_twice(state, rng, 2)
    assert ta.is_paused(state) and ta.to_act(state) == {2}
    before = snapshot(state)
    with pytest.raises(RuleError) as error:
        ta.expire(state, rng=rng)
    assert error.value.code == "paused"
    assert snapshot(state) == before
    state = act(state, 2, rng, "rejoin")
    assert not ta.is_paused(state) and state.misses[2] == 0
    with pytest.raises(RuleError) as error:
        act(state, 2, rng, "rejoin")
    assert error.value.code == "not_absent"


# --- resigning -------------------------------------------------------------------


def test_resign_of_the_last_awaited_player_opens_the_review():
    state, rng = start(5, rolls=[2])
    state = answer_all(to_task(state, rng), rng, {0: "a", 1: "a", 2: "b", 3: "b"})
    state = ta.resign(state, seat=4, rng=rng)
    assert state.phase == Phase.REVIEW and 4 in state.resigned


def test_resign_of_the_turn_holder_before_the_answers_passes_the_turn():
    state, rng = start(4, rolls=[3, 2], course=course_with(p3=DUEL2))
    state = to_task(state, rng)
    assert state.phase == Phase.DUEL and state.pile[0] == 2
    state = ta.apply(state, seat=0, action={"type": "resign"}, rng=rng)
    assert state.phase == Phase.ROLL and state.turn == 1 and state.round == 1
    assert state.pile[0] == 2  # the drawn card stays out
    with pytest.raises(RuleError) as error:
        act(state, 0, rng, "roll")
    assert error.value.code == "resigned"
    with pytest.raises(RuleError) as error:
        ta.resign(state, seat=0, rng=rng)
    assert error.value.code == "resigned"


def test_resign_of_the_turn_holder_in_review_confirms():
    state, rng = in_review({0: "a", 1: "a", 2: "a", 3: "b"})
    state = ta.resign(state, seat=0, rng=rng)
    assert state.phase == Phase.ROLL and state.turn == 1
    assert state.scores == (2, 2, 2, 0)  # answers given stay in play


def test_resigned_players_are_skipped_in_turn_order():
    state, rng = start(4, rolls=[1] * 5)
    state = ta.resign(state, seat=1, rng=rng)
    state = play_round(state, rng, {0: "a", 2: "a", 3: "b"})
    assert state.turn == 2


def test_resigned_duellist_voids_the_duel():
    state, rng = duel_state(seats=5)
    state = act(state, 0, rng, "duel", opponent=1, position=7)
    state = answer_all(state, rng, {0: "a", 1: "b", 2: "a", 3: "c"})
    state = ta.resign(state, seat=1, rng=rng)
    state = act(state, 4, rng, "answer", answers=["d"])
    state = act(state, 0, rng, "confirm")
    assert state.last_round.duel.winner is None and state.scores[0] == 1


def test_resign_leaving_two_players_ends_the_game():
    state, rng = start(3, rolls=[1, 1])
    state = play_round(state, rng, {0: "a", 1: "a", 2: "b"})
    state = to_task(state, rng)
    state = ta.resign(state, seat=0, rng=rng)
    assert state.phase == Phase.FINISHED and state.current is None
    assert len(state.history) == 1
    assert ta.winners(state) == (1,)
    assert ta.end_reason(state) == "too_few"


def test_resign_of_the_drafter_passes_the_draft():
    state, rng = start(4, board="draft")
    state = ta.resign(state, seat=0, rng=rng)
    assert state.drafter == 1
    for field_id in ASSOC[:15]:
        state = act(state, state.drafter, rng, "place_field", field=field_id)
    assert state.phase == Phase.ROLL and state.turn == 1  # the starter has left


# --- every refused action leaves the state as it was ------------------------------


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (7, {"type": "roll"}, "not_a_player"),
        (-1, {"type": "roll"}, "not_a_player"),
        (True, {"type": "roll"}, "not_a_player"),
        (0, ["roll"], "bad_action"),
        (0, {"type": "fly"}, "bad_action"),
        (0, {}, "bad_action"),
        (0, {"type": "roll", "twice": True}, "bad_action"),
        (0, {"type": "move"}, "bad_action"),
        (1, {"type": "roll"}, "not_your_turn"),
        (0, {"type": "move", "direction": "cw"}, "wrong_phase"),
        (0, {"type": "answer", "answers": ["a"]}, "wrong_phase"),
        (0, {"type": "confirm"}, "wrong_phase"),
        (0, {"type": "place_field", "field": 20}, "wrong_phase"),
        (0, {"type": "swap", "remove": 2, "add": 20}, "wrong_phase"),
        (0, {"type": "move_to", "position": 4}, "wrong_phase"),
        (0, {"type": "duel", "opponent": 1, "position": 4}, "wrong_phase"),
        (0, {"type": "merge", "groups": [1, 2]}, "wrong_phase"),
        (0, {"type": "split", "group": 1, "items": [[0, 0]]}, "wrong_phase"),
        (0, {"type": "rejoin"}, "not_absent"),
        (0, {"type": "resign", "now": 1}, "bad_action"),
    ],
)
def test_refused_actions_change_nothing(seat, action, code):
    state, rng = start()
    before = snapshot(state)
    with pytest.raises(RuleError) as error:
        ta.apply(state, seat=seat, action=action, rng=rng)
    assert error.value.code == code
    assert snapshot(state) == before


def test_move_needs_a_direction():
    state, rng = start(rolls=[2])
    state = act(state, 0, rng, "roll")
    with pytest.raises(RuleError) as error:
        act(state, 0, rng, "move", direction="up")
    assert error.value.code == "bad_action"


# --- serialisation ---------------------------------------------------------------


def test_round_trip_through_json_in_every_phase():
    state, rng = start(rolls=[3, 2, 1], course=course_with(p3=DUEL4, p5=SWAP))
    seen = []
    state = act(state, 0, rng, "roll")
    seen.append(state)
    state = act(state, 0, rng, "move", direction="cw")
    seen.append(state)
    state = act(state, 0, rng, "duel", opponent=2, position=7)
    seen.append(state)
    state = answer_all(state, rng, {0: "Apple", 1: "apples", 2: "pear"})
    seen.append(state)
    state = act(state, 3, rng, "answer", answers=["pears"])
    state = act(state, 0, rng, "split", group=group_of(state, 0).id, items=[[1, 0]])
    seen.append(state)
    state = act(state, 0, rng, "confirm")
    seen.append(state)
    state = act(to_task(state, rng, "ccw"), 1, rng, "swap", remove=COURSE[9], add=20)
    seen.append(state)
    draft, _ = start(board="draft")
    seen.append(draft)
    for s in seen:
        data = json.loads(json.dumps(ta.to_dict(s)))
        assert ta.from_dict(data) == s
    assert ta.to_dict(seen[-2])["schema"] == ta.SCHEMA


def test_from_dict_refuses_another_schema():
    state, _ = start()
    with pytest.raises(ValueError):
        ta.from_dict({**ta.to_dict(state), "schema": 99})
