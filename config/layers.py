"""The embedded default's channel layer: channels' in-memory layer, without its cost per message.

Channels' ``InMemoryChannelLayer`` walks every channel's queue and every group membership of the
process on *each* ``receive`` and ``group_send``, to drop expired messages. With a socket per open
page that is a walk over all of them for every message any page is sent: the work grows with the
square of the pages open, and it was a tenth of the server's CPU in ``bench/live_latency.py``.
Here the walk runs at most once a second (messages expire after a minute, memberships after a
day: a second later is the same), and a group's members are sent to in a loop rather than a task
each (an in-memory send never waits).
"""

import contextlib
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer


class ThrottledInMemoryChannelLayer(InMemoryChannelLayer):
    clean_every = 1.0  # seconds

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._cleaned_at = float("-inf")

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._cleaned_at >= self.clean_every:
            self._cleaned_at = now
            super()._clean_expired()

    async def group_send(self, group, message):
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            # As the base class: a full channel misses this message, the others get it.
            with contextlib.suppress(ChannelFull):
                await self.send(channel, message)
