"""Records, ratings, totals and boards: worked out by hand, and the same either way they are built."""

import gc
import math
import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game
from games.tests.factories import UserFactory, deck_with_cards, started_game
from games.tests.play import play_to_end
from stats import ratings
from stats.models import GameRecord, Leaderboard, LeaderboardEntry, Period, PlayerStats
from stats.selectors import entries_placed
from stats.services import stats_game_finished, stats_rebuild

from .cases import ANN, BO, CY, DI, GAME_1, two_games
from .factories import finished_game, story_round

pytestmark = pytest.mark.django_db


def plackett_luce(prior, ranks, beta=25 / 6, tau=25 / 300, kappa=1e-4):
    """Weng & Lin (2011), algorithm 4, written out again: OpenSkill's defaults, tau added to sigma first."""
    sig2 = [sigma * sigma + tau * tau for _, sigma in prior]
    c = math.sqrt(sum(s2 + beta * beta for s2 in sig2))
    strength = [math.exp(mu / c) for mu, _ in prior]
    n = len(prior)
    below = [sum(strength[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    tied = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    rated = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                p = strength[i] / below[q]
                delta += p * (1 - p) / tied[q]
                omega += ((q == i) - p) / tied[q]
        gamma = math.sqrt(sig2[i]) / c
        rated.append(
            (prior[i][0] + sig2[i] / c * omega, math.sqrt(sig2[i] * max(1 - gamma * sig2[i] / c**2 * delta, kappa)))
        )
    return rated


def flat(pairs):
    return [number for pair in pairs for number in pair]


def finished_one_by_one(count, users, now, rng) -> None:
    """``count`` random finished games of ``users``, each added to the statistics as it finished, in order."""
    games = TestIncrementalEqualsRebuild()._random_games(count, users, now, rng)
    for game in sorted(games, key=lambda g: (Game.objects.get(pk=g.pk).finished_at, g.pk)):
        assert stats_game_finished(game_id=game.pk, now=now)


def snapshot():
    """Every row a rebuild or an update writes, in a comparable form."""
    records = sorted(
        GameRecord.objects.values_list(
            "game_id",
            "user_id",
            "kind",
            "finished_at",
            "seat",
            "players",
            "rank",
            "score",
            "won",
            "resigned",
            "rounds",
            "points",
            "counts",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
        )
    )
    stats = sorted(
        PlayerStats.objects.values_list(
            "user_id", "kind", "games", "wins", "rounds", "points", "counts", "rating_mu", "rating_sigma"
        )
    )
    boards = sorted(Leaderboard.objects.values_list("kind", "board", "period", "size", "as_of", "window_start"))
    entries = sorted(
        entries_placed(LeaderboardEntry.objects.all()).values_list(
            "leaderboard__kind",
            "leaderboard__board",
            "leaderboard__period",
            "user_id",
            "value",
            "sample",
            "hits",
            "rank",
            "position",
        )
    )
    return records, stats, boards, entries


def assert_numbered():
    """Every board: positions 1..n in order of value, ranks shared by equal values, the size in its head."""
    for head in Leaderboard.objects.all():
        rows = list(
            entries_placed(head.entries.all())
            .order_by("position")
            .values_list("value", "sample", "user_id", "rank", "position")
        )
        assert [row[4] for row in rows] == list(range(1, len(rows) + 1)) and head.size == len(rows)
        assert [row[:3] for row in rows] == sorted((row[:3] for row in rows), key=lambda r: (-r[0], -r[1], r[2]))
        assert [row[3] for row in rows] == [1 + sum(other[0] > row[0] for other in rows) for row in rows]


def entries(board, period=Period.ALL_TIME):
    return list(
        entries_placed(LeaderboardEntry.objects.filter(leaderboard__board=board, leaderboard__period=period))
        .order_by("position")
        .values_list("user__username", "rank", "value", "sample", "hits")
    )


class TestRatings:
    def test_openskill_matches_the_formulas_worked_by_hand(self):
        # Three new players, one after the other: the numbers of algorithm 4 with mu 25, sigma 25/3.
        rated = ratings.rate([ratings.INITIAL] * 3, [1, 2, 3])
        assert flat(rated) == pytest.approx(
            flat([(27.869049, 8.205243), (25.717262, 8.058224), (21.413689, 8.058224)]), abs=1e-6
        )
        for prior, ranks in (
            ([ratings.INITIAL] * 4, [1, 2, 4, 2]),
            ([(28.0, 6.0), (22.0, 7.5), (25.0, 8.0)], [3, 2, 1]),
            ([(30.0, 4.0), (20.0, 8.0), (25.0, 2.0)], [1, 1, 3]),
        ):
            assert flat(ratings.rate(prior, ranks)) == pytest.approx(flat(plackett_luce(prior, ranks)), rel=1e-12)
        assert ratings.ordinal(30.0, 5.0) == 15.0

    def test_rating_objects_reused_from_game_to_game_give_openskills_own_numbers_exactly(self):
        rng = random.Random(17)
        for _ in range(200):  # games of 2 to 10 players, bigger and smaller than the one before
            size = rng.randint(2, 10)
            prior = [(rng.uniform(0, 50), rng.uniform(0.5, 9)) for _ in range(size)]
            ranks = [rng.randint(1, size) for _ in range(size)]
            fresh = ratings.MODEL.rate([[ratings.MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in prior], ranks=ranks)
            assert ratings.rate(prior, ranks) == [(team[0].mu, team[0].sigma) for team in fresh]

    def test_games_are_rated_in_the_order_they_finished(self):
        now = timezone.now()
        users = UserFactory.create_batch(4)
        # Game 1 was created second but finished first.
        game_2 = finished_game(
            users[:3],
            [story_round(BO, "x", [(ANN, []), (BO, [CY]), (CY, [ANN]), (ANN, []), (CY, [])])],
            finished_at=now,
        )
        game_1, _ = two_games(users, first_at=now - timedelta(days=1), second_at=now - timedelta(hours=1))
        stats_rebuild(now=now)

        after_1 = plackett_luce([ratings.INITIAL] * 4, [1, 2, 4, 2])
        by_game = {(r.game_id, r.user_id): r for r in GameRecord.objects.filter(game__in=[game_1, game_2])}
        for seat, user in enumerate(users):
            record = by_game[game_1.pk, user.pk]
            assert (record.mu_before, record.sigma_before) == ratings.INITIAL
            assert [record.mu_after, record.sigma_after] == pytest.approx(after_1[seat], rel=1e-12)
        # The middle game (Cy 1, Bo 2, Ann 3), then game_2 (same places).
        after_2 = plackett_luce(after_1[:3], [3, 2, 1])
        after_3 = plackett_luce(after_2, [3, 2, 1])
        for seat, user in enumerate(users[:3]):
            record = by_game[game_2.pk, user.pk]
            assert [record.mu_before, record.sigma_before] == pytest.approx(after_2[seat], rel=1e-12)
            stats = PlayerStats.objects.get(user=user)
            assert [stats.rating_mu, stats.rating_sigma] == pytest.approx(after_3[seat], rel=1e-12)
        di = PlayerStats.objects.get(user=users[DI])
        assert [di.rating_mu, di.rating_sigma] == pytest.approx(after_1[DI], rel=1e-12)


class TestTotalsAndBoards:
    def test_totals_and_boards_worked_by_hand(self):
        now = timezone.now()
        users = [UserFactory(username=name) for name in ("ann", "bo", "cy", "di")]
        two_games(users, first_at=now - timedelta(days=40), second_at=now - timedelta(days=1))
        stats_rebuild(now=now)

        stats = {s.user.username: s for s in PlayerStats.objects.select_related("user")}
        assert {name: (s.games, s.wins, s.rounds, s.points) for name, s in stats.items()} == {
            "ann": (2, 1, 4, 8),
            "bo": (2, 0, 4, 10),
            "cy": (2, 1, 4, 8),
            "di": (1, 0, 4, 6),
        }
        ann = stats["ann"].counts
        assert (ann["just_right"], ann["clues"], ann["found"], ann["guesses"], ann["decoy_votes"], ann["decoys"]) == (
            1,
            1,
            1,
            3,
            1,
            4,
        )
        bo = stats["bo"].counts
        assert (bo["just_right"], bo["clues"], bo["clue_games"]) == (1, 2, 2)

        # Only those who won are placed among the winners (issue 39: "Most wins #1 of 2" with 0 wins).
        assert entries("wins") == [
            ("ann", 1, 1.0, 2, None),
            ("cy", 1, 1.0, 2, None),
        ]
        # Only game 2 is in the last 30 days.
        assert entries("wins", Period.LAST_30_DAYS) == [
            ("cy", 1, 1.0, 1, None),
        ]
        rating = entries("rating")
        assert [row[0] for row in rating] == sorted(
            stats, key=lambda name: -ratings.ordinal(stats[name].rating_mu, stats[name].rating_sigma)
        )
        assert rating[0][2] == pytest.approx(
            ratings.ordinal(stats[rating[0][0]].rating_mu, stats[rating[0][0]].rating_sigma)
        )
        # Nobody has told 10 clues yet.
        assert entries("storyteller") == []
        assert Leaderboard.objects.get(kind="storyteller", board="wins", period=Period.ALL_TIME).size == 2

    def test_best_storyteller_needs_ten_turns(self):
        now = timezone.now()
        ann, bo, cy = (UserFactory(username=name) for name in ("ann", "bo", "cy"))
        just_right = story_round(ANN, "ok", [(ANN, [BO]), (BO, []), (CY, []), (BO, [CY]), (CY, [])])
        too_plain = story_round(ANN, "plain", [(ANN, [BO, CY]), (BO, []), (CY, []), (BO, []), (CY, [])])
        # Ann: 10 turns, 6 just right. Bo: 9 turns, all just right, too few to rank.
        finished_game([ann, bo, cy], [just_right] * 6 + [too_plain] * 4, finished_at=now - timedelta(days=3))
        bo_round = story_round(BO, "b", [(BO, [ANN]), (ANN, []), (CY, []), (ANN, [CY]), (CY, [])])
        finished_game([ann, bo, cy], [bo_round] * 9, finished_at=now - timedelta(days=2))
        stats_rebuild(now=now)
        assert entries("storyteller") == [("ann", 1, 0.6, 10, 6)]
        assert entries("storyteller", Period.LAST_30_DAYS) == [("ann", 1, 0.6, 10, 6)]

    def test_a_game_of_a_kind_without_statistics_is_left_alone(self):
        users = UserFactory.create_batch(3)
        game = Game.objects.create(
            kind="chess",
            status=Game.Status.FINISHED,
            phase_seconds=60,
            max_seats=3,
            creator=users[0],
            finished_at=timezone.now(),
        )
        assert stats_game_finished(game_id=game.pk, now=timezone.now()) is False
        assert stats_rebuild(now=timezone.now()) == {"storyteller": 0, "think_alike": 0}
        assert not GameRecord.objects.exists()


class TestIncrementalEqualsRebuild:
    def _random_games(self, count, users, now, rng):
        deck = deck_with_cards(30)
        games = []
        for index in range(count):
            seats = rng.sample(users, rng.randint(3, 5))
            rounds = []
            for number in range(rng.randint(1, 6)):
                storyteller = number % len(seats)
                if rng.random() < 0.1:
                    rounds.append(story_round(storyteller, "", [], skipped=True))
                    continue
                owners = [storyteller] + [s for s in range(len(seats)) if s != storyteller] * (
                    2 if len(seats) == 3 else 1
                )
                rng.shuffle(owners)
                voters = {p: [] for p in range(len(owners))}
                for seat in range(len(seats)):
                    if seat == storyteller or rng.random() < 0.1:
                        continue  # the storyteller does not vote; some abstain
                    choices = [p for p, owner in enumerate(owners) if owner != seat]
                    voters[rng.choice(choices)].append(seat)
                rounds.append(
                    story_round(storyteller, f"clue {index}.{number}", [(o, voters[p]) for p, o in enumerate(owners)])
                )
            finished_at = now - timedelta(days=rng.uniform(0, 60))
            resigned = (rng.randrange(len(seats)),) if rng.random() < 0.15 else ()
            games.append(
                finished_game(
                    seats,
                    rounds,
                    finished_at=finished_at,
                    deck=deck,
                    resigned=resigned,
                    visibility=rng.choice([Game.Visibility.PUBLIC, Game.Visibility.PRIVATE]),
                )
            )
        return games

    def test_one_by_one_in_any_order_equals_a_full_rebuild(self):
        rng = random.Random(7)
        now = timezone.now()
        users = UserFactory.create_batch(9)
        games = self._random_games(40, users, now, rng)
        # Tasks arrive in any order (two games finishing together); time moves on between them,
        # so the 30-day window slides past games while the updates come in.
        order = list(games)
        rng.shuffle(order)
        for step, game in enumerate(order):
            assert stats_game_finished(game_id=game.pk, now=now - timedelta(days=5) + step * timedelta(hours=3))
            assert_numbered()
        assert stats_game_finished(game_id=order[0].pk, now=now) is False  # a repeated task changes nothing
        # One more update at ``now`` (a new game), then the same moment rebuilt from nothing.
        last = self._random_games(1, users, now + timedelta(seconds=1), rng)[0]
        stats_game_finished(game_id=last.pk, now=now)
        incremental = snapshot()
        stats_rebuild(now=now, kinds=["storyteller"])  # (a rebuild of every kind adds empty boards)
        rebuilt = snapshot()
        assert incremental == rebuilt
        records, stats, boards, board_entries = rebuilt
        assert len(records) == sum(game.seats.count() for game in [*games, last])
        assert {row[2] for row in board_entries} == {Period.ALL_TIME, Period.LAST_30_DAYS}
        assert len(boards) == 6 and all(board[4] == now for board in boards)

    def test_a_whole_game_played_through_the_services(self, django_capture_on_commit_callbacks):
        game, users = started_game(4)
        with django_capture_on_commit_callbacks(execute=True):
            game = play_to_end(game, users, random.Random(3))
        assert game.status == Game.Status.FINISHED
        # The finish enqueued the task (eager in tests): the records are there.
        records = {r.user_id: r for r in GameRecord.objects.filter(game=game)}
        assert set(records) == {user.pk for user in users}
        rounds = game.storyteller_rounds.count()
        for seat in game.seats.all():
            record = records[seat.user_id]
            assert (record.score, record.won, record.seat) == (seat.score, seat.is_winner, seat.position)
            assert record.points == seat.score  # every point came from a round the seat played
            assert record.rounds <= rounds
        assert sum(r.counts.get("clues", 0) for r in records.values()) <= rounds
        before = snapshot()
        stats_rebuild(now=Leaderboard.objects.first().as_of, kinds=["storyteller"])
        assert snapshot() == before


class TestAtSize:
    def test_an_update_takes_the_same_queries_however_many_games_and_players_the_site_has(self):
        """Constant in N: the queries of one game's update, with 3 games on the site and with 40 more."""
        now = timezone.now()
        users = UserFactory.create_batch(4)
        rounds = [GAME_1[0], GAME_1[1]]

        def update_queries(game) -> list[str]:
            with CaptureQueriesContext(connection) as ctx:
                assert stats_game_finished(game_id=game.pk, now=now)
            return [query["sql"] for query in ctx.captured_queries]

        for step in range(3):
            stats_game_finished(
                game_id=finished_game(users, rounds, finished_at=now - timedelta(days=step)).pk, now=now
            )
        few = update_queries(finished_game(users, rounds, finished_at=now + timedelta(minutes=1)))

        rng = random.Random(5)
        crowd = UserFactory.create_batch(30)
        for step in range(40):
            seated = [users[0], *rng.sample(crowd, 3)] if step % 2 else rng.sample(crowd, 4)
            game = finished_game(seated, rounds, finished_at=now - timedelta(days=rng.uniform(0, 60)))
            stats_game_finished(game_id=game.pk, now=now)
        many = update_queries(finished_game(users, rounds, finished_at=now + timedelta(minutes=2)))

        assert len(many) == len(few) <= 25, many
        assert GameRecord.objects.count() == 4 * 45 and PlayerStats.objects.get(user=users[0]).games == 25

    def test_a_rebuild_in_chunks_equals_the_updates_one_game_at_a_time_in_finish_order(self, monkeypatch):
        now = timezone.now()
        users = UserFactory.create_batch(8)
        finished_one_by_one(25, users, now, random.Random(11))
        one_by_one = snapshot()
        # Chunks of 4 games and small INSERTs: ratings carried over from chunk to chunk.
        monkeypatch.setattr("stats.services.CHUNK", 4)
        monkeypatch.setattr("stats.services.BATCH", 7)
        chunks = []
        assert stats_rebuild(
            now=now, kinds=["storyteller"], progress=lambda kind, done, total: chunks.append(done)
        ) == {"storyteller": 25}
        assert chunks == [4, 8, 12, 16, 20, 24, 25]
        assert snapshot() == one_by_one
        assert_numbered()

    def test_a_rebuild_runs_without_the_cycle_collector_and_leaves_the_session_as_it_found_it(self):
        """The collector is off while the rows pile up, on again after; PostgreSQL's planner setting does not leak."""

        def planner_cost() -> str | None:
            if connection.vendor != "postgresql":
                return None
            with connection.cursor() as cursor:
                cursor.execute("SHOW random_page_cost")
                return cursor.fetchone()[0]

        now = timezone.now()
        two_games(UserFactory.create_batch(4), first_at=now - timedelta(days=1), second_at=now)
        before = planner_cost()
        during = []

        def progress(kind, done, total):
            during.append((gc.isenabled(), planner_cost()))

        assert stats_rebuild(now=now, kinds=["storyteller"], progress=progress) == {"storyteller": 2}
        assert during == [(False, "1.1" if connection.vendor == "postgresql" else None)]
        assert gc.isenabled() and planner_cost() == before

    def test_a_rebuild_rewrites_only_the_records_that_differ(self):
        now = timezone.now()
        users = UserFactory.create_batch(6)
        finished_one_by_one(8, users, now, random.Random(13))
        right = snapshot()
        ids = dict(GameRecord.objects.values_list("pk", "game_id"))
        # A record with a wrong rating, one with wrong counters, one gone, one for a game that is not finished.
        wrong, counted, gone = GameRecord.objects.order_by("pk")[:3]
        GameRecord.objects.filter(pk=wrong.pk).update(mu_after=wrong.mu_after + 1)
        GameRecord.objects.filter(pk=counted.pk).update(counts={"clues": 99})
        GameRecord.objects.filter(pk=gone.pk).delete()
        unfinished = finished_game(users[:4], [GAME_1[0]], finished_at=now)
        Game.objects.filter(pk=unfinished.pk).update(status=Game.Status.ACTIVE)
        stray = {**GameRecord.objects.values().get(pk=max(ids)), "id": None, "game_id": unfinished.pk}
        GameRecord.objects.create(**stray)
        stats_rebuild(now=now, kinds=["storyteller"])
        assert snapshot() == right
        kept = set(GameRecord.objects.values_list("pk", flat=True))
        assert kept >= set(ids) - {wrong.pk, counted.pk, gone.pk}  # the others were left where they were
        assert len(kept - set(ids)) == 3 and not GameRecord.objects.filter(game=unfinished).exists()


def test_a_rebuild_row_holds_its_fields_in_the_records_column_order():
    from stats.services import _ROW_FIELDS, RECORD_COLUMNS

    assert [name.removesuffix("_id") for name in _ROW_FIELDS] == list(RECORD_COLUMNS)
