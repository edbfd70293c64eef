"""Storyteller's statistics: clues, votes and decoys; its 'best storyteller' board."""

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
from storyteller.models import StorytellerRound, StorytellerRoundScore, StorytellerTableCard, StorytellerVote

STORYTELLER_MIN_TURNS = 10


def storyteller_game_contributions(rounds: Iterable[Mapping]) -> dict[int, Contribution]:
    """Each seat's contribution from one game's revealed rounds, in order.

    A round (``storyteller_rounds_read``): ``storyteller`` (a seat position),
    ``skipped``, ``table`` ([{owner, voters, is_storyteller_card}], seats as
    positions) and ``points`` ({seat: points}).

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
        seats = {storyteller}
        if not round_["skipped"]:
            votes = finders = 0
            told = False
            for entry in round_["table"]:
                owner, voters = entry["owner"], entry["voters"]
                seats.add(owner)
                seats.update(voters)
                votes += len(voters)
                for voter in voters:
                    guesses[voter] += 1
                if entry["is_storyteller_card"]:
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
            points[seat] += round_points.get(seat, 0)
    return seat_contributions(
        played=played,
        points=points,
        counters={
            "clues": clues,
            "just_right": just_right,
            "guesses": guesses,
            "found": found,
            "decoys": decoys,
            "decoy_votes": decoy_votes,
        },
        sample_games={"clue_games": "clues", "guess_games": "guesses", "decoy_games": "decoys"},
    )


def storyteller_rounds_read(game_ids: list[int]) -> dict[int, list[dict]]:
    """The revealed rounds of these games, in order, as ``storyteller_game_contributions`` reads them.

    Five queries, whatever the number of games and rounds: seats, rounds, table
    cards, votes, scores. Seat ids become positions here, not in joins, and a
    rebuild reads every row of these tables: the loops stay plain.
    """
    position = seat_positions(game_ids)
    rounds: dict[int, dict] = {}
    by_game: dict[int, list[dict]] = {game_id: [] for game_id in game_ids}
    for round_id, game_id, storyteller, skipped in (
        StorytellerRound.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "number")
        .values_list("id", "game_id", "storyteller", "skipped")
    ):
        round_ = {"storyteller": storyteller, "skipped": skipped, "table": [], "points": {}}
        rounds[round_id] = round_
        by_game[game_id].append(round_)
    voters_of: dict[int, list[int]] = {}
    for card_id, round_id, owner, is_storyteller_card in (
        StorytellerTableCard.objects.filter(round__game_id__in=game_ids)
        .order_by()
        .values_list("id", "round_id", "owner_id", "is_storyteller_card")
    ):
        voters_of[card_id] = voters = []
        rounds[round_id]["table"].append(
            {"owner": position[owner], "voters": voters, "is_storyteller_card": is_storyteller_card}
        )
    for card_id, voter in (
        StorytellerVote.objects.filter(round__game_id__in=game_ids).order_by().values_list("table_card_id", "voter_id")
    ):
        voters_of[card_id].append(position[voter])
    for round_id, seat, gained in (
        StorytellerRoundScore.objects.filter(round__game_id__in=game_ids, points__gt=0)
        .order_by()
        .values_list("round_id", "seat_id", "points")
    ):
        rounds[round_id]["points"][position[seat]] = gained
    return by_game


def storyteller_figures(totals: Totals) -> list[Figure]:
    counts = totals.counts
    return [
        figure(
            counts,
            _("Clues just right (some but not all found the card)"),
            "just_right",
            "clues",
            "turns",
            "rate",
            games="clue_games",
        ),
        figure(counts, _("Found the storyteller's card"), "found", "guesses", "votes", "rate", games="guess_games"),
        figure(
            counts, _("Votes drawn per decoy card"), "decoy_votes", "decoys", "cards", "average", games="decoy_games"
        ),
    ]


STORYTELLER_BOARD = rate_board(
    slug="storyteller",
    title=_("Best storyteller"),
    description=lazy(
        lambda: (
            gettext(
                "Share of clues that were just right: some but not all of the players found the storyteller's card. "
                "At least %(turns)d turns as storyteller in the period."
            )
            % {"turns": STORYTELLER_MIN_TURNS}
        ),
        str,
    )(),
    hits="just_right",
    sample="clues",
    minimum=STORYTELLER_MIN_TURNS,
    value_label=_("Just right"),
    unranked=ngettext_lazy(
        "You are not on this board yet: it ranks players with at least %(turns)s turn as storyteller in the period.",
        "You are not on this board yet: it ranks players with at least %(turns)s turns as storyteller in the period.",
        "turns",
    )
    % {"turns": STORYTELLER_MIN_TURNS},
    sample_label=_("Turns"),
)


# Contributions of each seat of these games, from their round rows (five queries).
storyteller_contributions = round_contributions(storyteller_rounds_read, storyteller_game_contributions)


STORYTELLER_STATS = KindStats(
    kind="storyteller",
    contributions=storyteller_contributions,
    figures=storyteller_figures,
    boards=(RATING_BOARD, WINS_BOARD, STORYTELLER_BOARD),
)
