"""config.layers: the embedded default's in-memory channel layer."""

import asyncio

from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings

from config.layers import ThrottledInMemoryChannelLayer


def test_the_embedded_default_uses_it_and_redis_replaces_it():
    expected = RedisPubSubChannelLayer if settings.REDIS_URL else ThrottledInMemoryChannelLayer
    assert type(get_channel_layer()) is expected


def test_a_group_message_reaches_every_member_once_and_no_one_else():
    layer = ThrottledInMemoryChannelLayer()

    async def scenario():
        members = [await layer.new_channel() for _ in range(3)]
        outsider = await layer.new_channel()
        for channel in members:
            await layer.group_add("game-1", channel)
        await layer.group_add("game-2", outsider)
        await layer.group_send("game-1", {"type": "game.changed", "game": 1, "version": 7})
        got = [await asyncio.wait_for(layer.receive(channel), 1) for channel in members]
        nothing_for_outsider = outsider not in layer.channels
        nothing_more = all(channel not in layer.channels for channel in members)
        return got, nothing_for_outsider, nothing_more

    got, nothing_for_outsider, nothing_more = asyncio.run(scenario())
    assert got == [{"type": "game.changed", "game": 1, "version": 7}] * 3
    assert nothing_for_outsider and nothing_more


def test_each_member_gets_its_own_copy_of_the_message():
    layer = ThrottledInMemoryChannelLayer()

    async def scenario():
        first, second = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("g", first)
        await layer.group_add("g", second)
        await layer.group_send("g", {"type": "x", "items": [1]})
        one = await layer.receive(first)
        one["items"].append(2)
        return await layer.receive(second)

    assert asyncio.run(scenario()) == {"type": "x", "items": [1]}


def test_a_full_channel_misses_the_message_and_the_others_still_get_it():
    layer = ThrottledInMemoryChannelLayer(capacity=1)

    async def scenario():
        full, free = await layer.new_channel(), await layer.new_channel()
        await layer.send(full, {"type": "first"})
        await layer.group_add("g", full)
        await layer.group_add("g", free)
        await layer.group_send("g", {"type": "second"})
        return await layer.receive(full), await layer.receive(free), full in layer.channels

    assert asyncio.run(scenario()) == ({"type": "first"}, {"type": "second"}, False)


def test_expired_messages_and_their_channels_memberships_are_still_dropped():
    # Messages expire a second before they are sent: stale at the next walk, with no clock to wait for.
    layer = ThrottledInMemoryChannelLayer(expiry=-1)
    layer.clean_every = 0  # walk at every message, as the base class does

    async def scenario():
        gone, other = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("g", gone)
        await layer.send(gone, {"type": "stale"})
        await layer.group_send("other", {"type": "anything"})  # the walk runs here
        return gone in layer.channels, gone in layer.groups.get("g", {}), other

    in_channels, in_group, _ = asyncio.run(scenario())
    assert (in_channels, in_group) == (False, False)


def test_the_walk_over_every_channel_runs_at_most_once_a_second_however_many_messages(monkeypatch):
    """The base class walks every queue and membership on each receive and group send: with 200 pages
    open that is 200 x 200 steps for one message to each. Here it is once per interval."""
    layer = ThrottledInMemoryChannelLayer()
    walks = []
    monkeypatch.setattr(
        "channels.layers.InMemoryChannelLayer._clean_expired", lambda self: walks.append(len(self.channels))
    )

    async def scenario():
        channels = [await layer.new_channel() for _ in range(200)]
        for channel in channels:
            await layer.group_add("everyone", channel)
        for _ in range(20):
            await layer.group_send("everyone", {"type": "game.changed"})
            for channel in channels:
                await layer.receive(channel)

    asyncio.run(scenario())
    assert len(walks) == 1
