"""Whether this process reaches its database, cache and channel layer (``/healthz``)."""

import logging
import secrets

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import connection

log = logging.getLogger(__name__)


def check() -> dict[str, str]:
    return {"database": _database(), "cache": _cache(), "channel_layer": _channel_layer()}


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
        async_to_sync(layer.group_send)("healthz", {"type": "healthz"})
    except Exception as error:
        log.warning("health: channel layer unreachable: %s", error)
        return "unreachable"
    return "ok"
