"""Across weeks (issue 38), the services: paused games that end, the cap, reliability, banks that run out, live
games left alone, the limit of away days. Each with the clock passed in."""

import datetime

import pytest

from accounts import time as account_time
from accounts.models import AwayPeriod
from accounts.services import account_delete
from games.models import Game, Move, Seat
from games.selectors.reliability import games_finished_count, reliability_of
from games.services.errors import GameError
from games.services.games import game_create, game_join
from games.services.weeks import paused_games_sweep
from games.signals import paused_game_ending
from games.tests.api.conftest import error_of
from games.tests.factories import UserFactory, deck_with_cards, started_game
from games.tests.timeouts.steps import clue, due, expire, leave_absent, submit

UTC = datetime.UTC
H = datetime.timedelta(hours=1)
DAY = datetime.timedelta(days=1)

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck():
    return deck_with_cards(60)


class TestPausedGames:
    def heard(self):
        told = []

        def receiver(sender, *, game, ends_at, user_ids, now, **kwargs):
            told.append((game.pk, ends_at, sorted(user_ids), now))

        paused_game_ending.connect(receiver, dispatch_uid="test-paused-ending", weak=False)
        return told

    def teardown_method(self):
        paused_game_ending.disconnect(dispatch_uid="test-paused-ending")

    def test_the_table_is_told_a_day_before_once_and_the_game_ends_as_abandoned(self, deck):
        game, users = started_game(4, deck=deck)
        leave_absent(game, users, {2, 3})
        game.refresh_from_db()
        assert game.is_paused and game.paused_since_at is not None
        since, version = game.paused_since_at, game.version
        told = self.heard()
        assert paused_games_sweep(now=since + 5 * DAY) == (0, 0)
        warn_at = since + 6 * DAY + H
        assert paused_games_sweep(now=warn_at) == (1, 0)
        assert paused_games_sweep(now=warn_at + H) == (0, 0)  # once
        assert told == [(game.pk, since + 7 * DAY, sorted(u.pk for u in users), warn_at)]

        assert paused_games_sweep(now=since + 7 * DAY - datetime.timedelta(seconds=1)) == (0, 0)
        assert paused_games_sweep(now=since + 7 * DAY) == (0, 1)
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED and game.abandoned and game.version > version
        assert game.finished_at == since + 7 * DAY and not game.is_paused and game.deadline_at is None
        resigned = set(Seat.objects.filter(game=game, has_resigned=True).values_list("position", flat=True))
        assert resigned == {2, 3}  # those who left it; the two who stayed finished it
        assert Move.objects.filter(game=game, kind="resign", by_timeout=True).count() == 2
        assert not Seat.objects.filter(game=game, is_winner=True).exists()
        assert paused_games_sweep(now=since + 8 * DAY) == (0, 0)  # idempotent
        assert reliability_of(user=users[0], now=since + 8 * DAY).games_counted == 1
        assert games_finished_count(user=users[0]) == 1 and games_finished_count(user=users[2]) == 0

    def test_someone_acting_saves_it(self, deck):
        game, users = started_game(4, deck=deck)
        leave_absent(game, users, {2, 3})
        game.refresh_from_db()
        since = game.paused_since_at
        clue(game, users[2], 2, now=since + 3 * DAY)  # the absent storyteller is back
        game.refresh_from_db()
        assert not game.is_paused and game.paused_since_at is None
        assert paused_games_sweep(now=since + 30 * DAY) == (0, 0)
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE


class TestCap:
    def test_too_many_asynchronous_games_on_create_and_join(self, deck, settings):
        settings.FABULA_ASYNC_GAMES_MAX = 2
        busy, other = UserFactory(), UserFactory()
        for _ in range(2):
            game_create(creator=busy, max_seats=4, options={"deck": deck.pk})
        with pytest.raises(GameError) as refused:
            game_create(creator=busy, max_seats=4, options={"deck": deck.pk})
        assert (refused.value.code, refused.value.kind) == ("too_many_games", "conflict")
        assert "2" in str(refused.value.message)
        game_create(creator=busy, max_seats=4, pace=Game.Pace.LIVE, options={"deck": deck.pk})  # live: no cap
        theirs = game_create(creator=other, max_seats=4, options={"deck": deck.pk})
        with pytest.raises(GameError) as refused:
            game_join(game_id=theirs.pk, user=busy)
        assert refused.value.code == "too_many_games"
        assert not Seat.objects.filter(game=theirs, user=busy).exists()

    def test_the_api_answers_409(self, make_player, deck, settings):
        settings.FABULA_ASYNC_GAMES_MAX = 1
        _user, client = make_player()
        assert client.post("/games", {"seats": 4, "deck": deck.pk}).status_code == 201
        assert error_of(client.post("/games", {"seats": 4, "deck": deck.pk})) == (409, "too_many_games")


