"""A message reaches the other players' open pages at once: the socket says "chat changed", no more."""

import random

import pytest
from asgiref.sync import sync_to_async

from chat.models import ChatMessage
from chat.services import chat_messages_remove, chat_mute, chat_post
from games.tests.factories import UserFactory, started_game
from games.tests.live.test_consumers import next_message, open_socket  # noqa: F401  (a fixture)
from games.tests.play import play_step

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


async def test_only_those_who_may_read_the_talk_hear_that_it_changed(open_socket):  # noqa: F811
    """A spectator follows a public game's board, not its talk (issue 29): only the players' sockets hear of
    a new message or of one the moderators removed, and a spectator's socket hears of the game's moves still."""
    game, users = await sync_to_async(started_game)(3, visibility="public")
    stranger = await sync_to_async(UserFactory)()
    player, accepted = await open_socket(user=users[1], query=f"game={game.pk}")
    assert accepted
    spectator, accepted = await open_socket(user=stranger, query=f"game={game.pk}")
    assert accepted
    anonymous, accepted = await open_socket(query=f"game={game.pk}")
    assert accepted

    await sync_to_async(chat_post)(game_id=game.pk, user=users[0], text="a secret plan")
    assert await next_message(player) == {"type": "chat.changed", "game": game.pk}
    await sync_to_async(chat_messages_remove)(messages=ChatMessage.objects.filter(game=game))
    assert await next_message(player) == {"type": "chat.changed", "game": game.pk}
    assert await spectator.receive_nothing(timeout=0.3)
    assert await anonymous.receive_nothing(timeout=0.1)

    # The spectators still follow the board.
    await sync_to_async(play_step)(game, users, random.Random(1))
    assert (await next_message(spectator))["type"] == "game.changed"
    assert (await next_message(anonymous))["type"] == "game.changed"
