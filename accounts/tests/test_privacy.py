"""A person's data: downloaded as JSON, deleted with the account; others' history stays whole."""

import json
import random

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken, User
from accounts.services import account_delete, token_create
from games.models import Game, Move, Seat
from games.services.games import game_create, game_join
from games.tests.factories import UserFactory, deck_with_cards, started_game
from games.tests.play import play_to_end
from notifications.models import EmailPreferences, Notification

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


@pytest.fixture
def finished():
    """A finished game of three, and its players."""
    game, users = started_game(3)
    play_to_end(game, users, random.Random(7))
    assert game.status == Game.Status.FINISHED
    return game, users


def test_the_export_holds_the_persons_data_and_no_one_elses_secrets(client, finished):
    game, (anna, bo, _cy) = finished
    token_create(user=anna, name="my bot")
    EmailPreferences.objects.create(user=anna, turn_emails=False)
    client.force_login(anna)
    response = client.get(reverse("accounts:data_export"))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    assert response["Content-Disposition"].startswith("attachment")
    data = json.loads(response.content)
    assert data["account"]["username"] == anna.username and data["account"]["email"] == anna.email
    assert [t["name"] for t in data["api_tokens"]] == ["my bot"]
    assert all("key_hash" not in t for t in data["api_tokens"])
    assert [g["game"] for g in data["games"]] == [game.pk]
    mine = Move.objects.filter(seat__user=anna).count()
    assert mine and len(data["moves"]) == mine
    assert len(data["notifications"]) == Notification.objects.filter(user=anna).count() > 0
    assert data["email_preferences"] == {
        "turn_emails": False,
        "reminder_emails": True,
        "rematch_emails": True,
        "daily_letter_hour": None,
        "language": "",
    }
    text = response.content.decode()
    assert bo.email not in text and "password" not in text


def test_the_export_needs_a_log_in(client):
    response = client.get(reverse("accounts:data_export"))
    assert response.status_code == 302


def test_the_tokens_page_is_not_cached(client):
    client.force_login(UserFactory())
    response = client.post(reverse("accounts:tokens"), {"name": "bot"})
    assert "no-store" in response["Cache-Control"]


def test_deleting_needs_the_password(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(reverse("accounts:delete"), {"password": "wrong"})
    assert response.status_code == 200
    assert "not your password" in response.content.decode()
    user.refresh_from_db()
    assert user.is_active and user.deleted_at is None


def test_deleting_an_account(client, finished):
    game, (anna, bo, cy) = finished
    deck = deck_with_cards(84)
    # A game in play, and one not started, created by anna.
    playing = game_create(creator=bo, max_seats=3, options={"deck": deck.pk})
    game_join(game_id=playing.pk, user=anna, invite_code=playing.invite_code)
    game_join(game_id=playing.pk, user=cy, invite_code=playing.invite_code)
    waiting = game_create(creator=anna, max_seats=4, options={"deck": deck.pk})
    game_join(game_id=waiting.pk, user=bo, invite_code=waiting.invite_code)
    token_create(user=anna, name="bot")
    EmailPreferences.objects.create(user=anna)
    other_browser = Client()
    other_browser.force_login(anna)
    bo_browser = Client()
    bo_browser.force_login(bo)
    client.force_login(anna)
    seat_pk = Seat.objects.get(game=game, user=anna).pk

    response = client.post(reverse("accounts:delete"), {"password": PASSWORD}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
    assert "Your account is deleted" in response.content.decode()

    gone = User.objects.get(pk=anna.pk)
    assert gone.deleted_at is not None and not gone.is_active and not gone.has_usable_password()
    assert (gone.email, gone.display_name, gone.first_name, gone.last_name) == ("", "", "", "")
    assert anna.username not in gone.username and gone.name == "deleted player"
    assert not ApiToken.objects.filter(user=gone).exists()
    assert not Notification.objects.filter(user=gone).exists()
    assert not EmailPreferences.objects.filter(user=gone).exists()
    assert not [s for s in Session.objects.all() if s.get_decoded().get("_auth_user_id") == str(anna.pk)]
    assert other_browser.get(reverse("games:mine")).status_code == 302  # logged out everywhere
    # Not started: left (and the game passed to the next player). In play: resigned.
    waiting.refresh_from_db()
    assert not waiting.seats.filter(user=gone).exists() and waiting.creator_id == bo.pk
    assert Seat.objects.get(game=playing, user=gone).has_resigned
    # Finished: the seat stays, shown as a deleted player, and every page of it still works.
    assert Seat.objects.filter(pk=seat_pk, user=gone).exists()
    page = bo_browser.get(game.get_absolute_url())
    assert page.status_code == 200 and "deleted player" in page.content.decode()
    assert anna.display_name not in page.content.decode()
    assert bo_browser.get(reverse("stats:replay", args=[game.pk])).status_code == 200
    assert bo_browser.get(reverse("games:mine")).status_code == 200
    assert bo_browser.get(reverse("stats:player", args=[bo.username])).status_code == 200
    assert bo_browser.get(reverse("stats:leaderboards"), follow=True).status_code == 200
    assert bo_browser.get(f"/api/v1/games/{game.pk}").status_code in (200, 401)
    # The name is free again; the old username can sign up anew.
    UserFactory(username=anna.username, display_name=anna.display_name)


def test_a_deleted_account_cannot_log_in(client):
    user = UserFactory(username="gone")
    account_delete(user=user)
    response = client.post(reverse("login"), {"username": "gone", "password": PASSWORD})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_the_privacy_page_is_linked_from_every_page(client):
    home = client.get(reverse("home")).content.decode()
    assert reverse("privacy") in home
    page = client.get(reverse("privacy"))
    assert page.status_code == 200
    assert "deleted player" in page.content.decode()
