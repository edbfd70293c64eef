"""What each kind of game adds to statistics: its counters, figures and boards.

A kind joins by adding a ``KindStats`` to ``KINDS``: a loader that turns finished
games into per-seat contributions (rounds played, points, counters), the figures a
profile shows from the summed counters, and its own leaderboards beside the common
ones (rating, wins). Storyteller counts clues, votes and decoys; Think Alike counts
answers that matched someone else's, and duels.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy as _

from games.models import Game, StorytellerRound, ThinkAlikeRound

from .ratings import ordinal

STORYTELLER_MIN_TURNS = 10
THINK_ALIKE_MIN_ANSWERS = 20


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
        "OpenSkill rating (Plackett-Luce) from every finished game, ranked by its cautious estimate: "
        "the skill the player has at least, with high confidence."
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
    value=lambda totals, rating: float(totals.wins) if totals.games else None,
    sample=lambda totals: totals.games,
    hits=lambda totals: None,
    style="count",
    value_label=_("Wins"),
)


def _rate_board(*, slug, title, description, hits: str, sample: str, minimum: int, value_label, sample_label) -> Board:
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
    )


# --- Storyteller --------------------------------------------------------------------


SEATS = 10  # more than any game seats (a check constraint on Game)


def storyteller_game_contributions(rounds: Iterable[Mapping]) -> dict[int, Contribution]:
    """Each seat's contribution from one game's revealed rounds, in order.

    A round is a StorytellerRound's values: ``storyteller``, ``skipped``, ``table``
    ([{position, card, owner, voters}]) and ``points`` ({seat: points}, keys as strings).

    - A seat played a round if it told, had a card on the table or voted; a
      storyteller who lost the turn played it too (and scored nothing).
    - A clue is judged when at least one vote was cast; it is just right when some
      but not all of the votes cast found the storyteller's card (the rules' aim).
    - A vote found the card when it went to the storyteller's card; a decoy is a
      card a player other than the storyteller put on the table.
    - ``clue_games``, ``guess_games``, ``decoy_games`` are 1 when the game gave
      the figure a sample: summed, they say how many games a figure rests on.

    Counters are lists by seat, not objects: a rebuild runs this for every round
    ever played.
    """
    played, points = [0] * SEATS, [0] * SEATS
    clues, just_right, guesses, found, decoys, decoy_votes = ([0] * SEATS for _ in range(6))
    for round_ in rounds:
        storyteller = round_["storyteller"]
        if round_["skipped"]:
            seats = {storyteller}
        else:
            seats = {storyteller}
            votes = finders = 0
            told = False
            for entry in round_["table"]:
                owner, voters = entry["owner"], entry["voters"]
                seats.add(owner)
                seats.update(voters)
                votes += len(voters)
                for voter in voters:
                    guesses[voter] += 1
                if owner == storyteller and not told:
                    told = True
                    finders = len(voters)
                    for voter in voters:
                        found[voter] += 1
                else:
                    decoys[owner] += 1
                    decoy_votes[owner] += len(voters)
            if told and votes:
                clues[storyteller] += 1
                if 0 < finders < votes:
                    just_right[storyteller] += 1
        round_points = round_["points"]
        for seat in seats:
            played[seat] += 1
            points[seat] += round_points.get(str(seat), 0)
    contributions = {}
    for seat in range(SEATS):
        counts = {
            "clues": clues[seat], "just_right": just_right[seat], "guesses": guesses[seat], "found": found[seat],
            "decoys": decoys[seat], "decoy_votes": decoy_votes[seat],
            "clue_games": int(clues[seat] > 0), "guess_games": int(guesses[seat] > 0),
            "decoy_games": int(decoys[seat] > 0),
        }
        if played[seat] or any(counts.values()):
            contributions[seat] = Contribution(
                rounds=played[seat], points=points[seat], counts={k: v for k, v in counts.items() if v}
            )
    return contributions


def _contributions_by_game(game_ids: list[int], rows, per_game) -> dict[int, dict[int, Contribution]]:
    """``per_game`` of each game's rows (``rows`` ordered by game, then round), read in one query."""
    by_game: dict[int, dict[int, Contribution]] = {game_id: {} for game_id in game_ids}
    current, batch = None, []
    for row in rows.iterator(chunk_size=5000):
        if row["game_id"] != current:
            if batch:
                by_game[current] = per_game(batch)
            current, batch = row["game_id"], []
        batch.append(row)
    if batch:
        by_game[current] = per_game(batch)
    return by_game


def storyteller_contributions(game_ids: list[int]) -> dict[int, dict[int, Contribution]]:
    """Contributions of each seat of these games, from their rounds read in one query."""
    rows = (
        StorytellerRound.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "number")
        .values("game_id", "storyteller", "skipped", "table", "points")
    )
    return _contributions_by_game(game_ids, rows, storyteller_game_contributions)


def _figure(counts: Mapping[str, int], label, hits: str, sample: str, sample_label: str, style: str) -> Figure:
    """``hits`` over ``sample`` from the summed counters; the sample's games are counted as ``<name>_games``."""
    size = counts.get(sample, 0)
    games = {
        "clues": "clue_games", "guesses": "guess_games", "decoys": "decoy_games",
        "answers": "answer_games", "duels": "duel_games",
    }[sample]
    return Figure(
        label=label,
        value=counts.get(hits, 0) / size if size else None,
        sample=size,
        sample_label=sample_label,
        games=counts.get(games, 0),
        style=style,
    )


