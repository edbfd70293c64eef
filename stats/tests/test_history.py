"""The series behind the charts: scores round by round in a replay, a player's rating and points game by game."""

import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.tests.factories import UserFactory, started_game
from games.tests.play import play_to_end
from stats import ratings
from stats.models import GameRecord
from stats.selectors import HISTORY_GAMES, game_replay, player_history, replay_scores
from stats.services import stats_rebuild
from think_alike.tests.content import course_ids, small_content, think_alike_game
from think_alike.tests.play import play_to_end as think_alike_play_to_end

from .cases import GAME_1, GAME_2, two_games
from .factories import finished_game
from .test_views import queries

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return [UserFactory(username=name, display_name=name.title()) for name in ("ann", "bo", "cy", "di")]


def replay_of(game):
    seats = list(game.seats.select_related("user").order_by("position"))
    return game_replay(game=game, seats=seats)


def numbers_table(page: str, caption: str) -> list[list[str]]:
    """The cells of the table captioned ``caption``, row by row (header row first)."""
    pattern = rf"<table[^>]*>\s*<caption[^>]*>[^<]*{re.escape(caption)}[^<]*</caption>(.*?)</table>"
    table = re.search(pattern, page, re.S)
    assert table, caption
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)
    ]


class TestReplayScores:
    def test_worked_example_round_by_round(self, people):
        scores = replay_of(finished_game(people, GAME_1))["scores"]
        assert scores["x"] == [0, 1, 2, 3, 4]
        assert [p["name"] for p in scores["players"]] == ["Ann", "Bo", "Cy", "Di"]
        assert [row["scores"] for row in scores["rows"]] == [[3, 4, 1, 0], [5, 4, 3, 2], [8, 6, 3, 6], [8, 6, 3, 6]]
        values = [s.values for s in scores["series"]]
        assert values == [[0, 3, 5, 8, 8], [0, 4, 4, 6, 6], [0, 1, 3, 3, 3], [0, 0, 2, 6, 6]]
        assert [s.colour for s in scores["series"]] == [p["colour"] for p in scores["players"]]

    def test_no_round_no_line(self):
        assert replay_scores({"players": [{"seat": 0, "name": "A", "colour": "red"}], "rounds": []})["rows"] == []

    def test_a_storyteller_game_played_to_the_end(self):
        game, users = started_game(3)
        game = play_to_end(game, users, random.Random(5))
        assert game.status == Game.Status.FINISHED
        scores = replay_of(game)["scores"]
        rounds = game.storyteller_rounds.count()
        assert scores["x"] == list(range(rounds + 1))
        final = [seat.score for seat in game.seats.order_by("position")]
        assert scores["rows"][-1]["scores"] == final
        assert [s.values[-1] for s in scores["series"]] == final
        assert all(s.values == sorted(s.values) for s in scores["series"])  # Storyteller scores only grow

    def test_a_think_alike_game_played_to_the_end(self):
        content = small_content(answers=2)
        options = {"stop": "tasks", "count": 5, "board": "course", "course": course_ids(content, "duel4", "swap")}
        game, users = think_alike_game(4, options=options)
        game = think_alike_play_to_end(game, users, random.Random(2))
        assert game.status == Game.Status.FINISHED
        scores = replay_of(game)["scores"]
        assert scores["x"] == [0, 1, 2, 3, 4, 5]
        assert scores["rows"][-1]["scores"] == [seat.score for seat in game.seats.order_by("position")]

    def test_the_replay_page_draws_the_chart_and_lists_the_numbers(self, client, people):
        game = finished_game(people, GAME_1)
        page = client.get(reverse("stats:replay", args=[game.pk])).content.decode()
        assert f'aria-labelledby="scores-{game.pk}-title"' in page
        assert page.count('class="chart-series') == 4
        assert "After round 4: Ann 8, Bo 6, Cy 3, Di 6." in page  # the chart's description
        assert page.index('id="score-chart"') < page.index('id="round-1"')
        assert numbers_table(page, "score after each round") == [
            ["Round", "Ann", "Bo", "Cy", "Di"],
            ["1", "3", "4", "1", "0"],
            ["2", "5", "4", "3", "2"],
            ["3", "8", "6", "3", "6"],
            ["4", "8", "6", "3", "6"],
        ]

    def test_hostile_names_are_escaped_in_the_chart(self, client):
        users = [UserFactory(display_name=name) for name in ('<img src=x onerror="alert(1)">', "Bo", "Cy")]
        game = finished_game(users, GAME_2)
        page = client.get(reverse("stats:replay", args=[game.pk])).content.decode()
        assert "<img src=x" not in page
        assert page.count("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;") >= 3  # the desc, the table, the names


