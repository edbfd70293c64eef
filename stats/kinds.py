"""What each kind of game adds to statistics: its counters, figures and boards.

A kind of game joins by giving a ``KindStats`` (its ``GameKind.stats``): a loader
that turns finished games into per-seat contributions (rounds played, points,
counters), the figures a profile shows from the summed counters, and its own
leaderboards beside the common ones (``RATING_BOARD``, ``WINS_BOARD``). The
game apps build theirs from the pieces here.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

from games import kinds
from games.models import Seat

from .ratings import ordinal


@dataclass
class Contribution:
    """What one seat took from one game."""

    rounds: int = 0
    points: int = 0
    counts: dict[str, int] = field(default_factory=dict)


@dataclass
class Totals:
    """A player's sums over a set of games (all time, or a period)."""

    games: int = 0
    wins: int = 0
    rounds: int = 0
    points: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def add(self, *, won: bool, rounds: int, points: int, counts: Mapping[str, int]) -> None:
        self.games += 1
        self.wins += int(won)
        self.rounds += rounds
        self.points += points
        for name, amount in counts.items():
            self.counts[name] = self.counts.get(name, 0) + amount


@dataclass(frozen=True)
class Board:
    """One leaderboard: a value per player (higher is better), or None for a player it does not rank."""

    slug: str
    title: str
    description: str
    value: Callable[[Totals, tuple[float, float]], float | None]
    sample: Callable[[Totals], int]
    hits: Callable[[Totals], int | None]
    style: str  # how pages show the value: "rating", "count" or "rate"
    value_label: str = _("Rating")
    sample_label: str = _("Games")
    unranked: str = ""  # what the board says to a player it does not rank yet (default: finish a game)


@dataclass(frozen=True)
class Figure:
    """One profile statistic: ``hits`` out of ``sample`` (a rate), or ``total`` over ``sample`` (an average)."""

    label: str
    value: float | None
    sample: int
    sample_label: str  # what the sample counts: "turns", "votes" or "cards" (pages name it)
    games: int
    style: str  # "rate" or "average"


@dataclass(frozen=True)
class KindStats:
    kind: str
    # game ids -> {game id: {seat: Contribution}}, reading the games' rounds in one query
    contributions: Callable[[list[int]], dict[int, dict[int, Contribution]]]
    figures: Callable[[Totals], list[Figure]]
    boards: tuple[Board, ...]


def _rating_value(totals: Totals, rating: tuple[float, float]) -> float | None:
    return ordinal(*rating) if totals.games else None


RATING_BOARD = Board(
    slug="rating",
    title=_("Rating"),
    description=_(
        "One number for how well a player plays against other people, from every finished game: it rises when "
        "they finish ahead of others and as their games make it surer. Everyone starts at 0, and it "
        "is marked provisional over a player's first games."
    ),
    value=_rating_value,
    sample=lambda totals: totals.games,
    hits=lambda totals: None,
    style="rating",
)

WINS_BOARD = Board(
    slug="wins",
    title=_("Most wins"),
    description=_("Games won; a shared win counts for everyone who shares it."),
    value=lambda totals, rating: float(totals.wins) if totals.wins else None,  # no win, no place among winners
    sample=lambda totals: totals.games,
    hits=lambda totals: None,
    style="count",
    value_label=_("Wins"),
)


def rate_board(
    *, slug, title, description, hits: str, sample: str, minimum: int, value_label, sample_label, unranked=""
) -> Board:
    """A board of the share ``hits`` / ``sample`` (counters), ranking players with ``minimum`` of the sample or more."""

    def value(totals: Totals, rating) -> float | None:
        size = totals.counts.get(sample, 0)
        return totals.counts.get(hits, 0) / size if size >= minimum else None

    return Board(
        slug=slug,
        title=title,
        description=description,
        value=value,
        sample=lambda totals: totals.counts.get(sample, 0),
        hits=lambda totals: totals.counts.get(hits, 0),
        style="rate",
        value_label=value_label,
        sample_label=sample_label,
        unranked=unranked,
    )


# --- what kinds build on ----------------------------------------------------------


SEATS = 10  # more than any game seats (a check constraint on Game)


def seat_contributions(
    *, played: list[int], points: list[int], counters: dict[str, list[int]], sample_games: dict[str, str]
) -> dict[int, Contribution]:
    """Each seat's contribution from per-seat lists: rounds ``played``, ``points`` and named ``counters``.

    ``sample_games`` names, for a counter that is a figure's sample, the counter of
    the games it comes from: 1 where the seat has any of it (summed, how many games a
    figure rests on). Seats with nothing are left out.
    """
    contributions = {}
    for seat in range(SEATS):
        counts = {name: values[seat] for name, values in counters.items() if values[seat]}
        if played[seat] or counts:
            counts |= {games: 1 for games, sample in sample_games.items() if counters[sample][seat] > 0}
            contributions[seat] = Contribution(rounds=played[seat], points=points[seat], counts=counts)
    return contributions


def seat_positions(game_ids: list[int]) -> dict[int, int]:
    """Seat id -> position, for every seat of these games (one query): a kind's round reader turns its rows'
    seat ids into positions with it, not with joins."""
    return dict(Seat.objects.filter(game_id__in=game_ids).order_by().values_list("pk", "position"))


def round_contributions(
    rounds_read: Callable[[list[int]], dict[int, list]], game_contributions: Callable[[list], dict[int, Contribution]]
) -> Callable[[list[int]], dict[int, dict[int, Contribution]]]:
    """A ``KindStats.contributions`` from a kind's two pieces: ``rounds_read`` (game ids -> each game's rounds, in
    order, in a few queries) and ``game_contributions`` (one game's rounds -> each seat's contribution)."""

    def contributions(game_ids: list[int]) -> dict[int, dict[int, Contribution]]:
        return {
            game_id: game_contributions(rounds) if rounds else {} for game_id, rounds in rounds_read(game_ids).items()
        }

    return contributions


def figure(
    counts: Mapping[str, int], label, hits: str, sample: str, sample_label: str, style: str, *, games: str
) -> Figure:
    """``hits`` over ``sample`` from the summed counters; ``games`` counts the games the sample comes from."""
    size = counts.get(sample, 0)
    return Figure(
        label=label,
        value=counts.get(hits, 0) / size if size else None,
        sample=size,
        sample_label=sample_label,
        games=counts.get(games, 0),
        style=style,
    )


def kind_stats(kind: str) -> KindStats | None:
    """The statistics of a kind of game (its app gives them), or None for a kind without."""
    game_kind = kinds.get(kind)
    return game_kind.stats if game_kind is not None else None


def every_kind_stats() -> list[KindStats]:
    return [game_kind.stats for game_kind in kinds.every() if game_kind.stats is not None]


def board_of(kind: str, slug: str) -> Board | None:
    stats = kind_stats(kind)
    return next((board for board in stats.boards if board.slug == slug), None) if stats else None
