"""Replays, player pages and leaderboards: what they show, to whom, in how many queries."""

import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.tests.factories import UserFactory, deck_with_cards, started_game
from games.tests.play import play_step, view_for
from stats.models import Leaderboard, LeaderboardEntry, Period
from stats.selectors import LEADERBOARD_PAGE_SIZE, PROFILE_PAGE_SIZE, entries_placed, game_replay
from stats.services import stats_rebuild
from storyteller.models import Card

from .cases import GAME_1, GAME_2, two_games
from .factories import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return [UserFactory(username=name, display_name=name.title()) for name in ("ann", "bo", "cy", "di")]


def queries(client, url) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, response.status_code
    return len(ctx.captured_queries), response


class TestReplay:
    def test_each_round_as_it_happened(self, people):
        deck = deck_with_cards(20)
        now = timezone.now()
        game, _ = two_games(people, first_at=now - timedelta(hours=1), second_at=now, deck=deck)
        seats = list(game.seats.select_related("user").order_by("position"))
        replay = game_replay(game=game, seats=seats)
        cards = list(Card.objects.filter(deck=deck).order_by("pk"))

        def table(round_):
            return [
                (
                    card["position"],
                    card["id"],
                    card["owner"]["name"],
                    [v["name"] for v in card["voters"]],
                    card["is_storytellers"],
                )
                for card in round_["table"]
            ]

        first, second, third, fourth = replay["rounds"]
        assert (first["number"], first["storyteller"]["name"], first["clue"]["text"], first["outcome"]) == (
            1,
            "Ann",
            "A door to nowhere",
            "just_right",
        )
        assert (first["found"], first["votes"]) == (1, 3)
        assert table(first) == [
            (1, cards[0].pk, "Bo", ["Cy"], False),
            (2, cards[1].pk, "Ann", ["Bo"], True),
            (3, cards[2].pk, "Cy", ["Di"], False),
            (4, cards[3].pk, "Di", [], False),
        ]
        assert [(row["name"], row["points"], row["score"]) for row in first["standings"]] == [
            ("Bo", 4, 4),
            ("Ann", 3, 3),
            ("Cy", 1, 1),
            ("Di", 0, 0),
        ]
        assert first["table"][0]["image"] == cards[0].image.url and first["table"][0]["alt"] == cards[0].alt_text
        assert (second["outcome"], third["outcome"], fourth["outcome"]) == ("all_found", "none_found", "skipped")
        assert [(row["name"], row["points"], row["score"]) for row in third["standings"]] == [
            ("Ann", 3, 8),
            ("Bo", 2, 6),
            ("Di", 4, 6),
            ("Cy", 0, 3),
        ]
        assert fourth["table"] == [] and fourth["storyteller"]["name"] == "Di"
        assert (first.get("previous"), first["next"], fourth["previous"], fourth.get("next")) == (None, 2, 3, None)

    def test_the_page_shows_the_rounds_to_everyone_for_a_public_game(self, client, people):
        now = timezone.now()
        game, _ = two_games(people, first_at=now, second_at=now)
        page = client.get(reverse("stats:replay", args=[game.pk])).content.decode()
        for round_ in GAME_1[:3]:
            assert round_["clue"] in page
        assert "Di gave no clue in time and lost the turn." in page
        assert "Just right: 1 of 3 votes found the storyteller" in page
        assert 'href="#round-4"' in page

    def test_a_private_game_is_shown_to_its_players_only(self, client, people):
        game = finished_game(people[:3], GAME_2, visibility=Game.Visibility.PRIVATE)
        url = reverse("stats:replay", args=[game.pk])
        assert client.get(url).status_code == 404
        client.force_login(people[3])
        response = client.get(url)
        assert response.status_code == 404
        assert "Lighthouse" not in response.content.decode()
        client.force_login(people[1])
        assert "Lighthouse" in client.get(url).content.decode()

    def test_a_running_game_replays_its_revealed_rounds_and_nothing_else(self, client):
        game, users = started_game(4)
        rng = random.Random(11)
        while game.storyteller_rounds.count() < 1:
            play_step(game, users, rng)
        while True:  # into round 2's vote: a clue, hands and a table that are not revealed yet
            view = view_for(game, users[0])
            if view["phase"] == "vote":
                break
            play_step(game, users, rng)
        client.force_login(users[0])
        page = client.get(reverse("stats:replay", args=[game.pk])).content.decode()
        state = game.state
        assert state["round"] == 2 and 'id="round-1"' in page and 'id="round-2"' not in page
        assert state["clue"] not in page
        secret = set(state["table"])
        for hand in state["hands"]:
            secret.update(hand)
        for card in Card.objects.filter(pk__in=secret):
            assert card.image.url not in page
        revealed = game.storyteller_rounds.get()
        for laid in revealed.table_cards.select_related("card"):
            assert laid.card.image.url in page

    def test_queries_do_not_grow_with_rounds(self, client, people):
        short = finished_game(people[:3], GAME_2)
        long = finished_game(people, GAME_1 * 5)
        few, _ = queries(client, reverse("stats:replay", args=[short.pk]))
        many, _ = queries(client, reverse("stats:replay", args=[long.pk]))
        # the game's version (games.selectors.games.game_version), game, seats with their users (joined:
        # infrastructure.raw_sql), rounds, table cards (with their pictures), votes, scores, the moves the
        # deadlines made
        assert few == many <= 8

    def test_unknown_game_is_404(self, client):
        assert client.get(reverse("stats:replay", args=[987654])).status_code == 404


