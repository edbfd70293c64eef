"""The embedded default's clock: Celery beat's schedule run in this one process, with no broker.

Every periodic task works from columns (a phase's ``deadline_at``, an email's due time,
the finished games), so the clock has nothing in flight to lose: killed in the middle
of a task, that task's transaction rolls back and the next run, in this process or the
one started after it, finds the same rows due. It also wakes at the next live game's
deadline, which on the broker's side is the countdown tasks' job. An error in one run is
logged and the clock keeps going: nothing needs restarting.

Production keeps Celery (a worker and one beat on Redis): several processes and hosts
share the work there, and a killed worker's task comes back (``acks_late``).
"""

import logging
import signal
import threading
from datetime import timedelta

from celery import current_app
from celery.schedules import schedule as every
from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import close_old_connections
from django.db.models import Min
from django.utils import timezone

from games.models import Game
from games.tasks import COUNTDOWN_SLACK

log = logging.getLogger(__name__)

DEADLINE_TASK = "games.expire_due_games"


def next_live_deadline(now):
    """The nearest deadline of an active, unpaused game after ``now`` (None if there is none)."""
    return Game.objects.filter(status=Game.Status.ACTIVE, is_paused=False, deadline_at__gt=now).aggregate(
        first=Min("deadline_at")
    )["first"]


class Clock:
    def __init__(self, beat_schedule: dict, *, app=None):
        self.app = app or current_app
        self.entries = {}
        for name, entry in beat_schedule.items():
            when = entry["schedule"]
            if isinstance(when, int | float | timedelta):
                when = every(when if isinstance(when, timedelta) else timedelta(seconds=when))
            self.entries[name] = (entry["task"], when)
        # Interval tasks run at once; a crontab waits for its next moment.
        self.last_run = {
            name: (timezone.now() - timedelta(days=3650) if isinstance(when, every) else timezone.now())
            for name, (_task, when) in self.entries.items()
        }
        self.stopping = threading.Event()

    def run_task(self, task_name: str) -> None:
        """Run one periodic task here and now (its body, as a worker would); a failure is logged."""
        try:
            result = self.app.tasks[task_name].apply()
            if result.failed():
                log.error("clock: %s failed: %r", task_name, result.result)
        except Exception:
            log.exception("clock: %s failed", task_name)
        finally:
            close_old_connections()

    def tick(self) -> float:
        """Run what is due; the seconds to wait before the next tick."""
        waits = []
        for name, (task_name, when) in self.entries.items():
            due, next_seconds = when.is_due(self.last_run[name])
            if due:
                self.last_run[name] = timezone.now()
                self.run_task(task_name)
                _due, next_seconds = when.is_due(self.last_run[name])
            waits.append(next_seconds)
        wait = min(waits, default=60.0)
        try:
            now = timezone.now()
            deadline = next_live_deadline(now)
            if deadline is not None and DEADLINE_TASK in {task for task, _when in self.entries.values()}:
                until = (deadline + COUNTDOWN_SLACK - now).total_seconds()
                if until < wait:
                    wait = max(until, 0.0)
                    self._deadline_soon = True
        except Exception:
            log.exception("clock: could not read the next deadline")
        finally:
            close_old_connections()
        return max(wait, 0.0)

    def run(self) -> None:
        while not self.stopping.is_set():
            self._deadline_soon = False
            wait = self.tick()
            if self.stopping.wait(wait):
                break
            if self._deadline_soon:  # a live game's deadline, before the schedule's next run
                self.run_task(DEADLINE_TASK)


class Command(BaseCommand):
    help = "Run the periodic tasks (deadlines, emails, statistics) in this process: the embedded default's clock."

    def handle(self, *args, **options):
        clock = Clock(settings.CELERY_BEAT_SCHEDULE)

        def stop(signum, frame):
            clock.stopping.set()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        self.stdout.write(f"clock: {', '.join(sorted(clock.entries))}")
        clock.run()
