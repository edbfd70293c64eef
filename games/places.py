"""Places in a game's results: ties share a place, as sport counts them ("1, 2, 2, 4").

The one helper for every list of results (the finished game's standings, the API's,
replays, player pages and their records): a tie never looks like a win on seat order.
"""

from collections.abc import Sequence
from typing import Any


def competition_places(keys: Sequence[Any]) -> list[int]:
    """The place of each key, the smallest key first; equal keys share a place and the
    places after them are skipped (standard competition ranking: 1, 2, 2, 4).

    Pass ``-score`` for "more is better", or a tuple such as ``(resigned, -score)``.
    """
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def standing_places(players: Sequence[dict], *, score: str = "score", resigned: str = "resigned") -> list[int]:
    """Places of players given as dicts (``score``, and ``resigned`` if they have it): a higher
    score first, resigned players after everyone still in the game."""
    return competition_places([(bool(p.get(resigned)), -p[score]) for p in players])
