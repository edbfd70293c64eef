"""Who finishes their games (issue 38): a player's record over the last 12 months.

- A game counts once it has ended (finished, abandoned included) within the last 365 days and the player
  sat in it; a person's games only (a bot has no record).
- The player finished it unless they left it: they resigned, or it ended with them absent (too many missed
  deadlines, and never back). A game abandoned by others, or ended while it was paused for too few players
  present, counts as finished for those who were still there.
- Turns in time: of the player's turns in those 12 months (every action but a resignation, and every
  deadline that ran out on them: ``Move.by_timeout``), the share they played before the deadline.
- Under ``COUNTED_MIN`` counted games both shares are None: too few to say, and such a player may join any game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Q

from games.models import Game, Move, Seat

WINDOW = timedelta(days=365)
COUNTED_MIN = 5


@dataclass(frozen=True)
class Reliability:
    games_counted: int
    games_finished: int  # of those counted: played to their end
    finished_share: float | None
    on_time_share: float | None


def _left(seat_prefix: str = "") -> Q:
    return Q(**{f"{seat_prefix}has_resigned": True}) | Q(**{f"{seat_prefix}is_absent": True})


def reliability_of(*, user, now: datetime) -> Reliability:
    """The player's record over the 12 months before ``now``: two queries, whatever it holds."""
    since = now - WINDOW
    seats = Seat.objects.filter(
        user=user, game__status=Game.Status.FINISHED, game__finished_at__gt=since, game__finished_at__lte=now
    )
    counts = seats.aggregate(counted=Count("pk"), left=Count("pk", filter=_left()))
    counted, left = counts["counted"], counts["left"]
    finished = counted - left
    turns = (
        Move.objects.filter(seat__user=user, created_at__gt=since, created_at__lte=now)
        .exclude(kind="resign")
        .aggregate(all=Count("pk"), late=Count("pk", filter=Q(by_timeout=True)))
    )
    if counted < COUNTED_MIN:  # too few to say (both queries asked all the same: a page costs the same for anyone)
        return Reliability(games_counted=counted, games_finished=finished, finished_share=None, on_time_share=None)
    on_time = (turns["all"] - turns["late"]) / turns["all"] if turns["all"] else None
    return Reliability(
        games_counted=counted, games_finished=finished, finished_share=finished / counted, on_time_share=on_time
    )


def games_finished_count(*, user) -> int:
    """Every game the player played to its end, ever (not resigned, not absent when it ended)."""
    return Seat.objects.filter(user=user, game__status=Game.Status.FINISHED).exclude(_left()).count()
