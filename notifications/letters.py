"""One letter a day (issue 38): at the local hour a person chose (``EmailPreferences.daily_letter_hour``, on
their own clock), one email listing every asynchronous game waiting for them (whose move, the time left) and
the games that ended since their last letter, a link each, instead of an email per turn and the reminders
(``emails._wanted`` sends those no more). HTML that looks like the site, and plain text, in their language.

``letters_send_due`` runs from beat (``tasks.send_due_letters``, every FABULA_LETTER_INTERVAL_SECONDS). A
letter is due from its hour until ``GRACE`` after (a beat that was down longer skips that day), once: the
run claims it by moving ``last_letter_at`` from the value it read to ``now`` (a conditional UPDATE only one
run can win), then writes it; a letter that fails to go out gives the claim back. Nothing is sent when
there is nothing to say. The chosen hour holds even inside the person's quiet hours: it is their own choice
(docs/playing/notifications.md).
"""

import datetime as dt
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from accounts import clock

from .emails import email_send
from .models import EmailPreferences
from .selectors import letter_content

GRACE = timedelta(hours=2)
# At most one letter in this long, whatever the hour is changed to (a change of the clocks moves it an hour).
AT_MOST_ONE_IN = timedelta(hours=20)
# The first letter tells of the games that ended in the day before it.
FIRST_LETTER_LOOKS_BACK = timedelta(days=1)


def letter_hour_at(user, hour: int, now: datetime) -> datetime:
    """The latest moment at or before ``now`` when it was ``hour`` o'clock on the person's own clock."""
    here = clock.local(user, now)
    tz = clock.zone(user.time_zone)
    at = datetime.combine(here.date(), dt.time(hour), tzinfo=tz)
    if at.astimezone(dt.UTC) > now:
        at = datetime.combine(here.date() - timedelta(days=1), dt.time(hour), tzinfo=tz)
    return at.astimezone(dt.UTC)


def letters_send_due(*, now: datetime | None = None) -> int:
    """Send the daily letters that are due; returns how many went out."""
    now = now or timezone.now()
    candidates = (
        EmailPreferences.objects.filter(daily_letter_hour__isnull=False, user__is_active=True)
        .exclude(user__email="")
        .filter(Q(last_letter_at__isnull=True) | Q(last_letter_at__lt=now - AT_MOST_ONE_IN))
        .select_related("user")
    )
    sent = 0
    for preferences in candidates:
        user, hour = preferences.user, preferences.daily_letter_hour
        if hour is None or not 0 <= hour <= 23:
            continue
        at = letter_hour_at(user, hour, now)
        last = preferences.last_letter_at
        if now - at >= GRACE or (last is not None and last >= at):
            continue
        if not _claim(preferences, last, now):
            continue
        letter = letter_content(user=user, since=last or now - FIRST_LETTER_LOOKS_BACK, now=now)
        if not letter:
            continue  # nothing to say: nothing sent (and nothing left out: no game ended since ``last``)
        context = {"letter": letter, "now": now, "hour": hour}
        if email_send(user=user, template="notifications/email/letter", context=context, html=True):
            sent += 1
        else:
            EmailPreferences.objects.filter(pk=preferences.pk, last_letter_at=now).update(last_letter_at=last)
    return sent


def _claim(preferences: EmailPreferences, last: datetime | None, now: datetime) -> bool:
    unchanged = EmailPreferences.objects.filter(pk=preferences.pk)
    unchanged = unchanged.filter(last_letter_at__isnull=True) if last is None else unchanged.filter(last_letter_at=last)
    return unchanged.update(last_letter_at=now) == 1
