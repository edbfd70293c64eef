"""The empty lobby's "Play now with bots" and "Invite friends" (issue 39): a live game with three bots, started
at once, in one tap; a stranger signs up first and comes back to the lobby."""

import re

import pytest
from django.urls import reverse

from bots.services import game_with_bots_create
from games.models import Game, Seat
from games.services.errors import GameError
from games.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_empty_lobby_offers_to_play_now_with_bots_and_to_invite_friends(client, deck):
    client.force_login(UserFactory())
    page = client.get(reverse("games:lobby")).content.decode()
    assert "No public game is waiting for players right now." in page
    assert "Play now with bots" in page and reverse("bots:play_now") in page
    assert "Invite friends" in page and reverse("games:create") + "?visibility=private" in page
    form = client.get(reverse("games:create") + "?visibility=private").content.decode()
    assert re.search(r'value="private"[^>]*checked', form)


def test_a_stranger_signs_up_first_and_comes_back_to_the_lobby(client, deck):
    page = client.get(reverse("games:lobby")).content.decode()
    assert reverse("accounts:signup") + "?next=" + reverse("games:lobby") in page


def test_play_now_starts_a_live_game_with_three_bots_at_once(client, deck):
    me = UserFactory()
    client.force_login(me)
    response = client.post(reverse("bots:play_now"))
    game = Game.objects.get(creator=me)
    assert response.status_code == 302 and response.url == game.get_absolute_url()
    assert game.status == Game.Status.ACTIVE
    assert game.pace == Game.Pace.LIVE and game.visibility == Game.Visibility.PRIVATE
    seats = Seat.objects.filter(game=game).select_related("user")
    assert sorted(seat.user.is_bot for seat in seats) == [False, True, True, True]


def test_play_now_of_a_kind_and_refusals_change_nothing(client, deck):
    from think_alike.tests.content import small_content

    me = UserFactory()
    client.force_login(me)
    small_content()
    client.post(reverse("bots:play_now"), {"kind": "think_alike"})
    assert Game.objects.get(creator=me).kind == "think_alike"
    assert client.get(reverse("bots:play_now")).status_code == 405
    client.logout()
    assert client.post(reverse("bots:play_now")).status_code == 302  # to the log-in page
    assert Game.objects.count() == 1


def test_a_game_that_cannot_be_made_leaves_nothing_behind(deck, monkeypatch):
    import bots.services

    def refuse(**kwargs):
        raise GameError("game_full", "full")

    monkeypatch.setattr(bots.services, "game_bot_add", refuse)
    with pytest.raises(GameError):
        game_with_bots_create(creator=UserFactory())
    assert Game.objects.count() == 0
