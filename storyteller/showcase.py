"""Storyteller at a glance, for the home page and the lobby: a few cards of the deck a new
game is dealt from, always the same ones (the page does not jump from one visit to the next)."""

from django.core.cache import caches
from django.utils.translation import gettext_lazy as _

from games.services.errors import GameError
from storyteller.engine import rules as engine

CARDS_SHOWN = 3
CACHE_SECONDS = 600
CACHE_KEY = "storyteller:showcase-card-ids"

PITCH = _("Give a clue for a picture card; the others slip in look-alikes and guess which card was yours.")


def showcase_card_ids() -> list[int]:
    """The ids of the cards shown, read once per ``CACHE_SECONDS`` (one query, then none)."""
    cache = caches["views"]
    ids = cache.get(CACHE_KEY)
    if ids is None:
        ids = _card_ids_read()
        cache.set(CACHE_KEY, ids, CACHE_SECONDS)
    return ids


def _card_ids_read() -> list[int]:
    from storyteller.decks.services.cards import deck_for_new_game
    from storyteller.models import Card

    try:
        deck = deck_for_new_game(deck=None, seats=engine.MIN_SEATS)
    except GameError:  # no deck can deal a game: the pages go without pictures
        return []
    cards = Card.objects.in_play().filter(deck=deck).exclude(image="").order_by("pk")
    return list(cards.values_list("pk", flat=True)[:CARDS_SHOWN])


def showcase() -> dict:
    """The kind's ``showcase``: its pitch and the faces of the cards shown (``image``, ``alt``)."""
    from storyteller.selectors import card_faces  # the faces every board shows, cached in this process

    ids = showcase_card_ids()
    faces = card_faces.get(ids) if ids else {}
    pictures = [faces[card_id] for card_id in ids if faces.get(card_id, {}).get("image")]
    return {"pitch": PITCH, "pictures": pictures}
