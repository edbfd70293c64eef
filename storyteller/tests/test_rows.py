"""A Storyteller game's rounds as rows: written with the move that reveals a round, equal to
the engine's history, and held by the database to the rules it can hold (one vote per
voter, one appearance per card, the storyteller's card once, one score per seat)."""

import random
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction

from games.models import Game
from games.services.games import game_expire
from games.tests.factories import deck_with_cards, started_game
from games.tests.play import play_step
from storyteller.engine import rules as engine
from storyteller.models import StorytellerRound, StorytellerRoundScore, StorytellerTableCard, StorytellerVote
from storyteller.services.game import storyteller_vote_row

from .cards.rounds import play_three_rounds

pytestmark = pytest.mark.django_db


def play_with_timeouts(game: Game, users, rng: random.Random, *, max_steps: int = 2000) -> Game:
    """Play to the end; now and then a deadline passes instead (lost turns, random cards, abstentions)."""
    for _ in range(max_steps):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        if rng.random() < 0.15 and game.deadline_at is not None:
            game_expire(game_id=game.pk, version=game.version, now=game.deadline_at + timedelta(seconds=1))
        else:
            play_step(game, users, rng)
    game.refresh_from_db()
    return game


def rows_of(game: Game) -> list[dict]:
    """Every round's rows, seats as positions, as the engine's history says them."""
    rounds = []
    for round_ in StorytellerRound.objects.filter(game=game).select_related("storyteller_seat").order_by("number"):
        table = list(round_.table_cards.select_related("owner").order_by("position"))
        rounds.append(
            {
                "round": round_.number,
                "storyteller": round_.storyteller_seat.position,
                "clue": round_.clue or None,
                "storyteller_card": round_.storyteller_card_id,
                "skipped": round_.skipped,
                "table": tuple(card.card_id for card in table),
                "owners": {card.card_id: card.owner.position for card in table},
                "storyteller_cards": [card.card_id for card in table if card.is_storyteller_card],
                "votes": dict(round_.votes.values_list("voter__position", "table_card__position")),
                "votes_drawn": {card.position: card.votes for card in table},
                "points": dict(round_.scores.values_list("seat__position", "points")),
                "scores_after": dict(round_.scores.values_list("seat__position", "score_after")),
            }
        )
    return rounds


def history_of(game: Game) -> list[dict]:
    state = engine.from_dict(game.state)
    scores = [0] * state.seats
    rounds = []
    for result in state.history:
        for seat, gained in result.points.items():
            scores[seat] += gained
        rounds.append(
            {
                "round": result.round,
                "storyteller": result.storyteller,
                "clue": result.clue,
                "storyteller_card": result.storyteller_card,
                "skipped": result.skipped,
                "table": tuple(result.table),
                "owners": dict(result.owners),
                "storyteller_cards": [result.storyteller_card] if result.table else [],
                "votes": dict(result.votes),
                "votes_drawn": {
                    position: sum(1 for voted in result.votes.values() if voted == position)
                    for position in range(1, len(result.table) + 1)
                },
                "points": dict(result.points),
                "scores_after": dict(enumerate(scores)),
            }
        )
    return rounds


class TestWholeGames:
    @pytest.mark.parametrize("players, seed", [(3, 1), (4, 2), (5, 3), (6, 4)])
    def test_rows_are_the_engines_history(self, players, seed):
        game, users = started_game(players, deck=deck_with_cards(players * 12))
        game = play_with_timeouts(game, users, random.Random(seed))
        assert game.status == Game.Status.FINISHED
        history = history_of(game)
        assert len(history) >= 2
        assert rows_of(game) == history
        # The last scores are the seats' own.
        assert history[-1]["scores_after"] == {seat.position: seat.score for seat in game.seats.all()}

    def test_each_round_is_recorded_with_the_move_that_reveals_it(self):
        game, users = started_game(3, deck=deck_with_cards(40))
        play_three_rounds(game, users)
        assert StorytellerRound.objects.filter(game=game).count() == 3
        assert StorytellerVote.objects.filter(round__game=game).count() == 3 * 2
        assert StorytellerTableCard.objects.filter(round__game=game).count() == 3 * 5
        assert StorytellerRoundScore.objects.filter(round__game=game).count() == 3 * 3
        game.refresh_from_db()
        assert rows_of(game) == history_of(game)


