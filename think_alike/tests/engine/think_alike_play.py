"""Helpers that play the Think Alike engine in tests: a small world, legal moves, invariants."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

from think_alike.engine import rules as ta
from think_alike.engine.rules import Phase

# --- a small game world ----------------------------------------------------------

START, SWAP, MOVE, DUEL2, DUEL4 = 1, 40, 41, 42, 44
ASSOC = tuple(range(2, 26))  # 24 association fields, ids 2..25
FIELDS = (
    [{"id": START, "kind": "swap", "text": "Start", "start": True}]
    + [{"id": i, "kind": "association", "text": f"Theme {i}"} for i in ASSOC]
    + [
        {"id": SWAP, "kind": "swap", "text": "Swap"},
        {"id": MOVE, "kind": "move", "text": "Move"},
        {"id": DUEL2, "kind": "duel", "text": "Duel 2", "bonus": 2},
        {"id": DUEL4, "kind": "duel", "text": "Duel 4", "bonus": 4},
    ]
)
ONE, TWO = tuple(range(1, 31)), tuple(range(31, 41))  # tasks asking 1 / 2 answers
TASKS = [{"id": i, "text": f"Task {i}", "answers": 1 if i in ONE else 2} for i in ONE + TWO]
COURSE = [START, *ASSOC[:15]]  # the start field, then 15 association fields
NOW = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)


class Dice(random.Random):
    """An rng whose die rolls are scripted and which leaves order alone (pile = TASKS)."""

    def __init__(self, rolls=(), seed=0):
        super().__init__(seed)
        self.rolls = list(rolls)

    def randint(self, a, b):
        if self.rolls:
            return self.rolls.pop(0)
        return super().randint(a, b)

    def shuffle(self, x):  # noqa: ARG002 - keeps the given order
        return None


def course_with(**at: int) -> list[int]:
    """COURSE with the field ids given as ``p<position>=field_id`` put in place."""
    course = list(COURSE)
    for name, field_id in at.items():
        course[int(name[1:])] = field_id
    return course


def start(seats=4, *, rolls=(), tasks=TASKS, fields=FIELDS, **options):
    """A game where seat 0 starts (it rolls 6, the others 1), then ``rolls`` for the die."""
    options.setdefault("board", "course")
    if options["board"] == "course":
        options.setdefault("course", COURSE)
    rng = Dice([6] + [1] * (seats - 1) + list(rolls))
    state = ta.new_game(seats=seats, rng=rng, options=options, fields=fields, tasks=tasks)
    return state, rng


def act(state, seat, rng, type_, now=None, **payload):
    return ta.apply(state, seat=seat, action={"type": type_, **payload}, rng=rng, now=now)


def to_task(state, rng, direction="cw"):
    """Roll (the scripted die) and move the turn holder."""
    state = act(state, state.turn, rng, "roll")
    return act(state, state.turn, rng, "move", direction=direction)


def answer_all(state, rng, answers, now=None):
    """``answers``: seat -> list of texts, or a text for one-answer tasks."""
    for seat, given in answers.items():
        given = [given] if isinstance(given, str) else list(given)
        state = act(state, seat, rng, "answer", now=now, answers=given)
    return state


def play_round(state, rng, answers, direction="cw", now=None):
    """Roll, move to an association field, answer, confirm."""
    state = to_task(state, rng, direction)
    assert state.phase == Phase.ANSWER
    state = answer_all(state, rng, answers, now=now)
    return act(state, state.turn, rng, "confirm", now=now)


def snapshot(state):
    return json.dumps(ta.to_dict(state), sort_keys=True)


def group_of(state, seat, index=0):
    return next(g for g in state.current.groups if (seat, index) in g.items)


def check_board(state):
    assert len(state.board) == ta.BOARD_SIZE
    assert len(set(state.board)) == ta.BOARD_SIZE
    assert state.board[0] == START
    assert set(state.board) <= {f.id for f in state.fields}


WORDS = ["apple", "Apples", "the apple", "pear", "pears", "kiwi", "plum", "", "banana"]


def legal_action(state, seat, rng):
    """One random legal action of ``seat``, which must be in ``to_act``."""
    phase = state.phase
    if phase == Phase.DRAFT:
        return {"type": "place_field", "field": rng.choice(ta.unused_fields(state))}
    if phase == Phase.ROLL:
        return {"type": "roll"}
    if phase == Phase.MOVE:
        return {"type": "move", "direction": rng.choice(["cw", "ccw"])}
    if phase == Phase.SWAP:
        removable = [f for f in state.board if f != START]
        add = rng.choice(ta.unused_fields(state))
        return {"type": "swap", "remove": rng.choice(removable), "add": add}
    if phase == Phase.MOVE_TO:
        others = [p for p in range(16) if p != state.token]
        return {"type": "move_to", "position": rng.choice(others)}
    if phase == Phase.DUEL:
        opponents = [s for s in range(state.seats) if s != seat and s not in state.resigned]
        positions = ta.association_positions(state)
        return {
            "type": "duel",
            "opponent": rng.choice(opponents),
            "position": rng.choice(positions) if positions else None,
        }
    if phase == Phase.ANSWER:
        wanted = ta.task(state, state.current.task).answers
        return {"type": "answer", "answers": [rng.choice(WORDS) for _ in range(wanted)]}
    groups = state.current.groups
    choice = rng.random()
    if choice < 0.2 and len(groups) >= 2:
        return {"type": "merge", "groups": [g.id for g in rng.sample(groups, 2)]}
    if choice < 0.4:
        big = [g for g in groups if len(g.items) >= 2]
        if big:
            group = rng.choice(big)
            return {"type": "split", "group": group.id, "items": [list(group.items[0])]}
    return {"type": "confirm"}


def noise_action(rng):
    """Any action, legal or not, as a client might send it."""
    kind = rng.choice(list(ta.ACTIONS) + ["fly"])
    number = lambda: rng.randint(-1, 60)  # noqa: E731
    payloads = {
        "place_field": {"field": number()},
        "move": {"direction": rng.choice(["cw", "ccw", "up"])},
        "swap": {"remove": number(), "add": number()},
        "move_to": {"position": rng.randint(-1, 16)},
        "duel": {"opponent": rng.randint(-1, 10), "position": rng.randint(-1, 16)},
        "answer": {"answers": [rng.choice(WORDS + ["x" * 61])] * rng.randint(0, 3)},
        "merge": {"groups": [rng.randint(0, 5) for _ in range(rng.randint(0, 3))]},
        "split": {"group": rng.randint(0, 5), "items": [[rng.randint(0, 10), rng.randint(0, 2)]]},
    }
    return {"type": kind, **payloads.get(kind, {})}


def check_invariants(state):
    if state.round > 0:  # not drafting, nor ended by resignations while drafting
        check_board(state)
    else:
        assert state.board[0] == START and len(set(state.board)) == len(state.board)
    totals = [sum(r.points[s] for r in state.history) for s in range(state.seats)]
    assert list(state.scores) == totals
    drawn = [r.task for r in state.history]
    if state.current is not None and state.current.task is not None:
        drawn.append(state.current.task)
    assert len(drawn) == len(set(drawn)) and not set(drawn) & set(state.pile)
    assert ta.to_act(state) <= set(range(state.seats)) - state.resigned
    assert state.last_round == (state.history[-1] if state.history else None)
    if state.phase not in (Phase.DRAFT, Phase.FINISHED):
        assert state.round == len(state.history) + 1
    for record in state.history:
        base = ta.score_groups(record.groups, state.seats)
        bonus = [0] * state.seats
        if record.duel and record.duel.winner is not None:
            bonus[record.duel.winner] = record.duel.bonus
        assert record.points == tuple(b + x for b, x in zip(base, bonus))
