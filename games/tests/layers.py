"""Listening to the channel layer in a test as a server process's pages do."""

import asyncio
from collections.abc import Callable

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer


def heard(groups: list[str], change: Callable[[], None], *, of_type: str | None = None, timeout: float = 5) -> list:
    """The first message (of type ``of_type``, if given) that a page in each of ``groups`` hears once
    ``change()`` has run, in the order of ``groups``.

    The pages listen on one event loop and ``change()`` runs under it, on this thread and its database
    connection: Redis's pub/sub layer keeps a loop's subscriptions in that loop (a server process's pages
    share its loop), so a page made in one ``async_to_sync`` call would hear nothing in the next."""
    layer = get_channel_layer()

    async def first(channel: str) -> dict:
        while True:
            message = await layer.receive(channel)
            if of_type is None or message["type"] == of_type:
                return message

    async def listen() -> list:
        channels = []
        for group in groups:
            channels.append(await layer.new_channel())
            await layer.group_add(group, channels[-1])
        await sync_to_async(change)()
        return [await asyncio.wait_for(first(channel), timeout) for channel in channels]

    return async_to_sync(listen)()
