"""Storyteller's counters per seat, against the games worked out by hand in ``cases``."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.tests.factories import UserFactory
from stats.kinds import Totals
from stats.services import game_ranks
from storyteller.stats import storyteller_contributions, storyteller_figures

from .cases import ANN, BO, CY, DI, two_games

pytestmark = pytest.mark.django_db


def test_game_ranks_share_ties_and_put_resigned_seats_last():
    assert game_ranks([(8, False), (6, False), (3, False), (6, False)]) == [1, 2, 4, 2]
    assert game_ranks([(9, True), (2, False), (2, False)]) == [3, 1, 1]


def test_storyteller_counters_of_each_seat():
    now = timezone.now()
    game_1, game_2 = two_games(UserFactory.create_batch(4), first_at=now - timedelta(days=2), second_at=now)
    by_game = storyteller_contributions([game_1.pk, game_2.pk])

    first = by_game[game_1.pk]
    assert (first[ANN].rounds, first[ANN].points) == (3, 8)
    assert first[ANN].counts == {
        "clues": 1,
        "just_right": 1,
        "guesses": 2,
        "found": 1,
        "decoys": 2,
        "decoy_votes": 1,
        "clue_games": 1,
        "guess_games": 1,
        "decoy_games": 1,
    }
    assert (first[BO].rounds, first[BO].points) == (3, 6)
    assert first[BO].counts == {
        "clues": 1,
        "guesses": 2,
        "found": 1,
        "decoys": 2,
        "decoy_votes": 1,
        "clue_games": 1,
        "guess_games": 1,
        "decoy_games": 1,
    }
    assert (first[CY].rounds, first[CY].points) == (3, 3)
    assert first[CY].counts == {
        "clues": 1,
        "guesses": 2,
        "found": 1,
        "decoys": 2,
        "decoy_votes": 1,
        "clue_games": 1,
        "guess_games": 1,
        "decoy_games": 1,
    }
    # Di lost the turn in round 4: a round played, no clue judged.
    assert (first[DI].rounds, first[DI].points) == (4, 6)
    assert first[DI].counts == {
        "guesses": 3,
        "found": 1,
        "decoys": 3,
        "decoy_votes": 2,
        "guess_games": 1,
        "decoy_games": 1,
    }

    second = by_game[game_2.pk]
    assert (second[ANN].rounds, second[ANN].points, second[ANN].counts) == (
        1,
        0,
        {"guesses": 1, "decoys": 2, "guess_games": 1, "decoy_games": 1},
    )
    assert (second[BO].rounds, second[BO].points, second[BO].counts) == (
        1,
        4,
        {"clues": 1, "just_right": 1, "clue_games": 1},
    )
    assert (second[CY].rounds, second[CY].points, second[CY].counts) == (
        1,
        5,
        {"guesses": 1, "found": 1, "decoys": 2, "decoy_votes": 1, "guess_games": 1, "decoy_games": 1},
    )


def test_figures_name_their_samples():
    totals = Totals(
        games=2,
        wins=1,
        rounds=4,
        points=8,
        counts={
            "clues": 4,
            "just_right": 3,
            "guesses": 3,
            "found": 1,
            "decoys": 4,
            "decoy_votes": 1,
            "clue_games": 2,
            "guess_games": 2,
            "decoy_games": 2,
        },
    )
    just_right, found, decoys = storyteller_figures(totals)
    assert (just_right.value, just_right.sample, just_right.sample_label, just_right.games) == (0.75, 4, "turns", 2)
    assert (found.value, found.sample, found.sample_label) == (pytest.approx(1 / 3), 3, "votes")
    assert (decoys.value, decoys.sample, decoys.sample_label, decoys.style) == (0.25, 4, "cards", "average")
    assert all(figure.value is None for figure in storyteller_figures(Totals()))
