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
