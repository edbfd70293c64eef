"""Bots are off the leaderboards: no record, rating or entry; their games are marked on profiles and replays."""

import pytest
from django.urls import reverse
from django.utils import timezone

from games.tests.factories import UserFactory
from stats.models import GameRecord, LeaderboardEntry, PlayerStats
from stats.services import stats_game_finished, stats_rebuild
from stats.tests.factories import finished_game, story_round

pytestmark = pytest.mark.django_db

# Three players; seat 2 (a bot below) finds the storyteller's card, seat 1 does not.
ROUNDS = [story_round(0, "moon", [(0, [2]), (1, []), (2, [1])]), story_round(1, "sea", [(1, [0]), (0, [2]), (2, [])])]


def _players(bots: int = 1):
    people = UserFactory.create_batch(3 - bots)
    return people + [UserFactory(is_bot=True) for _ in range(bots)]


@pytest.mark.parametrize("way", ["finished", "rebuild"])
def test_a_bot_has_no_record_rating_or_place_and_a_persons_place_counts_the_whole_table(way):
    """Ratings rank people among themselves; the place a record shows is at the whole table, the bot's seat too
    (issue 39: "Place 1 of 2" in a game a bot won)."""
    users = _players(bots=1)
    game = finished_game(users, ROUNDS)
    now = timezone.now()
    if way == "finished":
        assert stats_game_finished(game_id=game.pk, now=now)
    else:
        stats_rebuild(now=now)
    bot = users[2]
    assert not GameRecord.objects.filter(user=bot).exists()
    assert not PlayerStats.objects.filter(user=bot).exists()
    assert not LeaderboardEntry.objects.filter(user=bot).exists()
    records = GameRecord.objects.filter(game=game)
    assert {r.user_id for r in records} == {users[0].pk, users[1].pk}
    assert {r.players for r in records} == {3}
    scores = {seat.user_id: seat.score for seat in game.seats.all()}
    for record in records:
        assert record.rank == 1 + sum(score > scores[record.user_id] for score in scores.values())
    assert LeaderboardEntry.objects.filter(user__in=users[:2]).exists()


def test_a_person_alone_with_bots_is_not_recorded():
    users = _players(bots=2)
    game = finished_game(users, ROUNDS)
    stats_game_finished(game_id=game.pk, now=timezone.now())
    assert not GameRecord.objects.filter(game=game).exists()
    assert not LeaderboardEntry.objects.exists() and not PlayerStats.objects.exists()
    stats_rebuild(now=timezone.now())
    assert not GameRecord.objects.exists() and not LeaderboardEntry.objects.exists()


def test_games_with_bots_are_marked_on_the_profile_and_the_replay(client):
    users = _players(bots=1)
    with_bots = finished_game(users, ROUNDS)
    people_only = finished_game([users[0], users[1], UserFactory()], ROUNDS)
    for game in (with_bots, people_only):
        stats_game_finished(game_id=game.pk, now=timezone.now())
    page = client.get(reverse("stats:player", args=[users[0].username])).content.decode()
    assert page.count("with bots") == 1
    assert "with bots" in client.get(reverse("stats:replay", args=[with_bots.pk])).content.decode()
    assert "with bots" not in client.get(reverse("stats:replay", args=[people_only.pk])).content.decode()
