"""Statistics take in a finished game from the core's events (``games.signals``)."""

from django.db import transaction
from django.dispatch import receiver

from games import signals

from .tasks import game_finished as stats_game_finished


@receiver(signals.game_finished, dispatch_uid="stats.game_finished")
def on_game_finished(sender, *, game, **kwargs):
    # Records, ratings and leaderboards take the game in once it is committed;
    # robust: a broker hiccup must not fail the move (the nightly rebuild catches up).
    transaction.on_commit(lambda game_id=game.pk: stats_game_finished.delay(game_id), robust=True)
