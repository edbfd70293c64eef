"""A Think Alike game's cards and fields are in the game's language, which need not be the page's:
wherever their words are shown (the task card of the last round, the fields to choose from, the
replay), the element says which language they are in, so a screen reader reads them right."""

import random
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.tests.play import view_for

from .content import small_content, think_alike_game
from .play import play_step

pytestmark = pytest.mark.django_db


def page(user, url: str, language: str = "en") -> str:
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client.get(url).content.decode()


def test_a_danish_game_on_an_english_page_marks_its_cards_danish():
    small_content()
    game, users = think_alike_game(3, options={"lang": "da", "board": "random"})
    rng = random.Random(3)
    for _ in range(200):  # into the second round: the first is revealed
        if view_for(game, users[0]).get("last_round"):
            break
        assert play_step(game, users, rng)
    task = view_for(game, users[0])["last_round"]["task"]["text"]
    assert task.startswith("Opgave ")  # the Danish text of the test cards
    html = page(users[0], reverse("games:detail", args=[game.pk]))
    assert f'<p class="task-text" lang="da">{task}</p>' in html
    assert re.search(r'<html[^>]*lang="en"', html)

    replay = page(users[0], reverse("stats:replay", args=[game.pk]))
    assert f'<q lang="da">{task}</q>' in replay
