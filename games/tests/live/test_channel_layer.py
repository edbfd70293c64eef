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


@pytest.mark.django_db(transaction=True)
def test_the_counts_of_several_users_go_out_together_after_commit():
    """One change that moves several players' bells: one hop to the event loop after commit, each
    count to its own player's group only, and nothing at all if the change is rolled back."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer
    from django.db import transaction

    from games.services import events

    layer = get_channel_layer()
    channels = {user_id: async_to_sync(layer.new_channel)() for user_id in (1, 2)}
    for user_id, channel in channels.items():
        async_to_sync(layer.group_add)(events.user_group(user_id), channel)
    with pytest.raises(RuntimeError), transaction.atomic():
        events.users_notified(unread={1: 9, 2: 9})
        raise RuntimeError("rolled back")
    sent = []
    original = events._send_many
    try:
        events._send_many = lambda messages: (sent.append(messages), original(messages))
        with transaction.atomic():
            events.users_notified(unread={1: 4, 2: 0})
    finally:
        events._send_many = original
    assert len(sent) == 1
    assert async_to_sync(layer.receive)(channels[1]) == {"type": "notifications.changed", "unread": 4}
    assert async_to_sync(layer.receive)(channels[2]) == {"type": "notifications.changed", "unread": 0}
