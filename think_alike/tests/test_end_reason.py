"""A finished game of Think Alike says why it ended (issue 39), on the page's end banner and in the API's view,
in the page's language: the agreed number of task cards, the target score, the task cards run out, too few left."""

import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.services import token_create
from games.models import Game
from games.services.games import game_resign
from games.tests.api.conftest import ApiClient
from games.tests.play import view_for
from think_alike.models import ThinkAlikeRound

from .content import small_content, think_alike_game
from .play import play_step, play_to_end

pytestmark = pytest.mark.django_db


def finished(players: int, tasks: int = 40, **options):
    small_content(tasks=tasks)
    game, users = think_alike_game(players, options=options)
    game = play_to_end(game, users, random.Random(players))
    assert game.status == Game.Status.FINISHED and not game.abandoned
    return game, users


def left_after_a_round():
    """A game of three where one resigns once a round was scored (before it, the game is abandoned)."""
    small_content()
    game, users = think_alike_game(3)
    rng = random.Random(1)
    while not ThinkAlikeRound.objects.filter(game=game).exists():
        assert play_step(game, users, rng)
    game_resign(game_id=game.pk, user=users[0])
    game.refresh_from_db()
    return game, users


def page_and_api(game, user) -> tuple[str, str]:
    """The board's HTML for ``user`` (their session) and the API's ``end_reason`` (their token)."""
    client = Client()
    client.force_login(user)
    board = client.get(reverse("games:board", args=[game.pk])).content.decode()
    _token, secret = token_create(user=user, name="tests")
    api = ApiClient(secret).get(f"/games/{game.pk}")
    assert api.status_code == 200, api.content
    return board, api.json()["end_reason"]


@pytest.mark.parametrize(
    ("options", "tasks", "reason"),
    [
        ({"stop": "tasks", "count": 2}, 40, "The agreed number of task cards was played."),
        ({"stop": "points", "target": 1}, 40, "A player reached the target score."),
        ({"stop": "points", "target": 999}, 3, "The task cards ran out."),
    ],
)
def test_the_end_banner_and_the_api_say_why_the_game_ended(options, tasks, reason):
    game, users = finished(3, tasks=tasks, **options)
    assert view_for(game, users[1])["end_reason"] == reason
    board, api_reason = page_and_api(game, users[1])
    assert f"The game is over. {reason}" in board
    assert api_reason == reason


def test_a_game_left_by_too_many_says_so():
    game, users = left_after_a_round()
    assert game.status == Game.Status.FINISHED and not game.abandoned
    board, api_reason = page_and_api(game, users[1])
    assert "Too few players were left after resignations." in board
    assert api_reason == "Too few players were left after resignations."


def test_the_reason_is_said_in_the_viewer_s_language():
    game, users = left_after_a_round()
    with translation.override("fr"):
        said = view_for(game, users[1])["end_reason"]
    assert said and said != "Too few players were left after resignations."
