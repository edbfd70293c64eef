"""Request rates of the API and of the pages' actions, counted in the "rates" cache (shared by every process:
Redis in production; the web process's memory on the embedded default, which bin/run serves from one process).

One account, one count: a signed-in caller is counted by its account, whether it comes with a session or
with any of its API tokens (``rate_hit``); an anonymous one by its address. Only the scopes that count
something else by design (sign-ups per address, token requests per username) name their key
(``rate_hit_key``).

A sliding window per scope and caller, counted in ``SLICES`` + 1 slices of a twelfth of the period each: a
request is let through while the slices that cover the whole period up to now (the oldest one whole, so a
little more than the period) hold at most the rate, the request included. So no span of one period ever
lets more than the rate through, wherever it starts (a fixed window let twice the rate through across its
edge). Refused requests count too: a caller that keeps hammering stays refused until it slows down.
Without Redis, a request reads two keys besides its own slice's (``_earlier_counts``): the older slices are
closed, read once a slice and kept for it.
"""

import hashlib
import math
import time

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest
from ninja.errors import Throttled

# scope -> (requests, seconds). FABULA_API_RATES in the settings overrides any of them.
DEFAULT_RATES = {
    "accounts": (20, 3600),  # sign-ups per address
    "tokens": (10, 60),  # token requests per address
    "tokens-user": (10, 60),  # token requests per username, from anywhere
    "requests": (600, 60),  # any request per account (all its tokens together)
    "actions": (120, 60),  # actions per account (game, deck and upload; pages and API together)
    "chat": (20, 60),  # chat messages per player, pages and API together (chat.services)
}
SLICES = 12


def rate(scope: str) -> tuple[int, int]:
    return getattr(settings, "FABULA_API_RATES", {}).get(scope, DEFAULT_RATES[scope])


def caller(request) -> str:
    """Whom a rate counts: the account when signed in (by a session or by any of its tokens alike), else the
    address."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"address:{client_address(request)}"


def rate_hit(scope: str, request: HttpRequest) -> None:
    """Count one request of its caller (``caller``) in ``scope``; raise ``Throttled`` past the rate."""
    if not isinstance(request, HttpRequest):  # a token's or a user's id: that was the per-token count
        raise TypeError("rate_hit counts a request's caller: pass the request (rate_hit_key takes a key).")
    rate_hit_key(scope, caller(request))


def rate_hit_key(scope: str, ident: str) -> None:
    """Count one request of ``ident`` in ``scope``; raise ``Throttled`` past the rate."""
    limit, period = rate(scope)
    width = period / SLICES
    now = time.time()
    current = int(now // width)
    digest = hashlib.sha256(ident.encode("utf-8", "replace")).hexdigest()[:32]
    key = f"api-rate:{scope}:{digest}:"
    timeout = int(period + 2 * width) + 1  # a slice counts while it is among the last SLICES + 1
    earlier = [f"{key}{current - back}" for back in range(1, SLICES + 1)]  # newest first
    cache = caches["rates"]
    if hasattr(cache, "hit_reading"):  # Redis (infrastructure.resilience): one round trip
        count, counts = cache.hit_reading(f"{key}{current}", timeout=timeout, others=earlier)
    else:
        count = _hit(cache, f"{key}{current}", timeout)
        counts = _earlier_counts(cache, key, current, earlier, width)
    slices = [count, *counts]  # newest first
    if sum(slices) > limit:
        raise Throttled(wait=_wait(slices, limit, current, width, now))


def _earlier_counts(cache, key: str, current: int, earlier: list[str], width: float) -> list[int]:
    """The counts of the window's earlier slices, newest first: the one just before the current read each time,
    the older ones (closed: no request counts in them any more) kept under a key of the current slice's, read
    from their own keys once a slice. So a request reads two keys, not ``SLICES``; the counts are the same, and
    live in the same cache (emptied with it). A request that had taken its slice's number before the edge and
    counts in it after is still counted, in the slice just before; only one delayed past a whole slice would
    not be."""
    closed_key = f"{key}closed:{current}"
    found = cache.get_many([earlier[0], closed_key])
    closed = found.get(closed_key)
    if closed is None:
        older = cache.get_many(earlier[1:])
        closed = [int(older.get(one) or 0) for one in earlier[1:]]
        cache.set(closed_key, closed, timeout=math.ceil(width) + 1)
    return [int(found.get(earlier[0]) or 0), *closed]


def _hit(cache, key: str, timeout: int) -> int:
    if cache.add(key, 1, timeout=timeout):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=timeout)
        return 1


def _wait(slices: list[int], limit: int, current: int, width: float, now: float) -> int:
    """Seconds until enough of the oldest slices have left the window for one more request to go through."""
    for gone in range(1, len(slices) + 1):
        if sum(slices[: len(slices) - gone]) < limit:
            return max(1, math.ceil((current + gone) * width - now))
    return max(1, math.ceil((current + len(slices)) * width - now))


def client_address(request) -> str:
    return request.META.get("REMOTE_ADDR") or "unknown"
