"""A Think Alike game's rounds as rows: answers, final groups, rulings and seat scores,
written with the move that scores a round, equal to the engine's history, held by the
database to one answer per seat and index, one score per seat; and old JSON rounds
migrated into rows."""

import random
from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.models import Game, Seat
from games.services.games import game_act, game_expire
from games.tests.factories import UserFactory
from think_alike.engine import rules as engine
from think_alike.models import (
    ThinkAlikeAnswer,
    ThinkAlikeGroup,
    ThinkAlikeRound,
    ThinkAlikeRoundScore,
    ThinkAlikeRuling,
)
from think_alike.replay import think_alike_replay
from think_alike.stats import think_alike_contributions

from .content import course_ids, small_content, think_alike_game

WORDS = ["sun", "Sun", "moon", "tree", "trees", "", "river"]


def choose(state: engine.State, seat: int, rng: random.Random) -> dict | None:
    """A legal action of this seat's, at random; in review, a merge or a split now and then."""
    phase = state.phase
    unused = engine.unused_fields(state)
    if phase == engine.Phase.ANSWER:
        wanted = engine.task(state, state.current.task).answers
        return {"type": "answer", "answers": [rng.choice(WORDS) for _ in range(wanted)]}
    if phase == engine.Phase.DRAFT:
        return {"type": "place_field", "field": rng.choice(unused)}
    if phase == engine.Phase.ROLL:
        return {"type": "roll"}
    if phase == engine.Phase.MOVE:
        return {"type": "move", "direction": rng.choice(engine.DIRECTIONS)}
    if phase == engine.Phase.SWAP and unused:
        removable = [f for f in state.board if not engine.field(state, f).start]
        return {"type": "swap", "remove": rng.choice(removable), "add": rng.choice(unused)}
    if phase == engine.Phase.MOVE_TO:
        return {"type": "move_to", "position": rng.choice([p for p in range(engine.BOARD_SIZE) if p != state.token])}
    if phase == engine.Phase.DUEL:
        opponents = [s for s in range(state.seats) if s != seat and s not in state.resigned]
        positions = engine.association_positions(state)
        return {"type": "duel", "opponent": rng.choice(opponents), "position": rng.choice(positions or [None])}
    if phase == engine.Phase.REVIEW:
        groups = state.current.groups
        # Always in the first round (so that every game has rulings to keep), then now and then.
        first = not state.history
        if len(state.current.rulings) < 2 and (first and not state.current.rulings or rng.random() < 0.5):
            big = [g for g in groups if len(g.items) > 1]
            if big and rng.random() < 0.5:
                group = rng.choice(big)
                return {"type": "split", "group": group.id, "items": [list(group.items[0])]}
            if len(groups) > 1:
                return {"type": "merge", "groups": [g.id for g in rng.sample(list(groups), 2)]}
        return {"type": "confirm"}
    return None


def play_to_end(game: Game, users, rng: random.Random, *, max_steps: int = 3000) -> Game:
    """Players act at random; now and then a deadline passes instead (no answer in time)."""
    for _ in range(max_steps):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = engine.from_dict(game.state)
        acting = sorted(engine.to_act(state))
        now = timezone.now()
        if game.deadline_at is not None and (rng.random() < 0.1 or not acting):
            game_expire(game_id=game.pk, version=game.version, now=max(now, game.deadline_at + timedelta(seconds=1)))
            continue
        seat = rng.choice(acting)
        action = choose(state, seat, rng)
        if action is None:
            game_expire(game_id=game.pk, version=game.version, now=game.deadline_at + timedelta(seconds=1))
            continue
        game_act(game_id=game.pk, user=users[seat], action=action, expected_round=game.round, now=now)
    game.refresh_from_db()
    return game


def rows_of(game: Game) -> list[dict]:
    rounds = []
    for round_ in ThinkAlikeRound.objects.filter(game=game).order_by("number"):
        seats = dict(round_.scores.values_list("seat__position", "answered"))
        answers: dict[int, list[str]] = {}
        for seat, text in round_.answer_rows.order_by("seat__position", "index").values_list("seat__position", "text"):
            answers.setdefault(seat, []).append(text)
        rounds.append(
            {
                "number": round_.number,
                "turn": round_.turn,
                "answers": [tuple(answers.get(seat, ())) if seats[seat] else None for seat in sorted(seats)],
                "groups": [
                    (
                        group.number,
                        group.key,
                        tuple(group.answers.order_by("seat__position", "index").values_list("seat__position", "index")),
                    )
                    for group in round_.group_rows.order_by("number")
                ],
                "rulings": [
                    (r.kind, tuple(r.groups), r.result, tuple(tuple(i) for i in r.items))
                    for r in round_.ruling_rows.order_by("order")
                ],
                "points": list(round_.scores.order_by("seat__position").values_list("points", flat=True)),
                "scores_after": list(round_.scores.order_by("seat__position").values_list("score_after", flat=True)),
            }
        )
    return rounds


