"""The site as it runs, with its broker unreachable: signing up, creating, joining and acting through the API all
answer 2xx at once, and the tasks those changes queued (a bot's turn, "your turn" pushes) wait in the outbox.

On PostgreSQL with REDIS_URL at a port where nothing listens (cache, channel layer and broker all gone), and on
the embedded default with the broker's folder gone (a file where the folder was). And beat's sweep, with a
worker, as bin/run starts them, sends what waited.
"""

import json
import shutil
import time
import urllib.error
import urllib.request
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from games.models import Game
from games.tests.factories import UserFactory, deck_with_cards
from games.tests.live.server import AsgiServer, free_port
from games.tests.timeouts.test_beat import WORKER, beat, embedded_env, start, stop_all
from notifications.push import vapid_keys_generate
from notifications.tests.test_push import Device
from outbox.models import QueuedTask
from stats.models import GameRecord
from stats.tests.factories import finished_game, story_round

pytestmark = pytest.mark.django_db(transaction=True)  # the server must see the deck, and the test its rows

PASSWORD = "a long walk by the quiet river 42"
QUICK = 3.0  # seconds: an answer that waited on the dead broker (kombu retried for some 6 s) is not quick


class Api:
    def __init__(self, url: str):
        self.url = url + "/api/v1"
        self.token = ""
        self.slowest = 0.0

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, method=method, data=data, headers=headers)
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, text = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        self.slowest = max(self.slowest, time.monotonic() - started)
        return status, json.loads(text or b"{}")


def sign_up(url: str, username: str) -> Api:
    api = Api(url)
    status, body = api.call("POST", "/accounts", {"username": username, "email": f"{username}@example.org",
                                                  "password": PASSWORD})  # fmt: skip
    assert status == 201, body
    status, body = api.call("POST", "/tokens", {"username": username, "password": PASSWORD})
    assert status == 201, body
    api.token = body["token"]
    return api


def play_with_the_broker_gone(url: str) -> None:
    alice, bob, carol = (sign_up(url, name) for name in ("alice", "bob", "carol"))
    # Bob has a device: his "your turn" pushes are queued (nobody else's: nobody else has one).
    Device(get_user_model().objects.get(username="bob"), "https://fcm.googleapis.com/fcm/send/bob")

    status, game = alice.call("POST", "/games", {"seats": 4})
    assert status == 201, game
    status, body = alice.call("POST", f"/games/{game['id']}/bots")
    assert status == 201, body
    for player in (bob, carol):
        status, body = player.call("POST", f"/games/{game['id']}/join")
        assert status == 200, body
    assert Game.objects.get(pk=game["id"]).status == Game.Status.ACTIVE
    status, view = alice.call("GET", f"/games/{game['id']}")
    assert status == 200, view
    status, view = alice.call(
        "POST", f"/games/{game['id']}/actions", {"type": "clue", "card": view["hand"][0]["id"], "text": "far away"}
    )
    assert status == 200, view
    assert view["phase"] == "submit"

    waiting = set(QueuedTask.objects.values_list("name", flat=True))
    assert waiting == {"bots.play_turn", "notifications.send_turn_pushes"}, waiting
    seats_pushed = [row.kwargs["seat_ids"] for row in QueuedTask.objects.filter(name="notifications.send_turn_pushes")]
    bobs_seat = Game.objects.get(pk=game["id"]).seats.get(user__username="bob").pk
    assert seats_pushed and all(seats == [bobs_seat] for seats in seats_pushed)
    slowest = max(api.slowest for api in (alice, bob, carol))
    assert slowest < QUICK, slowest


@pytest.fixture
def server(tmp_path):
    servers = []

    def start(env: dict) -> AsgiServer:
        server = AsgiServer(env=env, port=free_port(), log_path=tmp_path / "server.log")
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def keys() -> dict:
    public, private = vapid_keys_generate()
    return {"FABULA_VAPID_PUBLIC_KEY": public, "FABULA_VAPID_PRIVATE_KEY": private}


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the production pair: PostgreSQL with Redis")
def test_on_postgresql_with_redis_unreachable_every_step_answers_2xx(server, tmp_path):
    deck_with_cards()
    nothing_there = f"redis://127.0.0.1:{free_port()}/0"
    site = server(embedded_env(tmp_path, REDIS_URL=nothing_there, CELERY_BROKER_URL=nothing_there, **keys()))
    play_with_the_broker_gone(site.url)
    with urllib.request.urlopen(site.url + "/healthz", timeout=30) as response:
        health = json.loads(response.read())
    assert (health["cache"], health["channel_layer"], health["broker"]) == ("unreachable",) * 3
    assert health["degraded"]["counts"]["broker"] >= 1


def test_on_the_embedded_default_with_the_broker_folder_gone_every_step_answers_2xx(server, tmp_path):
    deck_with_cards()
    site = server(embedded_env(tmp_path, **keys()))
    queue = tmp_path / "celery-queue"
    shutil.rmtree(queue)
    queue.write_text("not a folder")  # every message the broker is handed fails to be written
    play_with_the_broker_gone(site.url)


def test_beat_and_a_worker_as_bin_run_starts_them_send_what_waited(tmp_path):
    """The sweep is on beat's schedule and runs on the worker: a task left waiting (its row older than the grace)
    is sent and run, and its row goes."""
    users = UserFactory.create_batch(3)
    game = finished_game(users, [story_round(0, "moon", [(0, [1]), (1, [2]), (2, [])])])
    QueuedTask.objects.create(
        name="stats.game_finished", kwargs={"game_id": game.pk}, created_at=timezone.now() - timedelta(minutes=5)
    )
    env = embedded_env(tmp_path, FABULA_OUTBOX_SWEEP_SECONDS="1")
    worker = start(tmp_path, WORKER, env, "worker")
    clock = beat(tmp_path, env)
    try:
        give_up_at = time.monotonic() + 60
        while time.monotonic() < give_up_at and worker.poll() is None:
            if GameRecord.objects.filter(game=game).exists() and not QueuedTask.objects.exists():
                break
            time.sleep(0.1)
    finally:
        stop_all(clock, worker)
    logs = "\n".join((tmp_path / f"{name}.log").read_text()[-3000:] for name in ("worker", "beat"))
    assert GameRecord.objects.filter(game=game).count() == 3, logs
    assert not QueuedTask.objects.exists(), logs
    assert "outbox.sweep" in logs
