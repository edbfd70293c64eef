"""Across weeks (issue 38), the notifications' side: quiet hours hold pushes and emails until their end, emails on
the recipient's own clock and in their language, the nudge, the paused game's coming end, one letter a day, a
bell that lists only what still waits, emails that link to the site's real address."""

import datetime as dt
import os
import random
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts import time as account_time
from games import signals
from games.models import Game
from games.services.games import game_act
from games.tests.factories import UserFactory, started_game
from games.tests.play import play_step
from games.tests.timeouts.steps import clue, state_of
from notifications.emails import emails_send_due
from notifications.invitations import rematch_invitations_send
from notifications.letters import letters_send_due
from notifications.models import EmailPreferences, GameMute, Notice, Notification, Turn
from notifications.notices import notices_send_due
from notifications.push import turn_pushes_send
from notifications.services import unread_count
from notifications.tests.test_push import Device, push_service, vapid  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

UTC = dt.UTC
HELSINKI = "Europe/Helsinki"  # UTC+2 in December
Kind = Notification.Kind
# A December day on a moved clock; the game's deadline far enough ahead that it runs all day.
DAY = dt.datetime(2026, 12, 8, tzinfo=UTC)


def at(hour: int, minute: int = 0, *, day: int = 0) -> dt.datetime:
    """That moment in Helsinki on DAY (+ ``day`` days), in UTC."""
    return DAY + timedelta(days=day, hours=hour - 2, minutes=minute)


def own_clock(user, zone: str = HELSINKI, quiet: tuple[int, int] | None = (23, 7)) -> None:
    user.time_zone = zone
    user.quiet_hours_start, user.quiet_hours_end = (dt.time(quiet[0]), dt.time(quiet[1])) if quiet else (None, None)
    user.save()


def a_game(players: int = 3):
    game, users = started_game(players)
    Game.objects.filter(pk=game.pk).update(deadline_at=at(12, 30, day=2))
    game.refresh_from_db()
    mail.outbox.clear()
    return game, users


def nudge(game, seat_user, by, now):
    game.refresh_from_db()
    seat = game.seats.get(user=seat_user)
    turn = Turn.objects.get(seat=seat, closed_at__isnull=True)
    signals.player_nudged.send(sender=None, game=game, seat=seat, by=by, phase_key=turn.phase_key, now=now)


def mails_to(user) -> list:
    return [message for message in mail.outbox if message.to == [user.email]]


class TestQuietHours:
    def test_a_turn_email_in_the_night_waits_for_seven_in_the_morning_on_the_players_clock(self):
        game, users = a_game()
        own_clock(users[1])
        assert emails_send_due(now=at(23, 30)) == 2  # the two others have no quiet hours
        assert mails_to(users[1]) == []
        turn = Turn.objects.get(seat__user=users[1])
        assert turn.held_until == at(7, day=1) and turn.emailed_at is None
        assert emails_send_due(now=at(6, 59, day=1)) == 0
        assert emails_send_due(now=at(7, day=1)) == 1
        (email,) = mails_to(users[1])
        # The deadline on the player's own clock: 10:30 UTC is 12:30 in Helsinki.
        assert "12:30 p.m. (Europe/Helsinki)" in email.body
        assert emails_send_due(now=at(8, day=1)) == 0

    def test_a_push_in_the_night_is_held_and_beat_sends_it_at_the_end(self, vapid, push_service):  # noqa: F811
        game, users = a_game()
        own_clock(users[1])
        device = Device(users[1], f"{push_service.url}/device/night")
        turn = Turn.objects.get(seat__user=users[1])
        night = at(23, 30)
        sent = turn_pushes_send(game_id=game.pk, phase_key=turn.phase_key, seat_ids=[turn.seat_id], now=night)
        assert sent == 0 and push_service.received("/device/night") == []
        turn.refresh_from_db()
        assert turn.push_held_until == at(7, day=1)
        assert notices_send_due(now=at(6, 59, day=1)) == 0
        assert notices_send_due(now=at(7, day=1)) == 1
        (request,) = push_service.received("/device/night")
        assert device.decrypt(request["body"])["url"] == game.get_absolute_url()
        assert notices_send_due(now=at(8, day=1)) == 0  # once

    def test_the_bell_is_not_held_and_a_held_push_of_a_turn_played_meanwhile_is_dropped(
        self,
        vapid,  # noqa: F811
        push_service,  # noqa: F811
    ):
        game, users = a_game()
        own_clock(users[0])
        Device(users[0], f"{push_service.url}/device/zero")
        turn = Turn.objects.get(seat__user=users[0])
        turn_pushes_send(game_id=game.pk, phase_key=turn.phase_key, seat_ids=[turn.seat_id], now=at(23, 30))
        assert unread_count(user=users[0]) == 1  # the bell counts at once
        clue(game, users[0], 0, now=at(6, day=1))  # played before the night ended: the turn is closed
        assert notices_send_due(now=at(7, day=1)) == 0
        assert push_service.received("/device/zero") == []

    def test_a_rematch_invitation_in_the_night_waits_too(self):
        game, users = a_game()
        own_clock(users[1])
        Game.objects.filter(pk=game.pk).update(status=Game.Status.OPEN, holds_until_at=at(12, day=2))
        game.holds.create(user=users[1], created_at=at(23))
        assert rematch_invitations_send(game_id=game.pk, user_ids=[users[1].pk], now=at(23, 30)) == 0
        notice = Notice.objects.get(user=users[1], kind=Kind.REMATCH_INVITED)
        assert notice.due_at == at(7, day=1)
        assert notices_send_due(now=at(7, day=1)) == 1
        (email,) = mails_to(users[1])
        assert "a seat is held for you" in email.subject
        assert "Europe/Helsinki" in email.body


