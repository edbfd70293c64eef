"""An action holding a NUL character is refused before it reaches the database.

PostgreSQL cannot store NUL in text or JSON: without this check a clue such as
"a\\x00b" was a 500 there (pages and API alike), while SQLite stored it.
"""

import pytest

from games.services.errors import GameError
from games.services.games import game_act

from .factories import started_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "action",
    [
        {"type": "clue", "card": None, "text": "a\x00b"},
        {"type": "clue", "card": None, "text": "ok", "x\x00": 1},
        {"type": "submit", "cards": ["\x00"]},
        {"type": "clue\x00"},
    ],
)
def test_a_nul_character_is_bad_input(action):
    game, users = started_game(3)
    version = game.version
    if action.get("card", 0) is None:
        action["card"] = game.state["hands"][0][0]
    with pytest.raises(GameError) as error:
        game_act(game_id=game.pk, user=users[0], action=action)
    assert (error.value.code, error.value.kind) == ("bad_action", "invalid")
    game.refresh_from_db()
    assert game.version == version


def test_deep_nesting_is_no_crash():
    game, users = started_game(3)
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(GameError):
        game_act(game_id=game.pk, user=users[0], action={"type": "submit", "cards": deep})
