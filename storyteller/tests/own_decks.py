"""Players' own decks for tests, made with the models (the deck services are another part's): each card a
real small WebP in the protected storage, under cards/own/, as an upload leaves it."""

import io

from django.core.files.base import ContentFile
from PIL import Image

from storyteller.models import Card, Deck

_COLOURS = ["#c0392b", "#2980b9", "#27ae60", "#8e44ad", "#f39c12", "#16a085", "#d35400", "#2c3e50"]


def webp_bytes(colour: str = "#2980b9", size=(48, 72)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, format="WEBP", quality=60)
    return out.getvalue()


def own_deck(owner, cards: int = 10, *, name: str = "Holiday", shared_with=()) -> Deck:
    """A deck of ``owner`` with ``cards`` cards in play, each with its own picture."""
    number = Deck.objects.count() + 1
    deck = Deck.objects.create(owner=owner, name=name, slug=f"own-{owner.pk}-{number}")
    if shared_with:
        deck.shared_with.set(shared_with)
    for position in range(cards):
        own_card(deck, position=position)
    return deck


def own_card(deck: Deck, *, position: int = 0, alt: str | None = None) -> Card:
    data = webp_bytes(_COLOURS[position % len(_COLOURS)])
    card = Card(deck=deck, alt_text=alt or f"Photo {position} of {deck.name}", position=position, size=len(data))
    card.image.save("photo.webp", ContentFile(data), save=False)
    card.save()
    return card


def established(*users, games: int = 3, days: int = 30) -> None:
    """Make ``users`` accounts whose card reports count towards hiding a card (issue 37): ``days`` old, each with
    ``games`` finished games played with two other people."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Game, Seat
    from games.tests.factories import UserFactory

    for user in users:
        type(user).objects.filter(pk=user.pk).update(date_joined=timezone.now() - timedelta(days=days))
        user.refresh_from_db()
        others = UserFactory.create_batch(2)
        for _ in range(games):
            game = Game.objects.create(
                kind="storyteller", status=Game.Status.FINISHED, phase_seconds=3600, max_seats=3, creator=user
            )
            for position, player in enumerate([user, *others]):
                Seat.objects.create(game=game, user=player, position=position)
