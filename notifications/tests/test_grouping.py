"""The bell counts the games with news, not the phases they went through (issue 15)."""

import random
from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.services.games import game_create, game_join
from games.tests.factories import UserFactory, deck_with_cards, started_game
from games.tests.play import play_step
from notifications.models import Notification

pytestmark = pytest.mark.django_db

Kind = Notification.Kind


def unread(user) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def test_two_thirteen_round_games_ring_the_bell_once_each_and_opening_a_game_reads_it(client):
    people = UserFactory.create_batch(4)
    games = []
    for _ in range(2):  # the same four people at two tables
        # 4 hands of 6 and 13 rounds of 4 cards: the pile runs out after round 13.
        game = game_create(creator=people[0], max_seats=4, options={"deck": deck_with_cards(24 + 13 * 4).pk})
        for user in people[1:]:
            game_join(game_id=game.pk, user=user)
        games.append(game)
    rng = random.Random(15)
    most = 0
    playing = True
    while playing:
        playing = False
        for game in games:  # a step at each table in turn
            playing = play_step(game, people, rng) or playing
        most = max([most, *(unread(user) for user in people)])
    for game in games:
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED and game.round == 13
    # Before, one item per phase and per revealed round: about 35 a game.
    assert most <= 2
    me = people[1]
    assert [n.kind for n in Notification.objects.filter(user=me, read_at__isnull=True)] == [Kind.GAME_FINISHED] * 2
    # An item that asked for a move closed (read) once it was played: the read rows are that history.
    assert (
        not Notification.objects.filter(user=me, read_at__isnull=False)
        .exclude(kind__in=[Kind.YOUR_TURN, Kind.GAME_STARTED, Kind.ROUND_REVEALED])
        .exists()
    )

    client.force_login(me)
    assert 'data-unread="2"' in client.get(reverse("games:mine")).content.decode()
    page = client.get(games[0].get_absolute_url()).content.decode()
    # Opening the game read its item before the page's own bell counted.
    assert not Notification.objects.filter(user=me, game=games[0], read_at__isnull=True).exists()
    assert unread(me) == 1 and 'data-unread="1"' in page


def test_one_player_in_two_games_has_one_item_per_game_waiting():
    deck = deck_with_cards()
    me = UserFactory()
    first, users_1 = started_game(3, deck=deck)
    second, users_2 = started_game(3, deck=deck)
    rng = random.Random(1)
    for game, users in ((first, users_1), (second, users_2)):
        for _ in range(12):
            play_step(game, users, rng)
    for game, users in ((first, users_1), (second, users_2)):
        for user in users:
            # At most the game's one item; one that asks for a move only while the player must still make it.
            assert unread(user) <= 1
            asking = Notification.objects.filter(user=user, read_at__isnull=True, kind__in=[Kind.YOUR_TURN])
            assert not asking.exists() or game.seats.get(user=user).to_act
    assert unread(me) == 0


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_the_newest_unread_item_of_each_game():
    game, users = started_game(3)
    me, other = users[0], users[1]
    Notification.objects.all().delete()
    old = migrate([("notifications", "0001_initial")])
    OldNotification = old.get_model("notifications", "Notification")
    now = timezone.now()
    for n in (1, 2, 3):  # three phases' items, unread, as the bell counted them before
        OldNotification.objects.create(
            user_id=me.pk, game_id=game.pk, kind=Kind.ROUND_REVEALED, round=n, created_at=now + timedelta(minutes=n)
        )
    OldNotification.objects.create(user_id=other.pk, game_id=game.pk, kind=Kind.YOUR_TURN, created_at=now)
    migrate(latest())
    assert list(Notification.objects.filter(user=me, read_at__isnull=True).values_list("round", flat=True)) == [3]
    assert Notification.objects.filter(user=me).count() == 3  # the older ones read, not gone
    assert unread(other) == 1


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()
