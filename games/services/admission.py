"""Who may take a seat, beside the seats themselves (issue 38): the cap on simultaneous asynchronous games, the
creator's minimum reliability, and the checks of the options a new game is created with for them."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from games.models import Game, Seat
from games.selectors.reliability import reliability_of

from .errors import GameError

TIME_BANK_HOURS_MAX = 72
TOO_MANY_GAMES = _("You already play %(n)d asynchronous games at once, the most anyone may: finish one first.")
UNRELIABLE = _(
    "This game's creator asks for players who finish at least %(share)d%% of their games; you have finished "
    "%(yours)d%% of yours over the last 12 months."
)


def async_games_cap_check(*, user, pace: str) -> None:
    """409 ``too_many_games``: ``user`` already sits in FABULA_ASYNC_GAMES_MAX asynchronous games that are open
    or in play (a bot has no cap)."""
    if pace != Game.Pace.ASYNC or user.is_bot:
        return
    most = settings.FABULA_ASYNC_GAMES_MAX
    playing = Seat.objects.filter(
        user=user,
        game__pace=Game.Pace.ASYNC,
        game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE],
        has_resigned=False,
    ).count()
    if playing >= most:
        raise GameError("too_many_games", TOO_MANY_GAMES % {"n": most}, "conflict")


def reliability_check(*, user, game: Game, now: datetime) -> None:
    """409 ``unreliable``: the game asks for a minimum share of games finished (``min_reliability``) and ``user``,
    with at least 5 counted games, finished fewer. A player with fewer may always join."""
    if game.min_reliability is None or user.is_bot:
        return
    record = reliability_of(user=user, now=now)
    if record.finished_share is not None and record.finished_share < game.min_reliability:
        shares = {"share": round(game.min_reliability * 100), "yours": int(record.finished_share * 100)}
        raise GameError("unreliable", UNRELIABLE % shares, "conflict")


def time_bank_seconds_of(hours) -> int:
    """A new game's bank per player from ``time_bank_hours`` (None: FABULA_TIME_BANK_HOURS_DEFAULT, 24);
    400 ``bad_options`` outside 0-72."""
    if hours is None:
        hours = settings.FABULA_TIME_BANK_HOURS_DEFAULT
    if isinstance(hours, bool) or not isinstance(hours, int) or not 0 <= hours <= TIME_BANK_HOURS_MAX:
        raise GameError("bad_options", _("A time bank holds from 0 to 72 hours."), "invalid")
    return hours * 3600


def min_reliability_of(value) -> float | None:
    """A new game's minimum share of games finished (None: anyone); 400 ``bad_options`` outside 0-1."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise GameError("bad_options", _("The minimum share of games finished is from 0 to 1."), "invalid")
    return float(value)
