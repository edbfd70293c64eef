"""Writes on a person's own time (issue 38): their time zone, quiet hours and away days.

The rules (``accounts.clock`` says when quiet hours hold): a zone is an IANA name; quiet hours are two local
times HH:MM at most 14 hours apart, or off; "away until" is a moment after now and at most 30 days ahead, and
the away days of the last 365 (this one's included) add up to at most 60. Each refusal is a ``TimeError`` with
the code the API answers (``bad_time_zone``, ``bad_quiet_hours``, ``bad_away``, ``away_limit``) and changes
nothing. The games hear of away days through ``signals.away_changed``.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from . import clock
from .models import AwayPeriod, User
from .signals import away_changed

AWAY_AT_ONCE = datetime.timedelta(days=30)
AWAY_IN_A_YEAR = datetime.timedelta(days=60)
YEAR = datetime.timedelta(days=365)
HH_MM = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")

BAD_TIME_ZONE = _("That is not a time zone name such as Europe/Paris or America/New_York.")
BAD_QUIET_HOURS = _("Quiet hours are two times such as 23:00 and 07:00, at most 14 hours apart.")
BAD_AWAY = _("Say when you are back: a moment after now and at most 30 days ahead.")
AWAY_LIMIT = _("You can be away at most 60 days in any 365; you have %(days)d left.")


class TimeError(Exception):
    def __init__(self, code: str, message, status: int = 400):
        super().__init__(str(message))
        self.code, self.message, self.status = code, message, status


@dataclass(frozen=True)
class QuietHoursIn:
    start: datetime.time
    end: datetime.time


def quiet_hours_parse(value: object) -> QuietHoursIn | None:
    """``{"start": "HH:MM", "end": "HH:MM"}`` (or None: off) as times; ``TimeError`` ``bad_quiet_hours``."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"start", "end"}:
        raise TimeError("bad_quiet_hours", BAD_QUIET_HOURS)
    times = []
    for key in ("start", "end"):
        text = value[key]
        match = HH_MM.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise TimeError("bad_quiet_hours", BAD_QUIET_HOURS)
        times.append(datetime.time(int(match[1]), int(match[2])))
    hours = clock.QuietHours(start=times[0], end=times[1])
    if hours.length > clock.QUIET_HOURS_MOST:  # start == end reads as 24 hours: refused too
        raise TimeError("bad_quiet_hours", BAD_QUIET_HOURS)
    return QuietHoursIn(start=times[0], end=times[1])


_UNSET = object()


def clock_set(*, user: User, time_zone: object = _UNSET, quiet_hours: object = _UNSET) -> User:
    """Change the person's time zone and/or quiet hours (a dict as ``quiet_hours_parse`` takes, or None: off);
    checked all before anything is saved."""
    fields = []
    if time_zone is not _UNSET:
        if not clock.is_zone_name(time_zone):
            raise TimeError("bad_time_zone", BAD_TIME_ZONE)
        user.time_zone = time_zone
        fields.append("time_zone")
    if quiet_hours is not _UNSET:
        hours = quiet_hours_parse(quiet_hours)
        user.quiet_hours_start = hours.start if hours else None
        user.quiet_hours_end = hours.end if hours else None
        fields += ["quiet_hours_start", "quiet_hours_end"]
    if fields:
        user.save(update_fields=fields)
    return user


def away_days_left(*, user: User, now: datetime.datetime) -> datetime.timedelta:
    """How much away time from ``now`` on the person has left: 60 days less what they were away in the 365 days up
    to ``now`` (their current period's days so far included)."""
    since = now - YEAR
    used = datetime.timedelta(0)
    for period in AwayPeriod.objects.filter(user=user, until_at__gt=since, starts_at__lt=now):
        used += min(period.until_at, now) - max(period.starts_at, since)
    return max(AWAY_IN_A_YEAR - used, datetime.timedelta(0))


def away_set(*, user: User, until: object, now: datetime.datetime) -> User:
    """The person is away from ``now`` (or since their current period began) until ``until``: 400 ``bad_away``
    for a moment not after now or more than 30 days ahead, 409 ``away_limit`` beyond 60 days in the last 365."""
    if not isinstance(until, datetime.datetime) or until.tzinfo is None or not now < until <= now + AWAY_AT_ONCE:
        raise TimeError("bad_away", BAD_AWAY)
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        current = AwayPeriod.objects.filter(user=user, starts_at__lte=now, until_at__gt=now).first()
        left = away_days_left(user=user, now=now)
        if until - now > left:
            raise TimeError("away_limit", AWAY_LIMIT % {"days": left.days}, 409)
        if current is None:
            AwayPeriod.objects.create(user=user, starts_at=now, until_at=until)
        else:
            current.until_at = until
            current.save(update_fields=["until_at"])
        previous = user.away_until
        user.away_until = until
        user.save(update_fields=["away_until"])
        away_changed.send(sender=User, user=user, until=until, previous=previous, now=now)
    return user


def away_clear(*, user: User, now: datetime.datetime) -> User:
    """The person is back: their current away period ends now (it keeps the time it lasted)."""
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        AwayPeriod.objects.filter(user=user, starts_at__lte=now, until_at__gt=now).update(until_at=now)
        previous = user.away_until
        if previous is not None:
            user.away_until = None
            user.save(update_fields=["away_until"])
            away_changed.send(sender=User, user=user, until=None, previous=previous, now=now)
    return user


def away_until_shown(*, user: User, now: datetime.datetime) -> datetime.datetime | None:
    """The person's return, if they are away at ``now``."""
    return user.away_until if user.away_until is not None and user.away_until > now else None


def time_settings_save(
    *,
    user: User,
    time_zone: str,
    quiet_hours: dict | None,
    away_until: datetime.datetime | None,
    now: datetime.datetime,
) -> User:
    """The profile page's "Your time": zone, quiet hours (``{"start", "end"}`` as HH:MM, or None: off) and away
    until (None: not away), all or nothing. An unchanged return is left as it is (its 30 days are not asked
    again)."""
    with transaction.atomic():
        user = clock_set(user=user, time_zone=time_zone, quiet_hours=quiet_hours)
        if away_until is None:
            if user.away_until is not None:
                user = away_clear(user=user, now=now)
        elif away_until != user.away_until:
            user = away_set(user=user, until=away_until, now=now)
    return user
