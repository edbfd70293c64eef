"""The live socket: who may follow what, and that it says nothing but ids and versions."""

import random
from datetime import timedelta

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import transaction
from django.test import Client

from config.asgi import application
from games.models import Game
from games.services import events
from games.services.games import game_act, game_create, game_expire, game_join, game_leave, game_start

from ..factories import UserFactory, deck_with_cards, started_game
from ..play import play_step, play_to_end, view_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ORIGIN = b"http://testserver"
HOST = b"testserver"
GAME_KEYS = {"type", "game", "version"}
NOTIFICATION_KEYS = {"type", "unread"}


def _session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


@pytest_asyncio.fixture
async def open_socket():
    """Open a page's socket as ``user`` (None: anonymous); returns (communicator, accepted)."""
    opened = []

    async def open_(*, user=None, query: str = "", origin: bytes | None = ORIGIN, host: bytes = HOST):
        # As a browser: the page's origin, and the host (and port) the socket is opened on.
        headers = [(b"host", host)] + ([(b"origin", origin)] if origin is not None else [])
        if user is not None:
            headers.append((b"cookie", (await sync_to_async(_session_cookie)(user)).encode()))
        communicator = WebsocketCommunicator(application, f"/ws/live/?{query}", headers=headers)
        opened.append(communicator)
        accepted, _code = await communicator.connect(timeout=5)
        if accepted and "game=" in query:  # a game page's socket first says the game's version
            communicator.hello = await communicator.receive_json_from(timeout=5)
            assert communicator.hello["type"] == "hello", communicator.hello
        return communicator, accepted

    yield open_
    # As daphne does, refused handshakes included: the consumer then stops
    # listening to the channel layer.
    for communicator in opened:
        await communicator.disconnect()


async def next_message(communicator) -> dict:
    return await communicator.receive_json_from(timeout=5)


async def next_game_message(communicator) -> dict:
    """The next message about the game itself, past the bell's (``notifications.changed``: its count moves when a
    turn the player was asked for closes, which is news of its own)."""
    while True:
        message = await next_message(communicator)
        if message["type"] != "notifications.changed":
            return message


async def later_messages(communicator) -> list[dict]:
    """What the socket hears until it has been quiet for 0.3 s."""
    later = []
    while not await communicator.receive_nothing(timeout=0.3):
        later.append(await next_message(communicator))
    return later


async def current_version(game) -> int:
    await sync_to_async(game.refresh_from_db)()
    return game.version


async def test_a_player_hears_of_a_change_made_through_the_services(open_socket):
    game, users = await sync_to_async(started_game)(4)
    socket, accepted = await open_socket(user=users[1], query=f"game={game.pk}")
    assert accepted

    await sync_to_async(play_step)(game, users, random.Random(1))

    # The pushed message equals a fresh fetch of what it speaks of.
    assert await next_message(socket) == {
        "type": "game.changed",
        "game": game.pk,
        "version": await current_version(game),
    }


async def test_a_game_pages_socket_first_says_the_games_version_as_it_stands_once_it_hears_every_change(
    open_socket,
):
    """Issue 39: the page fetches its board at the socket's opening only if the hello's version is newer than the
    one it shows. The hello carries the game's id and version, and nothing else."""
    game, users = await sync_to_async(started_game)(4)
    await sync_to_async(play_step)(game, users, random.Random(1))
    socket, accepted = await open_socket(user=users[1], query=f"game={game.pk}")
    assert accepted
    assert socket.hello == {"type": "hello", "game": game.pk, "version": await current_version(game)}

    await sync_to_async(play_step)(game, users, random.Random(2))
    assert await next_game_message(socket) == {
        "type": "game.changed",
        "game": game.pk,
        "version": socket.hello["version"] + 1,
    }

    # A page without a game (the lobby, My games) hears no hello. (It may hear the bell: a turn the
    # player was asked for closed with the last step, and its news can reach the new socket's user group.)
    mine, accepted = await open_socket(user=users[1], query="lobby=1")
    assert accepted
    assert [message["type"] for message in await later_messages(mine) if message["type"] == "hello"] == []


async def test_a_game_page_hears_of_each_version_once(open_socket):
    """Its player's own group and its game's group both carry the change: the page gets one message."""
    game, users = await sync_to_async(started_game)(4)
    socket, accepted = await open_socket(user=users[1], query=f"game={game.pk}")
    assert accepted

    await sync_to_async(play_step)(game, users, random.Random(1))
    first = await next_game_message(socket)
    await sync_to_async(play_step)(game, users, random.Random(2))
    second = await next_game_message(socket)

    assert first["version"] + 1 == second["version"] == await current_version(game)
    later = await later_messages(socket)
    assert [message for message in later if message["type"] != "notifications.changed"] == []


