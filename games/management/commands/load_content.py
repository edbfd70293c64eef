from django.core.management.base import BaseCommand

from games import kinds


class Command(BaseCommand):
    help = (
        "Load the content shipped with every kind of game (card decks, task cards, board fields); "
        "safe to run again: adds only what is missing."
    )

    def handle(self, *args, **options):
        for kind in kinds.every():
            for line in kind.load_content():
                self.stdout.write(line)
