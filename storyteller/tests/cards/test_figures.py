"""The per-card figures, written by the services as games are played."""

import random
from collections import Counter

import pytest

from games.tests.factories import deck_with_cards, started_game
from games.tests.play import play_to_end
from storyteller.models import Card, CardDeal, StorytellerRound, StorytellerTableCard

from .rounds import play_three_rounds, state_of

pytestmark = pytest.mark.django_db


def figures(card_id):
    return Card.objects.with_figures().get(pk=card_id)


def test_figures_of_three_hand_played_rounds():
    deck = deck_with_cards(40)
    game, users = started_game(3, deck=deck)
    start = state_of(game)
    assert CardDeal.objects.filter(game=game).count() == 21  # 7 cards to each of 3 players
    never_dealt = start.draw_pile[-1]

    # Round 1 (Anna tells): Bo finds her card, Cy falls for one of Bo's.
    # Round 2 (Bo tells): both find it. Round 3 (Cy tells): each votes for the other's decoy.
    (told1, sub1), (told2, sub2), (told3, sub3) = play_three_rounds(game, users)
    assert CardDeal.objects.filter(game=game).count() == 21 + 3 * 5  # and a refill after each reveal

    card = figures(told1)
    assert (card.times_dealt, card.times_told, card.found_percent) == (1, 1, 50.0)
    assert (card.times_found_by_all, card.times_found_by_none, card.decoy_votes) == (0, 0, 0)
    assert figures(sub1[1][0]).decoy_votes == 1
    assert figures(sub1[1][1]).decoy_votes == 0
    card = figures(told2)
    assert (card.times_told, card.found_percent, card.times_found_by_all, card.times_found_by_none) == (1, 100.0, 1, 0)
    card = figures(told3)
    assert (card.times_told, card.found_percent, card.times_found_by_all, card.times_found_by_none) == (1, 0.0, 0, 1)
    assert figures(sub3[0][0]).decoy_votes == 1 and figures(sub3[1][0]).decoy_votes == 1
    card = figures(never_dealt)
    assert (card.times_dealt, card.times_told, card.found_percent, card.decoy_votes) == (0, 0, None, 0)

    # The rows say who played each card, where it lay and what the round saw.
    row = StorytellerTableCard.objects.get(card=told1)
    assert row.owner.user == users[0] and row.is_storyteller_card
    assert (row.votes, row.votes_cast, row.round.number) == (1, 2, 1)
    assert StorytellerTableCard.objects.filter(round__game=game).count() == 3 * 5


def test_a_card_dealt_in_two_games_counts_twice():
    deck = deck_with_cards(21)  # exactly the deal of a game for three
    started_game(3, deck=deck)
    started_game(3, deck=deck)
    assert {card.times_dealt for card in Card.objects.filter(deck=deck).with_figures()} == {2}


@pytest.mark.parametrize("players, seed", [(3, 1), (4, 2), (6, 3)])
def test_figures_agree_with_the_round_records_of_whole_games(players, seed):
    """Whole random games: the figures equal what the rounds' JSON tables say."""
    deck = deck_with_cards(45)
    rng = random.Random(seed)
    games = [started_game(players, deck=deck) for _ in range(2)]
    for game, users in games:
        play_to_end(game, users, rng)
    told, found, cast, decoy = Counter(), Counter(), Counter(), Counter()
    for record in StorytellerRound.objects.filter(skipped=False):
        votes_cast = sum(len(entry["voters"]) for entry in record.table)
        for entry in record.table:
            if entry["card"] == record.storyteller_card_id:
                told[entry["card"]] += 1
                found[entry["card"]] += len(entry["voters"])
                cast[entry["card"]] += votes_cast
            else:
                decoy[entry["card"]] += len(entry["voters"])
    dealt = Counter()
    for game, _ in games:
        state = state_of(game)
        for card_id in deck.cards.values_list("pk", flat=True):
            if card_id not in state.draw_pile:
                dealt[card_id] += 1
    for card in Card.objects.filter(deck=deck).with_figures():
        assert card.times_dealt == dealt[card.pk]
        assert card.times_told == told[card.pk]
        assert card.decoy_votes == decoy[card.pk]
        if cast[card.pk]:
            assert card.found_percent == pytest.approx(100 * found[card.pk] / cast[card.pk])
        else:
            assert card.found_percent is None