async def test_my_games_hear_of_every_game_i_sit_in(open_socket):
    game, users = await sync_to_async(started_game)(3)
    socket, accepted = await open_socket(user=users[2])  # "My games": no game asked for
    assert accepted

    await sync_to_async(play_step)(game, users, random.Random(2))

    assert await next_message(socket) == {
        "type": "game.changed",
        "game": game.pk,
        "version": await current_version(game),
    }


async def test_the_lobby_hears_of_public_games_only(open_socket):
    deck = await sync_to_async(deck_with_cards)()
    creator = await sync_to_async(UserFactory)()
    socket, accepted = await open_socket(query="lobby=1")
    assert accepted

    private = await sync_to_async(game_create)(
        creator=creator, max_seats=4, options={"deck": deck.pk}, visibility="private"
    )
    public = await sync_to_async(game_create)(
        creator=creator, max_seats=4, options={"deck": deck.pk}, visibility="public"
    )

    # Messages arrive in the order they were sent: had the private game been announced, its message would come
    # before the public one's. (On Redis the lobby's group is shared by the suite's parallel workers, whose own
    # public games may be heard too: only this test's two games are looked for.)
    heard = []
    while not heard or heard[-1] != {"type": "game.changed", "game": public.pk, "version": public.version}:
        heard.append(await next_message(socket))
    assert {"type": "game.changed", "game": private.pk, "version": private.version} not in heard


async def test_the_bell_hears_of_notifications(open_socket):
    user = await sync_to_async(UserFactory)()
    socket, accepted = await open_socket(user=user)
    assert accepted

    def notify():
        with transaction.atomic():
            events.user_notified(user_id=user.pk, unread=3)

    await sync_to_async(notify)()

    assert await next_message(socket) == {"type": "notifications.changed", "unread": 3}


@pytest.mark.parametrize(
    "visibility, viewer, accepted",
    [
        ("private", "stranger", False),
        ("private", "anonymous", False),
        ("private", "player", True),
        ("public", "stranger", True),
        ("public", "anonymous", True),
    ],
)
async def test_only_who_may_see_a_game_may_follow_it(open_socket, visibility, viewer, accepted):
    game, users = await sync_to_async(started_game)(3, visibility=visibility)
    user = {"stranger": await sync_to_async(UserFactory)(), "anonymous": None, "player": users[1]}[viewer]

    _socket, was_accepted = await open_socket(user=user, query=f"game={game.pk}")

    assert was_accepted is accepted


@pytest.mark.parametrize("game_id", ["999999", "abc", "-1", "99999999999999999999999", "1.5"])
async def test_following_no_such_game_is_refused(open_socket, game_id):
    user = await sync_to_async(UserFactory)()
    _socket, accepted = await open_socket(user=user, query=f"game={game_id}")
    assert not accepted


@pytest.mark.parametrize(
    "origin",
    [b"http://evil.example", b"http://testserver.evil.example", b"https://evil.example:443", b"null", None],
)
async def test_a_foreign_origin_is_refused(open_socket, origin):
    game, users = await sync_to_async(started_game)(3)
    _socket, accepted = await open_socket(user=users[0], query=f"game={game.pk}", origin=origin)
    assert not accepted


async def test_the_site_own_origin_is_accepted(open_socket):
    game, users = await sync_to_async(started_game)(3)
    for origin, host in (
        (ORIGIN, HOST),
        (b"http://127.0.0.1:8000", b"127.0.0.1:8000"),  # bin/run's printed address
        (b"http://localhost:9000", b"localhost:9000"),  # PORT=9000 bin/run
    ):
        _socket, accepted = await open_socket(user=users[0], query=f"game={game.pk}", origin=origin, host=host)
        assert accepted, origin


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        (b"http://127.0.0.1:1", b"127.0.0.1:8000"),  # another port
        (b"https://localhost:1", b"localhost:8000"),  # another scheme and port
        (b"https://127.0.0.1:8000", b"127.0.0.1:8000"),  # another scheme
        (b"http://localhost:8000", b"127.0.0.1:8000"),  # another host
        (b"http://127.0.0.1:8000", b"evil.example:8000"),  # a host the site does not serve
    ],
)
async def test_another_scheme_host_or_port_is_refused(open_socket, origin, host):
    game, users = await sync_to_async(started_game)(3)
    _socket, accepted = await open_socket(user=users[0], query=f"game={game.pk}", origin=origin, host=host)
    assert not accepted


async def test_the_socket_forwards_ids_and_versions_and_nothing_else(open_socket):
    """Even a group message that carried more would reach the browser without it."""
    game, users = await sync_to_async(started_game)(3)
    socket, _accepted = await open_socket(user=users[0], query=f"game={game.pk}")

    await get_channel_layer().group_send(
        events.game_group(game.pk),
        {"type": "game.changed", "game": game.pk, "version": 99, "hand": [1, 2, 3], "votes": {"a": 1}},
    )

    assert await next_message(socket) == {"type": "game.changed", "game": game.pk, "version": 99}


