"""An own deck says what a game needs (issue 39): its cards ready to play and, for 3 to 6 players, the cards a
game is dealt and how many more it takes."""

import pytest
from django.urls import reverse

from games.tests.factories import UserFactory
from storyteller.decks.selectors import deck_needs
from storyteller.decks.services.cards import storyteller_cards_needed

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


def test_the_words_are_saved_in_place_by_htmx(client, settings, tmp_path):
    """Issue 39: each "Save the words" reloaded the page and jumped to its top. Saved by htmx, the card comes back
    alone with "saved" (or the refusal) beside its button; without htmx the page is answered as before."""
    settings.MEDIA_ROOT = tmp_path
    owner = UserFactory()
    deck = own_deck(owner, cards=3)
    card = deck.cards.order_by("position")[1]
    client.force_login(owner)
    page = client.get(reverse("decks:deck", args=[deck.pk])).content.decode()
    assert f'hx-post="{reverse("decks:card_alt", args=[deck.pk, card.pk])}"' in page
    url = reverse("decks:card_alt", args=[deck.pk, card.pk])
    answer = client.post(url, {"alt": "A red kite over the dunes"}, headers={"HX-Request": "true"})
    html = answer.content.decode()
    assert answer.status_code == 200 and html.lstrip().startswith(f'<li class="deck-card" id="card-{card.pk}">')
    assert "The words were saved." in html and "Picture 2 in words" in html and "A red kite over the dunes" in html
    card.refresh_from_db()
    assert card.alt_text == "A red kite over the dunes"
    refused = client.post(url, {"alt": "   "}, headers={"HX-Request": "true"}).content.decode()
    assert 'class="alt-status errors"' in refused
    card.refresh_from_db()
    assert card.alt_text == "A red kite over the dunes"  # nothing changed
    assert client.post(url, {"alt": "Kite"}).status_code == 302  # without htmx: back to the page
