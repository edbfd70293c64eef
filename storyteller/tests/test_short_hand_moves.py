"""The moves the site makes for seats (issue 37): the bots' and the kind's sample move, on short hands and empty
piles (the engine's own part: ``engine/test_short_hands.py``), are legal or None, never an exception."""

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from storyteller import bots
from storyteller.engine import rules as st
from storyteller.kind import StorytellerKind
from storyteller.tests.engine.test_short_hands import cut_games

DREAM = json.loads((Path(bots.__file__).parent / "decks" / "builtin" / "dream.json").read_text())
# Card ids 1..84 read as the built-in deck's words (the games of ``cut_games`` deal from these ids).
READING = bots.DeckReading({n + 1: card["alt"] for n, card in enumerate(DREAM["cards"])}, "en")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cut_games(), hs.sampled_from(bots.LEVELS), hs.integers(0, 1000))
def test_bots_and_sample_moves_never_raise_on_short_hands(game, level, seed):
    state, rng = game
    kind = StorytellerKind()
    for seat in range(state.seats):
        for action in (
            bots.bot_action(state, seat=seat, rng=rng, deck=READING, seed=seed, level=level),
            kind.sample_action(state, seat=seat, rng=rng),
        ):
            if action is None:
                continue
            st.apply(state, seat=seat, action=action, rng=rng)  # legal: never refused
