"""infrastructure.caches: the caches a process keeps in its memory are bounded, sized from settings, and one reset
empties them all."""

import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.cache import caches

import infrastructure.caches
from accounts.avatars import avatar_svg, table_letters
from games.models import Game, Seat
from games.selectors.games import recent_games
from games.templatetags.fabula import _card_picture, card_picture
from games.tests.live.server import ROOT
from infrastructure.caches import BoundedCache, register, registered, reset_process_caches
from storyteller.selectors import card_faces


def test_a_bounded_cache_keeps_at_most_its_size_the_least_recently_used_out_first():
    cache = BoundedCache("test.bounded", size=3)
    for key in "abc":
        cache.put(key, key.upper())
    assert cache.get("a") == "A"  # "a" is now the most recently used: "b" goes first
    cache.put("d", "D")
    cache.put("e", "E")
    assert len(cache) == 3
    assert [cache.get(key) for key in "abcde"] == ["A", None, None, "D", "E"]


def test_an_entry_past_its_time_to_live_is_not_given():
    cache = BoundedCache("test.ttl", size=3, ttl=0)
    cache.put("a", 1)
    assert cache.get("a", "gone") == "gone"
    assert len(cache) == 0
    with pytest.raises(ValueError):
        BoundedCache("test.empty", size=0)


def test_entries_past_their_time_to_live_go_when_another_is_kept(monkeypatch):
    # Not only when the cache is full: a process that has moved on (finished games) lets them go.
    clock = [1000.0]
    monkeypatch.setattr(infrastructure.caches.time, "monotonic", lambda: clock[0])
    cache = BoundedCache("test.expiring", size=100, ttl=30)
    for key in range(10):
        cache.put(key, key)
    clock[0] += 20
    cache.put("fresh", 1)
    assert len(cache) == 11
    clock[0] += 15  # the ten are 35 s old, "fresh" 15 s
    cache.put("newer", 2)
    assert len(cache) == 2 and cache.get("fresh") == 1 and cache.get("newer") == 2


def test_the_caches_take_their_bounds_from_settings():
    assert recent_games.entries.size == settings.FABULA_RECENT_GAMES_ENTRIES
    assert recent_games.entries.ttl == settings.FABULA_RECENT_GAMES_TTL_SECONDS
    assert card_faces.faces.size == settings.FABULA_CARD_FACES_ENTRIES
    assert card_faces.ttl == settings.FABULA_CARD_FACES_TTL_SECONDS
    assert _card_picture.cache_info().maxsize == settings.FABULA_CARD_PICTURES_ENTRIES
    assert avatar_svg.cache_info().maxsize == table_letters.cache_info().maxsize == settings.FABULA_AVATAR_ENTRIES


def test_the_bounds_come_from_the_environment():
    """Read through the settings' one environment reader, in a process of their own."""
    code = (
        "import django; django.setup()\n"
        "from games.selectors.games import recent_games\n"
        "from storyteller.selectors import card_faces\n"
        "print(recent_games.entries.size, recent_games.entries.ttl, card_faces.faces.size, card_faces.ttl)\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "FABULA_RECENT_GAMES_ENTRIES": "7",
        "FABULA_RECENT_GAMES_TTL_SECONDS": "1.5",
        "FABULA_CARD_FACES_ENTRIES": "9",
        "FABULA_CARD_FACES_TTL_SECONDS": "4",
    }
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["7", "1.5", "9", "4.0"], done.stderr


def test_the_games_kept_never_pass_their_bound():
    size = recent_games.entries.size
    recent_games.entries.size = 2
    try:
        for game_id in range(1, 6):
            recent_games.put(game_id, (1, "stamp"), Game(id=game_id, kind="storyteller"), [Seat(position=0)])
        assert len(recent_games.entries) == 2
        assert recent_games.get(1, (1, "stamp")) is None
        game, seats = recent_games.get(5, (1, "stamp"))
        assert game.id == 5 and seats[0].position == 0
    finally:
        recent_games.entries.size = size
        recent_games.clear()


def test_one_reset_empties_every_cache_of_the_process(monkeypatch):
    cleared = []
    monkeypatch.setattr(
        infrastructure.caches, "_registry", dict(infrastructure.caches._registry)
    )  # the test's own goes with it
    register("test.registered", lambda: cleared.append(True))
    recent_games.put(1, (1, "stamp"), Game(id=1, kind="storyteller"), [])
    card_faces.faces.put((1, "en"), {"id": 1, "image": "", "alt": "", "alt_lang": ""})
    card_picture({"image": "/a.jpg", "alt": "A cat"})
    avatar_svg(key="1", name="Anna", colour="red")
    table_letters(("Anna", "Bo"))
    caches["views"].set("a-view", "<div></div>")
    caches["rates"].set("a-count", 3)

    reset_process_caches()

    assert {"recent_games", "card_faces", "games.templatetags.fabula._card_picture"} <= set(registered())
    assert cleared == [True]
    assert len(recent_games.entries) == len(card_faces.faces) == 0
    assert _card_picture.cache_info().currsize == 0
    assert avatar_svg.cache_info().currsize == table_letters.cache_info().currsize == 0
    assert caches["views"].get("a-view") is None and caches["rates"].get("a-count") is None


def test_the_reset_empties_every_bounded_cache_of_a_name_not_only_the_last_made():
    # A test makes a second process's card faces beside the module's: both are emptied, and neither is the
    # other's (the module's was once left full, its registration taken by the second).
    first = BoundedCache("test.twice", size=4)
    second = BoundedCache("test.twice", size=4)
    first.put("a", 1)
    second.put("b", 2)
    reset_process_caches()
    assert len(first) == len(second) == 0
    assert "test.twice" in registered()
