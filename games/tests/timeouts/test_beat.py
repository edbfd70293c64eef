"""The real thing, once: a Celery worker and beat on the embedded default's
broker (kombu's filesystem transport), expiring a due game in the test database."""

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
from games.tests.factories import started_game
from games.tests.live.server import database_url

from .steps import state_of

pytestmark = pytest.mark.django_db(transaction=True)  # the worker must see the game


def celery(tmp_path: Path, *args: str) -> subprocess.Popen:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": database_url(connection.settings_dict),
        "CELERY_BROKER_URL": "filesystem://",
        "FABULA_VAR_DIR": str(tmp_path),  # queue folders and beat's schedule file
        "FABULA_EXPIRY_INTERVAL_SECONDS": "0.5",
    }
    log = open(tmp_path / f"{args[0]}.log", "wb")  # noqa: SIM115 (the process writes it until the test stops it)
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", *args, "--loglevel=INFO"],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def test_worker_and_beat_expire_a_due_game(tmp_path):
    for folder in ("celery-queue", "celery-processed"):
        (tmp_path / folder).mkdir()
    game, _ = started_game(3, pace="live")
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    game.refresh_from_db()
    version = game.version

    processes = [celery(tmp_path, "worker", "--pool=solo"), celery(tmp_path, "beat")]
    try:
        give_up_at = time.monotonic() + 60
        while time.monotonic() < give_up_at and all(p.poll() is None for p in processes):
            game.refresh_from_db()
            if game.version != version:
                break
            time.sleep(0.1)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=20)
    logs = "\n".join((tmp_path / f"{name}.log").read_text()[-2000:] for name in ("worker", "beat"))
    assert game.version == version + 1, logs
    assert state_of(game).storyteller == 0  # the first clue passed by seat order
    assert game.deadline_at > timezone.now()
    assert "games.expire_due_games" in logs
