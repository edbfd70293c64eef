"""The game page's "Add a bot": shown to the creator of an open game, a POST with CSRF, refusals changing nothing."""

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, Seat
from games.services.games import game_create
from games.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _open_game(creator, **kwargs):
    return game_create(creator=creator, max_seats=4, **kwargs)


def test_the_creator_sees_the_button_and_adds_a_bot(client, deck):
    creator = UserFactory()
    game = _open_game(creator)
    client.force_login(creator)
    page = client.get(game.get_absolute_url()).content.decode()
    assert page.count("Add a bot") == 1 and reverse("bots:add", args=[game.pk]) in page
    response = client.post(reverse("bots:add", args=[game.pk]), follow=True)
    assert response.redirect_chain[-1][0] == game.get_absolute_url()
    assert Seat.objects.filter(game=game, user__is_bot=True).count() == 1
    assert "Bot " in response.content.decode()


def test_other_players_see_no_button_and_cannot_add(client, deck):
    game = _open_game(UserFactory())
    other = UserFactory()
    client.force_login(other)
    assert "Add a bot" not in client.get(game.get_absolute_url()).content.decode()
    response = client.post(reverse("bots:add", args=[game.pk]), follow=True)
    assert "Only the game&#x27;s creator can add a bot." in response.content.decode()
    assert Seat.objects.filter(game=game).count() == 1


def test_the_form_needs_its_csrf_token_and_a_post(deck):
    creator = UserFactory()
    game = _open_game(creator)
    client = Client(enforce_csrf_checks=True)
    client.force_login(creator)
    assert client.post(reverse("bots:add", args=[game.pk])).status_code == 403
    assert client.get(reverse("bots:add", args=[game.pk])).status_code == 405
    assert Seat.objects.filter(game=game).count() == 1


def test_a_private_game_not_seen_and_a_missing_one_are_404(client, deck):
    game = _open_game(UserFactory(), visibility=Game.Visibility.PRIVATE)
    client.force_login(UserFactory())
    assert client.post(reverse("bots:add", args=[game.pk])).status_code == 404
    assert client.post(reverse("bots:add", args=[10**9])).status_code == 404
    assert Seat.objects.filter(game=game).count() == 1


def test_visitors_are_sent_to_log_in(client, deck):
    game = _open_game(UserFactory())
    response = client.post(reverse("bots:add", args=[game.pk]))
    assert response.status_code == 302 and "login" in response["Location"]
