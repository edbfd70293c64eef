"""Turn emails and reminders for asynchronous games (notifications.emails)."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.test import Client

from games.models import Game
from games.tests.factories import started_game
from games.tests.timeouts.steps import clue, leave_absent, submit
from notifications import presence
from notifications.emails import emails_send_due, unsubscribe_token
from notifications.models import EmailPreferences, Turn

pytestmark = pytest.mark.django_db


def sent_to() -> list[str]:
    addresses = sorted(address for message in mail.outbox for address in message.to)
    mail.outbox.clear()
    return addresses


def emails_of(*users) -> list[str]:
    return sorted(user.email for user in users)


def clue_given(players=4, **kwargs):
    """A game whose first clue (seat 0) is given, with the turn emails of the start sent."""
    game, users = started_game(players, **kwargs)
    emails_send_due(now=game.started_at)
    mail.outbox.clear()
    clue(game, users[0], 0, now=game.started_at)
    game.refresh_from_db()
    return game, users


class TestTurnEmails:
    def test_once_per_phase_with_a_link_to_the_game_and_to_unsubscribe(self, settings):
        game, users = started_game(4)
        assert emails_send_due(now=game.started_at) == 4
        assert sent_to() == emails_of(*users)
        clue(game, users[0], 0, now=game.started_at)
        assert emails_send_due(now=game.started_at) == 3
        message = mail.outbox[0]
        assert message.subject == f"Your turn in Storyteller #{game.pk}"
        assert f"{settings.SITE_URL}/games/{game.pk}/" in message.body
        assert "hand in the card" in message.body
        unsubscribe = re.search(r"https?://\S+/notifications/unsubscribe/\S+/", message.body).group(0)
        assert message.extra_headers["List-Unsubscribe"] == f"<{unsubscribe}>"
        assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert sent_to() == emails_of(*users[1:])
        # Run again, or later in the same phase: nothing more.
        assert emails_send_due(now=game.started_at) == 0
        assert emails_send_due(now=game.started_at + timedelta(hours=1)) == 0

    def test_live_games_send_no_email(self):
        game, users = started_game(3, pace="live")
        assert emails_send_due(now=game.started_at) == 0
        assert mail.outbox == []

    def test_no_email_to_someone_looking_at_the_game(self):
        game, users = started_game(4)
        presence.game_seen(user_id=users[2].pk, game_id=game.pk, now=game.started_at - timedelta(seconds=30))
        emails_send_due(now=game.started_at)
        assert sent_to() == emails_of(users[0], users[1], users[3])
        # Seat 2 still has it open; seat 3 looked three minutes ago: that no longer counts.
        clue(game, users[0], 0, now=game.started_at)
        presence.game_seen(user_id=users[3].pk, game_id=game.pk, now=game.started_at - timedelta(minutes=3))
        emails_send_due(now=game.started_at)
        assert sent_to() == emails_of(users[1], users[3])

    def test_settings_are_respected(self):
        game, users = started_game(4)
        EmailPreferences.objects.create(user=users[1], turn_emails=False)
        EmailPreferences.objects.create(user=users[2], turn_emails=False, reminder_emails=False)
        users[3].email = ""
        users[3].save()
        emails_send_due(now=game.started_at)
        assert sent_to() == emails_of(users[0])

    def test_an_absent_player_hears_only_when_the_paused_game_waits_for_them(self):
        game, users = started_game(4)
        leave_absent(game, users, {2, 3})  # paused, and seat 2 tells round 2
        game.refresh_from_db()
        assert game.is_paused
        emails_send_due(now=game.started_at)
        assert sent_to() == emails_of(users[2])

    def test_an_absent_player_in_a_running_game_gets_no_email(self):
        game, users = started_game(4)
        leave_absent(game, users, {3})  # three present players go on
        emails_send_due(now=game.started_at)
        mail.outbox.clear()
        clue(game, users[2], 2)
        emails_send_due(now=game.started_at)
        assert sent_to() == emails_of(users[0], users[1])

    def test_a_failed_send_is_tried_again(self, settings):
        game, users = started_game(3)
        settings.EMAIL_BACKEND = f"{__name__}.BrokenBackend"
        assert emails_send_due(now=game.started_at) == 0
        settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
        assert emails_send_due(now=game.started_at) == 3


class BrokenBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise ConnectionRefusedError("no mail server")


class TestReminders:
    def test_one_reminder_when_a_quarter_of_the_time_is_left(self):
        game, users = clue_given(4)
        emails_send_due(now=game.started_at)
        mail.outbox.clear()
        deadline = game.deadline_at
        assert emails_send_due(now=deadline - timedelta(hours=6, seconds=1)) == 0
        submit(game, users[1], 1, now=game.started_at + timedelta(hours=1))
        assert emails_send_due(now=deadline - timedelta(hours=6)) == 2
        assert [m.subject for m in mail.outbox] == [
            f"Reminder: 6 hours left for your turn in Storyteller #{game.pk}"
        ] * 2
        assert "a card is drawn at random from your hand" in mail.outbox[0].body
        assert sent_to() == emails_of(users[2], users[3])
        assert emails_send_due(now=deadline - timedelta(hours=6)) == 0
        assert emails_send_due(now=deadline - timedelta(minutes=1)) == 0

    def test_a_turn_email_sent_that_late_is_the_reminder(self):
        game, users = started_game(3)
        late = game.deadline_at - timedelta(hours=2)
        assert emails_send_due(now=late) == 3
        assert emails_send_due(now=late + timedelta(minutes=1)) == 0

    def test_no_reminder_once_the_deadline_passed_or_while_paused(self):
        game, users = clue_given(3)
        emails_send_due(now=game.started_at)
        mail.outbox.clear()
        assert emails_send_due(now=game.deadline_at + timedelta(seconds=1)) == 0
        Game.objects.filter(pk=game.pk).update(is_paused=True)
        assert emails_send_due(now=game.deadline_at - timedelta(hours=1)) == 0

    def test_reminder_settings_are_respected(self):
        game, users = clue_given(4)
        emails_send_due(now=game.started_at)
        mail.outbox.clear()
        EmailPreferences.objects.create(user=users[1], reminder_emails=False)
        emails_send_due(now=game.deadline_at - timedelta(hours=1))
        assert sent_to() == emails_of(users[2], users[3])
        assert Turn.objects.filter(seat__game=game, reminded_at__isnull=False).count() == 3


class TestUnsubscribe:
    def link_in_last_email(self) -> str:
        url = re.search(r"https?://[^/\s]+(/notifications/unsubscribe/\S+/)", mail.outbox[-1].body).group(1)
        return url

    def test_the_link_works_without_logging_in_and_stops_the_emails(self):
        game, users = started_game(4)
        emails_send_due(now=game.started_at)
        link = self.link_in_last_email()
        person = next(u for u in users if u.email == mail.outbox[-1].to[0])
        page = Client().get(link)
        assert page.status_code == 200 and person.name in page.content.decode()
        assert EmailPreferences.objects.filter(user=person).count() == 0  # a GET only asks
        done = Client().post(link)
        assert done.status_code == 200
        preferences = EmailPreferences.objects.get(user=person)
        assert not preferences.turn_emails and not preferences.reminder_emails
        mail.outbox.clear()
        clue(game, users[0], 0, now=game.started_at)
        emails_send_due(now=game.started_at)
        assert person.email not in sent_to()

    def test_the_mail_programs_one_click_post_needs_no_csrf_token(self):
        game, users = started_game(3)
        token = unsubscribe_token(users[1])
        response = Client(enforce_csrf_checks=True).post(
            f"/notifications/unsubscribe/{token}/",
            "List-Unsubscribe=One-Click",
            content_type="application/x-www-form-urlencoded",
        )
        assert response.status_code == 200
        assert not EmailPreferences.objects.get(user=users[1]).turn_emails

    def test_the_token_is_signed(self):
        game, users = started_game(3)
        token = unsubscribe_token(users[1])
        payload, signature = token.rsplit(":", 1)
        other = unsubscribe_token(users[2]).rsplit(":", 1)[0]
        altered = signature[:-1] + ("A" if signature[-1] != "A" else "B")
        for forged in (f"{other}:{signature}", f"{payload}:{altered}", payload, "nonsense"):
            assert Client().post(f"/notifications/unsubscribe/{forged}/").status_code == 404
        assert not EmailPreferences.objects.exists()
