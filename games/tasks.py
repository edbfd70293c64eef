"""Deadlines: the beat task that expires due phases, and countdowns for live games.

``game_expire`` alone decides whether a phase expires (the game still at the
version seen, active, unpaused and due), so whatever calls it late, twice or at
the same time as a player's action changes the game once. Nothing depends on a
task arriving: the beat task finds every due game from the ``deadline_at``
column, and the countdowns only make live games move on closer to the second.
"""

import logging
from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Game
from games.services.games import game_expire, game_holds_expire
from games.services.weeks import paused_games_sweep
from outbox.services import task_queue

log = logging.getLogger(__name__)

COUNTDOWN_SLACK = timedelta(milliseconds=50)  # arrive just after the deadline, not just before


def _due(now: datetime):
    return Game.objects.filter(status=Game.Status.ACTIVE, is_paused=False, deadline_at__lte=now)


def games_expire_due(*, now: datetime, limit: int = 200) -> int:
    """Expire the phases whose deadline passed by ``now``; returns how many.

    One transaction per game. The row is taken with SKIP LOCKED (PostgreSQL), so
    several workers share the due games without waiting for each other, and a
    game that a player is changing right now is left to the next run. On SQLite
    the IMMEDIATE transaction serialises writers instead.
    """
    if not _due(now).exists():  # the usual case: no write lock taken at all
        return 0
    expired = 0
    passed_over: set[int] = set()
    for _ in range(limit):
        with transaction.atomic():
            row = (
                _due(now)
                .exclude(pk__in=passed_over)
                .select_for_update(skip_locked=True)
                .order_by("deadline_at")
                .values_list("pk", "version")
                .first()
            )
            if row is None:
                break
            game_id, version = row
            try:
                with transaction.atomic():
                    changed = game_expire(game_id=game_id, version=version, now=now)
            except Exception:
                # One broken game must not hold up every other game's deadline.
                log.exception("could not expire game %s at version %s", game_id, version)
                changed = False
        if changed:
            expired += 1
        else:
            passed_over.add(game_id)
    return expired


def holds_expire_due(*, now: datetime, limit: int = 200) -> int:
    """Open the seats of the rematches whose holds ended by ``now`` (``game_holds_expire``, idempotent: a
    run that comes late, twice or beside another changes each game once); returns how many games."""
    released = 0
    for game_id in (
        Game.objects.filter(holds_until_at__lte=now).order_by("holds_until_at").values_list("pk", flat=True)[:limit]
    ):
        try:
            released += game_holds_expire(game_id=game_id, now=now)
        except Exception:
            log.exception("could not open the held seats of game %s", game_id)
    return released


def live_countdowns_schedule(*, now: datetime, within: timedelta) -> int:
    """Send a countdown task for each live game whose deadline falls before the next run."""
    soon = Game.objects.filter(
        status=Game.Status.ACTIVE,
        is_paused=False,
        pace=Game.Pace.LIVE,
        deadline_at__gt=now,
        deadline_at__lte=now + within,
    ).values_list("pk", "version", "deadline_at")
    count = 0
    for game_id, version, deadline_at in soon:
        task_queue(task=expire_game, kwargs={"game_id": game_id, "version": version}, eta=deadline_at + COUNTDOWN_SLACK)
        count += 1
    return count


@shared_task(name="games.expire_due_games", ignore_result=True)
def expire_due_games() -> int:
    """Beat, every FABULA_EXPIRY_INTERVAL_SECONDS: due phases, rematches' held seats whose time is up, and paused
    games that end (or whose table is told so, a day before)."""
    now = timezone.now()
    expired = games_expire_due(now=now)
    holds_expire_due(now=now)
    paused_games_sweep(now=now)
    live_countdowns_schedule(now=now, within=timedelta(seconds=settings.FABULA_EXPIRY_INTERVAL_SECONDS))
    return expired


@shared_task(name="games.expire_game", ignore_result=True)
def expire_game(*, game_id: int, version: int) -> bool:
    """A live game's countdown: expire its phase if it is still the one it was sent for."""
    return game_expire(game_id=game_id, version=version, now=timezone.now())
