"""infrastructure.layers: the embedded default's in-memory channel layer, and its crossing of processes."""

import asyncio
import os
import socket
import subprocess
import sys
import time

import pytest
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings

from infrastructure.layers import LocalSocketChannelLayer, ThrottledInMemoryChannelLayer


def test_the_embedded_default_uses_it_and_redis_replaces_it():
    expected = RedisPubSubChannelLayer if settings.REDIS_URL else LocalSocketChannelLayer
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
    monkeypatch.setattr(layer, "walk", lambda: walks.append(len(layer.channels)))

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


# ---- LocalSocketChannelLayer: the in-memory layer across processes -------------------------------------


async def _received(layer, channel):
    return await asyncio.wait_for(layer.receive(channel), 2.0)


def test_what_another_process_sends_reaches_this_process_s_pages_and_only_the_group_s(tmp_path):
    """A process with no page of its own (a Celery worker, a management command) sends; the web process's
    pages in that group hear it at once, the others nothing."""
    layer = LocalSocketChannelLayer(folder=tmp_path)
    sender = (
        "import asyncio, sys; from infrastructure.layers import LocalSocketChannelLayer; "
        "layer = LocalSocketChannelLayer(folder=sys.argv[1]); "
        "asyncio.run(layer.group_send('game-5', {'type': 'game.changed', 'game': 5, 'version': 8})); "
        "asyncio.run(layer.group_send('game-5', {'type': 'end'}))"
    )

    async def scenario():
        member, outsider = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("game-5", member)
        await layer.group_add("game-6", outsider)
        sent = await asyncio.create_subprocess_exec(sys.executable, "-c", sender, str(tmp_path))
        assert await sent.wait() == 0
        got = await _received(layer, member)
        # One socket's datagrams arrive and are handed over in order: once the end is in, all before it is.
        assert await _received(layer, member) == {"type": "end"}
        return got, outsider in layer.channels

    got, outsider_got_something = asyncio.run(scenario())
    assert got == {"type": "game.changed", "game": 5, "version": 8}
    assert not outsider_got_something
    # Only the process with pages listens; the sender left nothing behind.
    assert sorted(os.listdir(tmp_path)) == [f"{os.getpid()}.sock"]
    asyncio.run(layer.close())


def test_a_sender_in_this_process_reaches_a_listener_and_its_own_pages_once(tmp_path):
    listener, sender = LocalSocketChannelLayer(folder=tmp_path), LocalSocketChannelLayer(folder=tmp_path)

    async def scenario():
        page = await listener.new_channel()
        await listener.group_add("lobby", page)
        own = await sender.new_channel()
        sender.groups["lobby"] = {own: time.time()}  # a page of the sender's own, without listening
        await sender.group_send("lobby", {"type": "game.changed", "game": 1, "version": 2})
        await sender.group_send("lobby", {"type": "end"})
        heard = await _received(listener, page), await _received(sender, own)
        # Each hears in order: the next thing after the message is the end, so it came once to each.
        after = await _received(listener, page), await _received(sender, own)
        return heard, after

    heard, after = asyncio.run(scenario())
    assert heard == ({"type": "game.changed", "game": 1, "version": 2},) * 2
    assert after == ({"type": "end"},) * 2
    asyncio.run(listener.close())


def test_a_socket_whose_process_is_gone_is_removed_and_costs_the_sender_nothing(tmp_path):
    """A web server killed without cleaning up left its socket file: sending finds nobody there, removes it."""
    stale = tmp_path / "999999.sock"
    gone = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    gone.bind(str(stale))
    gone.close()  # the file stays, nobody listens
    layer = LocalSocketChannelLayer(folder=tmp_path)

    started = time.monotonic()
    asyncio.run(layer.group_send("game-1", {"type": "game.changed", "game": 1, "version": 1}))

    assert time.monotonic() - started < 0.5
    assert not stale.exists()


def test_a_peer_that_stopped_reading_gets_its_messages_dropped_after_a_short_try(tmp_path):
    """Its queue full (a stopped process): the sender gives up on it within a tenth of a second a message."""
    stuck = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    stuck.bind(str(tmp_path / "999998.sock"))
    layer = LocalSocketChannelLayer(folder=tmp_path)

    async def flood():
        for version in range(30):
            await layer.group_send("game-1", {"type": "game.changed", "game": 1, "version": version})

    started = time.monotonic()
    asyncio.run(flood())
    elapsed = time.monotonic() - started
    queued = 0
    stuck.setblocking(False)
    while True:
        try:
            stuck.recv(100)
        except BlockingIOError:
            break
        queued += 1
    stuck.close()
    assert 0 < queued < 30  # some got through, the rest were dropped
    assert elapsed < (30 - queued) * 0.15


def test_a_malformed_datagram_is_ignored_and_the_next_one_heard(tmp_path):
    layer = LocalSocketChannelLayer(folder=tmp_path)
    intruder = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)

    async def scenario():
        page = await layer.new_channel()
        await layer.group_add("game-1", page)
        address = str(tmp_path / f"{os.getpid()}.sock")
        for junk in (b"\xff", b"[]", b'{"group": "game-1"}', b'{"group": "bad name!", "message": {"type": "x"}}'):
            intruder.sendto(junk, address)
        intruder.sendto(b'{"group": "game-1", "message": {"type": "game.changed", "game": 1, "version": 3}}', address)
        return await _received(layer, page)

    assert asyncio.run(scenario()) == {"type": "game.changed", "game": 1, "version": 3}
    intruder.close()
    asyncio.run(layer.close())


def test_the_sockets_folder_is_the_owner_s_alone(tmp_path):
    folder = tmp_path / "live"
    layer = LocalSocketChannelLayer(folder=folder)

    async def listen():
        await layer.group_add("lobby", await layer.new_channel())

    asyncio.run(listen())
    assert folder.stat().st_mode & 0o777 == 0o700
    asyncio.run(layer.close())


@pytest.mark.parametrize("message", [{"type": "x", "blob": "y" * 10000}])
def test_a_message_too_big_for_a_datagram_is_refused_loudly(tmp_path, message):
    (tmp_path / "1.sock").touch()  # a peer to send to
    layer = LocalSocketChannelLayer(folder=tmp_path)
    with pytest.raises(ValueError, match="too big"):
        asyncio.run(layer.group_send("g", message))


def test_a_forked_child_that_exits_leaves_its_parent_s_socket_alone(tmp_path):
    """A process forked from a listening one (a server's workers) runs the exit handlers it inherited when it
    ends: the parent's socket stays."""
    script = (
        "import asyncio, os, sys; from infrastructure.layers import LocalSocketChannelLayer; "
        "layer = LocalSocketChannelLayer(folder=sys.argv[1]); "
        "asyncio.run(layer.group_add('g', 'specific.page')); "
        "child = os.fork(); "
        "sys.exit(0) if child == 0 else os.waitpid(child, 0); "
        "print(os.listdir(sys.argv[1]) == [f'{os.getpid()}.sock'])"
    )
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "True", done.stdout + done.stderr
