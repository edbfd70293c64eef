"""The caller's own time and letters (issue 38; added to the API by ``FABULA_API_ROUTERS``): ``/me`` and ``/me/away``.

- ``GET /me``: the time zone, quiet hours, away and email choices.
- ``PATCH /me``: any of ``time_zone``, ``quiet_hours`` (``{"start": "HH:MM", "end": "HH:MM"}`` or null: off) and
  ``email`` (partial: ``turns``, ``reminders``, ``daily_letter_hour``). 400 ``bad_time_zone``, ``bad_quiet_hours``,
  ``bad_options`` (anything else wrong); nothing changes on an error.
- ``PUT /me/away`` ``{"until": ISO date-time}``, ``DELETE /me/away``: 400 ``bad_away``, 409 ``away_limit``.

Here in notifications because the email choices are its own; the time itself is the account's (``accounts.time``).
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from ninja import Body, Router
from pydantic import Field

from accounts import time as account_time
from games.api.errors import ApiError, errors
from games.api.schemas import DATE_TIME, Answer

from .emails import email_preferences
from .models import EmailPreferences

router = Router(tags=["me"])

BAD_OPTIONS = _("Send any of time_zone, quiet_hours and email (turns, reminders, daily_letter_hour), as documented.")
EMAIL_KEYS = {"turns": "turn_emails", "reminders": "reminder_emails", "daily_letter_hour": "daily_letter_hour"}


class QuietHoursOut(Answer):
    start: str = Field(description="Local time HH:MM in your time zone.")
    end: str = Field(description="Local time HH:MM; before `start`: the next day.")


class AwayOut(Answer):
    until: str = Field(json_schema_extra=DATE_TIME)


class EmailOut(Answer):
    turns: bool = Field(description="An email when a game waits for you.")
    reminders: bool = Field(description="A reminder before a deadline you have not met.")
    daily_letter_hour: int | None = Field(
        description="One letter a day at this local hour (0-23) instead of an email per turn; null: off."
    )


class MeOut(Answer):
    username: str
    time_zone: str = Field(description="An IANA time zone: every time on the pages and in emails is shown in it.")
    quiet_hours: QuietHoursOut | None = Field(
        description="No push or email reaches you then, and an asynchronous deadline avoids them; null: off."
    )
    away: AwayOut | None = Field(description="While you are away: a phase waiting on you does not run out.")
    email: EmailOut


class AwayAnswer(Answer):
    away: AwayOut | None


# The bodies as documented (the handlers read them as JSON objects and check them themselves, so that every mistake
# gets the error code the contract names: ``bad_quiet_hours`` for a time that is not HH:MM, not a schema's 400).
HH_MM_SCHEMA = {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$", "description": "A local time, HH:MM."}
ME_PATCH_BODY = {
    "title": "MePatchIn",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "time_zone": {"type": "string", "maxLength": 64, "description": "An IANA time zone, e.g. `Europe/Paris`."},
        "quiet_hours": {
            "anyOf": [
                {
                    "title": "QuietHoursIn",
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["start", "end"],
                    "properties": {"start": HH_MM_SCHEMA, "end": HH_MM_SCHEMA},
                },
                {"type": "null"},
            ],
            "description": "At most 14 hours long; null: off.",
        },
        "email": {
            "title": "EmailIn",
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "turns": {"type": "boolean"},
                "reminders": {"type": "boolean"},
                "daily_letter_hour": {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 23}, {"type": "null"}]},
            },
        },
    },
}
AWAY_BODY = {
    "title": "AwayIn",
    "type": "object",
    "additionalProperties": False,
    "required": ["until"],
    "properties": {"until": {"type": "string", "format": "date-time"}},
}


def _body(schema: dict) -> dict:
    return {"requestBody": {"content": {"application/json": {"schema": schema}}, "required": True}}


def _me(user, now: datetime.datetime) -> dict:
    prefs = email_preferences(user=user)
    start, end = user.quiet_hours_start, user.quiet_hours_end
    until = account_time.away_until_shown(user=user, now=now)
    return {
        "username": user.username,
        "time_zone": user.time_zone,
        "quiet_hours": None
        if start is None or end is None or start == end
        else {"start": start.strftime("%H:%M"), "end": end.strftime("%H:%M")},
        "away": {"until": until.isoformat()} if until else None,
        "email": {
            "turns": prefs.turn_emails,
            "reminders": prefs.reminder_emails,
            "daily_letter_hour": prefs.daily_letter_hour,
        },
    }


def _email_changes(value: object) -> dict:
    """The email choices to write, by field of ``EmailPreferences``; ``TimeError`` ``bad_options`` if wrong."""
    if not isinstance(value, dict) or not set(value) <= set(EMAIL_KEYS):
        raise account_time.TimeError("bad_options", BAD_OPTIONS)
    for key in ("turns", "reminders"):
        if key in value and not isinstance(value[key], bool):
            raise account_time.TimeError("bad_options", BAD_OPTIONS)
    hour = value.get("daily_letter_hour")
    if hour is not None and (isinstance(hour, bool) or not isinstance(hour, int) or not 0 <= hour <= 23):
        raise account_time.TimeError("bad_options", BAD_OPTIONS)
    return {EMAIL_KEYS[key]: item for key, item in value.items()}


def me_update(*, user, changes: object) -> None:
    """PATCH /me: every part checked before anything is written, then all in one transaction."""
    if not isinstance(changes, dict) or not set(changes) <= {"time_zone", "quiet_hours", "email"}:
        raise account_time.TimeError("bad_options", BAD_OPTIONS)
    clock = {key: changes[key] for key in ("time_zone", "quiet_hours") if key in changes}
    if "quiet_hours" in clock:
        account_time.quiet_hours_parse(clock["quiet_hours"])  # its own error before any other is written
    if "time_zone" in clock and not isinstance(clock["time_zone"], str):
        raise account_time.TimeError("bad_time_zone", account_time.BAD_TIME_ZONE)
    email = _email_changes(changes["email"]) if "email" in changes else {}
    with transaction.atomic():
        account_time.clock_set(user=user, **clock)
        if email:
            EmailPreferences.objects.update_or_create(user=user, defaults=email)


def _refused(error: account_time.TimeError) -> ApiError:
    return ApiError(error.status, error.code, error.message)


@router.get("/me", summary="Your time and letters", response={200: MeOut, **errors(401, 429)})
def me_get(request):
    """Your time zone, quiet hours, away days and email choices."""
    return _me(request.user, timezone.now())


@router.patch(
    "/me",
    summary="Change your time and letters",
    response={200: MeOut, **errors(400, 401, 429)},
    openapi_extra=_body(ME_PATCH_BODY),
)
def me_patch(request, payload: dict = Body(...)):
    """Change any of `time_zone` (an IANA name; else 400 `bad_time_zone`), `quiet_hours` (`{"start": "HH:MM",
    "end": "HH:MM"}`, at most 14 hours, or null: off; else 400 `bad_quiet_hours`) and `email` (any of `turns`,
    `reminders`: booleans, `daily_letter_hour`: 0-23 or null). Anything else wrong: 400 `bad_options`. Nothing
    changes on an error."""
    try:
        me_update(user=request.user, changes=payload)
    except account_time.TimeError as error:
        raise _refused(error) from None
    request.user.refresh_from_db()
    return _me(request.user, timezone.now())


def _until(value: object) -> datetime.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        until = datetime.datetime.fromisoformat(value)
    except ValueError:
        return None
    return until if until.tzinfo is not None else None


@router.put(
    "/me/away",
    summary="Be away",
    response={200: AwayAnswer, **errors(400, 401, 409, 429)},
    openapi_extra=_body(AWAY_BODY),
)
def me_away_set(request, payload: dict = Body(...)):
    """Away until `until` (an ISO date-time with its offset): in your asynchronous games a phase waiting on you
    does not run out meanwhile, and on your return it has at least the time it had left; the table sees it. At
    most 30 days ahead (else 400 `bad_away`, as for a moment past), and 60 days in any 365 (else 409
    `away_limit`). Sent again while away, it moves your return."""
    now = timezone.now()
    until = _until(payload["until"]) if set(payload) == {"until"} else None
    if until is None:
        raise ApiError(400, "bad_away", account_time.BAD_AWAY)
    try:
        account_time.away_set(user=request.user, until=until, now=now)
    except account_time.TimeError as error:
        raise _refused(error) from None
    return {"away": {"until": until.isoformat()}}


@router.delete("/me/away", summary="Be back", response={200: AwayAnswer, **errors(401, 429)})
def me_away_clear(request):
    """You are back: your away time ends now (the days it lasted still count toward the 60)."""
    account_time.away_clear(user=request.user, now=timezone.now())
    return {"away": None}
