"""The kinds' chat hook: a kind's table may talk unless the kind says why not."""

import random

import pytest

from chat.services import chat_closed_reason
from games import kinds
from games.kinds import KindPresentation
from games.tests.play import play_step

pytestmark = pytest.mark.django_db


def test_a_kind_keeps_its_table_talking_by_default():
    assert KindPresentation().chat_closed(object()) is None
    assert kinds.get("think_alike").presentation.chat_closed(object()) is None


def test_storyteller_closes_it_in_the_vote_only(table):
    game, users, _clients = table
    phases = set()
    rng = random.Random(2)
    for _ in range(40):
        game.refresh_from_db()
        phases.add(game.phase)
        reason = chat_closed_reason(game)
        assert (reason is not None) == (game.phase == "vote"), game.phase
        if not play_step(game, users, rng):
            break
    assert {"clue", "submit", "vote"} <= phases
