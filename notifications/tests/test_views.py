"""The bell, the notifications page, the email settings page."""

import pytest
from django.urls import reverse

from games.services.games import game_create, game_join
from games.tests.factories import UserFactory, started_game
from games.tests.timeouts.steps import clue
from notifications import presence
from notifications.models import EmailPreferences, Notification

pytestmark = pytest.mark.django_db


def unread(user) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


class TestBell:
    def test_every_page_shows_the_bell_with_the_unread_count(self, client):
        game, users = started_game(3)
        client.force_login(users[1])
        page = client.get(reverse("games:mine")).content.decode()
        assert 'data-live="bell"' in page
        assert f'hx-get="{reverse("notifications:bell")}"' in page
        assert 'hx-trigger="fabula:refresh' in page
        assert 'data-unread="1"' in page  # "the game started"

    def test_a_game_page_bell_says_which_game_is_open(self, client):
        game, users = started_game(3)
        client.force_login(users[1])
        page = client.get(game.get_absolute_url()).content.decode()
        assert f'hx-get="{reverse("notifications:bell")}?game={game.pk}"' in page
        assert "load, every 60s" in page

    def test_the_fragment_counts_and_a_visible_game_page_reads_its_game(self, client):
        game, users = started_game(3)
        me = users[1]
        other = game_create(creator=me, max_seats=3, options={"deck": game.options["deck"]})
        for user in UserFactory.create_batch(2):
            game_join(game_id=other.pk, user=user)
        client.force_login(me)
        url = reverse("notifications:bell")
        # One item per game: "started" in each (in the one I made, it took the place of "joined").
        assert 'data-unread="2"' in client.get(url).content.decode()
        # A hidden tab neither reads nor counts as looking.
        assert 'data-unread="2"' in client.get(url, {"game": game.pk, "visible": "hidden"}).content.decode()
        assert not presence.seen_recently(user_id=me.pk, game_id=game.pk)
        fragment = client.get(url, {"game": game.pk, "visible": "visible"}).content.decode()
        assert 'data-unread="1"' in fragment
        assert presence.seen_recently(user_id=me.pk, game_id=game.pk)
        assert unread(me) == Notification.objects.filter(user=me, game=other).count() == 1

    def test_the_fragment_asks_nothing_of_a_visitor(self, client):
        assert client.get(reverse("notifications:bell")).status_code == 204


class TestNotificationsPage:
    def test_lists_links_and_marks_read_on_open(self, client):
        game, users = started_game(3)
        clue(game, users[0], 0)
        me = users[1]
        client.force_login(me)
        page = client.get(reverse("notifications:list")).content.decode()
        # The game's one item tells its latest news: the start is old news once a card is asked for.
        assert f"Hand in your card in Storyteller #{game.pk}, round 1." in page
        assert f"Storyteller #{game.pk} has started" not in page
        note = Notification.objects.filter(user=me).get()
        assert note.get_absolute_url() in page
        response = client.get(note.get_absolute_url())
        assert response.status_code == 302 and response.url == game.get_absolute_url()
        note.refresh_from_db()
        assert note.read_at is not None and unread(me) == 0

    def test_mark_all_read(self, client):
        game, users = started_game(3)
        clue(game, users[0], 0)
        client.force_login(users[1])
        assert unread(users[1]) == 1  # the game's one item
        response = client.post(reverse("notifications:read_all"))
        assert response.status_code == 302
        assert unread(users[1]) == 0

    def test_nobody_opens_anothers_notification(self, client):
        game, users = started_game(3)
        note = Notification.objects.filter(user=users[0]).first()
        client.force_login(users[1])
        assert client.get(note.get_absolute_url()).status_code == 404
        note.refresh_from_db()
        assert note.read_at is None

    def test_login_required(self, client):
        assert client.get(reverse("notifications:list")).status_code == 302
        assert client.get(reverse("notifications:settings")).status_code == 302


class TestEmailSettings:
    def test_the_profile_links_to_the_settings_which_save(self, client):
        user = UserFactory()
        client.force_login(user)
        assert reverse("notifications:settings") in client.get(reverse("accounts:profile")).content.decode()
        page = client.get(reverse("notifications:settings")).content.decode()
        assert 'name="turn_emails"' in page and 'name="reminder_emails"' in page
        response = client.post(reverse("notifications:settings"), {"reminder_emails": "on"}, follow=True)
        assert "Your email settings are saved." in response.content.decode()
        preferences = EmailPreferences.objects.get(user=user)
        assert (preferences.turn_emails, preferences.reminder_emails) == (False, True)
