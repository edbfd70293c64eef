"""A Think Alike deadline writes what it did for each seat it passed over (issue 13), and
the replay tells it."""

from datetime import timedelta

import pytest
from django.urls import reverse

from games.models import Move
from games.services.games import game_act, game_expire
from games.tests.play import view_for

from .content import small_content, think_alike_game

pytestmark = pytest.mark.django_db


def expire(game):
    game.refresh_from_db()
    assert game_expire(game_id=game.pk, version=game.version, now=game.deadline_at + timedelta(seconds=1))


def test_a_turn_played_at_random_and_answers_not_written_are_recorded_and_replayed(client):
    small_content()
    game, users = think_alike_game(4, options={"stop": "tasks", "count": 1})
    holder = next(user for user in users if user.username == view_for(game, users[0])["turn"])
    holder.display_name = "Ada"
    holder.save()
    expire(game)  # the turn holder did not roll: the turn is played at random
    view = view_for(game, users[0])
    assert view["phase"] == "answer"
    others = [user for user in users if user != holder]
    for user in others[:2]:
        answers = ["sun"] * view_for(game, user)["task"]["answers"]
        game_act(game_id=game.pk, user=user, action={"type": "answer", "answers": answers})
    expire(game)  # Ada and one other wrote nothing
    moves = Move.objects.filter(game=game, by_timeout=True).order_by("id")
    outcomes = [(move.seat.user_id, move.payload["phase"], move.payload["outcome"]) for move in moves]
    assert outcomes == [
        (holder.pk, "roll", "random_setup"),
        *sorted((user.pk, "answer", "no_answer") for user in (holder, others[2])),
    ]
    client.force_login(users[0])
    page = client.get(reverse("stats:replay", args=[game.pk])).content.decode()
    assert "Ada ran out of time: the rest of the turn was played at random." in page
    assert "Ada ran out of time and wrote no answer." in page
