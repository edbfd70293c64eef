import importlib.util
import json
import uuid
from pathlib import Path

import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client

from accounts.services import token_create
from games.tests.factories import UserFactory, deck_with_cards

API = "/api/v1"
BOT_PATH = Path(__file__).resolve().parents[3] / "examples" / "bot.py"


def load_bot():
    """examples/bot.py, which is a script, not a package."""
    spec = importlib.util.spec_from_file_location("fabula_example_bot", BOT_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def fresh_rate_counts(settings):
    """Each test counts requests in a cache of its own (locmem: the live server thread shares it)."""
    settings.CACHES = {
        **settings.CACHES,
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": f"api-{uuid.uuid4().hex}"},
    }


@pytest.fixture
def keep_connection():
    """Requests go straight to the WSGI app: keep it from closing the test's connection, as Django's client does."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


class ApiClient:
    """Django's test client speaking the API: JSON bodies, a Bearer token."""

    def __init__(self, token: str | None = None):
        self.client = Client()
        self.token = token

    def _headers(self, token):
        token = token if token is not None else self.token
        return {"Authorization": f"Bearer {token}"} if token else {}

    def get(self, path, token=None, **params):
        return self.client.get(API + path, params, headers=self._headers(token))

    def post(self, path, body=None, token=None, raw: bytes | str | None = None):
        data = raw if raw is not None else ("" if body is None else json.dumps(body))
        return self.client.post(API + path, data, content_type="application/json", headers=self._headers(token))

    def delete(self, path, token=None):
        return self.client.delete(API + path, headers=self._headers(token))


def error_of(response) -> tuple[int, str]:
    body = response.json()
    assert set(body) == {"error"}, body
    assert body["error"]["message"], body
    return response.status_code, body["error"]["code"]


@pytest.fixture
def deck(db):
    return deck_with_cards(60)


@pytest.fixture
def make_player(db):
    """A user and an API client holding one of their tokens."""

    def make(**kwargs):
        user = UserFactory(**kwargs)
        _token, secret = token_create(user=user, name="tests")
        return user, ApiClient(secret)

    return make


@pytest.fixture
def anon():
    return ApiClient()


@pytest.fixture
def seated(deck, make_player):
    """``seated(n, seats=...)``: a game created through the API with n players seated (started when full)."""

    def make(players: int, seats: int | None = None, **options):
        users = [make_player() for _ in range(players)]
        created = users[0][1].post("/games", {"seats": seats or players, **options})
        assert created.status_code == 201, created.content
        game_id = created.json()["id"]
        for _user, client in users[1:]:
            joined = client.post(f"/games/{game_id}/join", {"invite_code": created.json().get("invite_code")})
            assert joined.status_code == 200, joined.content
        return game_id, users

    return make
