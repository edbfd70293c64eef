"""The real thing, once: the embedded default's clock (``manage.py clock``, as bin/run starts it,
no broker) expiring a due game in the test database, and waking for a live game's deadline."""

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

pytestmark = pytest.mark.django_db(transaction=True)  # the clock must see the games


def embedded_env(tmp_path: Path, **extra: str) -> dict:
    """The embedded default's environment, on the test database: no Redis, no broker."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_BROKER_URL")}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.base",
            "DATABASE_URL": database_url(connection.settings_dict),
            "FABULA_VAR_DIR": str(tmp_path),
            **extra,
        }
    )
    return env


def start(tmp_path: Path, args: list[str], env: dict, name: str) -> subprocess.Popen:
    log = open(tmp_path / f"{name}.log", "wb")  # noqa: SIM115 (the process writes it until the test stops it)
    return subprocess.Popen(
        [sys.executable, *args], cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT
    )


def wait_for_version(game: Game, version: int, process: subprocess.Popen, timeout: float = 60) -> None:
    give_up_at = time.monotonic() + timeout
    while time.monotonic() < give_up_at and process.poll() is None:
        game.refresh_from_db()
        if game.version != version:
            return
        time.sleep(0.05)


def test_the_clock_expires_a_due_game_and_wakes_for_a_live_deadline(tmp_path):
    deck = deck_with_cards()
    due, _ = started_game(3, deck=deck, pace="live")
    Game.objects.filter(pk=due.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    live, _ = started_game(3, deck=deck, pace="live")
    # Between two of the clock's runs (every 30 s here): only waking for it closes it on time.
    Game.objects.filter(pk=live.pk).update(deadline_at=timezone.now() + timedelta(seconds=4))
    due.refresh_from_db()
    live.refresh_from_db()

    env = embedded_env(tmp_path, FABULA_EXPIRY_INTERVAL_SECONDS="30")
    clock = start(tmp_path, ["manage.py", "clock"], env, "clock")
    try:
        wait_for_version(due, due.version, clock)
        wait_for_version(live, live.version, clock, timeout=20)
    finally:
        clock.terminate()  # SIGTERM: it stops between runs
        clock.wait(timeout=20)
    log = (tmp_path / "clock.log").read_text()
    assert clock.returncode == 0, log
    assert state_of(due).storyteller == 0, log  # the first clue passed by seat order
    assert state_of(live).storyteller == 0, log
    live.refresh_from_db()
    assert live.deadline_at > timezone.now() - timedelta(seconds=30)
    assert "games.expire_due_games" in log
