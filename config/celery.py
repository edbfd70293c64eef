import os
import sys

from infrastructure import memtrace

if memtrace.is_celery(sys.argv):  # not each command that imports the app (manage.py, the web server)
    memtrace.start_from_environment()  # FABULA_TRACEMALLOC only (bench/soak.py --tracemalloc)

from celery import Celery  # noqa: E402

import infrastructure.undocumented.file_broker  # noqa: F401, E402 (registers the embedded default's broker, fabulafs://)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("fabula")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
