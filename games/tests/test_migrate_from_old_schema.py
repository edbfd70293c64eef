"""A database made before the games moved into their own apps migrates without loss, and play goes on in it.

The schema before the move: the core's migrations up to ``games.0003_think_alike``
(decks, cards, rounds, task cards and board fields all in the core's tables, a
game's deck a column of ``Game``), every other app at its latest, the games' apps
not yet there. Rows are made through the historical models as the old code wrote
them, with engine states in the layout it wrote (schema 1: the state fixtures the
engines keep reading), then the database migrates to the latest of every app
(whatever migrations the games' apps have gained) and the games are played on
through the services.
"""

import json
import random
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management.color import no_style
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Move
from games.selectors.games import game_view
from games.services.games import game_act

ROOT = Path(__file__).resolve().parents[2]
GAME_APPS = ("storyteller", "think_alike")
BEFORE = ("games", "0003_think_alike")


def fixture_state(app: str, pick) -> dict:
    """A state the engine of ``app`` wrote in its first layout (schema 1), as old databases hold them."""
    states = json.loads((ROOT / app / "tests" / "engine" / "fixtures" / "states_schema1.json").read_text())
    return next(state for state in states if pick(state))


def migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor


def latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def old_schema() -> list[tuple[str, str | None]]:
    """Every other app at its latest, unless that latest needs the core past ``BEFORE``: such an app came later."""
    graph = MigrationExecutor(connection).loader.graph
    before = set(graph.forwards_plan(BEFORE))
    others = []
    for app, name in latest():
        if app in ("games", *GAME_APPS):
            continue
        core_needed = {node for node in graph.forwards_plan((app, name)) if node[0] == "games"}
        others.append((app, name) if core_needed <= before else (app, None))
    return [*others, BEFORE, *((app, None) for app in GAME_APPS)]


def reset_sequences(*models) -> None:
    """Rows were made with their old ids: let the database's counters go on after them (PostgreSQL)."""
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(sql)


@pytest.fixture
def old_apps():
    """The historical models of the old schema; the database goes back to the latest afterwards, whatever happens."""
    targets = old_schema()
    executor = migrate(targets)
    try:
        yield executor.loader.project_state([target for target in targets if target[1] is not None]).apps
    finally:
        migrate(latest())


def make_users(apps, prefix: str, count: int) -> list:
    User = apps.get_model("accounts", "User")
    return [
        User.objects.create(
            username=f"{prefix}{n}", email=f"{prefix}{n}@example.com", display_name=f"{prefix} {n}", password="!"
        )
        for n in range(count)
    ]


def make_seats(apps, game, users, state, to_act) -> None:
    Seat = apps.get_model("games", "Seat")
    colours = ["blue", "red", "green", "yellow", "purple", "orange"]
    for position, user in enumerate(users):
        Seat.objects.create(
            game=game,
            user=user,
            position=position,
            colour=colours[position],
            score=state["scores"][position],
            to_act=position in to_act,
        )


def old_storyteller_game(apps, now):
    """A Storyteller game of six in round 3, the clue given, cards to hand in; two rounds revealed."""
    state = fixture_state("storyteller", lambda s: s["phase"] == "submit" and len(s["history"]) == 2)
    Deck, Card = apps.get_model("games", "Deck"), apps.get_model("games", "Card")
    Round, TableCard = apps.get_model("games", "StorytellerRound"), apps.get_model("games", "StorytellerTableCard")
    CardDeal, Move_ = apps.get_model("games", "CardDeal"), apps.get_model("games", "Move")
    Game_, Seat = apps.get_model("games", "Game"), apps.get_model("games", "Seat")

    cards = {
        *state["draw_pile"],
        *state["discard"],
        *(c for hand in state["hands"] for c in hand),
        state["storyteller_card"],
    }
    deck = Deck.objects.create(slug="old-deck", name="The old deck")
    Card.objects.bulk_create(
        Card(id=card, deck=deck, image=f"cards/old/{card}.webp", alt_text=f"Old card {card}") for card in sorted(cards)
    )
    reset_sequences(Card)
    users = make_users(apps, "teller", state["seats"])
    game = Game_.objects.create(
        kind="storyteller",
        status="active",
        pace="async",
        phase_seconds=24 * 3600,
        visibility="public",
        max_seats=state["seats"],
        creator=users[0],
        deck=deck,
        options={"target_score": 12},
        state=state,
        version=30,
        round=state["round"],
        phase=state["phase"],
        deadline_at=now + timedelta(hours=20),
        started_at=now - timedelta(days=2),
    )
    make_seats(apps, game, users, state, to_act={s for s in range(state["seats"]) if s != state["storyteller"]})
    seats = {seat.position: seat for seat in Seat.objects.filter(game=game)}
    dealt = cards - set(state["draw_pile"])
    CardDeal.objects.bulk_create(CardDeal(game=game, card_id=card, dealt_at=now - timedelta(days=2)) for card in dealt)
    scores = [0] * state["seats"]
    for played in state["history"]:
        for seat, points in played["points"].items():
            scores[int(seat)] += points
        voters: dict[int, list[int]] = {}
        for voter, position in sorted(played["votes"].items()):
            voters.setdefault(position, []).append(int(voter))
        table = [
            {"position": p, "card": card, "owner": played["owners"][str(card)], "voters": voters.get(p, [])}
            for p, card in enumerate(played["table"], 1)
        ]
        row = Round.objects.create(
            game=game,
            number=played["round"],
            storyteller=played["storyteller"],
            clue=played["clue"],
            storyteller_card_id=played["storyteller_card"],
            skipped=played["skipped"],
            table=table,
            points=played["points"],
            scores_after={str(s): score for s, score in enumerate(scores)},
            revealed_at=now - timedelta(days=1),
        )
        TableCard.objects.bulk_create(
            TableCard(
                round=row,
                card_id=entry["card"],
                owner=seats[entry["owner"]],
                position=entry["position"],
                is_storyteller_card=entry["card"] == played["storyteller_card"],
                votes=len(entry["voters"]),
                votes_cast=len(played["votes"]),
            )
            for entry in table
        )
        Move_.objects.create(
            game=game,
            seat=seats[played["storyteller"]],
            round=played["round"],
            kind="clue",
            payload={"card": played["storyteller_card"], "text": played["clue"]},
            version=played["round"] * 10,
        )
    assert scores == state["scores"]
    return game.pk, deck.pk, state


