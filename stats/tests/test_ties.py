"""Tied players share a place (issue 15) in a replay and on player pages (the finished
game's page: ``games/tests/test_places.py``). Game 1 of ``cases`` ends Ann 8, Bo 6, Di 6, Cy 3: places 1, 2, 2, 4."""

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games.tests.factories import UserFactory
from stats.services import stats_rebuild

from .cases import GAME_1
from .factories import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game_1():
    users = [UserFactory(username=name.lower(), display_name=name) for name in ("Ann", "Bo", "Cy", "Di")]
    return finished_game(users, GAME_1), users


def squeezed(html: str) -> str:
    return re.sub(r"\s+", " ", html)


def test_the_replay_places_the_tied_players_together(client, game_1):
    game, users = game_1
    page = squeezed(client.get(reverse("stats:replay", args=[game.pk])).content.decode())
    last = page[page.index('id="round-4"') :]
    rows = re.findall(r'<tr><td>(\d)</td><td><span class="dot dot-\w+" aria-hidden="true"></span>(\w+)</td>', last)
    assert rows == [("1", "Ann"), ("2", "Bo"), ("2", "Di"), ("4", "Cy")]


def test_player_pages_give_tied_players_the_same_place(client, game_1):
    game, users = game_1
    stats_rebuild(now=timezone.now())
    for user, place in zip(users, (1, 2, 4, 2)):
        page = squeezed(client.get(reverse("stats:player", args=[user.username])).content.decode())
        assert f"Place {place} of 4" in page
    page = squeezed(client.get(reverse("stats:player", args=["bo"])).content.decode())
    chips = re.findall(r'<span class="place">(\d)\.</span> (\w+) ·', page)
    assert chips == [("1", "Ann"), ("2", "Bo"), ("2", "Di"), ("4", "Cy")]
