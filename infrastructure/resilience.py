"""When Redis goes away, what leans on it degrades instead of failing requests.

Redis holds the cache (sessions' copies, signed-in users, rate counts) and carries the
live pushes; the database holds everything that matters. So with Redis down a page
still loads, an API read answers and an action commits: sessions and users are read
from the database, rates are not counted (a limit is not worth an outage), and open
pages catch up on their own timer instead of a push.

Each part that leans on Redis goes through a ``Breaker``: after a failure it stops
trying for a few seconds, so that a request does not wait on a dead connection once
per cache call, then lets one call through to see whether Redis is back. Every
operation that fell back (failed, or skipped while the breaker was open) is counted
per process, logged when a part goes down and when it comes back, and reported on
``/healthz`` (games.health).
"""

import logging
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django_redis.cache import RedisCache
from django_redis.exceptions import ConnectionInterrupted
from django_redis.pool import ConnectionFactory
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger("fabula.degraded")

# What "Redis is not there" looks like to redis-py (and to the sockets under it).
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, ConnectionError, TimeoutError, OSError)


def _unreachable(error: BaseException) -> bool:
    """Whether ``error`` says the part is not there: one of UNREACHABLE, or django-redis's wrapping of one (it
    wraps a server's error reply the same way: that one is a bug to see, not an outage)."""
    if isinstance(error, ConnectionInterrupted):
        return isinstance(error.__cause__, UNREACHABLE)
    return isinstance(error, UNREACHABLE)


class Degradations:
    """This process's count of operations that fell back, per part (``cache``, ``channel_layer``, ...)."""

    def __init__(self):
        self._lock = threading.Lock()
        self.counts: dict[str, int] = {}
        self.down_since: dict[str, float] = {}
        self.last_error: dict[str, str] = {}

    def fell_back(self, part: str, error: BaseException | None = None) -> None:
        with self._lock:
            self.counts[part] = self.counts.get(part, 0) + 1
            if error is not None:
                self.last_error[part] = f"{type(error).__name__}: {error}"[:300]
            first = part not in self.down_since
            if first:
                self.down_since[part] = time.time()
        if first:
            log.error("%s unreachable, degrading (%s)", part, self.last_error.get(part, "no error"))

    def recovered(self, part: str) -> None:
        if part not in self.down_since:  # the usual case: no lock taken
            return
        with self._lock:
            since = self.down_since.pop(part, None)
        if since is not None:
            log.warning("%s reachable again after %.1f s", part, time.time() - since)

    def report(self) -> dict:
        with self._lock:
            return {
                "counts": dict(self.counts),
                "down": sorted(self.down_since),
                "last_error": dict(self.last_error),
            }

    def reset(self) -> None:
        with self._lock:
            self.counts.clear()
            self.down_since.clear()
            self.last_error.clear()


DEGRADED = Degradations()


class Breaker:
    """Stop calling a part for ``seconds`` after it failed; then let calls try it again."""

    def __init__(self, part: str, seconds: float = 5.0, *, retries: int = 0):
        self.part = part
        self.seconds = seconds
        # Try again at once before giving up: each connection a pool made before Redis
        # restarted fails once ("Connection closed by server") and is dropped; a pool
        # may hold a few. A Redis that is down refuses each try in a moment.
        self.retries = retries
        self._open_until = 0.0

    def is_open(self) -> bool:
        return time.monotonic() < self._open_until

    def close(self) -> None:
        """Let the next call try the part at once (a test that tripped it is over)."""
        self._open_until = 0.0

    def call(self, operation, fallback):
        """``operation()``, or ``fallback()`` when the part is unreachable (counted, and logged once)."""
        if self.is_open():
            DEGRADED.fell_back(self.part)
            return fallback()
        for tries_left in range(self.retries, -1, -1):
            try:
                result = operation()
                break
            except (*UNREACHABLE, ConnectionInterrupted) as error:
                if not _unreachable(error):
                    raise
                if not tries_left:
                    return self._trip(error, fallback)
        DEGRADED.recovered(self.part)
        return result

    def _trip(self, error, fallback):
        self._open_until = time.monotonic() + self.seconds
        DEGRADED.fell_back(self.part, error)
        return fallback()


