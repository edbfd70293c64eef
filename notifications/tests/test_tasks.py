"""The push queue with real Celery workers as bin/run starts them, on the embedded default's broker and
on Redis as in production: six push services that accept and never answer hold up neither the other
pushes of the task nor a deadline on the default queue (issue 29, item 6)."""

import time
from datetime import timedelta

import pytest
from celery import Celery
from django.conf import settings
from django.utils import timezone

from games.models import Game
from games.tests.factories import started_game
from games.tests.redis_server import free_port, needs_redis_server, start_redis, stop
from games.tests.timeouts.steps import clue
from games.tests.timeouts.test_beat import WORKER, embedded_env, start, stop_all
from games.tests.timeouts.test_kill import file_broker
from notifications.models import Turn
from notifications.push import vapid_keys_generate

from .test_push import Device, PushService, StallingServer

pytestmark = pytest.mark.django_db(transaction=True)  # the workers must see the rows

READ_SECONDS = 4.0  # what the push worker waits for a push service's answer
SEND_SECONDS = 5.0


def wait_for_ready(tmp_path, name: str, process, timeout: float = 60) -> None:
    give_up_at = time.monotonic() + timeout
    while time.monotonic() < give_up_at and process.poll() is None:
        if " ready." in (tmp_path / f"{name}.log").read_text(errors="replace"):
            return
        time.sleep(0.05)
    raise AssertionError((tmp_path / f"{name}.log").read_text(errors="replace")[-3000:])


def wait_until(condition, timeout: float) -> float | None:
    """Seconds until ``condition()`` held, or None."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if condition():
            return time.monotonic() - started
        time.sleep(0.02)
    return None


@pytest.fixture(params=["fabulafs", pytest.param("redis", marks=needs_redis_server)])
def broker(request, tmp_path):
    """The embedded default's file-system broker, or Redis (a server of the test's own): (env, sender)."""
    if request.param == "fabulafs":
        yield {}, file_broker(tmp_path)
        return
    port = free_port()
    server = start_redis(port, tmp_path)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        yield {"CELERY_BROKER_URL": url}, Celery(broker=url, set_as_current=False)
    finally:
        stop(server)


def test_stalling_push_services_delay_neither_other_pushes_nor_deadlines(tmp_path, broker):
    public, private = vapid_keys_generate()
    game, users = started_game(4)
    clue(game, users[0], 0, now=game.started_at)  # the three others are asked (no keys here: nothing queued)
    turns = list(Turn.objects.filter(seat__game=game, closed_at__isnull=True))
    assert len(turns) == 3
    due, _ = started_game(3, pace="live")
    Game.objects.filter(pk=due.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    due_version = Game.objects.get(pk=due.pk).version

    service = PushService()
    service.thread.start()
    env = embedded_env(
        tmp_path,
        FABULA_VAPID_PUBLIC_KEY=public,
        FABULA_VAPID_PRIVATE_KEY=private,
        FABULA_PUSH_READ_SECONDS=str(READ_SECONDS),
        FABULA_PUSH_SEND_SECONDS=str(SEND_SECONDS),
        **broker[0],
    )
    push_env = {**env, "DJANGO_SETTINGS_MODULE": "notifications.tests.push_worker_settings"}
    sender = broker[1]
    sender.conf.task_routes = settings.CELERY_TASK_ROUTES  # the site's routing, as its web process sends
    worker = pusher = None
    with StallingServer() as stalling:
        try:
            for n in range(6):
                Device(users[1 + n % 3], f"{stalling.url}/device/{n}")
            Device(users[2], f"{service.url}/device/answering")
            # As bin/run starts them: the default queue's worker, and the push queue's.
            worker = start(tmp_path, WORKER, env, "worker")
            pusher = start(tmp_path, [*WORKER, "-Q", "push", "-n", "push@%h"], push_env, "pusher")
            wait_for_ready(tmp_path, "worker", worker)
            wait_for_ready(tmp_path, "pusher", pusher)

            sent_at = time.monotonic()
            sender.send_task(
                "notifications.send_turn_pushes",
                kwargs={"game_id": game.pk, "phase_key": turns[0].phase_key, "seat_ids": [t.seat_id for t in turns]},
            )
            sender.send_task("games.expire_due_games")
            expired = wait_until(lambda: Game.objects.get(pk=due.pk).version != due_version, timeout=30)
            answered = wait_until(lambda: service.received("/device/answering"), timeout=30)
            assert stalling.wait_for_closed(6, timeout=30)
            gave_up = max(stalling.closed) - sent_at
        finally:
            stop_all(worker, pusher)
            service.server.shutdown()
            service.server.server_close()
    logs = "\n".join((tmp_path / f"{name}.log").read_text()[-3000:] for name in ("worker", "pusher"))
    # The deadline on the default queue: at once, not after the stalled pushes.
    assert expired is not None and expired < READ_SECONDS - 1, (expired, logs)
    # The answering device: at once too, beside the six stalled ones.
    assert answered is not None and answered < READ_SECONDS - 1, (answered, logs)
    # The six stalled together, each given up after one read timeout (one after another: 6 x 4 s).
    assert len(stalling.accepted) == 6, logs
    assert max(stalling.accepted) - min(stalling.accepted) < 1.0, logs
    assert READ_SECONDS - 0.5 < gave_up < SEND_SECONDS + 2, (gave_up, logs)
    received = "Task notifications.send_turn_pushes["  # Celery's "received" line
    assert received in (tmp_path / "pusher.log").read_text()
    assert received not in (tmp_path / "worker.log").read_text()