class TestNudge:
    def test_the_nudged_player_hears_who_waits_for_what_in_the_bell_and_by_email(self):
        game, users = a_game()
        nudge(game, users[1], by=users[0], now=at(18))
        text = f"{users[0].name} is waiting for your clue in Storyteller #{game.pk}."
        client = Client()
        client.force_login(users[1])
        assert text in client.get(reverse("notifications:list")).content.decode()
        assert notices_send_due(now=at(18)) == 1
        (email,) = mails_to(users[1])
        assert email.subject == text
        assert f"{django_settings.SITE_URL}/games/{game.pk}/" in email.body
        assert mails_to(users[0]) == [] and mails_to(users[2]) == []
        assert notices_send_due(now=at(19)) == 0

    def test_a_nudge_in_the_night_waits_and_is_dropped_once_the_player_has_acted(self):
        game, users = a_game()
        own_clock(users[1])
        nudge(game, users[1], by=users[2], now=at(1))
        assert notices_send_due(now=at(1)) == 0
        assert Notice.objects.get(user=users[1]).due_at == at(7)
        clue(game, users[1], 1, now=at(6))
        # The bell's nudge closed with the move it asked for.
        assert not Notification.objects.filter(user=users[1], kind=Kind.NUDGED, read_at__isnull=True).exists()
        assert notices_send_due(now=at(7)) == 0
        assert mails_to(users[1]) == []

    def test_a_muted_game_or_a_daily_letter_sends_no_nudge_email(self):
        game, users = a_game()
        GameMute.objects.create(user=users[1], game=game, created_at=at(8))
        EmailPreferences.objects.create(user=users[2], daily_letter_hour=8)
        nudge(game, users[1], by=users[0], now=at(9))
        nudge(game, users[2], by=users[0], now=at(9))
        notices_send_due(now=at(9))
        assert mail.outbox == []
        assert unread_count(user=users[1]) == unread_count(user=users[2]) == 1  # the bell still says it


class TestPausedGameEnding:
    def test_the_table_hears_it_in_the_bell_and_by_email_as_each_chose(self):
        game, users = a_game()
        Game.objects.filter(pk=game.pk).update(is_paused=True, deadline_at=None)
        game.refresh_from_db()
        own_clock(users[0], quiet=None)
        EmailPreferences.objects.create(user=users[2], reminder_emails=False)
        ends_at = at(18, day=1)
        signals.paused_game_ending.send(
            sender=None, game=game, ends_at=ends_at, user_ids=[user.pk for user in users], now=at(18)
        )
        for user in users:
            (note,) = Notification.objects.filter(user=user, read_at__isnull=True)
            assert note.kind == Kind.GAME_ENDING and note.ends_at == ends_at
        assert notices_send_due(now=at(18)) == 2
        assert mails_to(users[2]) == []
        (email,) = mails_to(users[0])
        assert f"Storyteller #{game.pk}" in email.subject and "abandoned" in email.subject
        # On users[0]'s own clock: 16:00 UTC is 18:00 in Helsinki.
        assert "6 p.m. (Europe/Helsinki)" in email.body
        client = Client()
        client.force_login(users[1])
        page = client.get(reverse("notifications:list")).content.decode()
        assert f"Too few players are present: Storyteller #{game.pk} ends as abandoned on" in page


