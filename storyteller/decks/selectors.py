"""Storyteller's decks as their readers see them: who may see a card's picture, and where it is served; what a
game on a deck needs."""

from django.db.models import Q
from django.urls import reverse

from accounts.text import text_storable
from games.models import Game
from storyteller.engine import rules as engine
from storyteller.models import Card, CardDeal, Deck


def deck_needs(*, deck: Deck) -> dict:
    """What a game on ``deck`` alone needs: its cards in play now, and for each table size the cards a game of
    that many players is dealt (``storyteller_cards_needed``) and whether the deck has them. Two queries at most."""
    from storyteller.decks.services.cards import storyteller_cards_needed

    in_play = Card.objects.in_play().filter(deck=deck).count()
    tables = []
    for seats in range(engine.MIN_SEATS, engine.MAX_SEATS + 1):
        needed = storyteller_cards_needed(seats)
        tables.append(
            {"seats": seats, "needed": needed, "ready": in_play >= needed, "missing": max(0, needed - in_play)}
        )
    return {"in_play": in_play, "tables": tables}


def staff_may_see_cards(user) -> bool:
    """Whether ``user`` may see every card's picture, a player's own and a hidden one: staff who may look at
    cards in the admin (reports are decided looking at the picture)."""
    return bool(
        user is not None
        and getattr(user, "is_authenticated", False)
        and user.is_active
        and user.is_staff
        and user.has_perm("storyteller.view_card")
    )


def card_picture_url(card: Card) -> str:
    """Where a card's picture is served through its door (``card_picture``), whatever the storage: checked for
    each viewer there, then streamed or redirected to a short-lived signed URL. "" for a card without one."""
    name = card.image.name if card.image else ""
    if not name.startswith("cards/"):
        return ""
    return reverse("card_picture", kwargs={"name": name.removeprefix("cards/")})


def card_picture_by_name(*, name: str, user=None) -> Card | None:
    """The card whose picture is stored as ``cards/<name>``, if ``user`` may see it (None: no card's, or not
    theirs to see). Only a card's stored name is found: no other file, whatever the path says, and nothing
    for a name no database could hold (PostgreSQL takes no NUL).

    - The site's decks' pictures are for everyone (the home page shows them), but a card hidden after
      reports (only an admin sees it then, to decide).
    - A player's own card: for its owner (a hidden one too: their deck page marks it), staff who may see
      cards, and, not hidden: the players the deck is shared with now, and those a game dealt it in shows it
      to (``card_dealt_where_seen``). Anyone else: None.
    """
    if not text_storable(name):
        return None
    card = (
        Card.objects.filter(image=f"cards/{name}")
        .select_related("deck")
        .only("pk", "image", "hidden_at", "removed_at", "deck__owner_id", "deck__removed_at", "deck__is_public")
        .first()
    )
    if card is None or card.removed_at is not None:
        return None
    authenticated = user is not None and user.is_authenticated
    if staff_may_see_cards(user):
        return card  # the admins' moderation shows any card, a hidden one too
    deck = card.deck
    if deck.owner_id is None:
        return card if card.hidden_at is None and deck.removed_at is None else None
    if authenticated and deck.owner_id == user.pk:
        return card
    if card.hidden_at is not None or deck.removed_at is not None:
        return None
    if authenticated and deck.shared_with.filter(pk=user.pk).exists():
        return card
    return card if card_dealt_where_seen(card_id=card.pk, deck=deck, user=user) else None


def card_dealt_where_seen(*, card_id: int, deck: Deck, user) -> bool:
    """Whether a game dealt the card (``CardDeal``: every card that reaches a hand, so every card of a table,
    a reveal or a replay) in which ``user`` sees it: one they sit at; or, watching, a public game whose
    spectators the deck's owner lets see its cards: the deck is public, or its owner made that game public
    (they are its creator). A game merely played on the deck gives nothing: a card uploaded later, or never
    dealt there, is not that table's; and the players it was shared with lose all but what was dealt to them.
    """
    watched = Q(game__visibility=Game.Visibility.PUBLIC)
    if not deck.is_public:
        watched &= Q(game__creator_id=deck.owner_id)
    seen = watched
    if user is not None and user.is_authenticated:
        seen |= Q(game__seats__user_id=user.pk)
    return CardDeal.objects.filter(seen, card_id=card_id).exists()