def storyteller_figures(totals: Totals) -> list[Figure]:
    counts = totals.counts
    return [
        _figure(counts, _("Clues just right (some but not all found the card)"), "just_right", "clues", "turns", "rate"),
        _figure(counts, _("Found the storyteller's card"), "found", "guesses", "votes", "rate"),
        _figure(counts, _("Votes drawn per decoy card"), "decoy_votes", "decoys", "cards", "average"),
    ]


STORYTELLER_BOARD = _rate_board(
    slug="storyteller",
    title=_("Best storyteller"),
    description=lazy(
        lambda: gettext(
            "Share of clues that were just right: some but not all of the players found the storyteller's card. "
            "At least %(turns)d turns as storyteller in the period."
        )
        % {"turns": STORYTELLER_MIN_TURNS},
        str,
    )(),
    hits="just_right",
    sample="clues",
    minimum=STORYTELLER_MIN_TURNS,
    value_label=_("Just right"),
    sample_label=_("Turns"),
)


# --- Think Alike -------------------------------------------------------------------


def think_alike_game_contributions(rounds: Iterable[Mapping]) -> dict[int, Contribution]:
    """Each seat's contribution from one game's scored rounds, in order.

    A round is a ThinkAlikeRound's values: ``turn``, ``answers`` ({seat: [texts] or
    None}), ``groups`` ([{items: [[seat, index]]}]), ``points`` ({seat: points}),
    ``duel_opponent``, ``duel_winner`` (keys as strings where they are seats).

    - A seat played a round if it answered or held the turn.
    - An answer is one of a seat's non-blank answers (blank ones are in no group);
      it matched when another seat's answer is in its group: what the game is about.
    - A duel: a round the seat held the turn of a duel field, or was challenged in;
      won when it took the bonus.
    - ``answer_games``, ``duel_games``: 1 when the game gave the figure a sample.
    """
    played, points = [0] * SEATS, [0] * SEATS
    answers, matched, duels, duels_won = ([0] * SEATS for _ in range(4))
    for round_ in rounds:
        seats = {round_["turn"]} | {int(seat) for seat, given in round_["answers"].items() if given is not None}
        for group in round_["groups"]:
            in_group = {seat for seat, _index in group["items"]}
            for seat, _index in group["items"]:
                answers[seat] += 1
                if len(in_group) > 1:
                    matched[seat] += 1
        if round_["duel_opponent"] is not None:
            for seat in (round_["turn"], round_["duel_opponent"]):
                duels[seat] += 1
            if round_["duel_winner"] is not None:
                duels_won[round_["duel_winner"]] += 1
        round_points = round_["points"]
        for seat in seats:
            played[seat] += 1
            points[seat] += round_points.get(str(seat), 0)
    contributions = {}
    for seat in range(SEATS):
        counts = {
            "answers": answers[seat], "matched": matched[seat], "duels": duels[seat], "duels_won": duels_won[seat],
            "answer_games": int(answers[seat] > 0), "duel_games": int(duels[seat] > 0),
        }
        if played[seat] or any(counts.values()):
            contributions[seat] = Contribution(
                rounds=played[seat], points=points[seat], counts={k: v for k, v in counts.items() if v}
            )
    return contributions


def think_alike_contributions(game_ids: list[int]) -> dict[int, dict[int, Contribution]]:
    """Contributions of each seat of these games, from their rounds read in one query."""
    rows = (
        ThinkAlikeRound.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "number")
        .values("game_id", "turn", "answers", "groups", "points", "duel_opponent", "duel_winner")
    )
    return _contributions_by_game(game_ids, rows, think_alike_game_contributions)


def think_alike_figures(totals: Totals) -> list[Figure]:
    counts = totals.counts
    return [
        _figure(counts, _("Answers that matched someone else's"), "matched", "answers", "answers", "rate"),
        _figure(counts, _("Duels won"), "duels_won", "duels", "duels", "rate"),
    ]


THINK_ALIKE_BOARD = _rate_board(
    slug="in_tune",
    title=_("Most in tune"),
    description=lazy(
        lambda: gettext(
            "Share of answers that matched another player's answer. At least %(answers)d answers in the period."
        )
        % {"answers": THINK_ALIKE_MIN_ANSWERS},
        str,
    )(),
    hits="matched",
    sample="answers",
    minimum=THINK_ALIKE_MIN_ANSWERS,
    value_label=_("Matched"),
    sample_label=_("Answers"),
)


KINDS: dict[str, KindStats] = {
    Game.Kind.STORYTELLER: KindStats(
        kind=Game.Kind.STORYTELLER,
        contributions=storyteller_contributions,
        figures=storyteller_figures,
        boards=(RATING_BOARD, WINS_BOARD, STORYTELLER_BOARD),
    ),
    Game.Kind.THINK_ALIKE: KindStats(
        kind=Game.Kind.THINK_ALIKE,
        contributions=think_alike_contributions,
        figures=think_alike_figures,
        boards=(RATING_BOARD, WINS_BOARD, THINK_ALIKE_BOARD),
    ),
}


def kind_stats(kind: str) -> KindStats | None:
    return KINDS.get(kind)


def board_of(kind: str, slug: str) -> Board | None:
    stats = KINDS.get(kind)
    return next((board for board in stats.boards if board.slug == slug), None) if stats else None
