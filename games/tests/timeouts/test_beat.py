"""The real thing, once: a Celery worker and beat as bin/run starts them on the embedded default
(the file-system broker, fabulafs://, in a folder of the test's own), expiring a due game in the
test database, and a live game's deadline within a second of it."""

import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.models import Game
from games.tests.factories import deck_with_cards, started_game
from games.tests.live.server import database_url

from .steps import state_of

pytestmark = pytest.mark.django_db(transaction=True)  # the worker must see the games

# As bin/run starts them.
WORKER = ["-m", "celery", "-A", "config", "worker", "--pool=solo", "--without-gossip", "--without-mingle"]
WORKER += ["--without-heartbeat", "-l", "INFO"]
BEAT = ["-m", "celery", "-A", "config", "beat", "-l", "INFO"]


def embedded_env(tmp_path: Path, **extra: str) -> dict:
    """The embedded default's environment, on the test database: no Redis, the file-system broker
    with its folders (and beat's schedule) in ``tmp_path``. A test that gives it a broker of its own (a Redis server
    it started, with a sender of its own) shares it with nobody: no key prefix."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_BROKER_URL", "FABULA_REDIS_KEY_PREFIX")
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.base",
            "DATABASE_URL": database_url(connection.settings_dict),
            "FABULA_VAR_DIR": str(tmp_path),
            "FABULA_BROKER_POLL_SECONDS": "0.1",
            **extra,
        }
    )
    return env


def start(tmp_path: Path, args: list[str], env: dict, name: str) -> subprocess.Popen:
    log = open(tmp_path / f"{name}.log", "wb")  # noqa: SIM115 (the process writes it until the test stops it)
    return subprocess.Popen(
        [sys.executable, *args], cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT
    )


def beat(tmp_path: Path, env: dict, name: str = "beat") -> subprocess.Popen:
    return start(tmp_path, [*BEAT, "--schedule", str(tmp_path / "celerybeat-schedule")], env, name)


def wait_for_version(game: Game, version: int, process: subprocess.Popen, timeout: float = 60) -> None:
    give_up_at = time.monotonic() + timeout
    while time.monotonic() < give_up_at and process.poll() is None:
        game.refresh_from_db()
        if game.version != version:
            return
        time.sleep(0.05)


def stop_all(*processes) -> None:
    for process in processes:
        if process is not None and process.poll() is None:
            process.terminate()  # SIGTERM: a warm shutdown
    for process in processes:
        if process is not None:
            process.wait(timeout=20)


def test_worker_and_beat_on_the_file_system_broker_expire_due_and_live_deadlines(tmp_path):
    deck = deck_with_cards()
    due, _ = started_game(3, deck=deck, pace="live")
    Game.objects.filter(pk=due.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    live, _ = started_game(3, deck=deck, pace="live")
    due.refresh_from_db()
    live.refresh_from_db()
    due_version, live_version = due.version, live.version

    env = embedded_env(tmp_path, FABULA_EXPIRY_INTERVAL_SECONDS="1")
    worker = start(tmp_path, WORKER, env, "worker")
    clock = beat(tmp_path, env)
    try:
        wait_for_version(due, due_version, worker)
        # Worker and beat are up. Beat runs every second here: its run just before the live game's
        # deadline sends a countdown (a task with an ETA, which the worker holds), or its run just
        # after finds the game due; either closes it once, about on time.
        live_deadline = timezone.now() + timedelta(seconds=2)
        Game.objects.filter(pk=live.pk).update(deadline_at=live_deadline)
        wait_for_version(live, live_version, worker, timeout=20)
        expired_live_at = timezone.now()
    finally:
        stop_all(clock, worker)
    logs = "\n".join((tmp_path / f"{name}.log").read_text()[-3000:] for name in ("worker", "beat"))
    assert worker.returncode == 0, logs
    assert state_of(due).storyteller == 0, logs  # the first clue passed by seat order
    assert state_of(live).storyteller == 0, logs
    due.refresh_from_db()
    live.refresh_from_db()
    assert (due.version, live.version) == (due_version + 1, live_version + 1), logs  # each closed once
    assert expired_live_at - live_deadline < timedelta(seconds=3), logs
    assert "games.expire_due_games" in logs
    # No temporary file is left behind: each put renamed its message into place.
    assert not [name for name in os.listdir(tmp_path / "celery-queue") if name.endswith(".tmp")]
