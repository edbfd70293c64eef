from django.core.management.base import BaseCommand

from games.services.decks import decks_load_builtin


class Command(BaseCommand):
    help = "Load the card decks shipped with Fabula (safe to run again: adds only what is missing)."

    def handle(self, *args, **options):
        for deck, added in decks_load_builtin():
            self.stdout.write(f"deck {deck.slug}: {deck.cards.count()} cards ({added} added)")
