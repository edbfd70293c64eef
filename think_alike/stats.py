"""Think Alike's statistics: answers that matched, duels; its 'most in tune' board."""

from collections.abc import Iterable, Mapping

from django.utils.functional import lazy
from django.utils.translation import gettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from stats.kinds import (
    RATING_BOARD,
    SEATS,
    WINS_BOARD,
    Contribution,
    Figure,
    KindStats,
    Totals,
    figure,
    rate_board,
    round_contributions,
    seat_contributions,
    seat_positions,
)
from think_alike.models import ThinkAlikeAnswer, ThinkAlikeRound, ThinkAlikeRoundScore

THINK_ALIKE_MIN_ANSWERS = 20


def think_alike_game_contributions(rounds: Iterable[Mapping]) -> dict[int, Contribution]:
    """Each seat's contribution from one game's scored rounds, in order.

    A round (``think_alike_rounds_read``): ``turn``, ``answered`` (the seats that
    answered in time), ``groups`` (per final group, the seat of each of its
    answers), ``points`` ({seat: points}), ``duel_opponent``, ``duel_winner``
    (seats as positions).

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
        seats = {round_["turn"], *round_["answered"]}
        for group in round_["groups"]:
            in_group = set(group)
            for seat in group:
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
            points[seat] += round_points.get(seat, 0)
    return seat_contributions(
        played=played,
        points=points,
        counters={"answers": answers, "matched": matched, "duels": duels, "duels_won": duels_won},
        sample_games={"answer_games": "answers", "duel_games": "duels"},
    )


def think_alike_rounds_read(game_ids: list[int]) -> dict[int, list[dict]]:
    """The scored rounds of these games, in order, as ``think_alike_game_contributions`` reads them.

    Four queries, whatever the number of games and rounds: seats, rounds, grouped
    answers, scores. Seat ids become positions here, not in joins, and a rebuild
    reads every row of these tables: the loops stay plain.
    """
    position = seat_positions(game_ids)
    rounds: dict[int, dict] = {}
    by_game: dict[int, list[dict]] = {game_id: [] for game_id in game_ids}
    for round_id, game_id, turn, opponent, winner in (
        ThinkAlikeRound.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "number")
        .values_list("id", "game_id", "turn", "duel_opponent", "duel_winner")
    ):
        round_ = {
            "turn": turn,
            "answered": [],
            "groups": {},
            "points": {},
            "duel_opponent": opponent,
            "duel_winner": winner,
        }
        rounds[round_id] = round_
        by_game[game_id].append(round_)
    for round_id, group_id, seat in (
        ThinkAlikeAnswer.objects.filter(round__game_id__in=game_ids, group__isnull=False)
        .order_by()
        .values_list("round_id", "group_id", "seat_id")
    ):
        rounds[round_id]["groups"].setdefault(group_id, []).append(position[seat])
    for round_id, seat, answered, gained in (
        ThinkAlikeRoundScore.objects.filter(round__game_id__in=game_ids)
        .order_by()
        .values_list("round_id", "seat_id", "answered", "points")
    ):
        round_ = rounds[round_id]
        round_["points"][position[seat]] = gained
        if answered:
            round_["answered"].append(position[seat])
    for round_ in rounds.values():
        round_["groups"] = list(round_["groups"].values())
    return by_game


def think_alike_figures(totals: Totals) -> list[Figure]:
    counts = totals.counts
    return [
        figure(
            counts,
            _("Answers that matched someone else's"),
            "matched",
            "answers",
            "answers",
            "rate",
            games="answer_games",
        ),
        figure(counts, _("Duels won"), "duels_won", "duels", "duels", "rate", games="duel_games"),
    ]


THINK_ALIKE_BOARD = rate_board(
    slug="in_tune",
    title=_("Most in tune"),
    description=lazy(
        lambda: (
            gettext(
                "Share of answers that matched another player's answer. At least %(answers)d answers in the period."
            )
            % {"answers": THINK_ALIKE_MIN_ANSWERS}
        ),
        str,
    )(),
    hits="matched",
    sample="answers",
    minimum=THINK_ALIKE_MIN_ANSWERS,
    value_label=_("Matched"),
    unranked=ngettext_lazy(
        "You are not on this board yet: it ranks players with at least %(answers)s answer in the period.",
        "You are not on this board yet: it ranks players with at least %(answers)s answers in the period.",
        "answers",
    )
    % {"answers": THINK_ALIKE_MIN_ANSWERS},
    sample_label=_("Answers"),
)


# Contributions of each seat of these games, from their round rows (four queries).
think_alike_contributions = round_contributions(think_alike_rounds_read, think_alike_game_contributions)


THINK_ALIKE_STATS = KindStats(
    kind="think_alike",
    contributions=think_alike_contributions,
    figures=think_alike_figures,
    boards=(RATING_BOARD, WINS_BOARD, THINK_ALIKE_BOARD),
)
