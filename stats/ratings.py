"""Skill ratings: OpenSkill's Plackett-Luce model with its published defaults.

Pure functions over (mu, sigma) pairs, so a rating is the same whether it is
replayed in memory (full rebuild) or read back from the database (incremental
update): floats survive both databases' double precision unchanged.
"""

import threading
from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
INITIAL = (MODEL.mu, MODEL.sigma)

Rating = tuple[float, float]

# OpenSkill's rating objects, reused from game to game: ``MODEL.rate`` works on deep
# copies and leaves the teams it is given as they were, and making a rating object
# draws a UUID, a third of the time a rebuild spends rating 50,000 games. One set
# per thread, as they are filled in before each call.
_teams = threading.local()


def rate(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """New ratings of the players of one game; ``ranks`` 1 is best, equal ranks tie."""
    teams: list = getattr(_teams, "teams", None) or []
    while len(teams) < len(ratings):
        teams.append([MODEL.rating()])
    _teams.teams = teams
    for (player,), (mu, sigma) in zip(teams, ratings):
        player.mu, player.sigma = mu, sigma
    rated = MODEL.rate(teams[: len(ratings)], ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in rated]


def ordinal(mu: float, sigma: float) -> float:
    """The conservative estimate leaderboards rank by: mu - 3 sigma (OpenSkill's ``ordinal``)."""
    return mu - 3 * sigma


# What people read is one whole number, never below 0: the conservative estimate (mu - 3 sigma, the
# skill a player has at least with 99.7% confidence) times DISPLAY_SCALE, and 0 where that is below 0.
# It is TrueSkill's displayed skill as Xbox Live showed it (the same mu - 3 sigma, on the same defaults
# mu 25, sigma 25/3), scaled so that a step of one point shows: a newcomer starts at 0 and only goes up
# as the games make the estimate surer, where the raw figure read "2.0 (μ 26.6, σ 8.2)" and went negative
# after a first loss. A Glicko-style "1500 ± RD" was the other choice; it shows a number a newcomer
# has not earned and needs the uncertainty beside it to mean anything. The ranking is by the same
# estimate, unclamped (two players below 0 still keep their order).
DISPLAY_SCALE = 40


def shown(conservative: float) -> int:
    """The rating people read, from the conservative estimate (``ordinal``): a whole number, 0 at least."""
    return max(0, round(conservative * DISPLAY_SCALE))
