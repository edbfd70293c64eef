import json
from pathlib import Path

from django.db import migrations, models

import storyteller.models.cards

MANIFEST = Path(__file__).resolve().parent.parent / "decks" / "builtin" / "dream.json"


def fill_builtin_translations(apps, schema_editor):
    """The built-in deck's cards get the translations of their alt texts from its manifest.

    A card is found by the source the deck loading gave it (deck slug/file); only languages a card
    has no text in are filled, and only while its English text is still the manifest's (an admin's
    new words are not paired with a translation of the old ones).
    """
    if not MANIFEST.exists():
        return
    data = json.loads(MANIFEST.read_text(encoding="utf-8"))
    entries = {f"{data['slug']}/{entry['file']}": entry for entry in data["cards"]}
    Card = apps.get_model("storyteller", "Card")
    changed = []
    for card in Card.objects.filter(source_key__in=list(entries)).only("pk", "source_key", "alt_text", "alt_texts"):
        entry = entries[card.source_key]
        if card.alt_text != entry["alt"]:
            continue
        texts = dict(card.alt_texts or {})
        for language, text in entry.get("alt_texts", {}).items():
            texts.setdefault(language, text)
        if texts != card.alt_texts:
            card.alt_texts = texts
            changed.append(card)
    Card.objects.bulk_update(changed, ["alt_texts"], batch_size=200)


class Migration(migrations.Migration):
    dependencies = [
        ("storyteller", "0005_clue_media"),
    ]

    operations = [
        migrations.AddField(
            model_name="card",
            name="alt_texts",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="The alt text in the site's other languages; the alt text itself is the English one.",
                validators=[storyteller.models.cards.validate_alt_texts],
                verbose_name="translated alt texts",
            ),
        ),
        migrations.RunPython(fill_builtin_translations, migrations.RunPython.noop, elidable=True),
    ]
