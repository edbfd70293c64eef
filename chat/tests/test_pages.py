"""The chat panel on the game page: shown to the players only, outside the cached board; its forms."""

import random

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from chat.models import ChatMessage, ChatMute, ChatReport
from chat.services import chat_mute
from games.tests.factories import UserFactory, started_game

from .conftest import chat_off, to_vote

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def say(client, game, text, **headers):
    return client.post(reverse("chat:say", args=[game.pk]), {"text": text}, headers=headers)


def test_the_players_page_has_the_panel_and_a_spectator_s_does_not(table):
    game, (alice, bob, _carol), _clients = table
    ChatMessage.objects.create(game=game, user=bob, text="Hello <b>table</b>", created_at=game.created_at)
    page = client_of(alice).get(game.get_absolute_url()).content.decode()
    assert 'id="chat"' in page
    assert 'aria-live="polite"' in page
    assert "Hello &lt;b&gt;table&lt;/b&gt;" in page  # escaped
    assert 'for="chat-text"' in page
    assert "chat/chat.js" in page

    spectator = client_of(UserFactory()).get(game.get_absolute_url()).content.decode()
    assert 'id="chat"' not in spectator
    assert "Hello" not in spectator
    assert 'id="chat"' not in Client().get(game.get_absolute_url()).content.decode()


def test_a_game_without_chat_shows_no_panel(table):
    game, (alice, _bob, _carol), _clients = table
    chat_off(game)
    assert 'id="chat"' not in client_of(alice).get(game.get_absolute_url()).content.decode()


def test_the_panel_is_not_part_of_the_cached_board(table):
    game, (alice, bob, _carol), _clients = table
    alice_client = client_of(alice)
    alice_client.get(game.get_absolute_url())  # the board is cached now, at this version
    say(client_of(bob), game, "fresh words")
    page = alice_client.get(game.get_absolute_url()).content.decode()
    assert "fresh words" in page
    board = alice_client.get(reverse("games:board", args=[game.pk])).content.decode()
    assert "fresh words" not in board


def test_saying_something_through_htmx_answers_the_fresh_panel(table):
    game, (alice, _bob, _carol), _clients = table
    response = say(client_of(alice), game, "my first words", **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="chat"' in html and "my first words" in html
    message = ChatMessage.objects.get()
    assert message.text == "my first words"
    assert f'data-key="chat-form-{message.pk}"' in html  # a new key: the form comes back empty


def test_the_game_page_s_queries_do_not_grow_with_the_talk(table):
    game, (alice, bob, carol), _clients = table
    client = client_of(alice)

    def page_queries():
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(game.get_absolute_url()).status_code == 200
        return len(ctx.captured_queries)

    client.get(game.get_absolute_url())
    before = page_queries()
    for n in range(30):
        ChatMessage.objects.create(game=game, user=(alice, bob, carol)[n % 3], text=f"m{n}", created_at=game.created_at)
    chat_mute(game_id=game.pk, user=alice, username=carol.username)
    assert page_queries() == before


def test_a_plain_form_post_goes_back_to_the_game(table):
    game, (alice, _bob, _carol), _clients = table
    response = say(client_of(alice), game, "no script here")
    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url()
    assert ChatMessage.objects.get().text == "no script here"


@pytest.mark.parametrize("text", ["", "x" * 501, "a\u202eb"])
def test_bad_text_on_the_page_is_a_400_panel_with_the_reason(table, text):
    game, (alice, _bob, _carol), _clients = table
    response = say(client_of(alice), game, text, **HTMX)
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert not ChatMessage.objects.exists()


def test_the_panel_says_the_chat_is_closed_during_the_vote(table):
    game, (alice, bob, carol), _clients = table
    to_vote(game, [alice, bob, carol], random.Random(5))
    panel = client_of(alice).get(reverse("chat:panel", args=[game.pk])).content.decode()
    assert "The chat is closed." in panel
    assert "The table is silent while the votes are open." in panel
    assert 'id="chat-text"' not in panel
    refused = say(client_of(alice), game, "psst, card 2", **HTMX)
    assert refused.status_code == 409
    assert "The table is silent" in refused.content.decode()
    assert not ChatMessage.objects.exists()


def test_outsiders_get_404_for_a_private_game_and_403_for_a_public_one(table):
    game, _users, _clients = table
    stranger = client_of(UserFactory())
    assert stranger.get(reverse("chat:panel", args=[game.pk])).status_code == 403
    assert say(stranger, game, "hi", **HTMX).status_code == 403
    assert say(stranger, game, "hi").status_code == 403
    private, _players = started_game(3, visibility="private")
    assert stranger.get(reverse("chat:panel", args=[private.pk])).status_code == 404
    assert say(stranger, private, "hi").status_code == 404
    assert stranger.get(reverse("chat:panel", args=[999999])).status_code == 404
    assert not ChatMessage.objects.exists()
    assert Client().post(reverse("chat:say", args=[game.pk]), {"text": "hi"}).status_code == 302  # to log in


@override_settings(FABULA_API_RATES={"chat": (2, 60)})
def test_the_pages_are_throttled_with_the_api_s_counts(table):
    game, (alice, _bob, _carol), (a, _b, _c) = table
    assert a.post(f"/games/{game.pk}/chat", {"text": "from the API"}).status_code == 201
    client = client_of(alice)
    assert say(client, game, "from the page", **HTMX).status_code == 200
    refused = say(client, game, "one too many", **HTMX)
    assert refused.status_code == 429
    assert "too fast" in refused.content.decode()
    plain = say(client, game, "one too many")
    assert plain.status_code == 429 and int(plain["Retry-After"]) >= 1
    assert ChatMessage.objects.count() == 2


def test_mute_and_unmute_buttons(table):
    game, (alice, bob, _carol), _clients = table
    ChatMessage.objects.create(game=game, user=bob, text="bob talks", created_at=game.created_at)
    client = client_of(alice)
    url = reverse("chat:mute", args=[game.pk])
    panel = client.post(url, {"username": bob.username, "mute": "1"}, headers=HTMX).content.decode()
    assert "bob talks" not in panel
    assert f"Unmute {bob.name}" in panel
    assert ChatMute.objects.filter(muter=alice, muted=bob).exists()
    panel = client.post(url, {"username": bob.username, "mute": "0"}, headers=HTMX).content.decode()
    assert "bob talks" in panel
    assert not ChatMute.objects.exists()


def test_report_button(table):
    game, (alice, bob, _carol), _clients = table
    message = ChatMessage.objects.create(game=game, user=bob, text="nasty", created_at=game.created_at)
    response = client_of(alice).post(reverse("chat:report", args=[game.pk, message.pk]))
    assert response.status_code == 302
    report = ChatReport.objects.get()
    assert (report.reporter, report.message) == (alice, message)
