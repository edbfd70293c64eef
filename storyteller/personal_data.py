"""What Storyteller keeps about a person: their drawn and sung clues and their own decks, in their data export
(the files themselves) and gone with their account (``accounts.signals``).

A deleted account's decks go by the removal rule (``services.own_decks``): the cards no game dealt, rows and
files; the others stay as removed rows (no picture, no words) so that finished games show a placeholder, and
games in progress let go of them (``cards_withdrawn``).

A deleted account's uploads go, rows and files (after commit): a recording is a voice, and
nobody keeps it once its owner has left. The clues that named them keep their words.
"""

import base64

from django.dispatch import receiver

from accounts.signals import account_deleting, personal_data

from .decks.services.own_decks import own_decks_delete
from .models import Card, ClueMedia, Deck
from .services.media import clue_media_delete


@receiver(personal_data, dispatch_uid="storyteller.personal_data")
def storyteller_personal_data(sender, *, user, **kwargs) -> dict:
    """The person's uploads, each with its file's bytes (base64: the export is one JSON file)."""
    uploads = []
    for media in ClueMedia.objects.filter(seat__user=user).order_by("created_at", "pk"):
        with media.file.open("rb") as file:
            data = file.read()
        uploads.append(
            {
                "game": media.game_id,
                "kind": media.kind,
                "content_type": media.content_type,
                "size": media.size,
                "duration": media.duration,
                "uploaded_at": media.created_at.isoformat(),
                "file_base64": base64.b64encode(data).decode("ascii"),
            }
        )
    return {"clue_media": uploads, "own_decks": _own_decks(user)}


def _own_decks(user) -> list[dict]:
    """The person's own decks, each card with its picture (as stored: the card-size WebP, no metadata)."""
    decks = []
    for deck in Deck.objects.owned_by(user).prefetch_related("shared_with").order_by("created_at", "pk"):
        cards = []
        for card in Card.objects.filter(deck=deck, removed_at__isnull=True).order_by("position", "pk"):
            data = b""
            if card.image:
                with card.image.open("rb") as file:
                    data = file.read()
            cards.append(
                {
                    "id": card.pk,
                    "alt": card.alt_text,
                    "alt_language": card.alt_language,
                    "position": card.position,
                    "waiting_for_words": card.is_retired,
                    "hidden": card.hidden_at is not None,
                    "uploaded_at": card.created_at.isoformat(),
                    "content_type": "image/webp",
                    "file_base64": base64.b64encode(data).decode("ascii"),
                }
            )
        decks.append(
            {
                "id": deck.pk,
                "name": deck.name,
                "created_at": deck.created_at.isoformat(),
                "shared_with": sorted(other.username for other in deck.shared_with.all()),
                "public": deck.is_public,
                "cards": cards,
            }
        )
    return decks


@receiver(account_deleting, dispatch_uid="storyteller.account_deleting")
def storyteller_let_go(sender, *, user, **kwargs) -> None:
    clue_media_delete(queryset=ClueMedia.objects.filter(seat__user=user))
    own_decks_delete(user=user)
