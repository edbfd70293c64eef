"""Migrations 0002-0004: the rounds of a database made before there were rows get theirs,
from the JSON of each round, and replays and statistics read them as if played today."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.models import Game, Seat
from games.tests.factories import UserFactory
from storyteller.models import StorytellerRound, StorytellerTableCard
from storyteller.replay import storyteller_replay
from storyteller.stats import storyteller_contributions

BEFORE = [("storyteller", "0001_initial")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest():
    executor = MigrationExecutor(connection)
    return [key for key in executor.loader.graph.leaf_nodes() if key[0] == "storyteller"]


@pytest.mark.django_db(transaction=True)
def test_rounds_of_before_the_rows_get_their_rows():
    old = migrate(BEFORE)
    OldRound = old.get_model("storyteller", "StorytellerRound")
    OldTableCard = old.get_model("storyteller", "StorytellerTableCard")

    users = UserFactory.create_batch(4)
    # The cards as that schema had them (today's Card has columns added since).
    OldDeck, OldCard = old.get_model("storyteller", "Deck"), old.get_model("storyteller", "Card")
    deck = OldDeck.objects.create(slug="before-the-rows", name="Before the rows")
    cards = [
        OldCard.objects.create(deck=deck, image=f"cards/test/{n}.webp", alt_text=f"Picture {n}").pk for n in range(12)
    ]
    now = timezone.now()
    game = Game.objects.create(
        kind="storyteller",
        status=Game.Status.FINISHED,
        phase="finished",
        phase_seconds=3600,
        max_seats=4,
        creator=users[0],
        round=3,
        started_at=now,
        finished_at=now,
    )
    seats = Seat.objects.bulk_create(
        Seat(game=game, user=user, position=position, score=score)
        for position, (user, score) in enumerate(zip(users, [3, 4, 3, 0]))
    )
    seat = {s.position: s for s in seats}
    # Round 1: Ann (0) tells card 0 at position 2; Bo (1) finds it, Cy (2) votes Bo's card, Di (3) Cy's.
    table_1 = [
        {"position": 1, "card": cards[1], "owner": 1, "voters": [2]},
        {"position": 2, "card": cards[0], "owner": 0, "voters": [1]},
        {"position": 3, "card": cards[2], "owner": 2, "voters": [3]},
        {"position": 4, "card": cards[3], "owner": 3, "voters": []},
    ]
    round_1 = OldRound.objects.create(
        game_id=game.pk,
        number=1,
        storyteller=0,
        clue="A door",
        storyteller_card_id=cards[0],
        skipped=False,
        table=table_1,
        points={"0": 3, "1": 4, "2": 1, "3": 0},
        scores_after={"0": 3, "1": 4, "2": 1, "3": 0},
        revealed_at=now,
    )
    # Its table cards as card statistics wrote them already: the migration keeps them and links the votes.
    OldTableCard.objects.bulk_create(
        OldTableCard(
            round_id=round_1.pk,
            card_id=entry["card"],
            owner_id=seat[entry["owner"]].pk,
            position=entry["position"],
            is_storyteller_card=entry["owner"] == 0,
            votes=len(entry["voters"]),
            votes_cast=3,
        )
        for entry in table_1
    )
    # Round 2: Bo tells; everyone finds it (no table card rows yet: a round of before card statistics).
    OldRound.objects.create(
        game_id=game.pk,
        number=2,
        storyteller=1,
        clue="Teatime",
        storyteller_card_id=cards[5],
        skipped=False,
        table=[
            {"position": 1, "card": cards[4], "owner": 2, "voters": []},
            {"position": 2, "card": cards[5], "owner": 1, "voters": [0, 2, 3]},
            {"position": 3, "card": cards[6], "owner": 0, "voters": []},
            {"position": 4, "card": cards[7], "owner": 3, "voters": []},
        ],
        points={"0": 2, "1": 0, "2": 2, "3": 2},
        scores_after={"0": 5, "1": 4, "2": 3, "3": 2},
        revealed_at=now,
    )
    # Round 3: Cy lost the turn.
    OldRound.objects.create(
        game_id=game.pk,
        number=3,
        storyteller=2,
        clue="",
        skipped=True,
        table=[],
        points={"0": 0, "1": 0, "2": 0, "3": 0},
        scores_after={"0": 5, "1": 4, "2": 3, "3": 2},
        revealed_at=now,
    )

    migrate(latest())

    rounds = list(StorytellerRound.objects.filter(game=game).order_by("number"))
    assert [r.storyteller_seat_id for r in rounds] == [seat[0].pk, seat[1].pk, seat[2].pk]
    assert StorytellerTableCard.objects.filter(round=rounds[0]).count() == 4  # kept, not doubled
    laid_2 = list(rounds[1].table_cards.order_by("position"))
    assert [(c.card_id, c.owner_id, c.is_storyteller_card, c.votes, c.votes_cast) for c in laid_2] == [
        (cards[4], seat[2].pk, False, 0, 3),
        (cards[5], seat[1].pk, True, 3, 3),
        (cards[6], seat[0].pk, False, 0, 3),
        (cards[7], seat[3].pk, False, 0, 3),
    ]
    assert sorted(rounds[0].votes.values_list("voter__position", "table_card__position")) == [(1, 2), (2, 1), (3, 3)]
    assert sorted(rounds[1].votes.values_list("voter__position", "table_card__position")) == [(0, 2), (2, 2), (3, 2)]
    assert not rounds[2].votes.exists() and not rounds[2].table_cards.exists()
    assert sorted(rounds[1].scores.values_list("seat__position", "points", "score_after")) == [
        (0, 2, 5),
        (1, 0, 4),
        (2, 2, 3),
        (3, 2, 2),
    ]
    assert rounds[2].scores.count() == 4

    # The replay and the statistics read the rows as they read those of a game played today.
    replay = storyteller_replay(game=game, seats=list(game.seats.select_related("user").order_by("position")))
    assert [(r["number"], r["outcome"], r["found"], r["votes"]) for r in replay["rounds"]] == [
        (1, "just_right", 1, 3),
        (2, "all_found", 3, 3),
        (3, "skipped", 0, 0),
    ]
    first = replay["rounds"][0]["table"]
    assert [
        (c["position"], c["owner"]["seat"], [v["seat"] for v in c["voters"]], c["is_storytellers"]) for c in first
    ] == [
        (1, 1, [2], False),
        (2, 0, [1], True),
        (3, 2, [3], False),
        (4, 3, [], False),
    ]
    assert [(s["seat"], s["points"], s["score"]) for s in replay["rounds"][1]["standings"]] == [
        (0, 2, 5),
        (1, 0, 4),
        (2, 2, 3),
        (3, 2, 2),
    ]
    by_seat = storyteller_contributions([game.pk])[game.pk]
    assert {seat: (c.rounds, c.points) for seat, c in by_seat.items()} == {0: (2, 5), 1: (2, 4), 2: (3, 3), 3: (2, 2)}
    assert by_seat[0].counts == {
        "clues": 1,
        "just_right": 1,
        "guesses": 1,
        "found": 1,
        "decoys": 1,
        "clue_games": 1,
        "guess_games": 1,
        "decoy_games": 1,
    }
    assert by_seat[1].counts["clues"] == 1 and "just_right" not in by_seat[1].counts
