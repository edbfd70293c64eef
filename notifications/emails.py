"""Emails for asynchronous games: "it's your turn" once per phase, and one reminder
when a quarter of the phase's time is left.

``emails_send_due`` runs from beat (``notifications.tasks``, every
FABULA_EMAIL_INTERVAL_SECONDS, 30 by default) and works from the ``Turn`` rows the
game services leave behind, so no email depends on a task that must arrive. Each
email is claimed first, by a conditional UPDATE that only one runner can win, and
sent after: a repeated, late or racing run sends nothing twice. A claimed email
that turns out not to be wanted (settings, no address, the person has the game
open) is simply not sent.

Who gets what:
- turn email: asynchronous game in play, the seat still asked in that phase, and
  the player present (an absent player is played by the timeout rules; they only
  hear from us again while the game is paused and waits for them);
- reminder: the same, while the deadline runs (not paused) and is a quarter of the
  phase away or nearer; a turn email sent that late counts as the reminder;
- never to someone who looked at that game in the last two minutes (``presence``),
  nor for a game the player muted (``GameMute``), nor to someone who chose one letter a
  day instead (``letters``);
- never in the player's quiet hours: a turn email or reminder due then is held
  (``Turn.held_until``) and goes out at their end (``quiet``).

Every email is written in its recipient's language and time zone (``email_send``).
"""

import logging
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games.models import Game

from . import presence
from .models import EmailPreferences, GameMute, Turn
from .quiet import as_recipient, turn_hold

log = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "notifications.unsubscribe"
TURN = "turn"
REMINDER = "reminder"


def unsubscribe_token(user) -> str:
    """A signed token naming the user: the unsubscribe link works without logging in."""
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign_object({"user": user.pk})


def user_from_unsubscribe_token(token: str):
    """The user a token was made for, or None for a forged or damaged token."""
    try:
        data = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign_object(token)
        return get_user_model().objects.get(pk=data["user"])
    except (signing.BadSignature, ValueError, TypeError, KeyError, get_user_model().DoesNotExist):
        return None


def email_preferences(*, user) -> EmailPreferences:
    """The user's choices; the defaults when they never chose."""
    try:
        return user.email_preferences
    except EmailPreferences.DoesNotExist:
        return EmailPreferences(user=user)


def emails_unsubscribe(*, user) -> None:
    EmailPreferences.objects.update_or_create(
        user=user,
        defaults={"turn_emails": False, "reminder_emails": False, "rematch_emails": False, "daily_letter_hour": None},
    )


def emails_send_due(*, now: datetime | None = None, limit: int = 500) -> int:
    """Send the turn emails and reminders that are due; returns how many went out."""
    now = now or timezone.now()
    waiting = Turn.objects.filter(
        closed_at__isnull=True, seat__game__status=Game.Status.ACTIVE, seat__game__pace=Game.Pace.ASYNC
    ).select_related("seat__user__email_preferences", "seat__game")
    waiting = waiting.filter(Q(held_until__isnull=True) | Q(held_until__lte=now))
    sent = 0
    turn_emails = waiting.filter(emailed_at__isnull=True).filter(
        Q(seat__is_absent=False) | Q(seat__game__is_paused=True)
    )
    for turn in turn_emails.order_by("asked_at")[:limit]:
        if turn_hold(turn, now, "held_until"):  # the player's quiet hours
            continue
        if _claim(turn, "emailed_at", now):
            # Sent this late, the turn email is the reminder too.
            Turn.objects.filter(pk=turn.pk, reminded_at__isnull=True, remind_at__lte=now).update(reminded_at=now)
            sent += _send(turn, TURN, now)
    reminders = waiting.filter(
        reminded_at__isnull=True,
        remind_at__lte=now,
        seat__is_absent=False,
        seat__game__is_paused=False,
        seat__game__deadline_at__gt=now,
    )
    for turn in reminders.order_by("remind_at")[:limit]:
        if turn_hold(turn, now, "held_until"):  # the player's quiet hours
            continue
        if _claim(turn, "reminded_at", now):
            sent += _send(turn, REMINDER, now)
    return sent


def _claim(turn: Turn, field: str, now: datetime) -> bool:
    return Turn.objects.filter(pk=turn.pk, **{f"{field}__isnull": True}).update(**{field: now}) == 1


def _wanted(turn: Turn, kind: str, now: datetime) -> bool:
    user = turn.seat.user
    if not user.email or not user.is_active:
        return False
    preferences = email_preferences(user=user)
    if not (preferences.turn_emails if kind == TURN else preferences.reminder_emails):
        return False
    if preferences.daily_letter_hour is not None:
        return False  # one letter a day instead (notifications.letters)
    if GameMute.objects.filter(user=user, game_id=turn.seat.game_id).exists():
        return False
    return not presence.seen_recently(user_id=user.pk, game_id=turn.seat.game_id, now=now)


def _send(turn: Turn, kind: str, now: datetime) -> int:
    if not _wanted(turn, kind, now):
        return 0
    user, game = turn.seat.user, turn.seat.game
    context = {"game": game, "asked": turn.asked, "deadline_at": game.deadline_at, "now": now}
    if email_send(user=user, template=f"notifications/email/{kind}", context=context, game=game):
        return 1
    # Not sent: give the claim back, the next run tries again while the turn lasts.
    Turn.objects.filter(pk=turn.pk).update(**{"emailed_at" if kind == TURN else "reminded_at": None})
    return 0


def email_send(*, user, template: str, context: dict, game: Game | None = None, html: bool = False) -> bool:
    """Send ``user`` the email of ``template`` (``<template>_subject.txt``, ``_body.txt``, with ``html``
    ``_body.html`` too), written in their language and on their clock, with the links to the game, to the
    settings and to unsubscribe (the mail program's own one-click unsubscribe too: RFC 2369 and RFC 8058).
    Whether it went out: a failure is logged, never raised."""
    unsubscribe_url = settings.SITE_URL + reverse("notifications:unsubscribe", args=[unsubscribe_token(user)])
    context = {
        **context,
        "user": user,
        "site_url": settings.SITE_URL,
        "time_zone": user.time_zone,
        "settings_url": settings.SITE_URL + reverse("notifications:settings"),
        "unsubscribe_url": unsubscribe_url,
    }
    if game is not None:
        context.setdefault("game", game)
        context["game_url"] = settings.SITE_URL + game.get_absolute_url()
    with as_recipient(user):
        subject = " ".join(render_to_string(f"{template}_subject.txt", context).split())
        body = render_to_string(f"{template}_body.txt", context)
        alternative = render_to_string(f"{template}_body.html", context) if html else None
    message = EmailMultiAlternatives(
        subject,
        body,
        to=[user.email],
        headers={"List-Unsubscribe": f"<{unsubscribe_url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    )
    if alternative is not None:
        message.attach_alternative(alternative, "text/html")
    try:
        message.send()
    except Exception:
        log.exception("could not send %s to user %s", template, user.pk)
        return False
    return True
