"""A rematch's invitation beyond the bell: an email (as the player chose: ``EmailPreferences.rematch_emails``)
and a push to their devices, sent after the commit that held their seats (``services.notify_seats_held``
queues ``tasks.send_rematch_invitations``). Only to a player whose seat is still held when it runs: one who
joined or declined meanwhile hears nothing more. Nothing here raises into a game."""

import json
from datetime import datetime, timedelta

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation

from accounts.clock import zone
from games.models import Game, SeatHold

from .emails import email_preferences, email_send
from .models import Notification
from .push import TTL_MAX_SECONDS, TTL_MIN_SECONDS, user_pushes_send
from .quiet import held_until, notice_hold


def rematch_invitations_send(*, game_id: int, user_ids: list[int], now: datetime | None = None) -> int:
    """Email and push each of ``user_ids`` whose seat ``game`` still holds; returns how many emails and pushes
    went out."""
    now = now or timezone.now()
    game = Game.objects.select_related("creator").filter(pk=game_id, status=Game.Status.OPEN).first()
    if game is None or game.holds_until_at is None:
        return 0
    holds = SeatHold.objects.filter(game=game, user_id__in=user_ids, declined_at__isnull=True).select_related(
        "user__email_preferences"
    )
    sent = 0
    for hold in holds:
        until = held_until(hold.user, now)
        if until is not None:  # their quiet hours: the invitation goes out at their end
            notice_hold(user=hold.user, game=game, kind=Notification.Kind.REMATCH_INVITED, now=now, until=until)
            continue
        context = {"user": hold.user, "by": game.creator, "game": game, "until": game.holds_until_at}
        sent += _email(context, now)
        ttl = int(min(max((game.holds_until_at - now) / timedelta(seconds=1), TTL_MIN_SECONDS), TTL_MAX_SECONDS))
        sent += user_pushes_send(
            user_id=hold.user_id,
            payload_for=lambda subscription, context=context: _push_payload(subscription, context),
            ttl=ttl,
            topic=f"game-{game.pk}",
        )
    return sent


def _email(context: dict, now: datetime) -> int:
    user, game = context["user"], context["game"]
    if not user.email or not user.is_active or not email_preferences(user=user).rematch_emails:
        return 0
    return int(email_send(user=user, template="notifications/email/rematch", context=context, game=game))


def _push_payload(subscription, context: dict) -> str:
    game = context["game"]
    user = context["user"]
    with translation.override(subscription.language or settings.LANGUAGE_CODE), timezone.override(zone(user.time_zone)):
        context = {**context, "time_zone": user.time_zone}
        title = " ".join(render_to_string("notifications/email/rematch_subject.txt", context).split())
        body = " ".join(render_to_string("notifications/email/rematch_push.txt", context).split())
    return json.dumps({"title": title, "body": body, "url": game.get_absolute_url(), "tag": f"fabula-game-{game.pk}"})