class TestConstraints:
    """The database refuses what the rules forbid, whatever code writes the rows."""

    @pytest.fixture
    def revealed(self):
        game, users = started_game(3, deck=deck_with_cards(40))
        play_three_rounds(game, users)
        return StorytellerRound.objects.filter(game=game).order_by("number").first()

    def test_a_second_vote_of_a_voter_in_a_round(self, revealed):
        vote = revealed.votes.first()
        other = revealed.table_cards.exclude(pk=vote.table_card_id).exclude(owner=vote.voter).first()
        with pytest.raises(IntegrityError), transaction.atomic():
            StorytellerVote.objects.create(round=revealed, voter=vote.voter, table_card=other)

    def test_a_card_submitted_twice_in_a_round(self, revealed):
        laid = revealed.table_cards.filter(is_storyteller_card=False).first()
        with pytest.raises(IntegrityError), transaction.atomic():
            StorytellerTableCard.objects.create(
                round=revealed,
                card=laid.card,
                owner=laid.owner,
                position=9,
                is_storyteller_card=False,
                votes=0,
                votes_cast=0,
            )

    def test_a_second_storyteller_card(self, revealed):
        deck_card = StorytellerTableCard.objects.exclude(round=revealed).first().card
        laid = revealed.table_cards.get(is_storyteller_card=True)
        with pytest.raises(IntegrityError), transaction.atomic():
            StorytellerTableCard.objects.create(
                round=revealed,
                card=deck_card,
                owner=laid.owner,
                position=9,
                is_storyteller_card=True,
                votes=0,
                votes_cast=0,
            )

    def test_two_cards_in_one_place(self, revealed):
        laid = revealed.table_cards.first()
        unused = (
            StorytellerTableCard.objects.exclude(round=revealed)
            .exclude(card__in=revealed.table_cards.values("card"))
            .first()
            .card
        )
        with pytest.raises(IntegrityError), transaction.atomic():
            StorytellerTableCard.objects.create(
                round=revealed,
                card=unused,
                owner=laid.owner,
                position=laid.position,
                is_storyteller_card=False,
                votes=0,
                votes_cast=0,
            )

    def test_a_second_score_of_a_seat(self, revealed):
        score = revealed.scores.first()
        with pytest.raises(IntegrityError), transaction.atomic():
            StorytellerRoundScore.objects.create(
                round=revealed, seat=score.seat, points=0, score_after=score.score_after
            )

    def test_a_lost_turn_with_a_clue(self, revealed):
        with pytest.raises(IntegrityError), transaction.atomic():
            StorytellerRound.objects.filter(pk=revealed.pk).update(skipped=True)

    def test_a_vote_for_ones_own_card_is_refused_before_the_database(self, revealed):
        laid = revealed.table_cards.filter(is_storyteller_card=False).first()
        with pytest.raises(IntegrityError, match="own card"):
            storyteller_vote_row(round_=revealed, voter=laid.owner_id, table_card=laid)
        other_round = StorytellerRound.objects.exclude(pk=revealed.pk).filter(game=revealed.game).first()
        voter = revealed.votes.first().voter_id
        elsewhere = other_round.table_cards.exclude(owner_id=voter).first()
        with pytest.raises(IntegrityError, match="own round"):
            storyteller_vote_row(round_=revealed, voter=voter, table_card=elsewhere)


class TestAdmin:
    """Rounds are browsable, read only, with their table, votes and scores."""

    def test_rounds_of_a_game_and_one_round_with_its_rows(self, admin_client):
        from django.urls import reverse

        game, users = started_game(3, deck=deck_with_cards(40))
        play_three_rounds(game, users)
        other, other_users = started_game(3, deck=deck_with_cards(40))
        play_three_rounds(other, other_users)
        listing = admin_client.get(reverse("admin:storyteller_storytellerround_changelist"), {"game": game.pk})
        assert listing.status_code == 200
        assert listing.context["cl"].result_count == 3
        assert {r.game_id for r in listing.context["cl"].result_list} == {game.pk}
        assert (
            admin_client.get(reverse("admin:storyteller_storytellerround_changelist")).context["cl"].result_count == 6
        )

        round_ = StorytellerRound.objects.filter(game=game).order_by("number").first()
        page = admin_client.get(reverse("admin:storyteller_storytellerround_change", args=[round_.pk]))
        assert page.status_code == 200
        html = page.content.decode()
        assert "a dream" in html  # the clue
        for vote in round_.votes.select_related("voter__user"):
            assert f"{vote.voter.position}: {vote.voter.user}" in html
        assert "Storyteller round scores" in html and "Storyteller votes" in html and "Cards on the table" in html
        assert 'name="_save"' not in html  # read only
        assert (
            admin_client.post(reverse("admin:storyteller_storytellerround_delete", args=[round_.pk])).status_code == 403
        )


def test_the_vote_that_reveals_a_round_writes_its_rows_without_reading_the_seats_again():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.tests.timeouts.steps import any_other_position, to_vote, vote

    game, users = started_game(4)
    to_vote(game, users, teller=0)
    for seat in (1, 2):
        vote(game, users[seat], any_other_position(game, seat))
    with CaptureQueriesContext(connection) as queries:
        vote(game, users[3], any_other_position(game, 3))  # the last vote: the round revealed, its rows written
    seat_reads = [
        q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT") and "games_seat" in q["sql"]
    ]
    assert len(seat_reads) == 1, seat_reads  # the seats read under the lock, once
    # the rows name the right seats: the storyteller's, and each seat's score
    row = StorytellerRound.objects.get(game=game, number=1)
    assert row.storyteller_seat.position == 0
    state = engine.from_dict(Game.objects.get(pk=game.pk).state)
    scores = StorytellerRoundScore.objects.filter(round=row).values_list("seat__position", "score_after")
    assert sorted(scores) == list(enumerate(state.scores))