class TestPlayerPage:
    def test_statistics_and_games_with_results(self, client, people):
        now = timezone.now()
        game_1, game_2 = two_games(people, first_at=now - timedelta(days=2), second_at=now - timedelta(days=1))
        stats_rebuild(now=now)
        page = client.get(reverse("stats:player", args=["ann"])).content.decode()
        # Ann: 2 games, 1 win, 8 points in 4 rounds; 1 of 1 clue just right, 1 of 3 votes found, 1 vote on 4 decoys.
        for text in (
            "Games played</dt><dd>2</dd>",
            "Games won</dt><dd>1",
            "2.00",
            "4 rounds, 2 games",
            "100%",
            "1 turn, 1 game",
            "33%",
            "3 votes, 2 games",
            "0.25",
            "4 cards, 2 games",
            "Place 3 of 3",
            "Place 1 of 4",
        ):
            assert text in page, text
        replays = [reverse("stats:replay", args=[game.pk]) for game in (game_2, game_1)]
        assert page.index(replays[0]) < page.index(replays[1])  # newest first
        assert reverse("stats:player", args=["bo"]) in page

    def test_private_games_are_listed_to_their_players_only(self, client, people):
        ann, bo, cy, di = people
        public = finished_game([ann, bo, cy], GAME_2)
        private = finished_game([ann, bo, cy], GAME_2, visibility=Game.Visibility.PRIVATE)
        stats_rebuild(now=timezone.now())
        url = reverse("stats:player", args=["ann"])

        def listed(viewer):
            client.logout()
            if viewer:
                client.force_login(viewer)
            page = client.get(url).content.decode()
            return {game.pk for game in (public, private) if reverse("stats:replay", args=[game.pk]) in page}

        assert listed(None) == {public.pk}
        assert listed(di) == {public.pk}
        assert listed(bo) == {public.pk, private.pk}
        assert listed(ann) == {public.pk, private.pk}

    def test_pages_of_games_and_constant_queries(self, client, people):
        now = timezone.now()
        finished_game(people[:3], GAME_2, finished_at=now)
        stats_rebuild(now=now)
        few, _ = queries(client, reverse("stats:player", args=["ann"]))
        for days in range(PROFILE_PAGE_SIZE + 5):
            finished_game(people[:3], GAME_2, finished_at=now - timedelta(days=days + 1))
        stats_rebuild(now=now)
        many, response = queries(client, reverse("stats:player", args=["ann"]))
        assert few == many
        assert response.context["games"].paginator.num_pages == 2
        last, response = queries(client, reverse("stats:player", args=["ann"]) + "?page=2")
        assert last == many and len(response.context["games"].object_list) == 6

    def test_unknown_player_is_404(self, client):
        assert client.get(reverse("stats:player", args=["nobody"])).status_code == 404