class SharedClientConnectionFactory(ConnectionFactory):
    """django-redis's connection factory, with one redis-py client per set of connection parameters for the
    whole process (``CONNECTION_FACTORY``: django-redis's documented way to change how clients are made).

    django-redis already keeps one connection pool per server for the process; but it builds a redis-py
    client for each cache backend, and Django makes a backend per request under ASGI. Building a client
    is costly (its response callbacks, a case-insensitive dict of a few hundred commands: 0.3-0.8 ms here).
    A client borrows a connection from its pool for each command and is safe to share between threads:
    one per pool serves them all."""

    _clients_of_process: dict = {}  # repr(connection parameters) -> a redis-py client on django-redis's pool
    _clients_lock = threading.Lock()

    def get_connection(self, params):
        kept = repr(sorted(params.items(), key=lambda item: item[0]))
        client = self._clients_of_process.get(kept)
        if client is None:
            with self._clients_lock:
                client = self._clients_of_process.get(kept)
                if client is None:
                    client = self._clients_of_process[kept] = super().get_connection(params)
        return client


# One breaker per Redis server and process, for the same reason: a backend's own would be
# forgotten with its request.
_cache_breakers: dict = {}


class ResilientRedisCache(RedisCache):
    """django-redis's cache, answering as an empty cache that keeps nothing while Redis is down.

    ``add`` answers True (as if the key were new) and ``incr`` the delta: a rate counted
    in the cache starts again at one, so limits fail open rather than refuse everyone.
    OPTIONS ``breaker_seconds`` (default 5) says how long to stop trying after a failure; the others are
    django-redis's (``SOCKET_TIMEOUT``, ...). Its clients come from ``SharedClientConnectionFactory``.
    """

    def __init__(self, server, params):
        options = dict(params.get("OPTIONS") or {})
        seconds = float(options.pop("breaker_seconds", 5.0))
        options.setdefault("CONNECTION_FACTORY", "infrastructure.resilience.SharedClientConnectionFactory")
        self.breaker = _cache_breakers.setdefault((server, seconds), Breaker("cache", seconds))
        super().__init__(server, {**params, "OPTIONS": options})

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self.breaker.call(
            lambda: super(ResilientRedisCache, self).add(key, value, timeout, version), lambda: True
        )

    def get(self, key, default=None, version=None):
        return self.breaker.call(lambda: super(ResilientRedisCache, self).get(key, default, version), lambda: default)

    def hit(self, key, timeout: int, version=None) -> int:
        """One more under ``key``, made to last ``timeout`` seconds if it is new: the count, in one round trip
        (``add`` then ``incr``, as a cache without ``hit`` counts, are three: Django's ``incr`` asks whether
        the key exists first). While Redis is down, 1: a limit fails open."""

        def count():
            redis_key = self.client.make_key(key, version=version)
            with self.client.get_client(write=True).pipeline(transaction=False) as pipe:
                pipe.set(redis_key, 0, ex=timeout, nx=True)
                pipe.incr(redis_key)
                return pipe.execute()[1]

        return self.breaker.call(count, lambda: 1)

    def hit_reading(self, key, timeout: int, others, version=None) -> tuple[int, list[int]]:
        """``hit`` and the counts under ``others`` (0 for a missing one), in the same round trip: a rate counted
        over several windows (games.api.limits). While Redis is down, (1, zeros): a limit fails open."""
        others = list(others)

        def count():
            redis_key = self.client.make_key(key, version=version)
            with self.client.get_client(write=True).pipeline(transaction=False) as pipe:
                pipe.set(redis_key, 0, ex=timeout, nx=True)
                pipe.incr(redis_key)
                if others:
                    pipe.mget([self.client.make_key(other, version=version) for other in others])
                answers = pipe.execute()
            return answers[1], [int(value or 0) for value in (answers[2] if others else [])]

        return self.breaker.call(count, lambda: (1, [0] * len(others)))

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self.breaker.call(lambda: super(ResilientRedisCache, self).set(key, value, timeout, version), _none)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self.breaker.call(lambda: super(ResilientRedisCache, self).touch(key, timeout, version), _false)

    def delete(self, key, version=None):
        return self.breaker.call(lambda: super(ResilientRedisCache, self).delete(key, version), _false)

    def get_many(self, keys, version=None):
        return self.breaker.call(lambda: super(ResilientRedisCache, self).get_many(keys, version), dict)

    def has_key(self, key, version=None):
        return self.breaker.call(lambda: super(ResilientRedisCache, self).has_key(key, version), _false)

    def incr(self, key, delta=1, version=None):
        return self.breaker.call(lambda: super(ResilientRedisCache, self).incr(key, delta, version), lambda: delta)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self.breaker.call(
            lambda: super(ResilientRedisCache, self).set_many(data, timeout, version), lambda: list(data)
        )

    def delete_many(self, keys, version=None):
        return self.breaker.call(lambda: super(ResilientRedisCache, self).delete_many(keys, version), _none)

    def clear(self):
        return self.breaker.call(lambda: super(ResilientRedisCache, self).clear(), _false)


def _none():
    return None


def _false():
    return False
