"""The embedded default's channel layer: an in-memory layer to channels' layer spec, without a walk per message.

Channels' ``InMemoryChannelLayer`` walks every channel's queue and every group membership of the
process on *each* ``receive`` and ``group_send``, to drop expired messages. With a socket per open
page that is a walk over all of them for every message any page is sent: the work grows with the
square of the pages open, and it was a tenth of the server's CPU in ``bench/live_latency.py``.
Here the walk runs at most once a second (messages expire after a minute, memberships after a
day: a second later is the same), and a group's members are sent to in a loop rather than a task
each (an in-memory send never waits).

The layer is written on channels' ``BaseChannelLayer`` (what channels_redis and every layer build on:
names, capacities, ``get_capacity``) to the channel layer specification (``send``, ``receive``,
``new_channel``, the ``groups`` and ``flush`` extensions), with the in-memory layer's behaviour:
a full channel raises ``ChannelFull`` (and misses a group's message), a channel whose message
expired unread leaves its groups, an emptied channel is forgotten. It reads nothing private of
channels' or asyncio's (an earlier version subclassed ``InMemoryChannelLayer`` and overrode its
private ``_clean_expired``).
"""

import asyncio
import atexit
import contextlib
import json
import logging
import os
import secrets
import socket
import threading
import time
from copy import deepcopy
from pathlib import Path

from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer

log = logging.getLogger(__name__)


