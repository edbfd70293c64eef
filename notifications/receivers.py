"""Notifications made from the core's events (``games.signals``)."""

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from games import signals

from .quiet import email_language_remember
from .services import (
    notifications_read_all,
    notify_deadline_moved,
    notify_game_change,
    notify_game_ending,
    notify_nudged,
    notify_player_joined,
    notify_seats_held,
)


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


@receiver(signals.player_nudged, dispatch_uid="notifications.player_nudged")
def on_player_nudged(sender, *, game, seat, by, phase_key, now, **kwargs):
    notify_nudged(game=game, seat=seat, by=by, phase_key=phase_key, now=now)


@receiver(signals.paused_game_ending, dispatch_uid="notifications.paused_game_ending")
def on_paused_game_ending(sender, *, game, ends_at, user_ids, now, **kwargs):
    notify_game_ending(game=game, ends_at=ends_at, user_ids=user_ids, now=now)


@receiver(signals.deadline_moved, dispatch_uid="notifications.deadline_moved")
def on_deadline_moved(sender, *, game, now, **kwargs):
    notify_deadline_moved(game=game, now=now)


@receiver(user_logged_in, dispatch_uid="notifications.user_logged_in")
def on_user_logged_in(sender, *, request, user, **kwargs):
    # The language of the pages the person signs in on: their emails speak it.
    language = getattr(request, "LANGUAGE_CODE", "") if request is not None else ""
    if language:
        email_language_remember(user=user, language=language)