class TestDailyLetter:
    def test_at_its_hour_one_letter_lists_the_games_instead_of_an_email_per_turn(self):
        game, users = a_game()
        reader = users[1]
        own_clock(reader)
        EmailPreferences.objects.create(user=reader, daily_letter_hour=8)
        assert emails_send_due(now=at(12)) == 2  # not to the reader
        assert mails_to(reader) == []
        assert letters_send_due(now=at(7, 59, day=1)) == 0
        assert letters_send_due(now=at(8, day=1)) == 1
        assert letters_send_due(now=at(8, 5, day=1)) == 0  # once
        (letter,) = mails_to(reader)
        assert letter.subject == "Fabula today: 1 game waits for you"
        assert f"Waiting for you\n\n* Storyteller #{game.pk}: Whose move: " in letter.body
        assert "12:30 p.m. (Europe/Helsinki)" in letter.body  # the deadline on the reader's clock
        assert f"{django_settings.SITE_URL}/games/{game.pk}/" in letter.body
        assert "at 08:00 (Europe/Helsinki)" in letter.body
        ((html, kind),) = letter.alternatives
        assert kind == "text/html"
        assert "#2b2238" in html and ">Fabula</a>" in html
        assert f'href="{django_settings.SITE_URL}/games/{game.pk}/"' in html
        assert "List-Unsubscribe" in letter.extra_headers
        # The next day, the game ended meanwhile: the letter says so, with its link.
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=at(20, day=1))
        game.seats.update(to_act=False)
        mail.outbox.clear()
        assert letters_send_due(now=at(8, 1, day=2)) == 1
        (letter,) = mails_to(reader)
        assert f"Ended since your last letter\n\n* Storyteller #{game.pk} is over" in letter.body
        assert "Waiting for you" not in letter.body
        # The day after: nothing to say, nothing sent.
        mail.outbox.clear()
        assert letters_send_due(now=at(8, 1, day=3)) == 0
        assert mail.outbox == []

    def test_in_the_readers_language_and_not_for_an_hour_long_past(self):
        game, users = a_game()
        reader = users[2]
        own_clock(reader, zone="America/Sao_Paulo", quiet=None)  # UTC-3
        EmailPreferences.objects.create(user=reader, daily_letter_hour=20, language="fr")
        assert letters_send_due(now=DAY + timedelta(hours=23, minutes=1)) == 1  # 20:01 in São Paulo
        (letter,) = mails_to(reader)
        assert letter.body.startswith(f"Bonjour {reader.name},")
        mail.outbox.clear()
        # Turned on after its hour: none until that hour comes again (two hours of grace at most).
        late = users[0]
        EmailPreferences.objects.create(user=late, daily_letter_hour=6)
        assert letters_send_due(now=DAY + timedelta(hours=9)) == 0
        assert letters_send_due(now=DAY + timedelta(days=1, hours=6, minutes=2)) == 1

    def test_the_settings_form_takes_an_hour_or_off_and_refuses_anything_else(self):
        user = UserFactory()
        client = Client()
        client.force_login(user)
        page = client.get(reverse("notifications:settings")).content.decode()
        assert 'name="daily_letter_hour"' in page and '<option value="" selected>' in page
        client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "sv"
        client.post(reverse("notifications:settings"), {"turn_emails": "on", "daily_letter_hour": "7"})
        preferences = EmailPreferences.objects.get(user=user)
        assert preferences.daily_letter_hour == 7 and preferences.language == "sv"
        for bad in ("24", "-1", "seven"):
            response = client.post(reverse("notifications:settings"), {"daily_letter_hour": bad})
            assert response.status_code == 200 and "has-error" in response.content.decode()
        preferences.refresh_from_db()
        assert preferences.daily_letter_hour == 7 and preferences.turn_emails
        client.post(reverse("notifications:settings"), {"turn_emails": "on", "daily_letter_hour": ""})
        preferences.refresh_from_db()
        assert preferences.daily_letter_hour is None


def test_a_day_on_a_moved_clock():
    """Three players in Helsinki, quiet hours 23:00-07:00; one of them chose a letter at 08:00."""
    game, users = a_game()
    nudged, teller, reader = users[1], users[0], users[2]
    for user in users:
        own_clock(user)
    EmailPreferences.objects.create(user=reader, daily_letter_hour=8)
    # 12:00: the start's turn emails, not to the reader.
    assert emails_send_due(now=at(12)) == 2
    assert sorted(m.to[0] for m in mail.outbox) == sorted([teller.email, nudged.email])
    mail.outbox.clear()
    # 22:00: the teller nudges a player: the bell and the email at once (not quiet yet).
    nudge(game, nudged, by=teller, now=at(22))
    assert notices_send_due(now=at(22)) == 1
    assert mails_to(nudged)[0].subject == f"{teller.name} is waiting for your clue in Storyteller #{game.pk}."
    mail.outbox.clear()
    # 23:30: the teller gives the clue: the others' turn emails wait for 07:00.
    clue(game, teller, 0, now=at(23, 30))
    Game.objects.filter(pk=game.pk).update(deadline_at=at(12, 30, day=2))
    assert emails_send_due(now=at(23, 30)) == 0
    assert emails_send_due(now=at(3, day=1)) == 0
    assert mail.outbox == []
    # The bell was not held: the nudged player's one item now asks for their card.
    (note,) = Notification.objects.filter(user=nudged, read_at__isnull=True)
    assert (note.kind, note.asked) == (Kind.YOUR_TURN, "submit")
    # 07:00: the held email goes out; 08:00: the reader's letter.
    assert emails_send_due(now=at(7, day=1)) == 1
    assert [m.subject for m in mails_to(nudged)] == [f"Your turn in Storyteller #{game.pk}"]
    assert letters_send_due(now=at(8, day=1)) == 1
    (letter,) = mails_to(reader)
    assert f"Storyteller #{game.pk}: Whose move: {nudged.name}, you." in letter.body


