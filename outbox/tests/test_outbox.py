"""Every task the code queues goes through the outbox, and a broker that is down delays it, never fails the change.

The tasks queued by code are found two ways, so that a new one cannot slip by: the source holds no ``.delay``,
``.apply_async`` or ``send_task`` but the outbox's own; and Celery's registry of our tasks, less those beat
runs, is the list of scenarios below, each of which makes its task be queued by the change that queues it in
the site, with the broker at a port that refuses connections, then checks the task waited in its row and
that beat's sweep did its work once the broker was back.
"""

import ast
import json
import time
from contextlib import contextmanager, suppress
from datetime import timedelta
from pathlib import Path

import pytest
from celery import current_app
from django.conf import settings
from django.core import mail
from django.utils import timezone

from bots.services import game_bot_add
from games.models import Game, Move
from games.services.games import game_create, game_rematch, game_resign
from games.tasks import live_countdowns_schedule
from games.tests.factories import UserFactory, deck_with_cards, started_game
from games.tests.redis_server import free_port, needs_redis_server, start_redis, stop
from games.tests.test_rematch import finished_game
from games.tests.timeouts.steps import any_other_position, clue, to_vote, vote
from infrastructure.resilience import DEGRADED
from notifications.tests.test_push import Device
from outbox.models import QueuedTask
from outbox.services import BROKER, outbox_sweep, task_queue
from stats.models import GameRecord

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)
APPS = ["accounts", "bots", "chat", "config", "games", "notifications", "outbox", "stats", "storyteller", "think_alike"]
QUEUEING = {"delay", "apply_async", "send_task"}


@contextmanager
def broker_at(url: str):
    """Tasks sent to the broker at ``url`` (not run where they are sent), as the site's settings send them."""
    conf = current_app.conf
    saved = conf.broker_url, conf.task_always_eager, conf.broker_transport_options
    conf.broker_url, conf.task_always_eager = url, False
    conf.broker_transport_options = {"max_retries": 0}  # config/settings/base.py, on Redis
    forget_producers()
    BROKER.close()
    try:
        yield
    finally:
        conf.broker_url, conf.task_always_eager, conf.broker_transport_options = saved
        forget_producers()
        BROKER.close()
        DEGRADED.reset()


def forget_producers() -> None:
    """Celery keeps the producers of the broker it first sent to (in ``app.amqp``, a cached property, made again
    when deleted); a test that moves the broker needs new ones. (``app.close()`` would also take the app out of
    the list that tasks imported later register with.)"""
    with suppress(AttributeError):  # none made yet
        del current_app.amqp


def refusing_broker() -> str:
    return f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there


# The scenarios: for each task the code queues, (the change that queues it, whether its work is done).
def push_scenario(push_service):
    game, users = started_game(4)
    Device(users[1], f"{push_service.url}/device/asked")
    return lambda: clue(game, users[0], 0, now=game.started_at), lambda: push_service.received("/device/asked")


def rematch_scenario(push_service):
    old, users = finished_game(3)
    mail.outbox.clear()
    return (
        lambda: game_rematch(game_id=old.pk, user=users[0]),
        lambda: {message.to[0] for message in mail.outbox} == {users[1].email, users[2].email},
    )


def stats_scenario(push_service):
    game, users = started_game(3)
    to_vote(game, users, teller=0)
    for seat in (1, 2):
        vote(game, users[seat], any_other_position(game, seat))
    # A round was scored: the game that ends as a player resigns is a finished game, not an abandoned one.

    def resign():
        game_resign(game_id=game.pk, user=users[1])
        assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED

    return resign, lambda: GameRecord.objects.filter(game=game).exists()


def bots_scenario(push_service):
    person = UserFactory()
    game = game_create(creator=person, max_seats=3, options={"deck": deck_with_cards().pk})
    game_bot_add(game_id=game.pk, user=person)
    # The last seat, a bot too, starts the game: both bots are awaited for their first clue.
    return lambda: game_bot_add(game_id=game.pk, user=person), lambda: Move.objects.filter(
        game=game, seat__user__is_bot=True
    ).exists()


def countdown_scenario(push_service):
    game, _users = started_game(3, pace="live")
    deadline = timezone.now() - timedelta(seconds=1)
    Game.objects.filter(pk=game.pk).update(deadline_at=deadline)
    version = game.version
    # Beat's run just before the deadline sends a countdown for it (games.tasks).
    return (
        lambda: live_countdowns_schedule(now=deadline - timedelta(seconds=2), within=timedelta(seconds=5)),
        lambda: Game.objects.get(pk=game.pk).version > version,
    )


SCENARIOS = {
    "notifications.send_turn_pushes": push_scenario,
    "notifications.send_rematch_invitations": rematch_scenario,
    "stats.game_finished": stats_scenario,
    "bots.play_turn": bots_scenario,
    "games.expire_game": countdown_scenario,
}


def test_the_scenarios_are_every_task_the_code_queues():
    current_app.loader.import_default_modules()  # every app's tasks module, as a worker imports them at its start
    ours = {name for name in current_app.tasks if name.split(".")[0] in APPS}
    run_by_beat = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert ours - run_by_beat == set(SCENARIOS)


