"""Numbers that tell the truth (issue 39): a place is among everyone at the table, bots too; a game alone with
bots is practice, not counted, and the player's page says so; nobody is placed among the winners with no win."""

import pytest
from django.urls import reverse
from django.utils import timezone

from bots.services import game_bot_add
from games.models import Game, Seat
from games.services.games import game_create, game_join
from games.tests.factories import UserFactory, deck_with_cards
from stats.models import GameRecord
from stats.services import stats_rebuild

pytestmark = pytest.mark.django_db


def finished(creator, people=(), bots=0, scores=()):
    """A finished game of ``creator``, ``people`` and ``bots`` with ``scores`` by seat (the highest wins)."""
    deck = deck_with_cards()
    game = game_create(creator=creator, max_seats=1 + len(people) + bots, options={"deck": deck.pk})
    for person in people:
        game_join(game_id=game.pk, user=person, invite_code=game.invite_code)
    for _ in range(bots):
        game_bot_add(game_id=game.pk, user=creator)
    best = max(scores)
    for position, score in enumerate(scores):
        Seat.objects.filter(game=game, position=position).update(score=score, is_winner=score == best)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
    return game


def test_a_place_counts_the_bots_at_the_table_and_practice_is_said_not_counted(client):
    ann, bo = UserFactory(username="ann"), UserFactory(username="bo")
    with_bot = finished(ann, people=[bo], bots=1, scores=[5, 3, 9])  # the bot won
    finished(ann, bots=3, scores=[4, 9, 1, 2])  # alone with bots: practice
    stats_rebuild(now=timezone.now())
    record = GameRecord.objects.get(game=with_bot, user=ann)
    assert (record.rank, record.players, record.won) == (2, 3, False)
    assert GameRecord.objects.filter(user=ann).count() == 1
    page = client.get(reverse("stats:player", args=["ann"])).content.decode()
    assert "Place 2 of 3" in page
    assert "1 game alone with bots is practice and not counted." in page
    assert "bots too" in page


def test_a_newcomers_games_alone_with_bots_are_listed_as_practice_to_those_who_may_see_them(client):
    ann, bo = UserFactory(username="ann"), UserFactory(username="bo")
    practice = finished(ann, bots=3, scores=[4, 9, 1, 2])  # a bot won; ann second of four
    Game.objects.filter(pk=practice.pk).update(visibility=Game.Visibility.PRIVATE)
    stats_rebuild(now=timezone.now())
    assert not GameRecord.objects.filter(user=ann).exists()  # still counted for nothing

    client.force_login(ann)
    page = client.get(reverse("stats:player", args=["ann"])).content.decode()
    assert "Practice with bots" in page
    assert f"#{practice.pk}</strong>" in page and "Place 2 of 4" in page and "4 points" in page
    assert "No finished game with other people yet" in page
    assert "No finished game to show." not in page

    client.force_login(bo)  # a private practice game is not for a stranger's eyes
    page = client.get(reverse("stats:player", args=["ann"])).content.decode()
    assert "Practice with bots" not in page and f"#{practice.pk}</strong>" not in page
    assert "No finished game to show." in page
