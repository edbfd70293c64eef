"""Properties of Think Alike games: a rule-based state machine that plays the engine.

Hypothesis plays legal actions drawn from the state (draft, roll, move, swap,
move_to, duel, answer, merge, split, confirm, rejoin), out-of-turn and malformed
actions, expired deadlines, resignations and the clock, and checks after every
step what the rules (rules/think-alike.md) promise: points add up, task cards never
repeat, the state round-trips through JSON, a refused action changes nothing, an
answer touches only its own seat's answers (nobody's answers are grouped, so shown,
before everyone has answered), and the game ends exactly when the rules say. A
failing run shrinks to a short list of steps.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as hs
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from games.engine import seats as seating
from games.engine.errors import RuleError
from think_alike.engine import rules as ta
from think_alike.engine.rules import Phase
from think_alike.tests.engine.think_alike_play import (
    DUEL2,
    DUEL4,
    FIELDS,
    MOVE,
    NOW,
    START,
    SWAP,
    TASKS,
    WORDS,
    check_invariants,
    course_with,
    snapshot,
)

GAME_FIELDS = FIELDS + [{"id": 50 + i, "kind": "duel", "text": "D", "bonus": 2} for i in range(3)]
COURSE = course_with(p2=SWAP, p5=MOVE, p8=DUEL2, p11=DUEL4, p13=50)
ENDS_AT = NOW + timedelta(minutes=30)
WRONG_TYPE = {
    Phase.DRAFT: "roll",
    Phase.ROLL: "confirm",
    Phase.MOVE: "roll",
    Phase.SWAP: "place_field",
    Phase.MOVE_TO: "roll",
    Phase.DUEL: "confirm",
    Phase.ANSWER: "roll",
    Phase.REVIEW: "roll",
}


def legal_action(data, state: ta.State, seat: int) -> dict:
    """A legal action of ``seat`` (in ``to_act``), drawn from the state."""
    phase = state.phase
    if phase == Phase.DRAFT:
        return {"type": "place_field", "field": data.draw(hs.sampled_from(ta.unused_fields(state)))}
    if phase == Phase.ROLL:
        return {"type": "roll"}
    if phase == Phase.MOVE:
        return {"type": "move", "direction": data.draw(hs.sampled_from(ta.DIRECTIONS))}
    if phase == Phase.SWAP:
        removable = [f for f in state.board if f != START]
        add = data.draw(hs.sampled_from(ta.unused_fields(state)))
        return {"type": "swap", "remove": data.draw(hs.sampled_from(removable)), "add": add}
    if phase == Phase.MOVE_TO:
        others = [p for p in range(ta.BOARD_SIZE) if p != state.token]
        return {"type": "move_to", "position": data.draw(hs.sampled_from(others))}
    if phase == Phase.DUEL:
        opponents = [s for s in seating.active(state.seats, state.resigned) if s != seat]
        positions = ta.association_positions(state)
        position = data.draw(hs.sampled_from(positions)) if positions else None
        return {"type": "duel", "opponent": data.draw(hs.sampled_from(opponents)), "position": position}
    if phase == Phase.ANSWER:
        wanted = ta.task(state, state.current.task).answers
        answers = data.draw(hs.lists(hs.sampled_from(WORDS), min_size=wanted, max_size=wanted))
        return {"type": "answer", "answers": answers}
    groups = state.current.groups
    choices = ["confirm"]
    if len(groups) >= 2:
        choices.append("merge")
    if any(len(g.items) >= 2 for g in groups):
        choices.append("split")
    kind = data.draw(hs.sampled_from(choices))
    if kind == "merge":
        ids = data.draw(hs.lists(hs.sampled_from([g.id for g in groups]), min_size=2, unique=True))
        return {"type": "merge", "groups": ids}
    if kind == "split":
        group = data.draw(hs.sampled_from([g for g in groups if len(g.items) >= 2]))
        some = hs.lists(hs.sampled_from(group.items), min_size=1, max_size=len(group.items) - 1, unique=True)
        moved = data.draw(some)
        return {"type": "split", "group": group.id, "items": [list(item) for item in moved]}
    return {"type": "confirm"}


def malformed_action(data, state: ta.State, seat: int) -> dict:
    """An action of ``seat`` (in ``to_act``) that the rules refuse, whatever the phase."""
    on_board = state.board[-1]
    wanted = ta.task(state, state.current.task).answers if state.current and state.current.task else 1
    group = state.current.groups[0].id if state.current and state.current.groups else 1
    choices = [
        {"type": "fly"},
        {"type": WRONG_TYPE[state.phase]},
        {"type": "roll", "extra": 1},
        {"type": "place_field", "field": on_board},
        {"type": "place_field", "field": 999},
        {"type": "move", "direction": "up"},
        {"type": "swap", "remove": START, "add": 999},
        {"type": "swap", "remove": 999, "add": 999},
        {"type": "move_to", "position": data.draw(hs.sampled_from([state.token, -1, ta.BOARD_SIZE, "1"]))},
        {"type": "duel", "opponent": data.draw(hs.sampled_from([seat, -1, state.seats])), "position": None},
        {"type": "answer", "answers": [data.draw(hs.sampled_from(WORDS))] * (wanted + 1)},
        {"type": "answer", "answers": ["x" * (ta.MAX_ANSWER_LENGTH + 1)] * wanted},
        {"type": "answer", "answers": "apple"},
        {"type": "merge", "groups": [group, group]},
        {"type": "merge", "groups": [998, 999]},
        {"type": "split", "group": 999, "items": [[0, 0]]},
        {"type": "split", "group": group, "items": []},
    ]
    if state.phase != Phase.REVIEW:
        choices.append({"type": "confirm"})
    if not ta.is_absent(state, seat):
        choices.append({"type": "rejoin"})
    return data.draw(hs.sampled_from(choices))


class ThinkAlikeGame(RuleBasedStateMachine):
    @initialize(
        # Every seat count and board way, the quicker ones more often: a run has 40 steps.
        seats=hs.sampled_from([3, 3, 4, 4, 5, 6, 8, 10]),
        board=hs.sampled_from(["course", "course", "random", "draft"]),
        stop=hs.sampled_from(ta.STOPS),
        goal=hs.integers(1, 8),
        resignations=hs.integers(0, 2),
        rng=hs.randoms(use_true_random=False),
    )
    def start(self, seats, board, stop, goal, resignations, rng):
        self.rng = rng
        self.now = NOW
        self.resignations = resignations  # at most, so that most runs play rounds
        options = {"board": board, "stop": stop}
        if board == "course":
            options["course"] = COURSE
        if stop == "points":
            options["target"] = goal
        elif stop == "tasks":
            options["count"] = goal
        else:
            options["ends_at"] = ENDS_AT.isoformat()
        self.state = ta.new_game(seats=seats, rng=rng, options=options, fields=GAME_FIELDS, tasks=TASKS)

    # --- helpers -----------------------------------------------------------------

    def on(self) -> bool:
        return self.state.phase != Phase.FINISHED

    def step(self, after: ta.State) -> None:
        assert after.history[: len(self.state.history)] == self.state.history
        self.state = after

    def refused(self, call) -> RuleError:
        frozen = snapshot(self.state)
        with pytest.raises(RuleError) as error:
            call()
        assert snapshot(self.state) == frozen
        return error.value

    def apply(self, seat: int, action: dict) -> ta.State:
        return ta.apply(self.state, seat=seat, action=action, rng=self.rng, now=self.now)

    # --- rules ---------------------------------------------------------------------

    @precondition(lambda self: self.on())
    @rule(data=hs.data())
    def act(self, data):
        before = self.state
        seat = data.draw(hs.sampled_from(sorted(ta.to_act(before))))
        action = legal_action(data, before, seat)
        after = self.apply(seat, action)
        assert after.misses[seat] == 0
        if before.phase == Phase.ANSWER:
            given = tuple(" ".join(a.split()) for a in action["answers"])
            same_round = after.current is not None and after.current.number == before.current.number
            if after.phase == Phase.ANSWER and same_round:
                # An answer touches its own seat's answers only, and shows nothing.
                answers = tuple(given if s == seat else a for s, a in enumerate(before.current.answers))
                assert after.current == replace(before.current, answers=answers)
            elif same_round:
                assert after.current.answers[seat] == given
            elif after.phase == Phase.ANSWER:
                # The last answer scored the round and the next one began, already asking for answers: its
                # turn holder is absent, so the game rolled and moved for them (rules: absent players).
                assert after.current.number == before.current.number + 1
                assert ta.is_absent(after, after.current.turn)
        self.step(after)

    @precondition(lambda self: self.on())
    @rule(data=hs.data())
    def act_again(self, data):
        """Legal play, twice as often as each other rule, so that games get somewhere."""
        self.act(data)

    @precondition(lambda self: self.on())
    @rule(data=hs.data())
    def act_malformed(self, data):
        seat = data.draw(hs.sampled_from(sorted(ta.to_act(self.state))))
        action = malformed_action(data, self.state, seat)
        self.refused(lambda: self.apply(seat, action))

    @precondition(lambda self: self.on())
    @rule(data=hs.data())
    def act_out_of_turn(self, data):
        state = self.state
        waiting = ta.to_act(state)
        seat = data.draw(hs.sampled_from(sorted(set(range(-1, state.seats + 1)) - waiting)))
        action = legal_action(data, state, min(waiting))  # what the awaited seat may send
        self.refused(lambda: self.apply(seat, action))

    @precondition(lambda self: self.on())
    @rule(data=hs.data())
    def rejoin(self, data):
        before = self.state
        seat = data.draw(hs.sampled_from(seating.active(before.seats, before.resigned)))
        if ta.is_absent(before, seat):
            after = self.apply(seat, {"type": "rejoin"})
            assert not ta.is_absent(after, seat)
            self.step(after)
        else:
            assert self.refused(lambda: self.apply(seat, {"type": "rejoin"})).code == "not_absent"

    @precondition(lambda self: self.on() and not ta.is_paused(self.state))
    @rule()
    def expire(self):
        before = self.state
        waiting = ta.to_act(before)
        after = ta.expire(before, rng=self.rng, now=self.now)
        for seat in range(before.seats):
            assert after.misses[seat] >= before.misses[seat]
            if seat in waiting and before.phase != Phase.REVIEW:  # an unconfirmed review is no miss
                assert after.misses[seat] > before.misses[seat]
        self.step(after)

    @precondition(lambda self: self.on() and ta.is_paused(self.state))
    @rule()
    def expire_while_paused(self):
        assert self.refused(lambda: ta.expire(self.state, rng=self.rng, now=self.now)).code == "paused"

    @precondition(lambda self: self.on() and self.resignations)
    @rule(data=hs.data())
    def resign(self, data):
        self.resignations -= 1
        before = self.state
        seat = data.draw(hs.sampled_from(seating.active(before.seats, before.resigned)))
        after = ta.resign(before, seat=seat, rng=self.rng, now=self.now)
        assert after.resigned == before.resigned | {seat}
        assert seat not in ta.to_act(after) and seat not in ta.winners(after)
        self.step(after)

    @rule(minutes=hs.integers(1, 20))
    def wait(self, minutes):
        self.now += timedelta(minutes=minutes)

    @precondition(lambda self: not self.on())
    @rule(seat=hs.integers(0, 2))
    def act_after_the_end(self, seat):
        assert self.refused(lambda: self.apply(seat, {"type": "roll"})).code == "game_finished"
        assert self.refused(lambda: ta.expire(self.state, rng=self.rng, now=self.now)).code == "game_finished"

    # --- invariants ----------------------------------------------------------------

    @invariant()
    def keeps_the_rules(self):
        # Points add up round by round (duel bonus included), task cards never
        # repeat, the board holds 16 different fields: see check_invariants.
        state = self.state
        check_invariants(state)
        assert ta.from_dict(json.loads(json.dumps(ta.to_dict(state)))) == state
        if state.phase == Phase.ANSWER:
            assert state.current.groups == () and state.current.rulings == ()

    @invariant()
    def ends_exactly_when_the_rules_say(self):
        state = self.state
        opts = state.options
        active = seating.active(state.seats, state.resigned)
        reached = opts.stop == "points" and any(state.scores[s] >= opts.target for s in active)
        played_enough = opts.stop == "tasks" and len(state.history) >= opts.count
        if state.phase == Phase.FINISHED:
            timed_out = opts.stop == "time" and state.final_round
            assert len(active) < ta.MIN_SEATS or not state.pile or reached or played_enough or timed_out
            top = max(state.scores[s] for s in active)
            assert ta.winners(state) == tuple(s for s in active if state.scores[s] == top)
        else:
            assert not reached and not played_enough
            assert state.pile or (state.final_round and state.current.task is not None)
            assert ta.winners(state) == ()
            assert ta.to_act(state), "an unfinished game always waits for someone"


TestThinkAlikeGame = ThinkAlikeGame.TestCase
TestThinkAlikeGame.settings = settings(
    max_examples=75, stateful_step_count=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