def test_no_code_queues_a_task_but_through_the_outbox():
    """``task.delay(...)``, ``task.apply_async(...)``, ``app.send_task(...)``: only in outbox/services.py (the
    tests may call tasks as they like)."""
    found = []
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            relative = path.relative_to(ROOT)
            if "tests" in relative.parts or "migrations" in relative.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in QUEUEING:
                    found.append(f"{relative}:{node.lineno}")
    assert found and all(place.startswith("outbox/services.py:") for place in found), found


@pytest.mark.parametrize("task_name", sorted(SCENARIOS))
def test_with_the_broker_down_the_change_commits_and_the_sweep_does_the_work_once_it_is_back(
    task_name, settings, vapid, push_service, django_capture_on_commit_callbacks
):
    change, done = SCENARIOS[task_name](push_service)
    with broker_at(refusing_broker()):
        with django_capture_on_commit_callbacks(execute=True):
            started = time.monotonic()
            change()  # raises nothing
            took = time.monotonic() - started
        assert QueuedTask.objects.filter(name=task_name).exists()  # committed with the change, not sent
        assert not done()
        assert BROKER.is_open()  # the broker is left alone for a while: the next change does not wait on it
        assert DEGRADED.report()["counts"]["broker"] >= 1
        assert took < 2.0, took  # no waiting on the dead broker (kombu's retries alone took 6 s)
        # The sweep runs on a worker, so only once the broker is back; a sweep that finds it down sends nothing.
        BROKER.close()
        assert outbox_sweep(now=timezone.now() + timedelta(minutes=1)) == 0
        assert QueuedTask.objects.filter(name=task_name).exists()
    # The broker is back (tasks run where they are sent: the test settings' broker).
    with django_capture_on_commit_callbacks(execute=True):
        assert outbox_sweep(now=timezone.now() + timedelta(minutes=1)) >= 1
    assert done()
    assert not QueuedTask.objects.filter(name=task_name).exists()


def test_a_row_younger_than_the_grace_is_left_to_its_own_send(settings, django_capture_on_commit_callbacks):
    from stats.tasks import game_finished

    with broker_at(refusing_broker()), django_capture_on_commit_callbacks(execute=True):
        task_queue(task=game_finished, kwargs={"game_id": 1})
    now = timezone.now()
    assert outbox_sweep(now=now) == 0  # just made: its send after the commit may be under way
    assert QueuedTask.objects.count() == 1
    assert outbox_sweep(now=now + timedelta(seconds=settings.FABULA_OUTBOX_GRACE_SECONDS + 1)) == 1
    assert not QueuedTask.objects.exists()


def test_a_row_rolled_back_with_its_change_is_never_sent(django_capture_on_commit_callbacks):
    from django.db import transaction

    from stats.tasks import game_finished

    sent = []
    with broker_at("memory://"):
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            try:
                with transaction.atomic():
                    task_queue(task=game_finished, kwargs={"game_id": 1})
                    raise RuntimeError("the change fails")
            except RuntimeError:
                pass
        sent.extend(callbacks)
    assert not sent and not QueuedTask.objects.exists()


def test_a_row_naming_no_task_is_dropped_with_a_log(caplog):
    QueuedTask.objects.create(name="gone.task", kwargs={}, created_at=timezone.now() - timedelta(hours=1))
    assert outbox_sweep(now=timezone.now()) == 0
    assert not QueuedTask.objects.exists()
    assert "gone.task" in caplog.text


@needs_redis_server
def test_on_redis_stopped_the_task_waits_and_reaches_redis_once_it_is_started(
    tmp_path, django_capture_on_commit_callbacks
):
    """A real Redis as the broker: down when the bot's turn comes, started again before the sweep."""
    from bots.tasks import play_turn

    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    with broker_at(url):
        with django_capture_on_commit_callbacks(execute=True):
            task_queue(task=play_turn, kwargs={"game_id": 1, "user_id": 2, "phase_key": [1, "clue", None, None]})
        assert QueuedTask.objects.count() == 1
        redis = start_redis(port, tmp_path)
        try:
            BROKER.close()  # as after its seconds
            assert outbox_sweep(now=timezone.now() + timedelta(minutes=1)) == 1
            assert not QueuedTask.objects.exists()
            import redis as redis_py

            queued = redis_py.Redis.from_url(url).lrange("celery", 0, -1)
            assert [json.loads(message)["headers"]["task"] for message in queued] == ["bots.play_turn"]
            # Sent after its commit while Redis is up: the row goes at once, nothing is left to sweep.
            with django_capture_on_commit_callbacks(execute=True):
                task_queue(task=play_turn, kwargs={"game_id": 1, "user_id": 3, "phase_key": [1, "clue", None, None]})
            assert not QueuedTask.objects.exists()
            assert redis_py.Redis.from_url(url).llen("celery") == 2
        finally:
            stop(redis)


@pytest.fixture
def vapid(settings):
    from notifications.push import vapid_keys_generate

    settings.FABULA_VAPID_PUBLIC_KEY, settings.FABULA_VAPID_PRIVATE_KEY = vapid_keys_generate()


@pytest.fixture
def push_service(settings):
    from notifications.tests.test_push import PushService

    settings.FABULA_PUSH_ALLOW_LOOPBACK = True
    service = PushService()
    service.thread.start()
    yield service
    service.server.shutdown()
    service.server.server_close()