class ThrottledInMemoryChannelLayer(BaseChannelLayer):
    extensions = ["groups", "flush"]
    clean_every = 1.0  # seconds

    def __init__(self, expiry=60, group_expiry=86400, capacity=100, channel_capacity=None, **kwargs):
        super().__init__(expiry=expiry, capacity=capacity, channel_capacity=channel_capacity, **kwargs)
        self.channels: dict[str, asyncio.Queue] = {}  # name -> queue of (expires at, message)
        self.groups: dict[str, dict[str, float]] = {}  # group -> {channel: joined at}
        self.group_expiry = group_expiry
        self.cleaned_at = float("-inf")

    async def send(self, channel, message):
        """Put ``message`` on ``channel``; ``ChannelFull`` when its queue is at capacity."""
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        try:
            queue.put_nowait((time.time() + self.expiry, deepcopy(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def receive(self, channel):
        """The first message that arrives on ``channel``."""
        self.require_valid_channel_name(channel)
        self.clean_expired()
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        try:
            _expires, message = await queue.get()
        finally:
            if queue.empty():
                self.channels.pop(channel, None)
        return message

    async def new_channel(self, prefix="specific."):
        return f"{prefix}.inmemory!{secrets.token_urlsafe(9)}"

    def clean_expired(self):
        """Drop expired messages (a channel with one leaves every group) and expired memberships: at most once
        every ``clean_every`` seconds."""
        moment = time.monotonic()
        if moment - self.cleaned_at < self.clean_every:
            return
        self.cleaned_at = moment
        self.walk()

    def walk(self):
        """The walk over every queue and membership that channels' in-memory layer makes at every message."""
        now = time.time()
        for channel, queue in list(self.channels.items()):
            if queue.empty():
                continue
            # A queue with messages has nobody waiting on it: taken out and the live ones put back, in order.
            size = queue.qsize()
            kept = [item for item in (queue.get_nowait() for _ in range(size)) if item[0] >= now]
            for item in kept:
                queue.put_nowait(item)
            if len(kept) < size:  # a message expired unread: its channel leaves every group
                for members in self.groups.values():
                    members.pop(channel, None)
            if not kept:
                self.channels.pop(channel, None)
        cutoff = int(now) - self.group_expiry
        for members in self.groups.values():
            for name, joined_at in list(members.items()):
                if joined_at and joined_at < cutoff:
                    members.pop(name, None)

    async def flush(self):
        self.channels = {}
        self.groups = {}

    async def close(self):
        pass

    async def group_add(self, group, channel):
        self.require_valid_group_name(group)
        self.require_valid_channel_name(channel)
        self.groups.setdefault(group, {})[channel] = time.time()

    async def group_discard(self, group, channel):
        self.require_valid_channel_name(channel)
        self.require_valid_group_name(group)
        members = self.groups.get(group)
        if members:
            members.pop(channel, None)
            if not members:
                self.groups.pop(group, None)

    async def group_send(self, group, message):
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self.clean_expired()
        for channel in list(self.groups.get(group, ())):
            # As channels' in-memory layer: a full channel misses this message, the others get it.
            with contextlib.suppress(ChannelFull):
                await self.send(channel, message)


class LocalSocketChannelLayer(ThrottledInMemoryChannelLayer):
    """The in-memory layer, crossing processes over Unix datagram sockets in one folder of the data folder.

    Every process whose pages joined a group (a web server) listens on ``<folder>/<pid>.sock``; a group
    message is delivered to this process's own pages as the in-memory layer does and sent, as one small
    datagram, to every other socket in the folder. So what the Celery worker, beat's tasks, a management
    command or any other process publishes reaches the web server's open pages at once, with no server of
    its own to run (docs/operating/live.md says why this and not the database or a broker).

    A process that never has a page never listens (a worker only sends). A socket whose process is gone
    refuses the datagram: its file is removed. A web server that is down or restarting misses what is
    sent meanwhile, as with Redis's pub/sub: its pages reconnect and fetch what they show anyway. A peer
    whose queue is full (it stopped reading) gets its datagram dropped after a short retry, never a wait.
    """

    datagram_max = 8192  # a message is ``{type, game, version}`` and a group's name: a few dozen bytes
    full_retries = 20  # times 5 ms: how long a sender tries a peer whose queue is full

    def __init__(self, folder=None, **kwargs):
        super().__init__(**kwargs)
        if folder is None:
            from django.conf import settings

            folder = settings.FABULA_LIVE_SOCKETS
        self.folder = Path(folder)
        self._address: str | None = None  # this process's own socket, once it listens
        self._listener: socket.socket | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # where received messages are delivered
        self._sender: socket.socket | None = None
        self._pid: int | None = None

    # ---- sending --------------------------------------------------------------------------------

    async def group_send(self, group, message):
        await super().group_send(group, message)
        self._check_fork()
        try:
            peers = [entry.path for entry in os.scandir(self.folder) if entry.name.endswith(".sock")]
        except FileNotFoundError:
            return
        peers = [peer for peer in peers if peer != self._address]
        if not peers:
            return
        datagram = json.dumps({"group": group, "message": message}, separators=(",", ":")).encode()
        if len(datagram) > self.datagram_max:
            raise ValueError(f"a message of {len(datagram)} bytes is too big for the local socket layer")
        await asyncio.gather(*(self._send_to(peer, datagram) for peer in peers))

    async def _send_to(self, peer: str, datagram: bytes) -> None:
        if self._sender is None:
            self._sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._sender.setblocking(False)
        for _attempt in range(self.full_retries):
            try:
                self._sender.sendto(datagram, peer)
                return
            except BlockingIOError:  # its queue is full: it is busy, or it stopped reading
                await asyncio.sleep(0.005)
            except ConnectionRefusedError:  # nobody listens there: its process is gone
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(peer)
                return
            except FileNotFoundError:  # it went away since the folder was listed
                return
        log.warning("dropped a message for %s: its queue stayed full", peer)

    # ---- listening -------------------------------------------------------------------------------

    async def group_add(self, group, channel):
        await super().group_add(group, channel)
        self._listen(asyncio.get_running_loop())

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """Listen on this process's socket (once), delivering what it hears on ``loop`` (the latest one to
        add a page: a server has one loop; a test makes one per ``async_to_sync``)."""
        self._check_fork()
        self._loop = loop
        if self._listener is not None:
            return
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        address = str(self.folder / f"{os.getpid()}.sock")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(address)  # a process of this pid before this one is gone
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            listener.bind(address)
        except OSError:
            listener.close()
            log.warning(
                "cannot listen on %s: other processes' messages will not reach this one", address, exc_info=True
            )
            return
        self._listener, self._address = listener, address
        atexit.register(self._stop_listening)
        # A thread of its own reads the socket, whatever the loop is doing (or if a test's loop is gone):
        # a peer's datagram never waits for a busy loop, and one hop hands it over.
        threading.Thread(target=self._read, args=(listener,), name="live-socket", daemon=True).start()

    def _read(self, listener: socket.socket) -> None:
        while True:
            try:
                datagram = listener.recv(self.datagram_max)
            except OSError:  # closed
                return
            if self._listener is not listener:  # closed (shut down: recv gives b"" from now on)
                return
            received = _parse(datagram)
            if received is not None:
                try:
                    self.require_valid_group_name(received[0])
                except TypeError:
                    received = None
            if received is None:
                log.warning("ignored a malformed datagram on %s", self._address)
                continue
            loop = self._loop
            if loop is None or loop.is_closed():
                continue
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                asyncio.run_coroutine_threadsafe(ThrottledInMemoryChannelLayer.group_send(self, *received), loop)

    async def close(self):
        """Stop listening (the socket's file goes with it); pages of this process hear only its own messages."""
        self._stop_listening()
        await super().close()

    def _stop_listening(self) -> None:
        if self._pid != os.getpid():  # a forked child's exit: the socket is its parent's
            return
        listener, address = self._listener, self._address
        self._listener = self._address = None
        if listener is not None:
            atexit.unregister(self._stop_listening)
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)  # wakes the reading thread: a close alone may not
            listener.close()
        if address is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(address)

    def _check_fork(self) -> None:
        """A forked child (uvicorn's workers, Celery's prefork) has its own pid, pages and socket."""
        pid = os.getpid()
        if self._pid != pid:
            self._pid = pid
            if self._listener is not None:
                self._listener = self._address = None  # the parent's: it keeps listening on it
            self._sender = None


def _parse(datagram: bytes) -> tuple[str, dict] | None:
    """``(group, message)`` from a peer's datagram, or None for anything else."""
    try:
        received = json.loads(datagram)
    except ValueError:
        return None
    if not isinstance(received, dict):
        return None
    group, message = received.get("group"), received.get("message")
    if not isinstance(group, str) or not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return None
    return group, message
