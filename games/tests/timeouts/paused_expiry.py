"""A Celery worker that stops dead in the middle of expiring a phase, for the kill tests.

The first expiry it runs is applied inside the beat task's transaction and then waits,
uncommitted, until the test kills the process (it writes the marker file
``FABULA_PAUSE_MARKER`` names, holding its pid, when it gets there). Once the marker
exists, later processes run the task as it is.

    celery -A games.tests.timeouts.paused_expiry worker --pool=solo
"""

import os
import time
from pathlib import Path

from celery.signals import task_prerun

from config.celery import app  # noqa: F401 (celery -A finds the app here)


def install() -> None:
    from games import tasks

    if getattr(tasks.game_expire, "paused", False):
        return
    expire = tasks.game_expire

    def paused(**kwargs):
        changed = expire(**kwargs)  # inside games_expire_due's transaction: not committed yet
        marker = Path(os.environ["FABULA_PAUSE_MARKER"])
        if changed and not marker.exists():
            marker.write_text(str(os.getpid()))
            time.sleep(300)  # until the test kills this process
        return changed

    paused.paused = True
    tasks.game_expire = paused


@task_prerun.connect
def _before_task(**kwargs):
    install()
