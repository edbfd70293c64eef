"""Skill ratings: OpenSkill's Plackett-Luce model with its published defaults.

Pure functions over (mu, sigma) pairs, so a rating is the same whether it is
replayed in memory (full rebuild) or read back from the database (incremental
update): floats survive both databases' double precision unchanged.
"""

from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
INITIAL = (MODEL.mu, MODEL.sigma)

Rating = tuple[float, float]


def rate(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """New ratings of the players of one game; ``ranks`` 1 is best, equal ranks tie."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in rated]


def ordinal(mu: float, sigma: float) -> float:
    """The conservative estimate leaderboards rank by: mu - 3 sigma (OpenSkill's ``ordinal``)."""
    return mu - 3 * sigma
