"""games.0006: the games that finished before any round was scored, before the site knew the word, are marked
abandoned by their kinds, and lose the "shared win" they were given; the others keep their winners."""

import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.services import account_delete
from games.models import Game, Seat
from games.services.games import game_resign

from .factories import started_game
from .play import play_step

BEFORE = ("games", "0005_game_rematch")


def migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


@pytest.mark.django_db(transaction=True)
def test_games_ended_before_a_scored_round_are_marked_abandoned():
    unplayed, (_ann, _bo, cy) = started_game(3)
    account_delete(user=cy)  # resigned at once: over before any round
    played, users = started_game(3)
    rng = random.Random(5)
    while Game.objects.get(pk=played.pk).round == 1:
        play_step(played, users, rng)
    game_resign(game_id=played.pk, user=users[2])
    winners_of_played = set(Seat.objects.filter(game=played, is_winner=True).values_list("pk", flat=True))
    assert winners_of_played
    # As the site left them before: no such column, and a 0-0 "shared win" for the unplayed game.
    Seat.objects.filter(game=unplayed).exclude(user=cy).update(is_winner=True)

    migrate([BEFORE])
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    assert Game.objects.get(pk=unplayed.pk).abandoned
    assert not Seat.objects.filter(game=unplayed, is_winner=True).exists()
    assert not Game.objects.get(pk=played.pk).abandoned
    assert set(Seat.objects.filter(game=played, is_winner=True).values_list("pk", flat=True)) == winners_of_played
