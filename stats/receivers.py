"""Statistics take in a finished game from the core's events (``games.signals``)."""

from django.dispatch import receiver

from games import signals
from outbox.services import task_queue

from .tasks import game_finished as stats_game_finished


@receiver(signals.game_finished, dispatch_uid="stats.game_finished")
def on_game_finished(sender, *, game, **kwargs):
    # Records, ratings and leaderboards take the game in once it is committed; through the outbox, so a
    # broker that is down delays them and never fails the move (and the nightly rebuild catches up besides).
    task_queue(task=stats_game_finished, kwargs={"game_id": game.pk})
