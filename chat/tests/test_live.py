"""A message reaches the other players' open pages at once: the socket says "chat changed", no more."""

import pytest
from asgiref.sync import sync_to_async

from chat.services import chat_mute, chat_post
from games.tests.factories import started_game
from games.tests.live.test_consumers import next_message, open_socket  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_a_message_is_pushed_to_the_game_s_pages_without_its_text(open_socket):  # noqa: F811
    game, users = await sync_to_async(started_game)(3)
    socket, accepted = await open_socket(user=users[1], query=f"game={game.pk}")
    assert accepted

    await sync_to_async(chat_post)(game_id=game.pk, user=users[0], text="a secret plan")

    assert await next_message(socket) == {"type": "chat.changed", "game": game.pk}
    # A mute is one player's own business: nothing goes out for it.
    await sync_to_async(chat_mute)(game_id=game.pk, user=users[1], username=users[0].username)
    assert await socket.receive_nothing(timeout=0.3)
