"""A game that ends before its first round is scored is abandoned: nobody won it, it is rated and
counted nowhere (the statistics' update and their rebuild both), and its pages say so."""

import random
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.services import account_delete
from games.models import Game
from games.services.games import game_resign
from games.tests.play import play_step, view_for
from stats.models import GameRecord, PlayerStats
from stats.services import stats_game_finished, stats_rebuild
from think_alike.tests.content import small_content, think_alike_game

from .factories import started_game

pytestmark = pytest.mark.django_db


def test_a_deletion_before_any_round_ends_a_three_player_game_abandoned(client):
    game, (ann, bo, cy) = started_game(3)
    account_delete(user=cy)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.abandoned
    assert not game.seats.filter(is_winner=True).exists()  # no 0-0 "shared win"
    assert view_for(game, ann)["winners"] == []
    assert view_for(game, ann)["abandoned"] is True

    assert stats_game_finished(game_id=game.pk, now=timezone.now()) is False
    stats_rebuild(now=timezone.now())
    assert not GameRecord.objects.exists()
    assert not PlayerStats.objects.exists()

    client.force_login(ann)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Abandoned: the game ended before any round was scored." in page
    assert "Shared win" not in page and "Winner:" not in page
    assert "Abandoned" in client.get(reverse("games:mine")).content.decode()
    profile = client.get(reverse("stats:player", args=[ann.username])).content.decode()
    assert "1 more game was abandoned before any round was scored: it counts for nothing." in profile
    replay = client.get(reverse("stats:replay", args=[game.pk])).content.decode()
    assert re.search(r"Abandoned\s+·", replay)


def test_a_game_with_a_scored_round_is_played_whoever_leaves_after(client):
    game, users = started_game(3)
    rng = random.Random(3)
    while Game.objects.get(pk=game.pk).round == 1:
        play_step(game, users, rng)
    game_resign(game_id=game.pk, user=users[2])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and not game.abandoned
    assert game.seats.filter(is_winner=True).exists()
    assert stats_game_finished(game_id=game.pk, now=timezone.now()) is True
    assert GameRecord.objects.filter(game=game).count() == 3
    stats_rebuild(now=timezone.now())
    assert GameRecord.objects.filter(game=game).count() == 3


def test_each_kind_says_whether_a_round_was_scored():
    small_content()
    game, (ann, bo, cy) = think_alike_game(3)
    assert not game.game_kind.round_scored(game.game_kind.engine.from_dict(game.state))
    game_resign(game_id=game.pk, user=ann)  # two left: too few to play on
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.abandoned
    assert not game.seats.filter(is_winner=True).exists()
    assert stats_game_finished(game_id=game.pk, now=timezone.now()) is False


def test_the_api_says_a_game_was_abandoned(client):
    from accounts.services import token_create

    game, (ann, bo, cy) = started_game(3)
    _, raw = token_create(user=ann, name="test")
    url = f"/api/v1/games/{game.pk}"
    assert client.get(url, HTTP_AUTHORIZATION=f"Bearer {raw}").json()["abandoned"] is False
    account_delete(user=cy)
    answer = client.get(url, HTTP_AUTHORIZATION=f"Bearer {raw}").json()
    assert answer["status"] == "finished" and answer["abandoned"] is True and answer["winners"] == []