async def test_no_message_of_a_whole_game_carries_anything_but_ids_and_versions(open_socket):
    """Join, leave, start, every move, a timeout, a resignation, a notification:
    every message that reaches any socket has exactly the allowed keys."""
    deck = await sync_to_async(deck_with_cards)()
    creator, *others = await sync_to_async(UserFactory.create_batch)(6)
    watcher, _ = await open_socket(query="lobby=1")
    sockets = {creator.pk: (await open_socket(user=creator))[0]}
    for user in others:
        sockets[user.pk] = (await open_socket(user=user, query="lobby=1"))[0]

    def play_a_whole_game():
        game = game_create(creator=creator, max_seats=6, options={"deck": deck.pk, "target_score": 5})
        for user in others[:4]:
            game_join(game_id=game.pk, user=user)
        game_leave(game_id=game.pk, user=others[3])
        left_at = Game.objects.get(pk=game.pk).version
        game_start(game_id=game.pk, user=creator)
        game.refresh_from_db()
        started_at = game.version
        with transaction.atomic():
            events.user_notified(user_id=creator.pk, unread=1)
        game_expire(game_id=game.pk, version=game.version, now=game.deadline_at + timedelta(seconds=1))
        players = [creator, *others[:3]]
        rng = random.Random(3)
        play_step(game, players, rng)
        game_act(game_id=game.pk, user=others[2], action={"type": "resign"})
        play_to_end(game, players[:3], rng)
        return game, left_at, started_at

    game, left_at, started_at = await sync_to_async(play_a_whole_game)()
    assert game.status == Game.Status.FINISHED

    # Each socket's last word on the game: the lobby's (the watcher's, and that
    # of others[4], who never joins) when the game started, the player who left
    # when they left, the players' at the end.
    last_version = {watcher: started_at, sockets[others[4].pk]: started_at, sockets[others[3].pk]: left_at}
    checked = []
    for socket in [watcher, *sockets.values()]:
        last = {"type": "game.changed", "game": game.pk, "version": last_version.get(socket, game.version)}
        seen = []
        while last not in seen:
            seen.append(await next_message(socket))
        for message in seen:
            if message["type"] == "game.changed":
                assert set(message) == GAME_KEYS, message
                assert type(message["game"]) is int and type(message["version"]) is int
            else:
                assert message["type"] == "notifications.changed"
                assert set(message) == NOTIFICATION_KEYS, message
                assert type(message["unread"]) is int
        checked += seen
    assert len(checked) > 30
    assert {"type": "notifications.changed", "unread": 1} in checked


# ---- A socket that asks for its view (games.pushes) ----------------------------------------------------


def _token(user) -> str:
    from accounts.services import token_create

    return token_create(user=user, name="socket")[1]


async def _token_socket(token: str, query: str):
    """A client that is no browser: its API token, no Origin, no cookie."""
    headers = [(b"host", HOST), (b"authorization", f"Bearer {token}".encode())]
    communicator = WebsocketCommunicator(application, f"/ws/live/?{query}", headers=headers)
    accepted, _code = await communicator.connect(timeout=5)
    return communicator, accepted


async def test_a_game_page_that_asks_is_sent_its_board_at_each_change(open_socket):
    game, users = await sync_to_async(started_game)(4)
    socket, accepted = await open_socket(user=users[1], query=f"game={game.pk}&push=board")
    assert accepted and socket.hello["type"] == "hello"

    await sync_to_async(play_step)(game, users, random.Random(1))

    message = await next_game_message(socket)
    version = await current_version(game)
    assert set(message) == {"type", "game", "version", "html"}
    assert (message["type"], message["game"], message["version"]) == ("game.board", game.pk, version)
    assert f'data-version="{version}"' in message["html"]
    assert 'name="csrfmiddlewaretoken" value=""' in message["html"]  # the page fills in its own
    # Its hand, which the others' boards do not show.
    hand = await sync_to_async(lambda: [c["id"] for c in view_for(game, users[1])["hand"]])()
    assert all(f'value="{card}"' in message["html"] for card in hand)
    # The same change through the user's own group: once (the bell may speak, a turn having closed).
    assert [m for m in await later_messages(socket) if m["type"] != "notifications.changed"] == []
    await socket.disconnect()


async def test_a_bot_follows_its_game_by_its_token_and_is_sent_its_view():
    game, users = await sync_to_async(started_game)(3)
    token = await sync_to_async(_token)(users[2])
    socket, accepted = await _token_socket(token, f"game={game.pk}&push=view")
    assert accepted  # no Origin: a page cannot send a token with a WebSocket
    assert (await next_message(socket))["type"] == "hello"

    await sync_to_async(play_step)(game, users, random.Random(2))

    message = await next_game_message(socket)
    version = await current_version(game)
    assert (message["type"], message["game"], message["version"]) == ("game.view", game.pk, version)
    view = await sync_to_async(view_for)(game, users[2])
    assert message["view"]["version"] == version and message["view"]["you"]["seat"] == view["you"]["seat"]
    assert [card["id"] for card in message["view"]["hand"]] == [str(card["id"]) for card in view["hand"]]
    await socket.disconnect()


