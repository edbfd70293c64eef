"""A person's own clock and language for what reaches them outside the site (issue 38, "Across weeks").

No push and no email reaches a person in their quiet hours (``accounts.clock``): what comes in then
waits for their end. The bell is not held. A turn's email or reminder that comes due in them gets a
``held_until`` on its ``Turn`` row (the email sweep skips it until then); its push a ``push_held_until``
that beat sweeps (``notifications.notices``); other news waits as a ``Notice`` row with a later
``due_at``. Every email is written in the recipient's language and time zone (``as_recipient``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from django.conf import settings
from django.utils import timezone, translation

from accounts import clock

from .models import EmailPreferences, Notice, PushSubscription, Turn


def held_until(user, now: datetime) -> datetime | None:
    """When what would reach ``user`` at ``now`` may go out: None at once, else the end of their quiet hours."""
    if not clock.is_quiet(user, now):
        return None
    return clock.quiet_ends_at(user, now)


def turn_hold(turn: Turn, now: datetime, field: str) -> bool:
    """Whether what the turn would send the player now waits for their quiet hours to end; if so, the row's
    ``field`` (``held_until`` for its emails, ``push_held_until`` for its push) says until when."""
    until = held_until(turn.seat.user, now)
    if until is None:
        return False
    Turn.objects.filter(pk=turn.pk).update(**{field: until})
    return True


def turn_push_hold(turn: Turn, now: datetime) -> bool:
    """Whether the turn's push must wait for the player's quiet hours to end; if so, beat sends it then."""
    return turn_hold(turn, now, "push_held_until")


def notice_hold(*, user, game, kind: str, now: datetime, until: datetime) -> None:
    """Keep news for ``user`` that came in their quiet hours: beat sends it at ``until`` (``notices``)."""
    Notice.objects.create(user=user, game=game, kind=kind, created_at=now, due_at=until)


def recipient_language(user) -> str:
    """The language emails speak to ``user``: their pages' when they last signed in or chose their emails,
    else their newest device's, else the site's."""
    languages = dict(settings.LANGUAGES)
    preferences = EmailPreferences.objects.filter(user=user).values_list("language", flat=True).first()
    if preferences in languages:
        return str(preferences)
    device = (
        PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk").values_list("language", flat=True)
    ).first()
    if device in languages:
        return str(device)
    return settings.LANGUAGE_CODE


@contextmanager
def as_recipient(user) -> Iterator[None]:
    """Render for ``user``: in their language, every time on their own clock."""
    with translation.override(recipient_language(user)), timezone.override(clock.zone(user.time_zone)):
        yield


def email_language_remember(*, user, language: str) -> None:
    """Remember the language of ``user``'s pages (their emails will speak it); an unknown one changes nothing."""
    if language not in dict(settings.LANGUAGES):
        return
    if not EmailPreferences.objects.filter(user=user).exclude(language=language).update(language=language):
        EmailPreferences.objects.get_or_create(user=user, defaults={"language": language})
