"""``manage.py stats_rebuild``: the rebuild, with a progress bar on the error stream and a summary."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.tests.factories import UserFactory
from stats.models import GameRecord, Leaderboard

from .cases import two_games

pytestmark = pytest.mark.django_db


def test_the_command_rebuilds_every_kind_with_a_progress_bar():
    now = timezone.now()
    two_games(UserFactory.create_batch(4), first_at=now - timedelta(days=1), second_at=now)
    out, err = StringIO(), StringIO()
    call_command("stats_rebuild", stdout=out, stderr=err)
    assert out.getvalue().splitlines() == ["storyteller: 2 games", "think_alike: 0 games"]
    assert "storyteller: 100%" in err.getvalue() and "2/2" in err.getvalue()
    assert GameRecord.objects.count() == 7
    assert Leaderboard.objects.get(kind="storyteller", board="wins", period="all").size == 2  # the two who won


def test_one_kind_and_quietly():
    now = timezone.now()
    two_games(UserFactory.create_batch(4), first_at=now - timedelta(days=1), second_at=now)
    out, err = StringIO(), StringIO()
    call_command("stats_rebuild", "--kind", "storyteller", verbosity=0, stdout=out, stderr=err)
    assert out.getvalue() == err.getvalue() == ""
    assert GameRecord.objects.count() == 7
    assert not Leaderboard.objects.filter(kind="think_alike").exists()
