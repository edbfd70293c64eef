"""Redis down: pages and API reads keep working and actions commit; the cache, the rate
limits and the live pushes degrade (logged, counted on /healthz) instead of failing requests.

The cache and the channel layer are pointed at real Redis clients (infrastructure.resilience's backend,
channels-redis): first at a port where nothing listens, then at a redis-server of the test's
own that is stopped under a signed-in player and started again.
"""

import json
import logging
import time

import pytest
from django.test import Client
from django.urls import reverse

from accounts.services import token_create
from games.models import Game, Move
from games.services.events import PUSHES
from games.services.games import game_create, game_join
from infrastructure.resilience import DEGRADED

from .factories import UserFactory
from .redis_server import free_port, needs_redis_server, start_redis, stop

pytestmark = pytest.mark.django_db


def point_redis_at(settings, port: int) -> None:
    url = f"redis://127.0.0.1:{port}/12"
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "infrastructure.resilience.ResilientRedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "redis-down-test",
            "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 1, "SOCKET_TIMEOUT": 2, "breaker_seconds": 0.2},
        },
    }
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": url, "socket_connect_timeout": 1}]},
        }
    }


@pytest.fixture(autouse=True)
def fresh_counts():
    DEGRADED.reset()
    yield
    DEGRADED.reset()
    # The pushes' breaker, tripped here, would skip the next tests' pushes for its seconds.
    PUSHES.close()


def a_game(players: int = 3):
    """A started game of the tests' own kind (odd one out: everyone picks a word each round)."""
    users = UserFactory.create_batch(players)
    game = game_create(creator=users[0], kind="odd_one_out", max_seats=players, options={"rounds": 2})
    for user in users[1:]:
        game_join(game_id=game.pk, user=user, invite_code=game.invite_code)
    game.refresh_from_db()
    return game, users


def play_with_redis_gone(game: Game, player, caplog, on_commit) -> None:
    """What a player does while Redis is not there, and what each step must give."""
    _token, secret = token_create(user=player, name="redis-down")
    api = {"Authorization": f"Bearer {secret}"}
    client = Client()
    client.force_login(player)  # the session is written to the database (and not to the cache)

    page = client.get(reverse("games:detail", args=[game.pk]))
    assert page.status_code == 200
    board = client.get(reverse("games:board", args=[game.pk]))
    assert board.status_code == 200

    read = client.get(f"/api/v1/games/{game.pk}", headers=api)
    assert read.status_code == 200, read.content
    assert read.json()["you"]["to_act"] is True

    version, moves = game.version, Move.objects.filter(game=game).count()
    with on_commit(execute=True):  # the push to the open pages, after the commit
        acted = client.post(
            f"/api/v1/games/{game.pk}/actions",
            json.dumps({"type": "pick", "word": read.json()["words"][0]["word"]}),
            content_type="application/json",
            headers=api,
        )
    assert acted.status_code == 200, acted.content
    game.refresh_from_db()
    assert game.version == version + 1  # committed
    assert Move.objects.filter(game=game).count() == moves + 1
    assert Move.objects.filter(game=game, kind="pick", seat__user=player).exists()

    health = client.get("/healthz")
    assert health.status_code == 200  # the database answers: the site is up, if degraded
    report = health.json()
    assert report["cache"] == "unreachable"
    assert report["channel_layer"] == "unreachable"
    assert report["degraded"]["counts"]["cache"] >= 3  # rates, sessions, users...
    assert report["degraded"]["counts"]["channel_layer"] >= 1  # the action's push
    assert {"cache", "channel_layer"} <= set(report["degraded"]["down"])
    logged = [r.getMessage() for r in caplog.records if r.name == "fabula.degraded" and r.levelno >= logging.ERROR]
    assert any(message.startswith("cache unreachable") for message in logged), logged
    assert any(message.startswith("channel_layer unreachable") for message in logged), logged


def test_nothing_listening_where_redis_should_be(settings, caplog, django_capture_on_commit_callbacks):
    point_redis_at(settings, free_port())
    game, users = a_game()
    play_with_redis_gone(game, users[0], caplog, django_capture_on_commit_callbacks)


@needs_redis_server
def test_redis_stopped_under_a_signed_in_player_and_started_again(
    settings, caplog, tmp_path, django_capture_on_commit_callbacks
):
    port = free_port()
    point_redis_at(settings, port)
    redis = start_redis(port, tmp_path)
    try:
        game, users = a_game()
        client = Client()
        client.force_login(users[1])
        assert client.get(reverse("games:detail", args=[game.pk])).status_code == 200
        assert client.get("/healthz").json()["cache"] == "ok"
        assert DEGRADED.report()["counts"] == {}

        stop(redis)
        # The signed-in player's session was cached in Redis: it is read from the database now.
        assert client.get(reverse("games:detail", args=[game.pk])).status_code == 200
        play_with_redis_gone(game, users[1], caplog, django_capture_on_commit_callbacks)

        redis = start_redis(port, tmp_path)
        deadline = time.monotonic() + 5  # the breaker lets a call through after 0.2 s
        while (health := client.get("/healthz").json())["cache"] != "ok" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert health["cache"] == "ok" and health["channel_layer"] == "ok"
        assert health["degraded"]["down"] == []  # back, though the counts stay
        assert health["degraded"]["counts"]["cache"] >= 3
        assert any(r.getMessage().startswith("cache reachable again") for r in caplog.records)
    finally:
        stop(redis)
