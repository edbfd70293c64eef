from django.core.management.base import BaseCommand

from games.services.decks import decks_load_builtin
from games.services.think_alike_content import content_load_builtin


class Command(BaseCommand):
    help = (
        "Load the content shipped with Fabula: the Storyteller card decks and the Think Alike "
        "task cards and board fields (safe to run again: adds only what is missing)."
    )

    def handle(self, *args, **options):
        for deck, added in decks_load_builtin():
            self.stdout.write(f"deck {deck.slug}: {deck.cards.count()} cards ({added} added)")
        for name, loaded in content_load_builtin().items():
            self.stdout.write(f"think alike {name}: {loaded.created} added, {loaded.unchanged} already there")
