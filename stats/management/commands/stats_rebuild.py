"""``manage.py stats_rebuild``: every record, rating and board derived again from the games, with a progress bar."""

from django.core.management.base import BaseCommand
from django.utils import timezone
from tqdm import tqdm

from stats.kinds import every_kind_stats
from stats.services import stats_rebuild


class Command(BaseCommand):
    help = "Derive every statistic (records, ratings, totals, leaderboards) again from the finished games."

    def add_arguments(self, parser):
        parser.add_argument(
            "--kind",
            action="append",
            dest="kinds",
            choices=[kind_stats.kind for kind_stats in every_kind_stats()],
            help="only this kind of game (repeatable; default: every kind)",
        )

    def handle(self, *args, kinds=None, verbosity=1, **options):
        bars: dict[str, tqdm] = {}

        def progress(kind: str, done: int, total: int) -> None:
            if kind not in bars:
                # On the command's error stream (the bar's own habit), so that stdout keeps the summary.
                bars[kind] = tqdm(
                    total=total, desc=kind, unit="games", file=_Unstyled(self.stderr), disable=verbosity < 1
                )
            bars[kind].update(done - bars[kind].n)

        try:
            done = stats_rebuild(now=timezone.now(), kinds=kinds, progress=progress)
        finally:
            for bar in bars.values():
                bar.close()
        if verbosity >= 1:
            for kind, games in done.items():
                self.stdout.write(f"{kind}: {games} games")


class _Unstyled:
    """A command's stream as a progress bar writes to it: the text as it is, with no line ending or colour
    added (``OutputWrapper.write``'s ``ending`` and ``style_func``, as Django's documentation describes)."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> None:
        self.stream.write(text, style_func=str, ending="")

    def flush(self) -> None:
        self.stream.flush()
