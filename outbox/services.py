"""The one way a change queues a Celery task: a broker outage delays the task, it never fails the change.

``task_queue`` writes the task as a ``QueuedTask`` row in the caller's transaction, so the task commits with
the change that asked for it, or not at all. Right after the commit it is sent to the broker and its row
deleted (one send, one DELETE). When the broker does not take it (Redis down, a full disk under the embedded
default's folders), the row stays, the answer goes out as if nothing happened, and the broker is not tried
again for ``FABULA_OUTBOX_BREAKER_SECONDS`` (``BROKER``, counted on /healthz as "broker"), so that a request
does not wait on a dead connection once per task. Beat's sweep (``outbox_sweep``, every
``FABULA_OUTBOX_SWEEP_SECONDS``) sends the rows older than ``FABULA_OUTBOX_GRACE_SECONDS``: it runs on a worker,
so it runs as soon as the broker is back, and it also sends what a process that ended between its commit and
its send left behind. A task may so arrive twice (sent, and the process ended before deleting its row): every
task here checks what it finds (a bot's phase, a seat still asked, a game not yet recorded).

Tasks run where they are sent (``CELERY_TASK_ALWAYS_EAGER``, the tests) go through the same path: the "send"
runs them.
"""

import logging
from datetime import datetime, timedelta
from functools import partial

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import ChannelError, OperationalError

from infrastructure.resilience import Breaker

from .models import QueuedTask

log = logging.getLogger(__name__)

ONE_RETRY_AT_ONCE = {"max_retries": 1, "interval_start": 0, "interval_step": 0, "interval_max": 0}
BROKER = Breaker("broker", seconds=settings.FABULA_OUTBOX_BREAKER_SECONDS)


def task_queue(*, task, kwargs: dict, countdown: float | None = None, eta: datetime | None = None) -> None:
    """Send ``task`` (a Celery task) with ``kwargs`` (JSON) once the current transaction commits, to run
    ``countdown`` seconds after now or at ``eta`` (else at once). Outside a transaction, at once."""
    now = timezone.now()
    if countdown is not None:
        eta = now + timedelta(seconds=countdown)
    row = QueuedTask.objects.create(name=task.name, kwargs=kwargs, eta_at=eta, created_at=now)
    transaction.on_commit(partial(_send_committed, row.pk, task, kwargs, eta), robust=True)


def _send_committed(pk: int, task, kwargs: dict, eta: datetime | None) -> None:
    if _send(task, kwargs, eta):
        QueuedTask.objects.filter(pk=pk).delete()


def _send(task, kwargs: dict, eta: datetime | None) -> bool:
    """Hand the task to the broker; False (and the breaker open) when the broker is not there."""

    def publish() -> bool:
        try:
            # One retry at once (a pooled connection Redis dropped when it restarted fails once), no waiting:
            # a broker that refuses is down, and the row waits for the sweep.
            task.apply_async(kwargs=kwargs, eta=eta, retry=True, retry_policy=ONE_RETRY_AT_ONCE)
        except (OperationalError, ChannelError) as error:  # kombu's: no connection (Redis), no folder (fabulafs)
            raise ConnectionError(str(error)) from error
        return True

    return BROKER.call(publish, _not_sent)


def _not_sent() -> bool:
    return False


def outbox_sweep(*, now: datetime, grace: timedelta | None = None, limit: int = 500) -> int:
    """Send the tasks that were not sent after their commit (made more than ``grace`` before ``now``), oldest
    first; returns how many went. Stops at the first the broker does not take: the next sweep tries again.

    The rows are taken with SKIP LOCKED (PostgreSQL): workers sweeping at once share them, and a row goes out
    once. A row naming a task nobody registers (a task renamed by an update), or one that cannot be sent for
    another reason than the broker (arguments that do not encode), is logged and dropped.
    """
    grace = timedelta(seconds=settings.FABULA_OUTBOX_GRACE_SECONDS) if grace is None else grace
    due = QueuedTask.objects.filter(created_at__lte=now - grace)
    if not due.exists():  # the usual case: no write lock taken at all
        return 0
    with transaction.atomic():
        rows = list(due.select_for_update(skip_locked=True).order_by("pk")[:limit])
        done, sent = [], 0
        for row in rows:
            task = current_app.tasks.get(row.name)
            if task is None:
                log.error("queued task %s (%s) is not a registered task: dropped", row.pk, row.name)
                done.append(row.pk)
                continue
            try:
                if not _send(task, row.kwargs, row.eta_at):
                    break
            except Exception:
                # Not the broker: the task itself cannot be sent (its arguments do not encode), and never will.
                log.exception("queued task %s (%s) cannot be sent: dropped", row.pk, row.name)
                done.append(row.pk)
                continue
            done.append(row.pk)
            sent += 1
        QueuedTask.objects.filter(pk__in=done).delete()
    if sent:
        log.warning("sent %d queued task(s) the broker had not taken after their commit", sent)
    return sent
