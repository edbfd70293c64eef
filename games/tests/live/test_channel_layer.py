"""The channel layer as configured: Redis must let an idle page's socket live."""

import pytest
from django.conf import settings


@pytest.mark.skipif(not settings.REDIS_URL, reason="the embedded default has no Redis")
def test_redis_reads_outlast_the_layers_blocking_wait():
    """An idle consumer blocks on Redis for ``brpop_timeout`` at a time; were socket
    reads to time out sooner (redis-py 8's default is 5 s, the same), every idle
    page's socket would die with a TimeoutError."""
    from channels_redis.core import RedisChannelLayer

    (host,) = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]
    assert host["socket_timeout"] > RedisChannelLayer.brpop_timeout