def history_of(game: Game) -> list[dict]:
    state = engine.from_dict(game.state)
    scores = [0] * state.seats
    rounds = []
    for played in state.history:
        scores = [score + gained for score, gained in zip(scores, played.points)]
        rounds.append(
            {
                "number": played.number,
                "turn": played.turn,
                "answers": [None if given is None else tuple(given) for given in played.answers],
                "groups": [(g.id, g.key, tuple(tuple(i) for i in g.items)) for g in played.groups],
                "rulings": [
                    (r.kind, tuple(r.groups), r.result, tuple(tuple(i) for i in r.items)) for r in played.rulings
                ],
                "points": list(played.points),
                "scores_after": list(scores),
            }
        )
    return rounds


@pytest.mark.django_db
class TestWholeGames:
    @pytest.mark.parametrize("players, seed", [(3, 1), (4, 2), (5, 3)])
    def test_rows_are_the_engines_history(self, players, seed):
        content = small_content(answers=2)
        options = {
            "stop": "tasks",
            "count": 8,
            "board": "course",
            "course": course_ids(content, "duel4", "swap", "move"),
        }
        game, users = think_alike_game(players, options=options)
        game = play_to_end(game, users, random.Random(seed))
        assert game.status == Game.Status.FINISHED
        history = history_of(game)
        assert len(history) == 8
        assert rows_of(game) == history
        assert any(r["rulings"] for r in history)  # the merges and splits are rows too
        assert history[-1]["scores_after"] == [seat.score for seat in game.seats.order_by("position")]
        # Blank answers are kept, in no group.
        assert not ThinkAlikeAnswer.objects.filter(round__game=game, text="", group__isnull=False).exists()


