"""A worker killed (SIGKILL) in the middle of expiring a phase: after a restart the phase is
closed exactly once. Once for Celery on Redis, as in production (acks_late: the task comes
back after the visibility timeout), once for the embedded default's Celery worker on the
file-system broker (fabulafs://), which loses the message the killed worker took: the
restarted beat and worker find the same game due from its column.

The process that expires stops dead inside the expiry's transaction (paused_expiry), after
the timeout was applied and before it was committed, and is killed there.
"""

import os
import signal
import time
from datetime import timedelta
from pathlib import Path

import pytest
import redis as redis_py
from celery import Celery
from django.utils import timezone

from games.models import Game, Move
from games.services.games import game_expire
from games.tasks import games_expire_due
from games.tests.factories import started_game
from games.tests.redis_server import free_port, needs_redis_server, start_redis, stop

from .test_beat import beat, embedded_env, start, stop_all, wait_for_version

pytestmark = pytest.mark.django_db(transaction=True)

VISIBILITY_TIMEOUT = 2  # seconds: a killed worker's task is handed out again after this


def due_game():
    game, _ = started_game(3, pace="live")
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    game.refresh_from_db()
    return game


def wait_for_file(path: Path, process, timeout: float = 60) -> None:
    give_up_at = time.monotonic() + timeout
    while time.monotonic() < give_up_at and process.poll() is None and not path.exists():
        time.sleep(0.05)
    assert path.exists(), "the process never reached the expiry"


def kill(process) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=20)


def closed_exactly_once(game: Game, version: int) -> None:
    game.refresh_from_db()
    assert game.version == version + 1
    timeouts = list(Move.objects.filter(game=game, by_timeout=True).values_list("round", "kind", "seat_id"))
    assert timeouts and len(timeouts) == len(set(timeouts))
    assert all(round_ == 1 for round_, _kind, _seat in timeouts)
    # Late or repeated runs of the same expiry change nothing.
    assert not game_expire(game_id=game.pk, version=version, now=timezone.now())
    assert games_expire_due(now=timezone.now()) == 0
    game.refresh_from_db()
    assert game.version == version + 1
    assert Move.objects.filter(game=game, by_timeout=True).count() == len(timeouts)


def uncommitted(game: Game, version: int) -> None:
    """The killed process's transaction rolled back: nothing of the expiry is in the database."""
    game.refresh_from_db()
    assert game.version == version
    assert not Move.objects.filter(game=game, by_timeout=True).exists()


@needs_redis_server
def test_a_celery_worker_killed_in_the_middle_of_a_timeout(tmp_path):
    port = free_port()
    redis = start_redis(port, tmp_path)
    broker = f"redis://127.0.0.1:{port}/0"
    marker = tmp_path / "paused"
    env = embedded_env(
        tmp_path,
        CELERY_BROKER_URL=broker,
        CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
        FABULA_PAUSE_MARKER=str(marker),
    )
    worker_args = ["-m", "celery", "-A", "games.tests.timeouts.paused_expiry", "worker", "--pool=solo", "-l", "INFO"]
    sender = Celery(broker=broker, set_as_current=False)  # the tests keep theirs (eager)
    worker = None
    try:
        game = due_game()
        version = game.version
        worker = start(tmp_path, worker_args, env, "worker-1")
        sender.send_task("games.expire_due_games")
        wait_for_file(marker, worker)
        uncommitted(game, version)  # applied in the worker's transaction, not committed
        kill(worker)
        killed_at = time.monotonic()
        uncommitted(game, version)
        client = redis_py.Redis.from_url(broker)
        assert client.hlen("unacked") == 1  # the broker still holds the task the worker was running

        # Nothing is sent again: the task the dead worker held must come back by itself, once the visibility
        # timeout has passed (the time under test; the new worker's wait for the version below is a poll).
        time.sleep(max(0.0, killed_at + VISIBILITY_TIMEOUT + 0.5 - time.monotonic()))
        worker = start(tmp_path, worker_args, env, "worker-2")
        wait_for_version(game, version, worker)
        log = (tmp_path / "worker-2.log").read_text()
        assert "games.expire_due_games" in log, log
        closed_exactly_once(game, version)
        give_up_at = time.monotonic() + 10
        while client.hlen("unacked") and time.monotonic() < give_up_at:  # acknowledged after it ran
            time.sleep(0.05)
        assert client.hlen("unacked") == 0 and client.llen("celery") == 0
    finally:
        if worker is not None and worker.poll() is None:
            worker.terminate()
            worker.wait(timeout=20)
        sender.close()
        stop(redis)


def file_broker(tmp_path: Path) -> Celery:
    """A sender on the folders the worker started with ``FABULA_VAR_DIR=tmp_path`` reads
    (infrastructure.undocumented.file_broker)."""
    folders = {name: tmp_path / name for name in ("celery-queue", "celery-processed", "celery-control")}
    for folder in folders.values():
        folder.mkdir(exist_ok=True)
    options = {
        "data_folder_in": str(folders["celery-queue"]),
        "data_folder_out": str(folders["celery-queue"]),
        "processed_folder": str(folders["celery-processed"]),
        "control_folder": str(folders["celery-control"]),
    }
    return Celery(broker="fabulafs://", broker_transport_options=options, set_as_current=False)


def test_a_celery_worker_on_the_file_system_broker_killed_in_the_middle_of_a_timeout(tmp_path):
    marker = tmp_path / "paused"
    env = embedded_env(tmp_path, FABULA_EXPIRY_INTERVAL_SECONDS="0.5", FABULA_PAUSE_MARKER=str(marker))
    worker_args = ["-m", "celery", "-A", "games.tests.timeouts.paused_expiry", "worker", "--pool=solo"]
    worker_args += ["--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "INFO"]
    sender = file_broker(tmp_path)
    worker = clock = None
    try:
        game = due_game()
        version = game.version
        worker = start(tmp_path, worker_args, env, "worker-1")
        sender.send_task("games.expire_due_games")
        wait_for_file(marker, worker)
        uncommitted(game, version)  # applied in the worker's transaction, not committed
        kill(worker)
        uncommitted(game, version)
        # The killed worker took its message with it: none is left in the queue folder.
        assert not [name for name in os.listdir(tmp_path / "celery-queue") if name.endswith(".msg")]

        # Worker and beat start again, as bin/run starts them: beat's next run finds the game due.
        worker = start(tmp_path, worker_args, env, "worker-2")
        clock = beat(tmp_path, env)
        wait_for_version(game, version, worker)
        log = (tmp_path / "worker-2.log").read_text()
        assert "games.expire_due_games" in log, log
        closed_exactly_once(game, version)
    finally:
        stop_all(clock, worker)
        sender.close()
