"""A deleted account's name is gone at once from every server process: two really started servers share
the database, each has cached the boards, API views, replay, lobby and leaderboard that name the account
(warmed by another player), and each one's next answer after the deletion holds no trace of it."""

import random

import httpx
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.services import account_delete, token_create
from games.models import Game
from games.services.games import game_create, game_join
from games.tests.factories import UserFactory, deck_with_cards
from games.tests.live.server import AsgiServer, free_port
from games.tests.play import play_to_end

pytestmark = pytest.mark.django_db(transaction=True)

NAME = "Quillon Varga"  # the deleted account's shown name: found nowhere else
USERNAME = "quillonv"


@pytest.fixture
def two_servers(asgi_server, tmp_path):
    """The session's server and a second process on the same database: two processes, two sets of caches."""
    second = AsgiServer(env=asgi_server.env, port=free_port(), log_path=tmp_path / "second.log")
    second.start()
    yield [asgi_server, second]
    second.stop()


def _table(creator, others, deck, **kwargs):
    game = game_create(creator=creator, max_seats=len(others) + 1, options={"deck": deck.pk}, **kwargs)
    for user in others:
        game_join(game_id=game.pk, user=user, invite_code=game.invite_code)
    game.refresh_from_db()
    return game


def test_a_deleted_name_leaves_every_process_at_once(two_servers):
    deck = deck_with_cards(84)
    quill = UserFactory(username=USERNAME, display_name=NAME)
    bob, cy, di = UserFactory.create_batch(3)
    # A finished game (its replay, and the leaderboard it rated), a game in play (its board, API view and
    # chat) and a game waiting in the lobby that the account made.
    finished = play_to_end(_table(quill, [bob, cy], deck), [quill, bob, cy], random.Random(7))
    assert finished.status == Game.Status.FINISHED and not finished.abandoned
    playing = _table(quill, [bob, cy, di], deck)
    said = Client().post(
        f"/api/v1/games/{playing.pk}/chat",
        '{"text": "hello from quill"}',
        content_type="application/json",
        headers={"Authorization": f"Bearer {token_create(user=quill, name='chat')[1]}"},
    )
    assert said.status_code == 201, said.content
    waiting = game_create(creator=quill, max_seats=4, options={"deck": deck.pk})
    game_join(game_id=waiting.pk, user=bob)

    browser = Client()
    browser.force_login(bob)
    cookies = {settings.SESSION_COOKIE_NAME: browser.cookies[settings.SESSION_COOKIE_NAME].value}
    _token, secret = token_create(user=cy, name="watcher")
    pages = {
        "board": reverse("games:board", args=[playing.pk]),
        "game page": playing.get_absolute_url(),
        "chat": reverse("chat:panel", args=[playing.pk]),
        "finished board": reverse("games:board", args=[finished.pk]),
        "replay": reverse("stats:replay", args=[finished.pk]),
        "lobby": reverse("games:lobby_fragment"),
        "leaderboard": reverse("stats:leaderboard", args=["storyteller", "rating"]),
    }
    api = {"API view": f"/api/v1/games/{playing.pk}", "finished API view": f"/api/v1/games/{finished.pk}"}

    def answers(server) -> dict[str, str]:
        with httpx.Client(base_url=server.url, cookies=cookies, timeout=20) as client:
            got = {what: client.get(path) for what, path in pages.items()}
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {secret}"}, timeout=20) as client:
            got |= {what: client.get(path) for what, path in api.items()}
        for what, response in got.items():
            assert response.status_code == 200, (server, what, response.status_code)
        return {what: response.text for what, response in got.items()}

    # Warm both processes' caches twice (the second answer comes from them), and see the name in each.
    for server in two_servers:
        answers(server)
        warm = answers(server)
        for what in ("board", "game page", "chat", "finished board", "replay", "leaderboard", "API view"):
            assert NAME in warm[what], (server, what)
        assert NAME in warm["lobby"]

    account_delete(user=quill)

    for server in two_servers:
        after = answers(server)
        for what, text in after.items():
            assert NAME not in text, (server, what)
            assert f"/players/{USERNAME}/" not in text, (server, what)
            assert "/players/~deleted" not in text, (server, what)  # no dead profile link either
        for what in ("board", "chat", "replay", "API view"):
            assert "deleted player" in after[what], (server, what)
