"""Notifications made from the core's events (``games.signals``)."""

from django.dispatch import receiver

from games import signals

from .services import notifications_read_all, notify_game_change, notify_player_joined, notify_seats_held


@receiver(signals.state_changed, dispatch_uid="notifications.state_changed")
def on_state_changed(sender, *, game, kind, seats, before, after, phase_key, now, deadline_moved=True, **kwargs):
    notify_game_change(
        game=game,
        kind=kind,
        seats=seats,
        before=before,
        after=after,
        phase_key=phase_key,
        now=now,
        deadline_moved=deadline_moved,
    )


@receiver(signals.game_viewed, dispatch_uid="notifications.game_viewed")
def on_game_viewed(sender, *, game, user, now, **kwargs):
    # The page shows what the game's notifications say: opening it reads them. One query, whatever
    # was unread: the page's own bell shows the new count, other open pages see it on their next look.
    notifications_read_all(user=user, now=now, game_id=game.pk, tell=False)


@receiver(signals.player_joined, dispatch_uid="notifications.player_joined")
def on_player_joined(sender, *, game, user, seats, now, **kwargs):
    notify_player_joined(game=game, user=user, seats=seats, now=now)


@receiver(signals.seats_held, dispatch_uid="notifications.seats_held")
def on_seats_held(sender, *, game, user_ids, by, now, **kwargs):
    notify_seats_held(game=game, user_ids=user_ids, by=by, now=now)
