"""The chat's API: who may read and write, and every refusal the issue names."""

import random

import pytest
from django.test import override_settings

from chat.models import ChatMessage, ChatMute
from games.models import Game
from games.services.games import game_create, game_resign
from games.tests.api.conftest import ApiClient, error_of
from games.tests.factories import UserFactory, deck_with_cards, started_game

from .conftest import api_for, chat_off, to_vote

pytestmark = pytest.mark.django_db


def chat(game) -> str:
    return f"/games/{game.pk}/chat"


def test_a_player_says_something_and_every_player_reads_it(table):
    game, (alice, bob, carol), (a, b, c) = table
    said = a.post(chat(game), {"text": "  Bonne chance à tous  "})
    assert said.status_code == 201, said.content
    body = said.json()
    assert body["username"] == alice.username
    assert body["text"] == "Bonne chance à tous"
    assert set(body) == {"id", "username", "name", "text", "at"}

    for client in (a, b, c):
        read = client.get(chat(game))
        assert read.status_code == 200
        assert [(m["id"], m["username"], m["text"]) for m in read.json()["messages"]] == [
            (body["id"], alice.username, "Bonne chance à tous")
        ]
        assert read.json()["closed"] is None
    message = ChatMessage.objects.get()
    assert (message.game_id, message.user_id, message.round) == (game.pk, alice.pk, 1)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "text_empty"),
        ("   ", "text_empty"),
        ("x" * 501, "text_too_long"),
        ("evil\u202eetxet", "bad_text"),
        ("null\x00byte", "bad_text"),
        ("line\nbreak", "bad_text"),
        ("zero\u200bwidth", "bad_text"),
    ],
)
def test_bad_text_is_a_400_and_says_nothing(table, text, code):
    game, _users, (a, _b, _c) = table
    assert error_of(a.post(chat(game), {"text": text})) == (400, code)
    assert not ChatMessage.objects.exists()


def test_500_characters_are_fine_and_counted_as_people_see_them(table):
    game, _users, (a, _b, _c) = table
    decomposed = "e\u0301" * 500  # 1000 code points, 500 characters once composed (NFC)
    assert a.post(chat(game), {"text": decomposed}).status_code == 201
    assert ChatMessage.objects.get().text == "\u00e9" * 500


def test_a_body_that_is_not_text_is_a_400(table):
    game, _users, (a, _b, _c) = table
    assert error_of(a.post(chat(game), {"text": 5})) == (400, "bad_request")
    assert error_of(a.post(chat(game), {})) == (400, "bad_request")
    assert error_of(a.post(chat(game), {"text": "hi", "extra": 1})) == (400, "bad_request")
    assert not ChatMessage.objects.exists()


def test_closed_while_the_storyteller_vote_is_open(table):
    game, users, (a, b, _c) = table
    to_vote(game, users, random.Random(3))
    assert error_of(a.post(chat(game), {"text": "it is card 3!"})) == (409, "chat_closed")
    read = b.get(chat(game)).json()
    assert read["closed"]["code"] == "chat_closed"
    assert "vote" in read["closed"]["message"]
    assert not ChatMessage.objects.exists()


def test_a_game_played_without_chat_answers_409_chat_off(table):
    game, _users, (a, _b, _c) = table
    chat_off(game)
    assert error_of(a.post(chat(game), {"text": "hello"})) == (409, "chat_off")
    assert a.get(chat(game)).json()["closed"]["code"] == "chat_off"
    assert not ChatMessage.objects.exists()


def test_an_open_game_has_its_chat_before_it_starts(db):
    deck = deck_with_cards(60)
    alice = UserFactory()
    game = game_create(creator=alice, max_seats=4, options={"deck": deck.pk})
    said = api_for(alice).post(chat(game), {"text": "Who is in?"})
    assert said.status_code == 201
    assert ChatMessage.objects.get().round is None


def test_spectators_of_a_public_game_may_neither_read_nor_write(table, outsider):
    game, _users, (a, _b, _c) = table
    a.post(chat(game), {"text": "between us"})
    _user, spectator = outsider
    assert error_of(spectator.post(chat(game), {"text": "hi"})) == (403, "not_a_player")
    assert error_of(spectator.get(chat(game))) == (403, "not_a_player")
    assert ChatMessage.objects.count() == 1


def test_a_private_game_is_a_404_to_outsiders_as_a_missing_game_is(db, outsider):
    game, users = started_game(3, visibility="private")
    _user, stranger = outsider
    for answer in (
        stranger.get(chat(game)),
        stranger.post(chat(game), {"text": "hi"}),
        stranger.post(chat(game) + "/mutes", {"username": users[0].username}),
        stranger.get("/games/999999/chat"),
        stranger.post("/games/999999/chat", {"text": "hi"}),
    ):
        assert error_of(answer) == (404, "not_found")
    assert not ChatMessage.objects.exists()
    assert api_for(users[1]).get(chat(game)).status_code == 200


