"""Request rates for the API, counted in the "rates" cache (shared by every process: Redis in production;
the web process's memory on the embedded default, which bin/run serves from one process).

A fixed window per scope and caller: simple, and a burst at a window's edge is
at most twice the rate, which is all these limits need to stop.
"""

import hashlib
import time

from django.conf import settings
from django.core.cache import caches
from ninja.errors import Throttled

# scope -> (requests, seconds). FABULA_API_RATES in the settings overrides any of them.
DEFAULT_RATES = {
    "accounts": (20, 3600),  # sign-ups per address
    "tokens": (10, 60),  # token requests per address
    "tokens-user": (10, 60),  # token requests per username, from anywhere
    "requests": (600, 60),  # any request per token
    "actions": (120, 60),  # game actions per token
    "chat": (20, 60),  # chat messages per player, pages and API together (chat.services)
}


def rate(scope: str) -> tuple[int, int]:
    return getattr(settings, "FABULA_API_RATES", {}).get(scope, DEFAULT_RATES[scope])


def rate_hit(scope: str, ident: str) -> None:
    """Count one request of ``ident`` in ``scope``; raise ``Throttled`` past the rate."""
    limit, period = rate(scope)
    now = time.time()
    window = int(now // period)
    digest = hashlib.sha256(ident.encode("utf-8", "replace")).hexdigest()[:32]
    key = f"api-rate:{scope}:{digest}:{window}"
    cache = caches["rates"]
    if hasattr(cache, "hit"):  # Redis (config.resilience): one round trip
        count = cache.hit(key, timeout=period + 1)
    elif cache.add(key, 1, timeout=period + 1):
        count = 1
    else:
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=period + 1)
            count = 1
    if count > limit:
        raise Throttled(wait=int((window + 1) * period - now) + 1)


def client_address(request) -> str:
    return request.META.get("REMOTE_ADDR") or "unknown"
