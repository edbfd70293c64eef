"""Whether this process reaches its database, cache, channel layer and broker (``/healthz``),
and how many operations fell back since it started because one of them was not there
(infrastructure.resilience)."""

import logging
import secrets
import tempfile

from celery import current_app
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import connection

from infrastructure.handlers import run_on_loop
from infrastructure.resilience import DEGRADED

log = logging.getLogger(__name__)


def check() -> dict:
    return {
        "database": _database(),
        "cache": _cache(),
        "channel_layer": _channel_layer(),
        "broker": _broker(),
        "degraded": DEGRADED.report(),
    }


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:
        log.warning("health: database unreachable: %s", error)
        return "unreachable"
    return "ok"


def _cache() -> str:
    key = f"healthz:{secrets.token_hex(4)}"
    try:
        cache.set(key, 1, timeout=5)
        ok = cache.get(key) == 1
        cache.delete(key)
    except Exception as error:
        log.warning("health: cache unreachable: %s", error)
        return "unreachable"
    return "ok" if ok else "unreachable"


def _channel_layer() -> str:
    layer = get_channel_layer()
    if layer is None:
        return "none"
    try:
        run_on_loop(layer.group_send, "healthz", {"type": "healthz"})  # on the server's loop, where the layer lives
    except Exception as error:
        log.warning("health: channel layer unreachable: %s", error)
        return "unreachable"
    DEGRADED.recovered("channel_layer")
    return "ok"


def _broker() -> str:
    """The Celery broker: "in-process" when tasks run where they are sent (the tests), "ok" when
    the embedded default's folders (fabulafs://) are writable or Redis answers."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "in-process"
    if current_app.conf.broker_url.startswith("fabulafs://"):
        return _broker_folders(current_app.conf.broker_transport_options or {})
    try:
        with current_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
    except Exception as error:
        log.warning("health: broker unreachable: %s", error)
        return "unreachable"
    return "ok"


def _broker_folders(options: dict) -> str:
    """The file-system broker's queue and control folders take a file ("ok") or not ("unreachable")."""
    folders = {options.get(name) for name in ("data_folder_in", "data_folder_out", "control_folder")} - {None}
    try:
        for folder in folders:
            with tempfile.NamedTemporaryFile(dir=folder, prefix=".healthz-", suffix=".tmp"):
                pass
    except OSError as error:
        log.warning("health: broker folder not writable: %s", error)
        return "unreachable"
    return "ok"
