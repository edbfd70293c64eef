"""Tell open pages that a game changed: ids and versions, never secrets.

Pages react by fetching their own fragments over HTTP (notify, then fetch), so
a lost message costs only a little delay: pages also re-check on a timer.
"""

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Iterator
from functools import partial

from channels.layers import get_channel_layer
from django.db import transaction

from infrastructure.handlers import run_on_loop
from infrastructure.resilience import Breaker

log = logging.getLogger(__name__)

# Redis gone: pushes are skipped for a few seconds at a time (counted on /healthz), so an
# action does not wait on a dead connection; pages catch up on their own timer meanwhile.
PUSHES = Breaker("channel_layer", retries=3)

LOBBY_GROUP = "lobby"


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


# The messages of the ``one_hop`` block this context runs in, if any.
_batch: contextvars.ContextVar[list | None] = contextvars.ContextVar("events_batch", default=None)


@contextlib.contextmanager
def one_hop() -> Iterator[None]:
    """Inside a transaction: every message the block registers (``game_changed``, ``users_notified``,
    ``chat_changed``, by the service or by a receiver of its signals) goes out after commit in one hop to the
    event loop for them all, where each would take a hop of its own (a request's thread handing a coroutine to
    the server's loop and waiting for it; asgiref's ``async_to_sync`` in a worker: a thread and a loop each).
    The hop is registered with ``on_commit`` when the block starts, so it keeps the place the block's first
    message had among the transaction's callbacks (before the tasks its receivers queue), and it goes with its
    savepoint: a rollback drops it. A block that raises drops the messages it added (as the rollback of its
    savepoint would drop their callbacks); a block inside another adds to the outer one's hop. Outside a
    transaction, each message goes as it comes."""
    outer = _batch.get()
    if outer is not None:
        mark = len(outer)
        try:
            yield
        except BaseException:
            del outer[mark:]
            raise
        return
    if transaction.get_autocommit():  # no transaction: on_commit would send the empty batch at once
        yield
        return
    batch: list = []
    transaction.on_commit(partial(_send_batch, batch))
    token = _batch.set(batch)
    try:
        yield
    except BaseException:
        batch.clear()
        raise
    finally:
        _batch.reset(token)


def _send_batch(batch: list) -> None:
    if batch:
        _send_many(batch)


def _after_commit(messages: list) -> None:
    """After commit, each (groups, message) to its groups: with the ``one_hop`` block's, or in a hop of their own."""
    batch = _batch.get()
    if batch is not None:
        batch.extend(messages)
    else:
        transaction.on_commit(partial(_send_many, messages))


def game_changed(*, game, user_ids=(), lobby: bool = False) -> None:
    """After commit, tell the game's group, the given users and maybe the lobby."""
    message = {"type": "game.changed", "game": game.pk, "version": game.version}
    groups = [game_group(game.pk), *(user_group(uid) for uid in user_ids)]
    if lobby:
        groups.append(LOBBY_GROUP)
    _after_commit([(groups, message)])


def chat_changed(*, game_id: int, reader_ids) -> None:
    """After commit, tell the open pages of those who may read the game's table talk (``reader_ids``: its
    players, chat.services) that it changed: no text, no name, they fetch it. Not the game's group: a
    spectator's page follows the game, not its talk."""
    message = {"type": "chat.changed", "game": game_id}
    _after_commit([([user_group(uid) for uid in reader_ids], message)])


def user_notified(*, user_id: int, unread: int) -> None:
    users_notified(unread={user_id: unread})


def users_notified(*, unread: dict[int, int]) -> None:
    """After commit, tell each user's open pages their unread count: one hop to the event loop for all."""
    if unread:
        messages = [([user_group(uid)], {"type": "notifications.changed", "unread": n}) for uid, n in unread.items()]
        _after_commit(messages)


def _send_many(messages) -> None:
    """Each (groups, message) pair to its groups, in one hop to the event loop for them all."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        PUSHES.call(lambda: run_on_loop(_send_all, layer, messages), lambda: None)
    except Exception:  # a page that misses this catches up on its next check
        log.warning("could not publish %s", messages, exc_info=True)


async def _send_all(layer, messages) -> None:
    await asyncio.gather(*(layer.group_send(group, message) for groups, message in messages for group in groups))
