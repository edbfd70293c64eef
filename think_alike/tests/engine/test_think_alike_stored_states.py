"""States stored by earlier versions of the engine still load, and games go on from them.

``fixtures/states_schema1.json`` holds ``to_dict`` output of the engine with the
hand-written serialiser, from whole games (every board way and stop, timeouts,
resignations, refused actions) and from the unit tests' rounds.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from think_alike.engine import rules as ta
from think_alike.engine.rules import Phase
from think_alike.tests.engine.think_alike_play import check_invariants, legal_action

SCHEMA_1 = json.loads((Path(__file__).parent / "fixtures" / "states_schema1.json").read_text())


def test_the_fixture_covers_every_phase_and_the_rare_cases():
    assert {data["schema"] for data in SCHEMA_1} == {1}
    assert {data["phase"] for data in SCHEMA_1} == {str(phase) for phase in Phase}
    rounds = [r for data in SCHEMA_1 for r in [*data["history"], data["current"]] if r is not None]
    for key in ("duel", "swap", "moved_to"):
        assert any(r[key] is not None for r in rounds), key
    assert any(r["rulings"] for r in rounds)
    assert any(data["equivalences"]["apart"] for data in SCHEMA_1)
    assert {data["options"]["stop"] for data in SCHEMA_1} == set(ta.STOPS)


@pytest.mark.parametrize("data", SCHEMA_1, ids=lambda d: f"{d['phase']}-round{d['round']}")
def test_a_schema_1_state_loads_and_plays_on(data):
    state = ta.from_dict(data)
    assert ta.to_dict(state) == data
    check_invariants(state)
    rng = random.Random(state.round)
    for _ in range(3000):
        if state.phase == Phase.FINISHED:
            break
        seat = rng.choice(sorted(ta.to_act(state)))
        state = ta.apply(state, seat=seat, action=legal_action(state, seat, rng), rng=rng)
        check_invariants(state)
    assert state.phase == Phase.FINISHED


def test_a_state_that_does_not_fit_is_refused():
    data = SCHEMA_1[0]
    with pytest.raises(ValueError, match="board"):
        ta.from_dict({**data, "board": [1, "two"]})
    with pytest.raises(ValueError, match="no field"):
        ta.from_dict({**data, "dealer": 0})
