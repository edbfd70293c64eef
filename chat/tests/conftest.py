import uuid

import pytest
from django.core.cache import cache

from accounts.services import token_create
from games.models import Game
from games.tests.api.conftest import ApiClient
from games.tests.factories import UserFactory, started_game
from games.tests.play import play_step


@pytest.fixture(autouse=True)
def fresh_rate_counts(settings):
    """Each test counts messages in a cache of its own."""
    settings.CACHES = {
        **settings.CACHES,
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": f"chat-{uuid.uuid4().hex}"},
    }
    yield
    cache.clear()


def api_for(user) -> ApiClient:
    _token, secret = token_create(user=user, name="tests")
    return ApiClient(secret)


def to_vote(game, users, rng) -> None:
    """Play a Storyteller game on until its vote is open."""
    for _ in range(50):
        game.refresh_from_db()
        if game.phase == "vote":
            return
        play_step(game, users, rng)
    raise AssertionError("the vote never opened")


@pytest.fixture
def table(db):
    """A started Storyteller game of three, its players, and an API client for each."""
    game, users = started_game(3)
    return game, users, [api_for(user) for user in users]


@pytest.fixture
def outsider(db):
    user = UserFactory()
    return user, api_for(user)


def chat_off(game) -> None:
    Game.objects.filter(pk=game.pk).update(options={**game.options, "chat": False})
    game.refresh_from_db()
