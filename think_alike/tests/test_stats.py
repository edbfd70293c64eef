"""Think Alike's statistics: its counters worked by hand, whole games through the
services, an update the same as a rebuild, the replay and the boards."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from stats.models import GameRecord, LeaderboardEntry, PlayerStats
from stats.services import stats_rebuild
from stats.tests.test_services import snapshot
from think_alike.models import ThinkAlikeRound
from think_alike.stats import THINK_ALIKE_MIN_ANSWERS, think_alike_game_contributions
from think_alike.tests.content import course_ids, small_content, think_alike_game
from think_alike.tests.play import play_to_end

pytestmark = pytest.mark.django_db


def row(turn, answers, groups, points, duel=None):
    """A round as ``think_alike_rounds_read`` gives it; ``answers``: seat -> texts or None (no answer in time);
    ``groups``: the [seat, index] items of each group; ``duel``: (opponent, winner or None)."""
    opponent, winner = duel or (None, None)
    return {
        "turn": turn,
        "answered": [seat for seat, given in answers.items() if given is not None],
        "groups": [[seat for seat, _index in items] for items in groups],
        "points": points,
        "duel_opponent": opponent,
        "duel_winner": winner,
    }


def test_contributions_worked_by_hand():
    rounds = [
        # Seats 0 and 1 match; 2 does not; 3 gives no answer.
        row(0, {0: ["a"], 1: ["A"], 2: ["b"], 3: None}, [[[0, 0], [1, 0]], [[2, 0]]], {0: 1, 1: 1, 2: 0, 3: 0}),
        # Two answers each; seat 0's two answers fall in one group (they count once for points, twice here);
        # a duel of 1 (turn) and 2, won by 1.
        row(
            1,
            {0: ["x", "x"], 1: ["x", "y"], 2: ["z", ""], 3: ["y", "w"]},
            [[[0, 0], [0, 1], [1, 0]], [[1, 1], [3, 0]], [[2, 0]], [[3, 1]]],
            {0: 1, 1: 2 + 4, 2: 0, 3: 1},
            duel=(2, 1),
        ),
    ]
    got = think_alike_game_contributions(rounds)
    assert {seat: (c.rounds, c.points, c.counts) for seat, c in got.items()} == {
        0: (2, 2, {"answers": 3, "matched": 3, "answer_games": 1}),
        1: (2, 7, {"answers": 3, "matched": 3, "answer_games": 1, "duels": 1, "duels_won": 1, "duel_games": 1}),
        2: (2, 0, {"answers": 2, "answer_games": 1, "duels": 1, "duel_games": 1}),
        3: (1, 1, {"answers": 2, "matched": 1, "answer_games": 1}),
    }


class TestGames:
    def test_whole_games_are_recorded_and_an_update_equals_a_rebuild(self, django_capture_on_commit_callbacks):
        content = small_content(answers=2)
        games = []
        for seed in range(4):
            players = 3 + seed % 2
            with django_capture_on_commit_callbacks(execute=True):
                game, users = think_alike_game(
                    players,
                    options={"stop": "tasks", "count": 4, "board": "course", "course": course_ids(content, "duel2")},
                )
                game = play_to_end(game, users, random.Random(seed))
            assert game.status == "finished"
            games.append(game)
        # The finish enqueued the task (eager in tests): the records are there.
        for game in games:
            records = {r.seat: r for r in GameRecord.objects.filter(game=game)}
            assert set(records) == set(range(game.max_seats))
            for seat in game.seats.all():
                record = records[seat.position]
                assert (record.kind, record.score, record.won) == ("think_alike", seat.score, seat.is_winner)
                assert record.points == seat.score  # every point came from a round
            given = sum(r.counts.get("answers", 0) for r in records.values())
            assert 0 < given <= 4 * 2 * game.max_seats
        before = snapshot()
        stats_rebuild(now=GameRecord.objects.order_by("-finished_at").first().finished_at, kinds=["think_alike"])
        after = snapshot()
        assert [r[:13] for r in before[0]] == [r[:13] for r in after[0]]  # records, rating aside
        stats = PlayerStats.objects.filter(kind="think_alike")
        assert stats.count() == sum(game.max_seats for game in games)

    def test_the_board_ranks_players_with_enough_answers(self):
        content = small_content()
        game, users = think_alike_game(
            3,
            options={
                "stop": "tasks",
                "count": THINK_ALIKE_MIN_ANSWERS,
                "board": "course",
                "course": course_ids(content),
            },
        )
        game = play_to_end(game, users, random.Random(3))
        stats_rebuild(now=timezone.now())
        entries = LeaderboardEntry.objects.filter(leaderboard__kind="think_alike", leaderboard__board="in_tune")
        assert {e.user_id for e in entries} == {u.pk for u in users}  # 20 answers each, one a round
        for entry in entries:
            assert entry.sample == THINK_ALIKE_MIN_ANSWERS and 0 <= entry.value <= 1

    def test_pages(self, client):
        content = small_content()
        game, users = think_alike_game(
            3, options={"stop": "tasks", "count": 3, "board": "course", "course": course_ids(content, "duel4")}
        )
        game = play_to_end(game, users, random.Random(4))
        stats_rebuild(now=timezone.now())
        with CaptureQueriesContext(connection) as ctx:
            page = client.get(reverse("stats:replay", args=[game.pk])).content.decode()
        # the version (games.selectors.games.game_version), game, seats with their users (joined:
        # infrastructure.raw_sql), rounds (rulings counted), grouped answers, scores, the moves the deadlines made
        assert len(ctx.captured_queries) <= 7
        for record in ThinkAlikeRound.objects.filter(game=game):
            assert record.task_text in page
            for given in record.answers.values():
                for text in given or ():
                    assert text in page
        assert 'id="round-3"' in page
        player = client.get(reverse("stats:player", args=[users[0].username])).content.decode()
        assert "Answers that matched someone" in player and "Think Alike" in player
        board = client.get(reverse("stats:leaderboard", args=["think_alike", "in_tune"])).content.decode()
        assert "Most in tune" in board and "Storyteller" in board  # the other game's boards are a tab away
        assert client.get(reverse("stats:leaderboard", args=["think_alike", "rating"])).status_code == 200
