"""What the status line says about the game's pace: why a paused game waits, and for whom."""

import datetime

from django import template
from django.utils import timezone
from django.utils.timesince import timeuntil

from games.engine.seats import MIN_PRESENT
from games.pages import for_anyone, time_left
from games.selectors.timeouts import timeouts_just_now as _timeouts_just_now

register = template.Library()


@register.simple_tag
def pause_of(view: dict) -> dict:
    """Who is marked absent, how many of them must come back, and who of them can act now.

    From the view's players (``absent``, ``resigned``, ``to_act``): a paused game goes on
    when enough absent players act again; those the game waits for can do it right away.
    """
    still_in = [p for p in view["players"] if not p["resigned"]]
    absent = [p for p in still_in if p["absent"]]
    present = len(still_in) - len(absent)
    you = view.get("you") or {}
    mine = next((p for p in still_in if p["seat"] == you.get("seat")), None)
    return {
        "absent": [p["name"] for p in absent],
        "needed": max(MIN_PRESENT - present, 1),
        "can_act": [p["name"] for p in absent if p["to_act"]],
        "you_absent": bool(mine and mine["absent"]),
        "you_to_act": bool(mine and mine["to_act"]),
    }


@register.simple_tag
def first_in_seat_order(view: dict) -> str:
    """The player whom seat order names when a race (the first clue) runs out: the first present seat."""
    still_in = [p for p in view["players"] if not p["resigned"]]
    named = next((p for p in still_in if not p["absent"]), still_in[0] if still_in else None)
    return named["name"] if named else ""


@register.simple_tag
def timeouts_just_now(game) -> list[str]:
    """What the deadline just did, if the game's latest change was a timeout ("Ada ran out of time..."):
    read once per version for every viewer."""
    return for_anyone("timeouts", game=game, build=lambda: _timeouts_just_now(game))


@register.filter
def iso_moment(value):
    """A view's ISO date-time (``away_until``, ``nudge_from_at``) as a datetime, for ``date`` to show in the viewer's
    zone and language; None for none."""
    if not value:
        return None
    try:
        return datetime.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return None


@register.filter
def is_past(moment) -> bool:
    """Whether an aware datetime (``iso_moment``'s) has come: the nudge's buttons show from half the phase on."""
    return moment is not None and moment <= timezone.now()


@register.filter
def bank_words(seconds) -> str:
    """A time bank in words, in the page's language ("5 hours, 30 minutes"; "0 minutes" when spent)."""
    start = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
    return timeuntil(start + datetime.timedelta(seconds=int(seconds or 0)), now=start)


register.filter("time_left", time_left)
