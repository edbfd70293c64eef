"""A player away and back (``accounts.signals.away_changed``, issue 38): the phases waiting on them are held."""

from django.dispatch import receiver

from accounts.signals import away_changed
from games.services.weeks import games_away_moved


@receiver(away_changed, dispatch_uid="games.away_changed")
def on_away_changed(sender, *, user, until, previous, now, **kwargs) -> None:
    games_away_moved(user=user, until=until, previous=previous, now=now)
