import os

from celery import Celery

import config.fastpath.broker  # noqa: F401 (registers the embedded default's broker, fabulafs://)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("fabula")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