def ended_games(user, *, left: int, finished: int, at):
    """Games that ended at ``at`` with ``user`` seated: ``left`` of them resigned, ``finished`` played to the end."""
    others = UserFactory.create_batch(2)
    for index in range(left + finished):
        game = Game.objects.create(
            kind="storyteller", max_seats=3, phase_seconds=3600, creator=user, status=Game.Status.FINISHED
        )
        Game.objects.filter(pk=game.pk).update(finished_at=at)
        Seat.objects.create(game=game, user=user, position=0, has_resigned=index < left)
        for position, other in enumerate(others, start=1):
            Seat.objects.create(game=game, user=other, position=position)


class TestReliability:
    def test_shares_over_twelve_months_and_null_under_five(self, deck):
        now = datetime.datetime(2026, 6, 1, tzinfo=UTC)
        user = UserFactory()
        ended_games(user, left=1, finished=3, at=now - 30 * DAY)
        ended_games(user, left=2, finished=0, at=now - 400 * DAY)  # over a year ago: not counted
        assert reliability_of(user=user, now=now).finished_share is None  # four counted
        ended_games(user, left=0, finished=1, at=now - 2 * DAY)
        record = reliability_of(user=user, now=now)
        assert (record.games_counted, record.games_finished, record.finished_share) == (5, 4, 0.8)
        assert games_finished_count(user=user) == 4

    def test_turns_in_time(self, deck):
        game, users = started_game(4, deck=deck)
        clue(game, users[0], 0)
        submit(game, users[1], 1)
        expire(game)  # 2 and 3 late
        ended_games(users[1], left=0, finished=5, at=datetime.datetime.now(UTC) - DAY)
        ended_games(users[2], left=0, finished=5, at=datetime.datetime.now(UTC) - DAY)
        now = datetime.datetime.now(UTC) + H
        assert reliability_of(user=users[1], now=now).on_time_share == 1.0
        assert reliability_of(user=users[2], now=now).on_time_share == 0.0

    def test_a_minimum_keeps_out_who_finish_too_few(self, deck):
        creator, flaky, new = UserFactory(), UserFactory(), UserFactory()
        ended_games(flaky, left=3, finished=2, at=datetime.datetime.now(UTC) - DAY)
        game = game_create(creator=creator, max_seats=4, options={"deck": deck.pk}, min_reliability=0.8)
        with pytest.raises(GameError) as refused:
            game_join(game_id=game.pk, user=flaky)
        assert (refused.value.code, refused.value.kind) == ("unreliable", "conflict")
        assert "80%" in str(refused.value.message) and "40%" in str(refused.value.message)
        game_join(game_id=game.pk, user=new)  # fewer than 5 counted games: always welcome
        for bad in (1.5, -0.1, "0.5", True):
            with pytest.raises(GameError) as refused:
                game_create(creator=creator, max_seats=4, options={"deck": deck.pk}, min_reliability=bad)
            assert refused.value.code == "bad_options"

    def test_the_api_record_404_for_a_deleted_player(self, make_player):
        gone, client = make_player()
        _user, asker = make_player()
        assert asker.get(f"/players/{gone.username}").status_code == 200
        account_delete(user=gone)
        assert error_of(asker.get(f"/players/{gone.username}")) == (404, "not_found")


class TestBanks:
    def test_a_bank_runs_out_then_the_phase_expires_and_only_the_late_pay(self, deck):
        game, users = started_game(4, deck=deck, time_bank_hours=2)
        clue(game, users[0], 0)
        submit(game, users[1], 1)
        missed = due(game)
        assert not expire(game, now=missed)  # drawn on the banks: not expired
        game.refresh_from_db()
        assert game.deadline_at == missed - datetime.timedelta(seconds=1) + 2 * H
        assert game.phase == "submit"
        assert expire(game)  # the banks ran out
        game.refresh_from_db()
        assert game.phase == "vote" and game.bank_since_at is None
        banks = dict(Seat.objects.filter(game=game).values_list("position", "time_bank_seconds"))
        assert banks == {0: 7200, 1: 7200, 2: 0, 3: 0}
        assert Move.objects.filter(game=game, by_timeout=True).count() == 2

    def test_the_default_bank_is_a_day(self, deck, settings):
        settings.FABULA_TIME_BANK_HOURS_DEFAULT = 24
        game = game_create(creator=UserFactory(), max_seats=4, options={"deck": deck.pk})
        assert game.time_bank_seconds == 24 * 3600
        for bad in (-1, 73, 1.5, True):
            with pytest.raises(GameError) as refused:
                game_create(creator=UserFactory(), max_seats=4, options={"deck": deck.pk}, time_bank_hours=bad)
            assert refused.value.code == "bad_options"


