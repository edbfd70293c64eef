"""The example bot (examples/bot.py) in games whose house rules want drawn or sung clues, over real HTTP."""

import random

import pytest

from games.models import Game
from games.tests.api.conftest import load_bot
from games.tests.factories import deck_with_cards
from storyteller.models import ClueMedia, StorytellerRound

bot = load_bot()


@pytest.fixture
def site(live_server, transactional_db, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    deck_with_cards(24)  # 3 × 7 dealt, a few rounds
    return live_server.url


@pytest.mark.parametrize("modes", [["drawing"], ["sound"]])
def test_bots_play_a_whole_game_with_drawn_or_sung_clues(site, modes):
    apis = []
    for n in range(3):
        api = bot.Api(site)
        bot.sign_up(api, username=f"artist{n}", password="a long pass phrase")
        bot.get_token(api, username=f"artist{n}", password="a long pass phrase")
        apis.append(api)
    game = bot.create_game(apis[0], seats=3, clue_modes=modes)
    assert game["rules"]["clue_modes"] == modes
    for api in apis[1:]:
        bot.join_game(api, game["id"])
    rng = random.Random(3)
    seen = []
    for _ in range(300):
        views = [bot.play_turn(api, game["id"], rng) for api in apis]
        seen += [bot.describe(view) for view in views]
        if all(view["status"] == "finished" for view in views):
            break
    assert Game.objects.get(pk=game["id"]).status == "finished"
    rounds = StorytellerRound.objects.filter(game_id=game["id"], skipped=False)
    assert rounds and all(row.clue == "" and row.clue_media_id for row in rounds)
    kinds = set(ClueMedia.objects.filter(game_id=game["id"]).values_list("kind", flat=True))
    assert kinds == {"drawing" if modes == ["drawing"] else "sound"}
    assert any("/clue-media/" in line for line in seen)  # describe() tells the clue's media
