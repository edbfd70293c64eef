"""An own deck says what a game needs (issue 39): its cards ready to play and, for 3 to 6 players, the cards a
game is dealt and how many more it takes."""

import pytest
from django.urls import reverse

from games.tests.factories import UserFactory
from storyteller.selectors import deck_needs
from storyteller.services.cards import storyteller_cards_needed

from .own_decks import own_deck

pytestmark = pytest.mark.django_db


def test_the_deck_page_says_how_many_cards_each_table_needs(client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    owner = UserFactory()
    deck = own_deck(owner, cards=22)
    needs = deck_needs(deck=deck)
    assert needs["in_play"] == 22
    assert [(t["seats"], t["needed"], t["ready"], t["missing"]) for t in needs["tables"]] == [
        (3, storyteller_cards_needed(3), True, 0),
        (4, 24, False, 2),
        (5, 30, False, 8),
        (6, 36, False, 14),
    ]
    client.force_login(owner)
    page = client.get(reverse("decks:deck", args=[deck.pk])).content.decode()
    assert "22 cards are ready to play (described)." in page
    assert "3 players: 21 cards" in page and "4 players: 24 cards" in page
    assert "2 more cards needed" in page and "14 more cards needed" in page