def old_think_alike_game(apps, now):
    """A Think Alike game of four on a course of the creator's, round 2 to roll; round 1 scored."""
    state = fixture_state(
        "think_alike", lambda s: s["phase"] == "roll" and len(s["history"]) == 1 and s["options"]["board"] == "course"
    )
    BoardField, TaskCard = apps.get_model("games", "BoardField"), apps.get_model("games", "TaskCard")
    Round, Game_ = apps.get_model("games", "ThinkAlikeRound"), apps.get_model("games", "Game")
    BoardField.objects.bulk_create(
        BoardField(
            id=f["id"],
            key=f"old-field-{f['id']}",
            kind=f["kind"],
            bonus=f["bonus"],
            text_en=f["text"],
            text_da=f"{f['text']} (da)",
            is_start=f["start"],
        )
        for f in state["fields"]
    )
    TaskCard.objects.bulk_create(
        TaskCard(
            id=t["id"], key=f"old-task-{t['id']}", text_en=t["text"], text_da=f"{t['text']} (da)", answers=t["answers"]
        )
        for t in state["tasks"]
    )
    reset_sequences(BoardField, TaskCard)
    users = make_users(apps, "thinker", state["seats"])
    game = Game_.objects.create(
        kind="think_alike",
        status="active",
        pace="async",
        phase_seconds=24 * 3600,
        visibility="private",
        max_seats=state["seats"],
        creator=users[0],
        options=state["options"],
        state=state,
        version=12,
        round=state["round"],
        phase=state["phase"],
        deadline_at=now + timedelta(hours=20),
        started_at=now - timedelta(days=1),
    )
    make_seats(apps, game, users, state, to_act={state["turn"]})
    played = state["history"][0]
    task = next(t for t in state["tasks"] if t["id"] == played["task"])
    field = next(f for f in state["fields"] if f["id"] == played["field"])
    Round.objects.create(
        game=game,
        number=played["number"],
        turn=played["turn"],
        task_id=task["id"],
        task_text=task["text"],
        answers_asked=task["answers"],
        die=played["die"],
        direction=played["direction"],
        landed_kind="duel",
        hint_field_id=field["id"],
        hint=field["text"],
        moved_to=played["moved_to"],
        duel_opponent=played["duel"]["opponent"],
        duel_bonus=played["duel"]["bonus"],
        duel_winner=played["duel"]["winner"],
        auto=played["auto"],
        answers={str(seat): given for seat, given in enumerate(played["answers"])},
        groups=played["groups"],
        rulings=played["rulings"],
        points={str(seat): points for seat, points in enumerate(played["points"])},
        scores_after={str(seat): score for seat, score in enumerate(state["scores"])},
        scored_at=now - timedelta(hours=3),
    )
    return game.pk, state


