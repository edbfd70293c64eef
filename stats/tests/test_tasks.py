"""The Celery side: the nightly rebuild is scheduled, and both tasks do their service's work."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from config.celery import app
from games.tests.factories import UserFactory
from stats import tasks
from stats.models import GameRecord, LeaderboardEntry
from stats.selectors import entries_placed

from .cases import two_games

pytestmark = pytest.mark.django_db


def test_the_nightly_rebuild_is_scheduled():
    entry = settings.CELERY_BEAT_SCHEDULE["stats-rebuild"]
    assert entry["task"] == tasks.rebuild.name and entry["task"] in app.tasks
    assert entry["schedule"].hour == {3}  # once a day, at night
    assert tasks.game_finished.name in app.tasks


def test_the_tasks_record_a_game_then_rebuild_the_same():
    now = timezone.now()
    game_1, game_2 = two_games(UserFactory.create_batch(4), first_at=now - timedelta(days=1), second_at=now)
    tasks.game_finished.delay(game_1.pk)
    tasks.game_finished.delay(game_2.pk)
    assert GameRecord.objects.count() == 7
    entries = sorted(
        entries_placed(LeaderboardEntry.objects.all()).values_list(
            "leaderboard__board", "leaderboard__period", "user_id", "rank"
        )
    )
    tasks.rebuild.delay()
    assert GameRecord.objects.count() == 7
    assert (
        sorted(
            entries_placed(LeaderboardEntry.objects.all()).values_list(
                "leaderboard__board", "leaderboard__period", "user_id", "rank"
            )
        )
        == entries
    )