class TestPlayerHistory:
    def test_ratings_and_points_per_round_game_by_game(self, people):
        ann = people[0]
        now = timezone.now()
        game_1, game_2 = two_games(people, first_at=now - timedelta(days=2), second_at=now - timedelta(days=1))
        stats_rebuild(now=now)
        history = player_history(player=ann, viewer=ann)
        assert list(history) == ["storyteller"]
        games = history["storyteller"].games
        assert [g["game_id"] for g in games] == [game_1.pk, game_2.pk]
        assert [g["number"] for g in games] == [1, 2]
        assert [(g["points"], g["rounds"], g["points_per_round"]) for g in games] == [(8, 3, 8 / 3), (0, 1, 0.0)]
        records = GameRecord.objects.filter(user=ann).order_by("finished_at")
        # As people read it: the conservative estimate scaled, never below 0 (Ann's second game took hers there).
        assert [g["rating"] for g in games] == [
            ratings.shown(ratings.ordinal(r.mu_after, r.sigma_after)) for r in records
        ]
        assert games[1]["rating"] == 0 and ratings.ordinal(records[1].mu_after, records[1].sigma_after) < 0
        assert history["storyteller"].rating_before == 0
        assert games[0]["rating"] > history["storyteller"].rating_before  # Ann won the first
        assert games[1]["rating"] < games[0]["rating"]  # and came last in the second

    def test_a_private_game_is_left_out_for_others(self, people):
        ann, bo, cy, di = people
        now = timezone.now()
        finished_game([ann, bo, cy], GAME_2, finished_at=now - timedelta(days=2))
        private = finished_game(
            [ann, bo, cy], GAME_2, finished_at=now - timedelta(days=1), visibility=Game.Visibility.PRIVATE
        )
        stats_rebuild(now=now)

        def shown(viewer):
            return [g["game_id"] for g in player_history(player=ann, viewer=viewer)["storyteller"].games]

        assert private.pk in shown(ann) and private.pk in shown(bo)
        assert private.pk not in shown(di) and len(shown(di)) == 1
        assert len(shown(AnonymousUser())) == 1

    def test_only_the_latest_games_oldest_first(self, people):
        now = timezone.now()
        games = [
            finished_game(people[:3], GAME_2, finished_at=now - timedelta(hours=n)) for n in range(HISTORY_GAMES + 3)
        ]
        stats_rebuild(now=now)
        shown = player_history(player=people[0], viewer=people[0])["storyteller"]
        assert [g["game_id"] for g in shown.games] == [game.pk for game in reversed(games[:HISTORY_GAMES])]
        oldest = GameRecord.objects.get(user=people[0], game=games[HISTORY_GAMES - 1])
        assert shown.rating_before == ratings.shown(ratings.ordinal(oldest.mu_before, oldest.sigma_before))

    def test_both_kinds_each_their_own(self, people):
        ann, bo, cy, _ = people
        finished_game([ann, bo, cy], GAME_2)
        content = small_content(answers=2)
        options = {"stop": "tasks", "count": 3, "board": "course", "course": course_ids(content, "swap")}
        game, _ = think_alike_game(3, users=[ann, bo, cy], options=options)
        think_alike_play_to_end(game, [ann, bo, cy], random.Random(1))
        stats_rebuild(now=timezone.now())
        history = player_history(player=ann, viewer=ann)
        assert sorted(history) == ["storyteller", "think_alike"]
        assert [g["game_id"] for g in history["think_alike"].games] == [game.pk]
        assert history["think_alike"].games[0]["rounds"] >= 1


