"""infrastructure.resilience: the breaker in front of what leans on Redis."""

import contextlib
import os

import pytest
import redis
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from infrastructure.resilience import DEGRADED, Breaker, ResilientRedisCache


@pytest.fixture(autouse=True)
def fresh_counts():
    DEGRADED.reset()
    yield
    DEGRADED.reset()


class Flaky:
    """An operation that fails its first ``failures`` calls."""

    def __init__(self, failures: int):
        self.failures = failures
        self.calls = 0

    def __call__(self):
        self.calls += 1
        if self.calls <= self.failures:
            raise RedisConnectionError("Connection closed by server.")
        return "sent"


def test_stale_connections_are_tried_again_at_once_and_nothing_degrades():
    breaker = Breaker("channel_layer", retries=3)
    operation = Flaky(failures=3)
    assert breaker.call(operation, lambda: "skipped") == "sent"
    assert operation.calls == 4
    assert DEGRADED.report()["counts"] == {}
    assert Breaker("channel_layer", retries=3).call(Flaky(failures=4), lambda: "skipped") == "skipped"


def test_a_part_that_stays_down_is_not_called_again_until_the_breaker_closes(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr("infrastructure.resilience.time.monotonic", lambda: clock[0])
    breaker = Breaker("cache", seconds=5)
    operation = Flaky(failures=10**6)
    assert breaker.call(operation, lambda: "fallback") == "fallback"
    assert [breaker.call(operation, lambda: "fallback") for _ in range(3)] == ["fallback"] * 3
    assert operation.calls == 1  # open: no call waits on a dead connection
    clock[0] += 5.1
    assert breaker.call(operation, lambda: "fallback") == "fallback"
    assert operation.calls == 2  # tried again once the breaker closed
    report = DEGRADED.report()
    assert report["counts"] == {"cache": 5} and report["down"] == ["cache"]
    assert "Connection closed by server" in report["last_error"]["cache"]

    operation.failures = 0
    clock[0] += 5.1
    assert breaker.call(operation, lambda: "fallback") == "sent"
    assert DEGRADED.report()["down"] == []


def test_other_errors_are_not_swallowed():
    def broken():
        raise ValueError("a bug")

    with pytest.raises(ValueError):
        Breaker("cache").call(broken, lambda: None)


def test_django_redis_wrapping_counts_as_down_only_when_what_it_wraps_is():
    def wrapped(error):
        def operation():
            try:
                raise error
            except Exception as cause:
                raise ConnectionInterrupted(connection=None) from cause

        return operation

    breaker = Breaker("cache")
    assert breaker.call(wrapped(RedisConnectionError("refused")), lambda: "fallback") == "fallback"
    breaker.close()
    with pytest.raises(ConnectionInterrupted):
        breaker.call(wrapped(ResponseError("WRONGTYPE")), lambda: "fallback")  # a bug to see, not an outage
    assert DEGRADED.report()["counts"] == {"cache": 1}


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL)")
def test_the_cache_backends_of_many_requests_share_one_pool_and_a_breaker():
    """Django makes a cache backend per request under ASGI; they must not make a connection each."""
    url = os.environ["REDIS_URL"]
    params = {"OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 1, "SOCKET_TIMEOUT": 2}}
    probe = redis.Redis.from_url(url)
    before = probe.info("clients")["connected_clients"]
    backends = [ResilientRedisCache(url, params) for _ in range(30)]  # thirty requests' backends
    for number, backend in enumerate(backends):
        backend.set(f"fabula-test-pool-{number}", number, 30)
        assert backend.get(f"fabula-test-pool-{number}") == number
    assert probe.info("clients")["connected_clients"] - before <= 2
    assert len({id(backend.breaker) for backend in backends}) == 1
    # and one redis-py client (on one pool), not one built for each backend or operation
    clients = [backend.client.get_client(write=write) for backend in backends for write in (False, True)]
    assert len({id(client) for client in clients}) == 1
    assert len({id(client.connection_pool) for client in clients}) == 1
    backends[0].delete_many([f"fabula-test-pool-{number}" for number in range(30)])


@contextlib.contextmanager
def connections_borrowed(backend):
    """The list of connections the backend's writing client borrows meanwhile: one a round trip."""
    sent: list = []
    client = backend.client.get_client(write=True)
    real = client.connection_pool.get_connection

    def counting(*args, **kwargs):
        sent.append(args)
        return real(*args, **kwargs)

    client.connection_pool.get_connection = counting
    try:
        yield sent
    finally:
        del client.connection_pool.get_connection


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL)")
def test_hit_counts_in_one_round_trip_with_the_keys_lifetime_set_once():
    url = os.environ["REDIS_URL"]
    backend = ResilientRedisCache(url, {"KEY_PREFIX": f"fabula-test-hit-{os.getpid()}"})
    backend.delete("window")
    client = backend.client.get_client(write=True)
    with connections_borrowed(backend) as sent:
        counts = [backend.hit("window", timeout=30) for _ in range(3)]
    assert counts == [1, 2, 3]
    assert len(sent) == 3  # a connection borrowed once a hit: one pipeline, one round trip
    assert backend.get("window") == 3  # the cache's own reads see the count
    ttl = client.ttl(backend.make_key("window"))
    assert 0 < ttl <= 30  # set when the key was made, not pushed back by later hits
    backend.delete("window")


def test_hit_fails_open_while_redis_is_down():
    backend = ResilientRedisCache(
        "redis://127.0.0.1:9/0", {"OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.2, "breaker_seconds": 30}}
    )
    assert [backend.hit("window", timeout=30) for _ in range(3)] == [1, 1, 1]


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL)")
def test_hit_reading_counts_and_reads_the_other_slices_in_one_round_trip():
    backend = ResilientRedisCache(os.environ["REDIS_URL"], {"KEY_PREFIX": f"fabula-test-hit-reading-{os.getpid()}"})
    backend.delete_many(["now", "before", "long-ago"])
    backend.hit("before", timeout=30)
    backend.hit("before", timeout=30)
    with connections_borrowed(backend) as sent:
        answers = [backend.hit_reading("now", timeout=30, others=["before", "long-ago"]) for _ in range(2)]
    assert answers == [(1, [2, 0]), (2, [2, 0])]
    assert len(sent) == 2  # one round trip each
    backend.delete_many(["now", "before", "long-ago"])


def test_hit_reading_fails_open_while_redis_is_down():
    backend = ResilientRedisCache(
        "redis://127.0.0.1:9/0", {"OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.2, "breaker_seconds": 30}}
    )
    assert backend.hit_reading("now", timeout=30, others=["a", "b"]) == (1, [0, 0])


def test_redis_replies_are_parsed_by_hiredis_in_c():
    """The lock files install hiredis, and redis-py (the cache, the rate counts, the channel layer's pub/sub)
    then parses replies with it rather than in Python."""
    import redis.asyncio.connection
    import redis.connection
    from redis._parsers import _AsyncHiredisParser, _HiredisParser

    assert redis.connection.DefaultParser is _HiredisParser
    assert redis.asyncio.connection.DefaultParser is _AsyncHiredisParser
