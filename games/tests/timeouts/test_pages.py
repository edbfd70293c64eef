"""Resigning from the game page, as its form posts it."""

import pytest
from django.urls import reverse

from games.models import Game, Seat
from games.tests.factories import started_game

pytestmark = pytest.mark.django_db


def test_the_resign_form_resigns_and_the_game_goes_on(client):
    game, users = started_game(4)
    client.force_login(users[3])
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'name="type" value="resign"' in page
    response = client.post(reverse("games:act", args=[game.pk]), {"type": "resign"}, follow=True)
    assert response.status_code == 200
    assert "You have resigned." in response.content.decode()
    assert Seat.objects.get(game=game, user=users[3]).has_resigned
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_resigning_over_htmx_answers_with_the_board_and_can_end_the_game(client):
    game, users = started_game(3)
    client.force_login(users[1])
    response = client.post(reverse("games:act", args=[game.pk]), {"type": "resign"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    board = response.content.decode()
    # Two resignations before any round was scored: the game ends, abandoned (issue 30), and the board says so.
    assert 'id="board"' in board and "Abandoned: the game ended before any round was scored." in board
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.abandoned