@pytest.mark.parametrize("token", ["not-a-token", ""])
async def test_a_socket_with_a_token_that_is_not_live_is_refused(token):
    game, _users = await sync_to_async(started_game)(3)
    socket, accepted = await _token_socket(token, f"game={game.pk}&push=view")
    assert not accepted
    await socket.disconnect()


async def test_a_token_follows_only_what_its_user_may_see():
    game, users = await sync_to_async(started_game)(3, visibility="private")
    stranger = await sync_to_async(UserFactory)()
    socket, accepted = await _token_socket(await sync_to_async(_token)(stranger), f"game={game.pk}&push=view")
    assert not accepted
    await socket.disconnect()
    socket, accepted = await _token_socket(await sync_to_async(_token)(users[1]), f"game={game.pk}&push=view")
    assert accepted
    await socket.disconnect()


async def test_a_push_of_a_game_no_longer_theirs_to_see_is_only_a_change(open_socket):
    """The game made private after the socket opened: a stranger's socket is told of the change, as before, and
    its fetch is refused as any other."""
    game, users = await sync_to_async(started_game)(3)
    stranger = await sync_to_async(UserFactory)()
    socket, accepted = await open_socket(user=stranger, query=f"game={game.pk}&push=board")
    assert accepted
    await sync_to_async(Game.objects.filter(pk=game.pk).update)(visibility="private")

    await sync_to_async(play_step)(game, users, random.Random(3))

    assert await next_game_message(socket) == {
        "type": "game.changed",
        "game": game.pk,
        "version": await current_version(game),
    }


@pytest.mark.parametrize("push", ["everything", "view"])
async def test_a_push_that_is_not_asked_for_or_not_a_pages_is_not_sent(open_socket, push):
    """A page's socket (its session) is sent its board if it asks, never the API's view (the API is the tokens')."""
    game, users = await sync_to_async(started_game)(3)
    socket, _accepted = await open_socket(user=users[1], query=f"game={game.pk}&push={push}")
    await sync_to_async(play_step)(game, users, random.Random(4))
    assert await next_game_message(socket) == {
        "type": "game.changed",
        "game": game.pk,
        "version": await current_version(game),
    }


async def test_a_token_socket_is_sent_no_board():
    game, users = await sync_to_async(started_game)(3)
    socket, accepted = await _token_socket(await sync_to_async(_token)(users[1]), f"game={game.pk}&push=board")
    assert accepted and (await next_message(socket))["type"] == "hello"
    await sync_to_async(play_step)(game, users, random.Random(5))
    message = await next_game_message(socket)
    assert message == {"type": "game.changed", "game": game.pk, "version": await current_version(game)}
    await socket.disconnect()


async def test_a_token_socket_is_closed_once_its_token_is_revoked():
    """A revoked token is refused at the next request; its socket, at the next change: closed, nothing sent."""
    from accounts.services import token_revoke

    game, users = await sync_to_async(started_game)(3)
    socket, accepted = await _token_socket(await sync_to_async(_token)(users[1]), f"game={game.pk}&push=view")
    assert accepted and (await next_message(socket))["type"] == "hello"
    token_id = await sync_to_async(lambda: users[1].api_tokens.get().pk)()
    await sync_to_async(token_revoke)(user=users[1], token_id=token_id)

    await sync_to_async(play_step)(game, users, random.Random(6))

    while True:  # the bell may speak first (a turn closed): no game's news, then the close
        output = await socket.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            break
        assert '"game.' not in output.get("text", ""), output
    await socket.disconnect()


async def test_a_push_that_fails_is_only_a_change_and_the_socket_stays(open_socket, caplog):
    """Whatever goes wrong in making a push, the page hears of the change as before and fetches its board."""
    from unittest import mock

    game, users = await sync_to_async(started_game)(3)
    socket, accepted = await open_socket(user=users[1], query=f"game={game.pk}&push=board")
    assert accepted
    with mock.patch("games.consumers.pushed", side_effect=RuntimeError("the cache is gone")):
        await sync_to_async(play_step)(game, users, random.Random(7))
        message = await next_game_message(socket)
    assert message == {"type": "game.changed", "game": game.pk, "version": await current_version(game)}
    assert "no push for version" in caplog.text
    await sync_to_async(play_step)(game, users, random.Random(8))
    assert (await next_game_message(socket))["type"] == "game.board"  # the next one is pushed again
