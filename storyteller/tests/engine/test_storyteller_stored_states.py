"""States stored by earlier versions of the engine still load, and games go on from them.

``fixtures/states_schema1.json`` holds ``to_dict`` output of the schema 1 engine (the
hand-written serialiser), taken from whole games played with random actions,
timeouts, resignations and refused actions.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from storyteller.engine import rules as st
from storyteller.tests.engine.storyteller_play import all_cards, check_invariants, play_to_end

SCHEMA_1 = json.loads((Path(__file__).parent / "fixtures" / "states_schema1.json").read_text())


def as_written_today(data: dict) -> dict:
    """What today's ``to_dict`` writes for a schema 1 state: no house rule hand size, no drawn or sung clue."""
    options = {**data["options"], "hand_size": None}

    def result(item):
        return None if item is None else {**item, "clue_media": None}

    return {
        **data,
        "schema": st.SCHEMA,
        "options": options,
        "last_round": result(data["last_round"]),
        "history": [result(item) for item in data["history"]],
        "clue_media": None,
    }


def test_the_fixture_covers_every_phase_and_the_rare_cases():
    assert {data["schema"] for data in SCHEMA_1} == {1}
    assert {data["phase"] for data in SCHEMA_1} == {"clue", "submit", "vote", "finished"}
    assert any(data["resigned"] for data in SCHEMA_1)
    assert any(result["skipped"] for data in SCHEMA_1 for result in data["history"])
    assert any(data["options"]["target_score"] for data in SCHEMA_1)


@pytest.mark.parametrize("data", SCHEMA_1, ids=lambda d: f"{d['phase']}-round{d['round']}")
def test_a_schema_1_state_loads_and_plays_on(data):
    state = st.from_dict(data)
    assert st.to_dict(state) == as_written_today(data)
    deck = sorted(all_cards(state))
    check_invariants(state, deck)
    if state.phase != st.Phase.FINISHED:
        final = play_to_end(state, random.Random(len(deck)))
        check_invariants(final, deck)
        assert st.winners(final)


def test_a_schema_1_state_with_a_hand_size_is_refused():
    data = SCHEMA_1[0]
    with pytest.raises(ValueError, match="hand size"):
        st.from_dict({**data, "options": {**data["options"], "hand_size": 5}})


def test_a_state_that_does_not_fit_is_refused():
    data = as_written_today(SCHEMA_1[0])
    with pytest.raises(ValueError, match="hands"):
        st.from_dict({**data, "hands": "none"})
    with pytest.raises(ValueError, match="no field"):
        st.from_dict({**data, "dealer": 0})