def test_the_bell_lists_what_the_count_says_and_no_turn_already_played():
    """Play a few rounds: after every move, each player's page lists as many items as the bell counts, and none
    of them asks for a move the player has made or a phase that is over."""
    game, users = started_game(4)
    clients = {}
    for user in users:
        clients[user.pk] = Client()
        clients[user.pk].force_login(user)
    rng = random.Random(38)
    for step in range(30):
        if not play_step(game, users, rng):
            break
        game.refresh_from_db()
        for user in users:
            count = unread_count(user=user)
            page = clients[user.pk].get(reverse("notifications:list")).content.decode()
            assert page.count("data-notification=") == count
            if count:
                assert f'data-unread="{count}"' in page  # the header's bell
            seat = game.seats.get(user=user)
            asking = Notification.objects.filter(
                user=user, read_at__isnull=True, kind__in=[Kind.YOUR_TURN, Kind.GAME_STARTED, Kind.NUDGED]
            )
            assert not asking.exists() or seat.to_act, (step, user)
    assert state_of(game).round >= 3  # a few rounds were played


def test_an_action_closes_only_the_actors_item():
    game, users = a_game(3)
    game_act(
        game_id=game.pk,
        user=users[0],
        action={"type": "clue", "card": state_of(game).hands[0][0], "text": "far"},
        now=at(10),
    )
    assert unread_count(user=users[0]) == 0
    assert [unread_count(user=user) for user in users[1:]] == [1, 1]


def test_emails_link_to_the_address_bin_run_prints():
    root = Path(__file__).resolve().parents[2]
    env = {key: value for key, value in os.environ.items() if key not in ("FABULA_SITE_URL", "HOST", "PORT")}
    code = "import django; django.setup(); from django.conf import settings; print(settings.SITE_URL)"

    def site_url(**extra) -> str:
        result = subprocess.run(
            [sys.executable, "-c", code],
            env={**env, "DJANGO_SETTINGS_MODULE": "config.settings.base", **extra},
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        )
        return result.stdout.strip().splitlines()[-1]

    assert site_url(PORT="9123") == "http://127.0.0.1:9123"
    assert site_url() == "http://127.0.0.1:8000"
    assert site_url(PORT="9123", FABULA_SITE_URL="https://games.example.org/") == "https://games.example.org"
    run = (root / "bin" / "run").read_text()
    assert re.search(r"^export PORT HOST$", run, re.M)
    assert 'open http://$HOST:$PORT/"' in run


def test_a_reminder_follows_a_deadline_that_moves_for_a_player_away():
    """A phase's deadline moved by a player going away (or by a bank drawn on): the reminders not yet sent come a
    quarter of the phase before the new deadline, not before the old one ("3 days, 6 hours left")."""
    game, users = started_game(3, phase_seconds=24 * 3600)
    now = at(12)
    clue(game, users[0], 0, now=now)
    game.refresh_from_db()
    first = game.deadline_at
    turn = Turn.objects.get(seat__user=users[1], closed_at__isnull=True)
    assert turn.remind_at == first - timedelta(hours=6)
    account_time.away_set(user=users[2], until=now + timedelta(days=3), now=now + timedelta(hours=1))
    game.refresh_from_db()
    assert game.deadline_at > first
    turn.refresh_from_db()
    assert turn.remind_at == game.deadline_at - timedelta(hours=6)
    emails_send_due(now=now + timedelta(minutes=1))  # the turn emails
    mail.outbox.clear()
    assert emails_send_due(now=first - timedelta(hours=5)) == 0  # the old deadline's reminder: none
    assert emails_send_due(now=game.deadline_at - timedelta(hours=5)) == 2
    assert all(m.subject.startswith("Reminder: 5 hours left") for m in mail.outbox), [m.subject for m in mail.outbox]
