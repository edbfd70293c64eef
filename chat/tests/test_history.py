"""Messages stay in the game's history: the replay shows them round by round to the game's players;
a player's data export holds theirs; a deleted account's messages read "deleted player"."""

import json
import random

import pytest
from django.test import Client
from django.urls import reverse

from accounts.services import account_delete
from chat.models import ChatMessage, ChatMute, ChatReport
from chat.services import chat_mute, chat_post, chat_report
from games.tests.factories import UserFactory
from games.tests.play import play_step, play_to_end
from think_alike.tests.content import small_content, think_alike_game

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_replay_shows_each_round_s_talk_to_the_players(table):
    game, users, _clients = table
    alice, bob, _carol = users
    rng = random.Random(7)
    chat_post(game_id=game.pk, user=alice, text="talk in round one")
    game.refresh_from_db()
    while game.round == 1:
        play_step(game, users, rng)
        game.refresh_from_db()
    if game.phase != "vote":
        chat_post(game_id=game.pk, user=bob, text="talk in round two")
    play_to_end(game, users, rng)
    chat_post(game_id=game.pk, user=alice, text="good game")

    page = client_of(bob).get(reverse("stats:replay", args=[game.pk])).content.decode()
    assert "Table talk" in page
    one, two, after = page.find("talk in round one"), page.find("talk in round two"), page.find("good game")
    assert 0 < one < two < after
    assert page.find("During round 1") < one < page.find("During round 2") < two < page.find("After the game") < after

    # A public game's replay is for everyone; its talk is for the table only.
    outsider_page = client_of(UserFactory()).get(reverse("stats:replay", args=[game.pk])).content.decode()
    assert "talk in round one" not in outsider_page and "Table talk" not in outsider_page


def test_think_alike_replays_show_the_talk_too(db):
    small_content()
    game, users = think_alike_game(3)
    chat_post(game_id=game.pk, user=users[0], text="think alike talk")
    page = client_of(users[1]).get(reverse("stats:replay", args=[game.pk])).content.decode()
    assert "think alike talk" in page and "During round 1" in page


def test_the_replay_leaves_out_whom_the_viewer_muted(table):
    game, (alice, bob, _carol), _clients = table
    chat_post(game_id=game.pk, user=bob, text="muted words")
    chat_mute(game_id=game.pk, user=alice, username=bob.username)
    page = client_of(alice).get(reverse("stats:replay", args=[game.pk])).content.decode()
    assert "muted words" not in page


def test_the_data_export_holds_a_player_s_messages_mutes_and_reports(table):
    game, (alice, bob, _carol), _clients = table
    chat_post(game_id=game.pk, user=alice, text="mine")
    theirs = chat_post(game_id=game.pk, user=bob, text="theirs")
    chat_mute(game_id=game.pk, user=alice, username=bob.username)
    chat_report(game_id=game.pk, user=alice, message_id=theirs.pk, reason="why")
    data = json.loads(client_of(alice).get(reverse("accounts:data_export")).content)
    assert [m["text"] for m in data["chat_messages"]] == ["mine"]
    assert data["chat_mutes"] == [{"game": game.pk, "muted": bob.username}]
    assert [(r["message"], r["reason"]) for r in data["chat_reports"]] == [(theirs.pk, "why")]


def test_a_deleted_account_s_messages_stay_as_deleted_player(table):
    game, (alice, bob, carol), (_a, b, _c) = table
    said = chat_post(game_id=game.pk, user=alice, text="I was here")
    chat_mute(game_id=game.pk, user=alice, username=bob.username)
    chat_mute(game_id=game.pk, user=carol, username=alice.username)
    chat_report(game_id=game.pk, user=alice, message_id=chat_post(game_id=game.pk, user=bob, text="x").pk)

    account_delete(user=alice)

    read = b.get(f"/games/{game.pk}/chat").json()["messages"]
    assert read[0]["id"] == said.pk and read[0]["name"] == "deleted player" and read[0]["text"] == "I was here"
    assert ChatMessage.objects.filter(user=alice).count() == 1
    assert not ChatMute.objects.exists()
    assert not ChatReport.objects.exists()