@pytest.mark.django_db
class TestConstraints:
    @pytest.fixture
    def scored(self):
        content = small_content()
        game, users = think_alike_game(
            3, options={"stop": "tasks", "count": 1, "board": "course", "course": course_ids(content)}
        )
        play_to_end(game, users, random.Random(7))
        return ThinkAlikeRound.objects.get(game=game)

    def test_a_second_answer_in_the_same_place(self, scored):
        seat = scored.game.seats.first()
        ThinkAlikeAnswer.objects.filter(round=scored, seat=seat).delete()
        ThinkAlikeAnswer.objects.create(round=scored, seat=seat, index=0, text="one")
        with pytest.raises(IntegrityError), transaction.atomic():
            ThinkAlikeAnswer.objects.create(round=scored, seat=seat, index=0, text="two")

    def test_a_blank_answer_in_a_group(self, scored):
        group = ThinkAlikeGroup.objects.create(round=scored, number=99, key="x")
        with pytest.raises(IntegrityError), transaction.atomic():
            ThinkAlikeAnswer.objects.create(round=scored, seat=scored.game.seats.first(), index=5, text="", group=group)

    def test_a_second_group_of_the_same_number(self, scored):
        ThinkAlikeGroup.objects.create(round=scored, number=99, key="x")
        with pytest.raises(IntegrityError), transaction.atomic():
            ThinkAlikeGroup.objects.create(round=scored, number=99, key="y")

    def test_a_second_score_of_a_seat(self, scored):
        score = scored.scores.first()
        with pytest.raises(IntegrityError), transaction.atomic():
            ThinkAlikeRoundScore.objects.create(
                round=scored, seat=score.seat, answered=True, points=0, score_after=score.score_after
            )

    def test_a_ruling_of_no_kind(self, scored):
        with pytest.raises(IntegrityError), transaction.atomic():
            ThinkAlikeRuling.objects.create(round=scored, order=0, kind="swap", groups=[1], result=1)


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_rounds_of_before_the_rows_get_their_rows():
    old = migrate([("think_alike", "0001_initial")])
    OldRound = old.get_model("think_alike", "ThinkAlikeRound")

    users = UserFactory.create_batch(3)
    now = timezone.now()
    game = Game.objects.create(
        kind="think_alike",
        status=Game.Status.FINISHED,
        phase="finished",
        phase_seconds=3600,
        max_seats=3,
        creator=users[0],
        round=2,
        started_at=now,
        finished_at=now,
    )
    seats = Seat.objects.bulk_create(Seat(game=game, user=user, position=p) for p, user in enumerate(users))
    common = {"game_id": game.pk, "task_text": "A fruit", "answers_asked": 2, "scored_at": now}
    # Round 1: Ann and Bo both wrote "apple" (a merge joined "Apple" and "apples"); Cy wrote "pear" and a blank.
    OldRound.objects.create(
        number=1,
        turn=0,
        **common,
        answers={"0": ["Apple", "kiwi"], "1": ["apples", "plum"], "2": ["pear", ""]},
        groups=[
            {"id": 1, "key": "apple", "items": [[0, 0], [1, 0]]},
            {"id": 3, "key": "kiwi", "items": [[0, 1]]},
            {"id": 4, "key": "pear", "items": [[2, 0]]},
            {"id": 5, "key": "plum", "items": [[1, 1]]},
        ],
        rulings=[{"kind": "merge", "groups": [1, 2], "result": 1, "items": []}],
        points={"0": 1, "1": 1, "2": 0},
        scores_after={"0": 1, "1": 1, "2": 0},
    )
    # Round 2: a duel Bo won against Cy, who gave no answer in time.
    OldRound.objects.create(
        number=2,
        turn=1,
        duel_opponent=2,
        duel_bonus=4,
        duel_winner=1,
        **common,
        answers={"0": ["fig", "lime"], "1": ["fig", "date"], "2": None},
        groups=[
            {"id": 1, "key": "fig", "items": [[0, 0], [1, 0]]},
            {"id": 2, "key": "date", "items": [[1, 1]]},
            {"id": 3, "key": "lime", "items": [[0, 1]]},
        ],
        rulings=[],
        points={"0": 1, "1": 5, "2": 0},
        scores_after={"0": 2, "1": 6, "2": 0},
    )

    executor = MigrationExecutor(connection)
    migrate([key for key in executor.loader.graph.leaf_nodes() if key[0] == "think_alike"])

    first, second = ThinkAlikeRound.objects.filter(game=game).order_by("number")
    assert list(
        first.answer_rows.order_by("seat__position", "index").values_list(
            "seat__position", "index", "text", "group__number"
        )
    ) == [
        (0, 0, "Apple", 1),
        (0, 1, "kiwi", 3),
        (1, 0, "apples", 1),
        (1, 1, "plum", 5),
        (2, 0, "pear", 4),
        (2, 1, "", None),
    ]
    assert list(first.ruling_rows.values_list("kind", "groups", "result")) == [("merge", [1, 2], 1)]
    assert not second.answer_rows.filter(seat=seats[2]).exists()
    assert list(second.scores.order_by("seat__position").values_list("answered", "points", "score_after")) == [
        (True, 1, 2),
        (True, 5, 6),
        (False, 0, 0),
    ]

    replay = think_alike_replay(game=game, seats=list(game.seats.select_related("user").order_by("position")))
    r1, r2 = replay["rounds"]
    assert [[a["text"] for a in g["answers"]] for g in r1["groups"]] == [
        ["Apple", "apples"],
        ["kiwi"],
        ["pear"],
        ["plum"],
    ]
    assert [g["points_each"] for g in r1["groups"]] == [1, 0, 0, 0]
    assert (r1["merges"], r1["splits"], r2["merges"]) == (1, 0, 0)
    assert [p["seat"] for p in r2["no_answer"]] == [2]
    assert r2["duel"]["winner"]["seat"] == 1 and r2["duel"]["bonus"] == 4
    assert [(s["seat"], s["points"], s["score"]) for s in r2["standings"]] == [(1, 5, 6), (0, 1, 2), (2, 0, 0)]

    by_seat = think_alike_contributions([game.pk])[game.pk]
    assert {seat: (c.rounds, c.points, c.counts) for seat, c in by_seat.items()} == {
        0: (2, 2, {"answers": 4, "matched": 2, "answer_games": 1}),
        1: (2, 6, {"answers": 4, "matched": 2, "duels": 1, "duels_won": 1, "answer_games": 1, "duel_games": 1}),
        2: (1, 0, {"answers": 1, "duels": 1, "answer_games": 1, "duel_games": 1}),
    }


@pytest.mark.django_db
def test_admin_shows_a_round_with_its_answers_groups_and_scores(admin_client):
    from django.urls import reverse

    content = small_content()
    game, users = think_alike_game(
        3, options={"stop": "tasks", "count": 2, "board": "course", "course": course_ids(content)}
    )
    play_to_end(game, users, random.Random(11))
    listing = admin_client.get(reverse("admin:think_alike_thinkalikeround_changelist"), {"game": game.pk})
    assert listing.status_code == 200 and listing.context["cl"].result_count == 2
    round_ = ThinkAlikeRound.objects.filter(game=game).order_by("number").first()
    page = admin_client.get(reverse("admin:think_alike_thinkalikeround_change", args=[round_.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert round_.task_text in html
    for text in round_.answer_rows.exclude(text="").values_list("text", flat=True):
        assert text in html
    assert "Think Alike answer groups" in html and "Think Alike round scores" in html
    assert 'name="_save"' not in html
