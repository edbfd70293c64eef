"""games.tasks: the beat task finds due games; countdowns for live games."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from games.services.games import game_create
from games.tasks import expire_due_games, expire_game, games_expire_due, live_countdowns_schedule
from games.tests.factories import UserFactory, deck_with_cards, started_game
from games.tests.test_services import snapshot

from .steps import due, state_of

pytestmark = pytest.mark.django_db


def test_the_beat_expires_every_due_game_once_and_nothing_else():
    deck = deck_with_cards()
    first, _ = started_game(4, deck=deck)
    second, _ = started_game(3, deck=deck)
    later, _ = started_game(4, deck=deck, phase_seconds=48 * 3600)
    waiting = game_create(creator=UserFactory(), max_seats=4, options={"deck": deck.pk})
    now = max(due(first), due(second))
    untouched = snapshot(later), snapshot(waiting)

    assert games_expire_due(now=now) == 2
    assert state_of(first).storyteller == 0 and state_of(second).storyteller == 0
    assert (snapshot(later), snapshot(waiting)) == untouched
    moved = snapshot(first), snapshot(second)
    # Run again at the same moment, or a little later: nothing is due any more.
    assert games_expire_due(now=now) == 0
    assert games_expire_due(now=now + timedelta(minutes=5)) == 0
    assert (snapshot(first), snapshot(second)) == moved


def test_a_broken_game_does_not_hold_up_the_others(caplog):
    deck = deck_with_cards()
    broken, _ = started_game(3, deck=deck)
    sound, _ = started_game(3, deck=deck)
    Game.objects.filter(pk=broken.pk).update(state={"schema": 999})
    now = max(due(broken), due(sound))
    assert games_expire_due(now=now) == 1
    assert state_of(sound).storyteller == 0
    assert f"could not expire game {broken.pk}" in caplog.text


def test_the_task_itself_runs_on_the_real_clock():
    game, _ = started_game(3)
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert expire_due_games.delay().get() == 1
    assert state_of(game).storyteller == 0


class TestLiveCountdowns:
    def test_a_countdown_is_sent_for_each_live_deadline_before_the_next_run(self):
        deck = deck_with_cards()
        live, _ = started_game(3, deck=deck, pace="live")
        started_game(3, deck=deck)  # asynchronous: the beat is precise enough
        before = snapshot(live)
        # The countdown runs at once under the test settings (eager), before the
        # deadline, so it changes nothing: only game_expire decides.
        assert live_countdowns_schedule(now=live.deadline_at - timedelta(seconds=2), within=timedelta(seconds=5)) == 1
        assert live_countdowns_schedule(now=live.deadline_at - timedelta(seconds=9), within=timedelta(seconds=5)) == 0
        assert snapshot(live) == before

    def test_a_countdown_expires_the_phase_it_was_sent_for_and_no_other(self):
        game, _ = started_game(3, pace="live")
        Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
        sent_for = game.version
        assert expire_game.delay(game_id=game.pk, version=sent_for).get()
        # A duplicate arriving once the next phase is due too changes nothing.
        Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
        after = snapshot(game)
        assert not expire_game.delay(game_id=game.pk, version=sent_for).get()
        assert snapshot(game) == after
