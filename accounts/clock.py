"""A person's own clock: their time zone and quiet hours (issue 38, "Across weeks").

The one place that says when someone is in their quiet hours and when those end. Deadlines
(games) and deliveries (notifications: push, email, the daily letter) both ask here, so the
rule is read and changed in one file. Pure functions of the person's settings and an aware
``at``: nothing here reads the clock.
"""

from __future__ import annotations

import datetime
import zoneinfo
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

UTC = datetime.UTC
# Quiet hours longer than this are not quiet hours but absence (PATCH /api/v1/me refuses them).
QUIET_HOURS_MOST = datetime.timedelta(hours=14)


class HasClock(Protocol):
    time_zone: str
    quiet_hours_start: datetime.time | None
    quiet_hours_end: datetime.time | None


@lru_cache(maxsize=512)
def zone(name: str) -> datetime.tzinfo:
    """The IANA zone of that name; UTC for an empty or unknown one (a row written before a zone was checked)."""
    try:
        return zoneinfo.ZoneInfo(name) if name else UTC
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return UTC


def is_zone_name(name: object) -> bool:
    """Whether ``name`` is an IANA time zone this machine knows."""
    if not isinstance(name, str) or not name or len(name) > 64:
        return False
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return False
    return True


@dataclass(frozen=True)
class QuietHours:
    start: datetime.time
    end: datetime.time

    @property
    def length(self) -> datetime.timedelta:
        today = datetime.date(2000, 1, 1)
        start = datetime.datetime.combine(today, self.start)
        end = datetime.datetime.combine(today, self.end)
        if end <= start:
            end += datetime.timedelta(days=1)
        return end - start


def quiet_hours(person: HasClock) -> QuietHours | None:
    """The person's quiet hours, or None when they are off (or start where they end)."""
    start, end = person.quiet_hours_start, person.quiet_hours_end
    if start is None or end is None or start == end:
        return None
    return QuietHours(start=start, end=end)


def local(person: HasClock, at: datetime.datetime) -> datetime.datetime:
    """``at`` on the person's own clock."""
    return at.astimezone(zone(person.time_zone))


def _window_around(person: HasClock, at: datetime.datetime) -> tuple[datetime.datetime, datetime.datetime] | None:
    """The quiet period (start, end) that contains ``at``, as aware datetimes in UTC; None when ``at`` is not quiet."""
    hours = quiet_hours(person)
    if hours is None:
        return None
    tz = zone(person.time_zone)
    here = at.astimezone(tz)
    # A period that contains ``at`` started today or yesterday (local dates); wall times are resolved in the
    # zone (a start that falls into a DST gap moves on by the gap, as zoneinfo does).
    for days_back in (0, 1):
        day = here.date() - datetime.timedelta(days=days_back)
        start = datetime.datetime.combine(day, hours.start, tzinfo=tz)
        end_day = day if hours.end > hours.start else day + datetime.timedelta(days=1)
        end = datetime.datetime.combine(end_day, hours.end, tzinfo=tz)
        start_utc, end_utc = start.astimezone(UTC), end.astimezone(UTC)
        if start_utc <= at < end_utc:
            return start_utc, end_utc
    return None


def is_quiet(person: HasClock, at: datetime.datetime) -> bool:
    """Whether ``at`` lies in the person's quiet hours."""
    return _window_around(person, at) is not None


def quiet_ends_at(person: HasClock, at: datetime.datetime) -> datetime.datetime:
    """The first moment at or after ``at`` outside the person's quiet hours (``at`` itself when it is not quiet).

    What would reach the person at ``at`` waits until then."""
    window = _window_around(person, at)
    return at if window is None else window[1]
