"""When a bot's turn comes, a task plays it a moment later: the core's ``state_changed`` tells when (and ``bots_wanted``
when a new game's creator asks for bots in its empty seats).

A bot is sent its task when the game starts waiting for it (a new phase, or a seat
newly awaited in the same one), after the change commits; a second or two later in a
live game, within a minute in an asynchronous one, as a person might. The task
re-reads the game and acts only if the game still waits for it in that phase, so a
task that comes late, twice or never changes nothing wrong: the phase's deadline
still holds for a bot as for anyone.

The task goes through the outbox (``outbox.services.task_queue``: written with the move, sent
after its commit, swept when the broker was down) and the broker (Redis, or the embedded
default's file-system broker) to the Celery worker, with the delay as its countdown. With
tasks run where they are sent (``CELERY_TASK_ALWAYS_EAGER``, no worker, no broker), a timer
thread of the process plays the turn after the same delay; if the process ends first, the
phase's deadline still holds. The tests (``FABULA_BOTS_WAIT`` off) play bots at once instead, in the process
and the transaction's callbacks; there a bot's action would start the next bot's task
inside its own, and a table of bots would play a whole game down one call stack: those
tasks are queued and run one after the other by the outermost instead.
"""

import logging
import random
import threading
from collections import deque
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import close_old_connections, connection, transaction
from django.dispatch import receiver

from games import signals
from games.models import Game, Seat
from infrastructure.raw_sql import raw_sql
from outbox.services import task_queue

from .services import game_seats_fill_with_bots, phase_key_json
from .tasks import play_turn

log = logging.getLogger(__name__)

LIVE_DELAY = (1.0, 3.0)  # seconds after a bot's turn comes, in a live game
ASYNC_DELAY = (5.0, 50.0)  # and in an asynchronous one

_eager = threading.local()


def turn_delay(*, pace: str, rng: random.Random) -> float:
    low, high = LIVE_DELAY if pace == Game.Pace.LIVE else ASYNC_DELAY
    return rng.uniform(low, high)


def bots_awaited(*, kind, seats, before, after) -> list[int]:
    """The user ids of the bots the game starts waiting for with the change from ``before`` to ``after``."""
    to_act = kind.engine.to_act(after) if str(after.phase) != "finished" else frozenset()
    if not to_act:
        return []
    same_phase = before is not None and kind.phase_key(before) == kind.phase_key(after)
    waited = kind.engine.to_act(before) if same_phase else frozenset()
    newly = [seat.user_id for seat in seats if seat.position in to_act and seat.position not in waited]
    if not newly:
        return []
    if all(_SEAT_USER.is_cached(seat) for seat in seats):  # read with the seats under the lock: no query
        return [seat.user_id for seat in seats if seat.user_id in newly and seat.user.is_bot]
    return list(_bots_among(newly))


_SEAT_USER = Seat._meta.get_field("user")


def _bots_among_sql(sql, user_ids):
    user = get_user_model()
    bot = sql.column(user, "is_bot")
    return (
        f"SELECT {sql.column(user, 'pk')} FROM {sql.table(user)}"
        f" WHERE {sql.is_in(sql.column(user, 'pk'), user_ids)} AND {bot} = %s",
        [*user_ids, True],
    )


@raw_sql(_bots_among_sql, flat=True)
def _bots_among(user_ids: list[int]):
    """Which of these users are bots (asked after every action: its SQL written once, infrastructure.raw_sql)."""
    return get_user_model().objects.filter(pk__in=user_ids, is_bot=True).values_list("pk", flat=True)


@receiver(signals.bots_wanted, dispatch_uid="bots.bots_wanted")
def on_bots_wanted(sender, *, game, creator, **kwargs):
    game_seats_fill_with_bots(game_id=game.pk, creator=creator)


@receiver(signals.state_changed, dispatch_uid="bots.state_changed")
def on_state_changed(sender, *, game, kind, seats, before, after, phase_key, **kwargs):
    bot_ids = bots_awaited(kind=kind, seats=seats, before=before, after=after)
    rng = random.Random()
    for user_id in bot_ids:
        task = {"game_id": game.pk, "user_id": user_id, "phase_key": phase_key_json(phase_key)}
        countdown = turn_delay(pace=game.pace, rng=rng)
        if _run_at_once():
            transaction.on_commit(partial(_play_here, task, countdown), robust=True)
        else:
            # Through the outbox: a broker that is down delays the bot, never fails the move that made it its turn.
            task_queue(task=play_turn, kwargs=task, countdown=countdown)


def _run_at_once() -> bool:
    return bool(play_turn.app.conf.task_always_eager)


def _play_here(task: dict, countdown: float) -> None:
    """No worker (tasks run where they are sent): the turn is played in this process."""
    if getattr(settings, "FABULA_BOTS_WAIT", True):
        timer = threading.Timer(countdown, _play_in_thread, kwargs={"task": task})
        timer.daemon = True  # a process that stops does not wait for bots: the deadline holds
        timer.start()
        return
    queue = getattr(_eager, "queue", None)
    if queue is not None:  # a bot's task is running further up this stack: it runs this one next
        queue.append(task)
        return
    _eager.queue = deque([task])
    try:
        while _eager.queue:
            play_turn.apply(kwargs=_eager.queue.popleft())
    finally:
        _eager.queue = None


def _play_in_thread(*, task: dict) -> None:
    close_old_connections()
    try:
        play_turn.apply(kwargs=task)
    finally:
        connection.close()  # this thread's own connection
