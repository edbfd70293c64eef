"""What Storyteller's board costs to draw (issue 41): the card report form is kept under its cards' markup, each card
drawn once, and so follows every change of a card's face (a hidden card leaves it at once); a board looks up no name
that is not there for each card or clue."""

import logging
import random
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.tests.factories import deck_with_cards, started_game
from games.tests.play import play_step, view_for
from storyteller.decks.services.withdraw import cards_faces_changed
from storyteller.models import Card

pytestmark = pytest.mark.django_db

CHOICE = re.compile(r'name="card" value="(\d+)"')


def report_form(user, game, language="en") -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    html = client.get(reverse("games:board", args=[game.pk]), HTTP_HX_REQUEST="true").content.decode()
    return html.split('id="card-report"', 1)[1].split("</details>", 1)[0]


def test_a_card_hidden_after_reports_leaves_a_kept_report_form_with_the_next_version():
    game, users = started_game(4, deck=deck_with_cards(84))
    viewer = users[0]
    hand = [card["id"] for card in view_for(game, viewer)["hand"]]
    assert [int(card) for card in CHOICE.findall(report_form(viewer, game))] == hand
    Card.objects.filter(pk=hand[2]).update(hidden_at=timezone.now())
    cards_faces_changed()
    play_step(game, users[1:], random.Random(1))  # another player's clue: the next version
    game.refresh_from_db()
    form = report_form(viewer, game)
    assert [int(card) for card in CHOICE.findall(form)] == hand[:2] + hand[3:]
    # In another language, the same cards in that language's form.
    french = report_form(viewer, game, language="fr")
    assert CHOICE.findall(french) == CHOICE.findall(form) and "Report the card" not in french


def test_a_board_looks_up_no_missing_name_for_each_card_or_clue(caplog):
    game, users = started_game(4, deck=deck_with_cards(84))
    rng = random.Random(3)
    while view_for(game, users[0])["phase"] != "vote" or not view_for(game, users[0]).get("last_round"):
        play_step(game, users, rng)
    game.refresh_from_db()
    with caplog.at_level(logging.DEBUG, logger="django.template"):
        for user in users:
            report_form(user, game)
    failed = [record.args[0] for record in caplog.records if record.name == "django.template" and record.args]
    assert failed and not {"removed", "hidden"} & set(failed)  # others there are: the test sees them
    assert failed.count("kind") == 0  # a clue's media.kind, asked only of a clue with media
