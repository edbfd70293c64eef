"""Celery tasks: each makes one call to the services.

Both are safe to run again or late: a recorded game is not recorded twice, and a
rebuild derives everything from the games.
"""

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

from .services import stats_game_finished, stats_rebuild


@shared_task(name="stats.game_finished", autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def game_finished(game_id: int) -> None:
    """Enqueued when a game's finish commits: its players' records, ratings and boards."""
    stats_game_finished(game_id=game_id, now=timezone.now())


@shared_task(name="stats.rebuild", autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def rebuild() -> None:
    """Nightly: every record, rating and board derived again from the games."""
    stats_rebuild(now=timezone.now())