class TestLiveGamesUnaffected:
    def test_a_live_deadline_falls_in_the_night_an_asynchronous_one_does_not(self, deck):
        night = datetime.datetime(2026, 3, 2, 2, 0, tzinfo=UTC)
        for pace, expected in ((Game.Pace.LIVE, night + datetime.timedelta(seconds=90)), (Game.Pace.ASYNC, None)):
            users = UserFactory.create_batch(3, quiet_hours_start=datetime.time(23), quiet_hours_end=datetime.time(7))
            game = game_create(creator=users[0], max_seats=3, pace=pace, phase_seconds=3600, options={"deck": deck.pk})
            for user in users[1:]:
                game_join(game_id=game.pk, user=user, now=night)
            game.refresh_from_db()
            if expected is not None:
                assert game.deadline_at == expected
            else:
                assert game.deadline_at == datetime.datetime(2026, 3, 2, 7, 0, tzinfo=UTC)
            assert set(Seat.objects.filter(game=game).values_list("time_bank_seconds", flat=True)) == {0}


class TestAwayDays:
    NOW = datetime.datetime(2026, 6, 1, 12, 0, tzinfo=UTC)

    def test_sixty_days_in_any_365(self):
        user = UserFactory()
        now = self.NOW
        AwayPeriod.objects.create(user=user, starts_at=now - 300 * DAY, until_at=now - 275 * DAY)  # 25 days
        AwayPeriod.objects.create(user=user, starts_at=now - 100 * DAY, until_at=now - 75 * DAY)  # 25 days
        AwayPeriod.objects.create(user=user, starts_at=now - 400 * DAY, until_at=now - 380 * DAY)  # too long ago
        with pytest.raises(account_time.TimeError) as refused:
            account_time.away_set(user=user, until=now + 10 * DAY + H, now=now)
        assert (refused.value.code, refused.value.status) == ("away_limit", 409)
        user.refresh_from_db()
        assert user.away_until is None and AwayPeriod.objects.filter(user=user).count() == 3
        account_time.away_set(user=user, until=now + 10 * DAY, now=now)
        # Moving one's return later counts the days of the period so far.
        with pytest.raises(account_time.TimeError):
            account_time.away_set(user=user, until=now + 5 * DAY + 10 * DAY, now=now + 5 * DAY)
        account_time.away_clear(user=user, now=now + 2 * DAY)
        user.refresh_from_db()
        assert user.away_until is None
        assert account_time.away_days_left(user=user, now=now + 2 * DAY) == 8 * DAY

    def test_at_most_thirty_days_at_once_and_not_in_the_past(self):
        user = UserFactory()
        for until in (
            self.NOW,
            self.NOW - H,
            self.NOW + 30 * DAY + H,
            (self.NOW + 4 * DAY).replace(tzinfo=None),
            "soon",
        ):
            with pytest.raises(account_time.TimeError) as refused:
                account_time.away_set(user=user, until=until, now=self.NOW)
            assert refused.value.code == "bad_away"
        assert account_time.away_set(user=user, until=self.NOW + 30 * DAY, now=self.NOW).away_until

    def test_a_phase_starting_while_someone_is_away_counts_from_their_return(self, deck):
        game, users = started_game(4, deck=deck)
        now = datetime.datetime.now(UTC)
        back = now + 3 * DAY
        account_time.away_set(user=users[2], until=back, now=now)
        clue(game, users[0], 0, now=now + H)
        game.refresh_from_db()
        assert game.deadline_at == back + datetime.timedelta(seconds=game.phase_seconds)
        assert not expire(game, now=now + 2 * DAY)  # not due


def test_the_api_takes_a_whole_number_as_a_share_and_refuses_a_string(make_player, deck):
    _user, client = make_player()
    created = client.post("/games", {"seats": 4, "deck": deck.pk, "min_reliability": 1, "time_bank_hours": 0})
    assert created.status_code == 201, created.content
    game = Game.objects.get(pk=created.json()["id"])
    assert (game.min_reliability, game.time_bank_seconds) == (1.0, 0)
    assert client.post("/games", {"seats": 4, "deck": deck.pk, "min_reliability": "0.5"}).status_code == 400
