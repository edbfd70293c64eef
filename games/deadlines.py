"""When an asynchronous phase runs out (issue 38, "Across weeks"): the one place a deadline is computed.

The rule, in ``deadline_outside_quiet``: the first moment at or after ``start + length`` that lies outside the
quiet hours of every person the phase waits on (each on their own clock, ``accounts.clock``); where none falls
within the following 24 hours, the earliest moment inside the fewest people's quiet hours. ``phase_deadline``
adds away days: a phase that waits on someone away starts counting its length only when they are back.

Everything that moves a deadline (a new phase in ``games.services.games._persist``, a player away,
a bank drawn on, the expiry sweep that finds someone away) asks here, under the game's lock. Pure functions of
the people's settings and the moments passed in: nothing here reads the clock or the database, except
``waiting_people`` which reads who the phase waits on.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Protocol

from accounts import clock

# Where no moment outside everyone's quiet hours comes within this long after start + length, the deadline is
# the moment inside the fewest people's quiet hours (the earliest such).
SEARCH_WINDOW = timedelta(hours=24)


class Waiting(clock.HasClock, Protocol):
    away_until: datetime | None


def deadline_outside_quiet(
    *, start: datetime, length: timedelta, people: Sequence[clock.HasClock], window: timedelta = SEARCH_WINDOW
) -> datetime:
    """The first moment at or after ``start + length`` outside every person's quiet hours; where none falls within
    ``window`` after it, the earliest moment in that window inside the fewest people's quiet hours."""
    earliest = start + length
    limit = earliest + window
    moment = earliest
    # Each step moves to the latest end of the quiet hours that hold at ``moment``: every moment before it is
    # inside someone's quiet hours, so the first free moment is never skipped.
    while moment <= limit:
        latest = max((clock.quiet_ends_at(person, moment) for person in people), default=moment)
        if latest == moment:
            return moment
        moment = latest
    # The count of people in their quiet hours only falls where someone's quiet hours end: the fewest is found at
    # ``earliest`` or at one of those ends.
    candidates = sorted({earliest, *(end for person in people for end in _quiet_ends(person, earliest, limit))})
    return min(candidates, key=lambda at: sum(clock.is_quiet(person, at) for person in people))


def _quiet_ends(person: clock.HasClock, after: datetime, until: datetime) -> Iterable[datetime]:
    """Every moment in (after, until] at which the person's quiet hours end."""
    hours = clock.quiet_hours(person)
    if hours is None:
        return
    tz = clock.zone(person.time_zone)
    day = after.astimezone(tz).date() - timedelta(days=1)
    last = until.astimezone(tz).date() + timedelta(days=1)
    while day <= last:
        end = datetime.combine(day, hours.end, tzinfo=tz).astimezone(clock.UTC)
        if after < end <= until:
            yield end
        day += timedelta(days=1)


def away_until(people: Iterable[Waiting], now: datetime) -> datetime | None:
    """The latest return of the people who are away at ``now``; None: nobody is away."""
    returns = [person.away_until for person in people if person.away_until is not None and person.away_until > now]
    return max(returns, default=None)


def phase_deadline(*, now: datetime, length: timedelta, people: Sequence[Waiting]) -> datetime:
    """The deadline of a phase that starts (or starts counting again) at ``now`` with ``length`` to run, waiting
    on ``people``: it counts from the return of the last of them who is away, and lands outside their quiet hours."""
    back = away_until(people, now)
    return deadline_outside_quiet(start=max(now, back) if back else now, length=length, people=people)


def waiting_people(*, positions: Iterable[int], seats) -> list:
    """The people a phase waits on: the users of the seats at ``positions`` (those who must act and are present)
    that are not bots (a bot has no night and is never away)."""
    wanted = set(positions)
    return [seat.user for seat in seats if seat.position in wanted and not seat.user.is_bot]