class TestPlayerPage:
    def test_the_charts_and_their_numbers(self, client, people):
        now = timezone.now()
        game_1, game_2 = two_games(people, first_at=now - timedelta(days=2), second_at=now - timedelta(days=1))
        stats_rebuild(now=now)
        page = client.get(reverse("stats:player", args=["ann"])).content.decode()
        assert 'aria-labelledby="rating-storyteller-title"' in page
        assert 'aria-labelledby="points-storyteller-title"' in page
        assert page.count('class="chart-bar"') == 2
        records = list(GameRecord.objects.filter(user=people[0]).order_by("finished_at"))
        after = [str(ratings.shown(ratings.ordinal(r.mu_after, r.sigma_after))) for r in records]
        rows = numbers_table(page, "Latest games of Storyteller, oldest first")
        assert rows[0] == ["Game", "Finished", "Points", "Rounds", "Points per round", "Rating after"]
        assert rows[1] == ["0", "Before these games", "0"]
        assert [row[0] for row in rows[2:]] == ["1", "2"]
        assert [row[2:] for row in rows[2:]] == [["8", "3", "2.67", after[0]], ["0", "1", "0.00", after[1]]]
        assert f"Rating from 0 before the first of these 2 games to {after[1]} after the last." in page

    def test_numbers_and_dates_in_the_page_language(self, client, people):
        first = datetime(2026, 11, 2, 14, 5, tzinfo=UTC)
        two_games(people, first_at=first, second_at=first + timedelta(days=1))
        stats_rebuild(now=first + timedelta(days=2))
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
        page = client.get(reverse("stats:player", args=["ann"])).content.decode()
        assert '<html lang="fr"' in page
        rows = numbers_table(page, "")  # the first table: the Storyteller games'
        assert rows[2][1:5] == ["02/11/2026 14:05", "8", "3", "2,67"]
        svg = page[page.index('aria-labelledby="points-storyteller-title"') :]
        svg = svg[: svg.index("</svg>")]
        for value in re.findall(r' (?:x|y|width|height)="([^"%]*)"', svg):
            assert re.fullmatch(r"-?\d+(\.\d)?", value), value

    def test_no_game_no_chart(self, client, people):
        page = client.get(reverse("stats:player", args=["ann"])).content.decode()
        assert 'class="chart' not in page and "No finished game yet." in page

    def test_queries_are_the_same_for_one_game_or_many_of_both_kinds(self, client, people):
        ann, bo, cy, _ = people
        now = timezone.now()
        finished_game([ann, bo, cy], GAME_2, finished_at=now - timedelta(days=1))
        stats_rebuild(now=now)
        client.force_login(bo)
        queries(client, reverse("stats:player", args=["ann"]))  # the first request after the log-in reads more
        few, _ = queries(client, reverse("stats:player", args=["ann"]))
        for days in range(HISTORY_GAMES + 5):
            finished_game([ann, bo, cy], GAME_2, finished_at=now - timedelta(days=days + 2))
        content = small_content(answers=2)
        options = {"stop": "tasks", "count": 2, "board": "course", "course": course_ids(content, "swap")}
        game, _ = think_alike_game(3, users=[ann, bo, cy], options=options)
        think_alike_play_to_end(game, [ann, bo, cy], random.Random(1))
        stats_rebuild(now=now)
        many, response = queries(client, reverse("stats:player", args=["ann"]))
        assert few == many
        # session, user, player, history, stats, places, the games and their tables, reliability, the practice
        # games alone with bots (their seats only when there are some)
        assert many <= 14
        page = response.content.decode()
        assert page.count('class="chart"') == 4  # two charts for each kind
        assert page.count('class="chart-bar"') == HISTORY_GAMES + 1
