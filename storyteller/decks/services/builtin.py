"""Loading the built-in decks shipped with the code into the database."""

import json
from pathlib import Path

from django.core.files import File
from django.core.files.storage import default_storage
from django.db import transaction

from storyteller.models import Card, Deck

BUILTIN_DIR = Path(__file__).resolve().parent.parent / "builtin"  # the manifests, <slug>.json
STATIC_CARDS_DIR = Path(__file__).resolve().parents[2] / "static" / "cards"  # their pictures, <slug>/


def deck_load_builtin(*, manifest: Path) -> tuple[Deck, int]:
    """Create or complete the deck a manifest describes; returns (deck, cards added).

    Running it again adds no card: each card remembers its source. It does give the cards
    already loaded the translations of their alt texts that they lack (a manifest's new
    languages), as long as their English text is still the manifest's.
    """
    data = json.loads(manifest.read_text(encoding="utf-8"))
    slug = data["slug"]
    images = STATIC_CARDS_DIR / slug
    added = 0
    with transaction.atomic():
        deck, _ = Deck.objects.get_or_create(
            slug=slug, defaults={"name": data["name"], "description": data.get("description", "")}
        )
        known = {
            card.source_key: card
            for card in Card.objects.filter(deck=deck, source_key__isnull=False).only(
                "source_key", "alt_text", "alt_texts"
            )
        }
        completed = []
        for entry in data["cards"]:
            key = f"{slug}/{entry['file']}"
            if key in known:
                card = known[key]
                texts = {**entry.get("alt_texts", {}), **card.alt_texts}
                if card.alt_text == entry["alt"] and texts != card.alt_texts:
                    card.alt_texts = texts
                    completed.append(card)
                continue
            name = f"cards/{slug}/{entry['file']}"
            if not default_storage.exists(name):
                with open(images / entry["file"], "rb") as handle:
                    name = default_storage.save(name, File(handle))
            Card.objects.create(
                deck=deck,
                image=name,
                alt_text=entry["alt"],
                alt_texts=entry.get("alt_texts", {}),
                tags=", ".join(entry.get("tags", [])),
                source_key=key,
            )
            added += 1
        Card.objects.bulk_update(completed, ["alt_texts"], batch_size=200)
    return deck, added


def decks_load_builtin() -> list[tuple[Deck, int]]:
    return [deck_load_builtin(manifest=path) for path in sorted(BUILTIN_DIR.glob("*.json"))]
