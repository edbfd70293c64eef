"""The channel layer as configured: an idle page's socket lives, and what a change tells reaches it."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings


@pytest.mark.skipif(not settings.REDIS_URL, reason="the embedded default has no Redis")
def test_a_page_that_heard_nothing_for_longer_than_redis_reads_wait_still_hears_its_group():
    """redis-py times a socket read out after 5 s by default: a listener idle for longer must not die
    with a TimeoutError (as channels_redis.core's 5 s blocking pop once made every idle page's socket)."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()

    async def idle_then_told():
        channel = await layer.new_channel()
        await layer.group_add("idle-test", channel)
        await asyncio.sleep(6)  # the idleness under test: longer than redis-py's 5 s read timeout
        await layer.group_send("idle-test", {"type": "game.changed", "version": 3})
        return await asyncio.wait_for(layer.receive(channel), timeout=5)

    assert async_to_sync(idle_then_told)() == {"type": "game.changed", "version": 3}


@pytest.mark.django_db(transaction=True)
def test_the_counts_of_several_users_go_out_together_after_commit():
    """One change that moves several players' bells: one hop to the event loop after commit, each
    count to its own player's group only, and nothing at all if the change is rolled back."""
    from django.db import transaction

    from games.services import events
    from games.tests.layers import heard

    sent = []

    def change():
        with pytest.raises(RuntimeError), transaction.atomic():
            events.users_notified(unread={1: 9, 2: 9})
            raise RuntimeError("rolled back")
        original = events._send_many
        try:
            events._send_many = lambda messages: (sent.append(messages), original(messages))
            with transaction.atomic():
                events.users_notified(unread={1: 4, 2: 0})
        finally:
            events._send_many = original

    got = heard([events.user_group(1), events.user_group(2)], change)
    assert len(sent) == 1
    assert got == [{"type": "notifications.changed", "unread": 4}, {"type": "notifications.changed", "unread": 0}]
