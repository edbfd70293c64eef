"""What a card shows is read once, not on every view (storyteller.selectors.card_faces)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.tests.factories import started_game
from games.tests.play import view_for
from storyteller.models import Card
from storyteller.selectors import card_faces

pytestmark = pytest.mark.django_db


def test_a_second_view_reads_no_card_and_shows_the_same_faces():
    game, users = started_game(4)
    first = view_for(game, users[1])
    with CaptureQueriesContext(connection) as queries:
        again = view_for(game, users[1])
    assert again["hand"] == first["hand"] and len(first["hand"]) == 6
    assert not any("storyteller_card" in query["sql"] or "games_card" in query["sql"] for query in queries)
    assert all(card["alt"].startswith("Picture ") and card["image"] for card in first["hand"])


def test_new_words_for_a_card_show_once_the_faces_are_old():
    game, users = started_game(4)
    card_id = view_for(game, users[1])["hand"][0]["id"]
    Card.objects.filter(pk=card_id).update(alt_text="A lighthouse in a storm")
    assert view_for(game, users[1])["hand"][0]["alt"] != "A lighthouse in a storm"  # kept a while
    card_faces.ttl, ttl = 0, card_faces.ttl
    try:
        assert view_for(game, users[1])["hand"][0]["alt"] == "A lighthouse in a storm"
    finally:
        card_faces.ttl = ttl


def test_a_hidden_card_shows_its_placeholder_at_once_in_every_process():
    from django.utils import timezone

    from storyteller.decks.services.withdraw import cards_faces_changed
    from storyteller.selectors import _CardFaces

    game, users = started_game(4)
    other_process = _CardFaces()  # another web process's faces, read before the card was hidden
    card_id = view_for(game, users[1])["hand"][0]["id"]
    assert other_process.get([card_id])[card_id]["image"]
    Card.objects.filter(pk=card_id).update(hidden_at=timezone.now())
    cards_faces_changed()
    assert other_process.get([card_id])[card_id] == {
        "id": card_id,
        "image": "",
        "alt": "Card hidden after reports",
        "alt_lang": "",
        "hidden": True,
    }
    assert view_for(game, users[1])["hand"][0].get("hidden") is True
