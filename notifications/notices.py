"""What reaches a person beyond the bell later, from beat (``tasks.send_due_notices``, on the push queue):

- a turn's push that came in the player's quiet hours (``Turn.push_held_until``, set by ``push``);
- ``Notice`` rows: a nudge, a paused game's coming end, a rematch's invitation that came in the night.

Each is claimed by a conditional UPDATE that only one run can win, then sent: a repeated, late or racing
run sends nothing twice. A notice that comes due in the person's quiet hours moves to their end; one
whose news is stale by then (the nudged player has acted, the game has moved on, the seat is no longer
held) is dropped. Nothing here raises: a failed email or push is logged.
"""

import json
from datetime import datetime, timedelta

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation

from accounts.clock import zone
from games.models import Game, Seat

from .emails import email_preferences, email_send
from .invitations import rematch_invitations_send
from .models import Notice, Notification, Turn
from .push import TTL_MAX_SECONDS, TTL_MIN_SECONDS, game_muted, turn_pushes_send, user_pushes_send
from .quiet import held_until

Kind = Notification.Kind
# The email's and the push's templates of each kind of notice: notifications/email/<kind>_subject.txt,
# <kind>_body.txt, and the push's text notifications/email/<kind>_push.txt.
NOTICE_TEMPLATES = {Kind.NUDGED: "notifications/email/nudged", Kind.GAME_ENDING: "notifications/email/game_ending"}


def notices_send_due(*, now: datetime | None = None, limit: int = 500) -> int:
    """Send the held pushes and the notices that are due; returns how many emails and pushes went out."""
    now = now or timezone.now()
    return _held_pushes_send(now, limit) + _notices_send(now, limit)


def _held_pushes_send(now: datetime, limit: int) -> int:
    held = (
        Turn.objects.filter(closed_at__isnull=True, push_held_until__lte=now)
        .order_by("push_held_until")
        .values_list("pk", "push_held_until", "seat__game_id", "phase_key", "seat_id")[:limit]
    )
    seats: dict[tuple[int, str], list[int]] = {}
    for pk, until, game_id, phase_key, seat_id in held:
        if Turn.objects.filter(pk=pk, push_held_until=until).update(push_held_until=None):
            seats.setdefault((game_id, phase_key), []).append(seat_id)
    return sum(
        turn_pushes_send(game_id=game_id, phase_key=phase_key, seat_ids=seat_ids, now=now)
        for (game_id, phase_key), seat_ids in seats.items()
    )


def _notices_send(now: datetime, limit: int) -> int:
    due = (
        Notice.objects.filter(sent_at__isnull=True, due_at__lte=now)
        .select_related("user", "game", "actor")
        .order_by("due_at", "pk")[:limit]
    )
    sent = 0
    for notice in due:
        unsent = Notice.objects.filter(pk=notice.pk, sent_at__isnull=True)
        until = held_until(notice.user, now)
        if until is not None:
            unsent.update(due_at=until)
        elif unsent.update(sent_at=now):
            sent += _notice_send(notice, now)
    return sent


def _notice_send(notice: Notice, now: datetime) -> int:
    user, game = notice.user, notice.game
    if not user.is_active:
        return 0
    if notice.kind == Kind.REMATCH_INVITED:
        return rematch_invitations_send(game_id=game.pk, user_ids=[user.pk], now=now)
    if not _still_news(notice) or game_muted(user=user, game_id=game.pk):
        return 0
    template = NOTICE_TEMPLATES[Kind(notice.kind)]
    context = {"by": notice.actor, "asked": notice.asked, "ends_at": notice.ends_at, "now": now}
    sent = 0
    if _email_wanted(notice):
        sent += email_send(user=user, template=template, context=context, game=game)
    until = notice.ends_at or game.deadline_at
    left = (until - now) / timedelta(seconds=1) if until else TTL_MAX_SECONDS
    sent += user_pushes_send(
        user_id=user.pk,
        payload_for=lambda subscription: _push_payload(subscription, notice, template, context),
        ttl=int(min(max(left, TTL_MIN_SECONDS), TTL_MAX_SECONDS)),
        topic=f"game-{game.pk}",
    )
    return sent


def _still_news(notice: Notice) -> bool:
    game = notice.game
    if game.status != Game.Status.ACTIVE:
        return False
    if notice.kind == Kind.NUDGED:
        return Seat.objects.filter(game=game, user=notice.user, to_act=True).exists()
    return game.is_paused  # a paused game's coming end: unless someone acted meanwhile


def _email_wanted(notice: Notice) -> bool:
    if not notice.user.email:
        return False
    preferences = email_preferences(user=notice.user)
    if notice.kind == Kind.NUDGED and preferences.daily_letter_hour is not None:
        return False  # the letter lists the game waiting for them
    return preferences.reminder_emails


def _push_payload(subscription, notice: Notice, template: str, context: dict) -> str:
    user, game = notice.user, notice.game
    with translation.override(subscription.language or settings.LANGUAGE_CODE), timezone.override(zone(user.time_zone)):
        context = {**context, "user": user, "game": game, "time_zone": user.time_zone}
        title = " ".join(render_to_string(f"{template}_subject.txt", context).split())
        body = " ".join(render_to_string(f"{template}_push.txt", context).split())
    return json.dumps({"title": title, "body": body, "url": game.get_absolute_url(), "tag": f"fabula-game-{game.pk}"})