class TestLeaderboard:
    def _board(self, players, board="rating", period=Period.ALL_TIME):
        users = UserFactory.create_batch(players)
        head = Leaderboard.objects.create(
            kind="storyteller", board=board, period=period, size=players, as_of=timezone.now()
        )
        LeaderboardEntry.objects.bulk_create(
            LeaderboardEntry(leaderboard=head, user=user, value=100 - i, sample=5) for i, user in enumerate(users)
        )
        return users

    def test_queries_are_the_same_for_ten_players_or_many(self, client):
        users = self._board(10)
        client.force_login(users[3])
        url = reverse("stats:leaderboard", args=["storyteller", "rating"])
        client.get(url)  # each viewer's first page warms what the site caches per user
        few, _ = queries(client, url)
        LeaderboardEntry.objects.all().delete()
        Leaderboard.objects.all().delete()
        users = self._board(LEADERBOARD_PAGE_SIZE * 6 + 7)
        client.force_login(users[-1])
        client.get(url)
        many, response = queries(client, url + "?page=4")
        assert few == many
        assert len(response.context["lb"].entries) == LEADERBOARD_PAGE_SIZE
        last, response = queries(client, url + "?page=7")
        assert last == many and len(response.context["lb"].entries) == 7

    def test_places_are_counted_alike_on_pages_and_for_one_entry(self, client):
        # Ties across the page boundary: equal values share a rank, positions go on, samples break ties.
        users = UserFactory.create_batch(LEADERBOARD_PAGE_SIZE + 20)
        head = Leaderboard.objects.create(
            kind="storyteller", board="wins", period=Period.ALL_TIME, size=len(users), as_of=timezone.now()
        )
        made = LeaderboardEntry.objects.bulk_create(
            LeaderboardEntry(leaderboard=head, user=user, value=float(i // 7), sample=1 + i % 3)
            for i, user in enumerate(users)
        )
        order = sorted(made, key=lambda e: (-e.value, -e.sample, e.user_id))
        expected = [(e.user_id, 1 + sum(o.value > e.value for o in made), place) for place, e in enumerate(order, 1)]
        assert sorted((e.user_id, e.rank, e.position) for e in entries_placed(head.entries.all())) == sorted(expected)
        url = reverse("stats:leaderboard", args=["storyteller", "wins"])
        client.force_login(users[0])
        for page in (1, 2):
            lb = client.get(url + f"?page={page}").context["lb"]
            shown = [(e.user_id, e.rank, e.position) for e in lb.entries]
            assert shown == expected[(page - 1) * LEADERBOARD_PAGE_SIZE : page * LEADERBOARD_PAGE_SIZE]
            assert (lb.mine.rank, lb.mine.position) == next(row[1:] for row in expected if row[0] == users[0].pk)
        assert expected[LEADERBOARD_PAGE_SIZE][1] <= LEADERBOARD_PAGE_SIZE  # the second page starts mid-tie

    def test_the_viewers_own_place_and_page(self, client):
        users = self._board(LEADERBOARD_PAGE_SIZE + 10)
        me = users[LEADERBOARD_PAGE_SIZE + 2]
        client.force_login(me)
        page = client.get(reverse("stats:leaderboard", args=["storyteller", "rating"])).content.decode()
        assert f"You are <strong>#{LEADERBOARD_PAGE_SIZE + 3}</strong> of {LEADERBOARD_PAGE_SIZE + 10}." in page
        assert "page=2#me" in page
        page_2 = client.get(reverse("stats:leaderboard", args=["storyteller", "rating"]) + "?page=2").content.decode()
        assert 'id="me"' in page_2 and reverse("stats:player", args=[me.username]) in page_2

    def test_boards_from_real_games(self, client, people):
        now = timezone.now()
        two_games(people, first_at=now - timedelta(days=40), second_at=now - timedelta(days=1))
        stats_rebuild(now=now)
        client.force_login(people[3])
        page = client.get(reverse("stats:leaderboard", args=["storyteller", "wins"]) + "?period=30d").content.decode()
        assert "You are not on this board yet" in page  # Di played only the older game
        page = client.get(reverse("stats:leaderboard", args=["storyteller", "storyteller"])).content.decode()
        assert "No one is on this board yet." in page and "at least 10 turns" in page
        assert client.get(reverse("stats:leaderboards")).url == reverse(
            "stats:leaderboard", args=["storyteller", "rating"]
        )

    @pytest.mark.parametrize("path", [("storyteller", "nope"), ("chess", "rating")])
    def test_unknown_board_is_404(self, client, path):
        assert client.get(reverse("stats:leaderboard", args=path)).status_code == 404

    def test_unknown_period_is_404_and_a_bad_page_is_the_first(self, client):
        url = reverse("stats:leaderboard", args=["storyteller", "rating"])
        assert client.get(url + "?period=7d").status_code == 404
        assert client.get(url + "?page=x").context["lb"].page == 1