def play_until(game: Game, done, *, seed: int = 11, limit: int = 200) -> None:
    """Everyone awaited acts as their kind draws it, until ``done(game)``."""
    rng = random.Random(seed)
    kind = game.game_kind
    for _ in range(limit):
        game.refresh_from_db()
        if done(game):
            return
        state = kind.engine.from_dict(game.state)
        seat = min(kind.engine.to_act(state))
        action = kind.sample_action(state, seat=seat, rng=rng)
        version = game.version
        user = game.seats.get(position=seat).user
        game_act(game_id=game.pk, user=user, action=action, expected_round=game.round)
        assert Game.objects.get(pk=game.pk).version == version + 1
    pytest.fail("the game did not get there")


@pytest.mark.django_db(transaction=True)
def test_an_old_database_migrates_and_its_games_play_on(old_apps):
    now = timezone.now()
    story_id, deck_id, story_state = old_storyteller_game(old_apps, now)
    think_id, think_state = old_think_alike_game(old_apps, now)

    migrate(latest())

    from storyteller.models import Card, Deck, StorytellerRound, StorytellerRoundScore, StorytellerVote
    from think_alike.models import (
        BoardField,
        TaskCard,
        ThinkAlikeAnswer,
        ThinkAlikeGroup,
        ThinkAlikeRound,
        ThinkAlikeRoundScore,
        ThinkAlikeRuling,
    )

    # Storyteller: the deck is in the options, the cards and rounds are the app's.
    story = Game.objects.get(pk=story_id)
    assert story.options == {"target_score": 12, "deck": deck_id}
    assert Deck.objects.get(pk=deck_id).slug == "old-deck"
    hand = story_state["hands"][0]
    assert set(Card.objects.filter(pk__in=hand).values_list("deck_id", flat=True)) == {deck_id}
    assert Card.objects.filter(deck_id=deck_id).count() == 56
    assert list(StorytellerRound.objects.filter(game=story).values_list("number", flat=True)) == [1, 2]
    assert story.moves.count() == 2
    view = game_view(game=story, seats=list(story.seats.select_related("user")), user=story.seats.get(position=0).user)
    assert [card["id"] for card in view["hand"]] == hand
    assert view["last_round"]["round"] == 2 and view["phase"] == "submit"

    # The next action applies; the round it finishes is recorded beside the old ones.
    game_act(game_id=story_id, user=story.seats.get(position=0).user, action={"type": "submit", "cards": [hand[0]]})
    story.refresh_from_db()
    assert story.version == 31 and not story.seats.get(position=0).to_act
    assert Move.objects.filter(game=story, kind="submit").count() == 1
    play_until(story, lambda game: game.round == 4 or game.status == Game.Status.FINISHED)
    assert list(StorytellerRound.objects.filter(game=story).values_list("number", flat=True)) == [1, 2, 3]
    # The replay reads the old rounds and the new one alike; the game's page shows the last reveal.
    replay = Client().get(reverse("stats:replay", args=[story_id]))
    assert replay.status_code == 200
    assert all(f'id="round-{number}"' in replay.content.decode() for number in (1, 2, 3))
    assert Client().get(reverse("games:detail", args=[story_id])).status_code == 200

    # Think Alike: its content and round are the app's, and its round 2 is played to the end.
    think = Game.objects.get(pk=think_id)
    assert "deck" not in think.options and think.options["board"] == "course"
    assert BoardField.objects.count() == len(think_state["fields"])
    assert TaskCard.objects.count() == len(think_state["tasks"])
    assert TaskCard.objects.get(pk=1).text_en == "Task 1"
    assert list(ThinkAlikeRound.objects.filter(game=think).values_list("number", "task_id")) == [(1, 1)]
    turn = think.seats.get(position=think_state["turn"]).user
    game_act(game_id=think_id, user=turn, action={"type": "roll"})
    assert Game.objects.get(pk=think_id).phase == "move"
    play_until(think, lambda game: game.round == 3 or game.status == Game.Status.FINISHED)
    assert list(ThinkAlikeRound.objects.filter(game=think).values_list("number", flat=True)) == [1, 2]

    # The rows made from the old rounds' JSON: votes, scores, answers, groups, rulings.
    old = {"round__number__in": [1, 2]}
    assert StorytellerVote.objects.filter(round__game=story, **old).count() == 10
    assert StorytellerRoundScore.objects.filter(round__game=story, **old).count() == 12
    assert set(StorytellerRound.objects.filter(game=story).values_list("storyteller_seat__position", flat=True)) == {
        3,
        4,
        5,
    }
    first = {"round__game": think, "round__number": 1}
    assert sorted(ThinkAlikeAnswer.objects.filter(**first).values_list("text", flat=True)) == sorted(
        ["Apple", "apples", "pear", "pears"]
    )
    assert ThinkAlikeGroup.objects.filter(**first).count() == 3
    assert ThinkAlikeRuling.objects.filter(**first).count() == 1
    assert list(
        ThinkAlikeRoundScore.objects.filter(**first).order_by("seat__position").values_list("points", flat=True)
    ) == [0, 0, 5, 1]
