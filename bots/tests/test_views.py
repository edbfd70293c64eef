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


def test_the_creator_picks_the_bot_s_level_and_the_players_list_shows_it(client, deck):
    creator = UserFactory()
    game = _open_game(creator)
    client.force_login(creator)
    page = client.get(game.get_absolute_url()).content.decode()
    # A labelled select beside the button: easy, normal (chosen) and hard.
    assert f'<label for="bot-level-{game.pk}">' in page and f'<select id="bot-level-{game.pk}" name="level">' in page
    assert '<option value="normal" selected>' in page and 'value="easy"' in page and 'value="hard"' in page
    response = client.post(reverse("bots:add", args=[game.pk]), {"level": "hard"}, follow=True)
    assert Seat.objects.get(game=game, user__is_bot=True).bot_level == "hard"
    assert "bot, hard" in response.content.decode()
    client.post(reverse("bots:add", args=[game.pk]))  # no level: normal
    assert sorted(Seat.objects.filter(game=game, user__is_bot=True).values_list("bot_level", flat=True)) == [
        "hard",
        "normal",
    ]


def test_a_level_that_is_none_of_them_seats_no_bot(client, deck):
    creator = UserFactory()
    game = _open_game(creator)
    client.force_login(creator)
    response = client.post(reverse("bots:add", args=[game.pk]), {"level": "godlike"}, follow=True)
    assert "A bot&#x27;s level is easy, normal or hard." in response.content.decode()
    assert Seat.objects.filter(game=game).count() == 1


def test_the_level_is_said_in_the_page_s_language(client, deck):
    creator = UserFactory()
    game = _open_game(creator)
    client.force_login(creator)
    client.post(reverse("bots:add", args=[game.pk]), {"level": "easy"})
    page = client.get(game.get_absolute_url(), headers={"accept-language": "fi"}).content.decode()
    assert "Botin taso" in page and "helppo" in page
