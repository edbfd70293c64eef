"""Loading the built-in decks shipped with the code into the database."""

import json
from pathlib import Path

from django.core.files import File
from django.core.files.storage import default_storage
from django.db import transaction

from storyteller.models import Card, Deck

DECKS_DIR = Path(__file__).resolve().parent.parent / "decks"
STATIC_CARDS_DIR = Path(__file__).resolve().parent.parent / "static" / "cards"


def deck_load_builtin(*, manifest: Path) -> tuple[Deck, int]:
    """Create or complete the deck a manifest describes; returns (deck, cards added).

    Running it again adds nothing: each card remembers its source.
    """
    data = json.loads(manifest.read_text(encoding="utf-8"))
    slug = data["slug"]
    images = STATIC_CARDS_DIR / slug
    added = 0
    with transaction.atomic():
        deck, _ = Deck.objects.get_or_create(
            slug=slug, defaults={"name": data["name"], "description": data.get("description", "")}
        )
        known = set(Card.objects.filter(deck=deck, source_key__isnull=False).values_list("source_key", flat=True))
        for entry in data["cards"]:
            key = f"{slug}/{entry['file']}"
            if key in known:
                continue
            name = f"cards/{slug}/{entry['file']}"
            if not default_storage.exists(name):
                with open(images / entry["file"], "rb") as handle:
                    name = default_storage.save(name, File(handle))
            Card.objects.create(
                deck=deck,
                image=name,
                alt_text=entry["alt"],
                tags=", ".join(entry.get("tags", [])),
                source_key=key,
            )
            added += 1
    return deck, added


def decks_load_builtin() -> list[tuple[Deck, int]]:
    return [deck_load_builtin(manifest=path) for path in sorted(DECKS_DIR.glob("*.json"))]
