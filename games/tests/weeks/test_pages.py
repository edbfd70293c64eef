"""Across weeks (issue 38) on the pages: the zone from the browser at sign-up, "Your time" on the profile, times in
the viewer's zone and language, the table's away and banks, the nudge button, the new-game form's bank and minimum,
a player's record on their page."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts import time as account_time
from accounts.models import AwayPeriod, User
from games.models import Game, Nudge
from games.tests.factories import UserFactory, deck_with_cards, started_game
from games.tests.timeouts.steps import clue
from infrastructure.caches import reset_process_caches

pytestmark = pytest.mark.django_db
UTC = datetime.UTC


def signup(client, zone):
    return client.post(
        reverse("accounts:signup"),
        {
            "username": f"newcomer{len(zone)}",
            "email": f"newcomer{len(zone)}@example.com",
            "password1": "correct horse battery staple",
            "password2": "correct horse battery staple",
            "time_zone": zone,
        },
    )


class TestSignUp:
    def test_the_browser_zone_is_kept_and_a_bad_one_is_utc(self, client):
        page = client.get(reverse("accounts:signup")).content.decode()
        assert 'name="time_zone"' in page and "data-browser-time-zone" in page and "time-zone.js" in page
        assert signup(client, "America/Sao_Paulo").status_code == 302
        user = User.objects.get(username=f"newcomer{len('America/Sao_Paulo')}")
        assert user.time_zone == "America/Sao_Paulo"
        assert (user.quiet_hours_start, user.quiet_hours_end) == (datetime.time(23), datetime.time(7))
        client.logout()
        assert signup(client, "Not/AZone").status_code == 302
        assert User.objects.get(username=f"newcomer{len('Not/AZone')}").time_zone == "UTC"


class TestYourTime:
    def test_zone_quiet_hours_and_away_on_the_profile(self, client):
        user = UserFactory()
        client.force_login(user)
        page = client.get(reverse("accounts:profile")).content.decode()
        assert "Your time" in page and 'name="quiet_start"' in page
        back = (timezone.now() + datetime.timedelta(days=3)).astimezone(account_time.clock.zone("Asia/Tokyo"))
        answer = client.post(
            reverse("accounts:time"),
            {
                "time_zone": "Asia/Tokyo",
                "quiet": "on",
                "quiet_start": "22:30",
                "quiet_end": "06:00",
                "away_until": back.strftime("%Y-%m-%dT%H:%M"),
            },
        )
        assert answer.status_code == 302
        user.refresh_from_db()
        assert user.time_zone == "Asia/Tokyo"
        assert (user.quiet_hours_start, user.quiet_hours_end) == (datetime.time(22, 30), datetime.time(6))
        # The away field is read in the person's own zone (the middleware activated it).
        assert user.away_until == back.replace(second=0, microsecond=0)
        assert AwayPeriod.objects.filter(user=user).count() == 1
        answer = client.post(reverse("accounts:time"), {"time_zone": "Asia/Tokyo", "away_until": ""})
        user.refresh_from_db()
        assert answer.status_code == 302 and user.away_until is None and user.quiet_hours_start is None

    def test_refusals_change_nothing(self, client):
        user = UserFactory()
        client.force_login(user)
        for data in (
            {"time_zone": "Moon/Base"},
            {"time_zone": "UTC", "quiet": "on", "quiet_start": "08:00", "quiet_end": "23:00"},  # 15 hours
            {"time_zone": "UTC", "quiet": "on", "quiet_start": "08:00"},
            {"time_zone": "Europe/Oslo", "away_until": "2020-01-01T10:00"},
        ):
            answer = client.post(reverse("accounts:time"), data)
            assert answer.status_code == 400, data
            assert 'role="alert"' in answer.content.decode(), data
        user.refresh_from_db()
        assert user.time_zone == "UTC" and user.away_until is None


class TestTheTable:
    def test_away_banks_local_deadline_and_a_nudge(self, client):
        deck = deck_with_cards(60)
        game, users = started_game(4, deck=deck, time_bank_hours=5)
        for user in users:
            user.time_zone = "Europe/Helsinki"
            user.save(update_fields=["time_zone"])
        now = timezone.now()
        clue(game, users[0], 0, now=now)
        account_time.away_set(user=users[2], until=now + datetime.timedelta(days=2), now=now)
        game.refresh_from_db()
        client.force_login(users[1])
        page = client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="fi").content.decode()
        local = timezone.localtime(game.deadline_at, account_time.clock.zone("Europe/Helsinki"))
        assert f"{local.hour}.{local.minute:02d}" in page  # the deadline in Helsinki time, the Finnish way
        assert "5\xa0tuntia" in page  # every bank, in words
        assert page.count('class="badge muted away"') == 1
        assert 'name="seat"' not in page  # no nudge before half the phase has run

        Game.objects.filter(pk=game.pk).update(phase_started_at=now - datetime.timedelta(days=5))
        game.refresh_from_db()
        reset_process_caches()  # the view of this version was built with the phase's start as it was
        page = client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="fi").content.decode()
        assert f'name="seat" value="{2}"' in page  # a nudge for those the game waits for
        assert f'name="seat" value="{1}"' not in page  # never for oneself
        answer = client.post(reverse("games:nudge", args=[game.pk]), {"seat": "3"})
        assert answer.status_code == 302
        assert Nudge.objects.filter(game=game, seat__position=3, by=users[1]).count() == 1
        client.post(reverse("games:nudge", args=[game.pk]), {"seat": "3"})
        assert Nudge.objects.filter(game=game).count() == 1


class TestNewGameForm:
    def test_the_bank_and_the_minimum(self, client):
        deck = deck_with_cards(60)
        user = UserFactory()
        client.force_login(user)
        page = client.get(reverse("games:create")).content.decode()
        assert 'name="time_bank_hours"' in page and 'name="min_reliability"' in page
        base = {"kind": "storyteller", "max_seats": "4", "pace": "async", "phase_hours": "24", "visibility": "public"}
        answer = client.post(
            reverse("games:create"), {**base, "deck": deck.pk, "time_bank_hours": "12", "min_reliability": "80"}
        )
        assert answer.status_code == 302
        game = Game.objects.get(creator=user)
        assert (game.time_bank_seconds, game.min_reliability) == (12 * 3600, 0.8)
        refused = client.post(reverse("games:create"), {**base, "deck": deck.pk, "time_bank_hours": "73"})
        assert refused.status_code == 200 and Game.objects.filter(creator=user).count() == 1


def test_a_players_page_shows_their_record(client):
    user = UserFactory()
    page = client.get(reverse("stats:player", args=[user.username])).content.decode()
    assert "Finishes their games" in page and "too few to say" in page