def test_no_token_is_a_401(table):
    game, _users, _clients = table
    anon = ApiClient()
    assert anon.get(chat(game)).status_code == 401
    assert anon.post(chat(game), {"text": "hi"}).status_code == 401


@override_settings(FABULA_API_RATES={"chat": (3, 60)})
def test_too_many_messages_are_throttled(table):
    game, _users, (a, b, _c) = table
    for n in range(3):
        assert a.post(chat(game), {"text": f"message {n}"}).status_code == 201
    refused = a.post(chat(game), {"text": "one more"})
    assert error_of(refused) == (429, "rate_limited")
    assert int(refused["Retry-After"]) >= 1
    assert ChatMessage.objects.count() == 3
    assert b.post(chat(game), {"text": "my own count"}).status_code == 201  # per player


def test_a_player_mutes_and_unmutes_another(table):
    game, (alice, bob, carol), (a, b, c) = table
    b.post(chat(game), {"text": "spam spam"})
    c.post(chat(game), {"text": "hello all"})
    muted = a.post(chat(game) + "/mutes", {"username": bob.username})
    assert muted.status_code == 200
    assert muted.json() == {"username": bob.username, "muted": True}

    read = a.get(chat(game)).json()
    assert [m["text"] for m in read["messages"]] == ["hello all"]
    assert read["muted"] == [bob.username]
    # Only Alice's choice: the others still read Bob, and Bob still talks.
    assert [m["text"] for m in c.get(chat(game)).json()["messages"]] == ["spam spam", "hello all"]
    assert b.post(chat(game), {"text": "can you hear me"}).status_code == 201
    assert "can you hear me" not in [m["text"] for m in a.get(chat(game)).json()["messages"]]

    assert a.delete(chat(game) + f"/mutes/{bob.username}").json() == {"username": bob.username, "muted": False}
    assert [m["text"] for m in a.get(chat(game)).json()["messages"]] == ["spam spam", "hello all", "can you hear me"]
    assert not ChatMute.objects.exists()


def test_muting_oneself_or_a_stranger_is_a_400(table, outsider):
    game, (alice, _bob, _carol), (a, _b, _c) = table
    stranger, _client = outsider
    assert error_of(a.post(chat(game) + "/mutes", {"username": alice.username})) == (400, "mute_self")
    assert error_of(a.post(chat(game) + "/mutes", {"username": stranger.username})) == (400, "no_such_player")
    assert error_of(a.post(chat(game) + "/mutes", {"username": "bob\x00"})) == (400, "no_such_player")
    assert error_of(a.delete(chat(game) + "/mutes/bob%00")) == (400, "no_such_player")
    assert not ChatMute.objects.exists()


def test_a_player_reports_a_message_once(table):
    game, (alice, bob, _carol), (a, b, _c) = table
    message_id = b.post(chat(game), {"text": "rude words"}).json()["id"]
    reported = a.post(chat(game) + f"/{message_id}/report", {"reason": "rude"})
    assert reported.status_code == 201
    assert reported.json()["message"] == message_id
    assert error_of(a.post(chat(game) + f"/{message_id}/report", {})) == (409, "already_reported")
    assert error_of(b.post(chat(game) + f"/{message_id}/report", {})) == (400, "own_message")
    assert error_of(a.post(chat(game) + "/999999/report", {})) == (404, "no_such_message")


def test_a_message_of_another_game_cannot_be_reported_through_this_one(table, db):
    game, (alice, bob, _carol), (a, b, _c) = table
    other, other_users = started_game(3)
    elsewhere = api_for(other_users[0]).post(chat(other), {"text": "elsewhere"}).json()["id"]
    assert error_of(a.post(chat(game) + f"/{elsewhere}/report", {})) == (404, "no_such_message")


def test_a_resigned_player_reads_but_does_not_write(table):
    game, (alice, bob, carol), (a, b, _c) = table
    game_resign(game_id=game.pk, user=bob)
    assert error_of(b.post(chat(game), {"text": "still here"})) == (403, "resigned")
    assert b.get(chat(game)).status_code == 200


def test_a_cancelled_game_takes_no_message(table):
    game, _users, (a, _b, _c) = table
    Game.objects.filter(pk=game.pk).update(status=Game.Status.CANCELLED)
    assert error_of(a.post(chat(game), {"text": "hello?"})) == (409, "chat_closed")
