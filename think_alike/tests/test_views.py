"""Think Alike's pages: the new-game form, a round played by the page's own forms, bad
forms, the rules, and what a spectator and the notifications show."""

import re

import pytest
from django.urls import reverse

from games.models import Game
from games.tests.factories import UserFactory
from games.tests.play import view_for
from think_alike.models import ThinkAlikeRound

from .content import course_ids, small_content, think_alike_game

pytestmark = pytest.mark.django_db

BASE = {"kind": "think_alike", "max_seats": "4", "pace": "async", "phase_hours": "24", "visibility": "public"}


@pytest.fixture
def content():
    return small_content()


def create(client, **fields):
    return client.post(reverse("games:create"), {**BASE, **fields})


class TestCreate:
    def test_the_form_offers_both_games(self, client, content):
        client.force_login(UserFactory())
        page = client.get(reverse("games:create") + "?kind=think_alike").content.decode()
        assert re.search(r'value="think_alike"[^>]*checked', page)
        assert "Storyteller" in page and "Time limit, from the start" in page
        assert page.count('name="course_') == 15 and "Theme 3" in page and "Duel for 4" in page

    @pytest.mark.parametrize(
        "fields, options",
        [
            ({"stop": "points", "board": "random", "lang": "en"}, {"stop": "points", "board": "random", "lang": "en"}),
            (
                {"stop": "points", "target": "12", "board": "draft", "lang": "da"},
                {"stop": "points", "target": 12, "board": "draft", "lang": "da"},
            ),
            (
                {"stop": "tasks", "count": "7", "board": "random", "lang": "en"},
                {"stop": "tasks", "count": 7, "board": "random", "lang": "en"},
            ),
            (
                {"stop": "time", "minutes": "120", "board": "random", "lang": "en"},
                {"stop": "time", "minutes": 120, "board": "random", "lang": "en"},
            ),
        ],
    )
    def test_create_with_each_stop_and_board(self, client, content, fields, options):
        client.force_login(UserFactory())
        response = create(client, **fields)
        game = Game.objects.get()
        assert response.url == game.get_absolute_url()
        # The chat box is not ticked in these posts: chat off.
        assert (game.kind, game.max_seats, game.options) == ("think_alike", 4, {**options, "chat": False})

    def test_create_a_course(self, client, content):
        client.force_login(UserFactory())
        course = course_ids(content, "swap", "move", "duel2")
        places = {f"course_{n}": str(field_id) for n, field_id in enumerate(course[1:], start=1)}
        create(client, stop="points", board="course", lang="en", **places)
        assert Game.objects.get().options["course"] == course

    def test_form_errors(self, client, content):
        client.force_login(UserFactory())
        page = create(
            client, stop="tasks", board="course", lang="en", course_1=str(content["swap"].pk)
        ).content.decode()
        assert "How many task cards?" in page and "Choose a field for every place of the course." in page
        course = course_ids(content)
        twice = {f"course_{n}": str(course[1]) for n in range(1, 16)}
        page = create(client, stop="points", board="course", lang="en", **twice).content.decode()
        assert "A course has every field once." in page
        page = create(client, stop="tasks", count="999", board="random", lang="en").content.decode()
        assert "Play from 1 to 40 task cards." in page
        page = create(client, kind="storyteller", max_seats="9").content.decode()
        assert "Choose from 3 to 6 seats." in page
        assert not Game.objects.exists()


class TestPlay:
    def test_a_round_by_the_page_forms(self, client, content):
        game, users = think_alike_game(3, options={"board": "course", "course": course_ids(content)})
        url = reverse("games:act", args=[game.pk])
        holder = next(u for u in users if u.username == view_for(game, users[0])["turn"])
        client.force_login(holder)
        page = client.get(game.get_absolute_url()).content.decode()
        assert "Your turn: roll the die." in page and "Who starts" in page and page.count('class="ring-field') == 16
        response = client.post(url, {"type": "roll", "round": "1"}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200 and "Which way does the token go?" in response.content.decode()
        assert 'aria-label="The die shows' in response.content.decode()
        client.post(url, {"type": "move", "direction": "cw", "round": "1"})
        for user in users:
            client.force_login(user)
            page = client.get(game.get_absolute_url()).content.decode()
            assert 'name="answers"' in page and "Hint" in page
            response = client.post(
                url, {"type": "answer", "answers": ["Owl" if user == holder else "owls"], "round": "1"}
            )
            assert response.status_code == 302
        client.force_login(users[0] if users[0] != holder else users[1])
        page = client.get(game.get_absolute_url()).content.decode()
        assert "checks the groups" in page and "Owl" in page and "owls" in page
        client.force_login(holder)
        page = client.get(game.get_absolute_url()).content.decode()
        assert "Merge the ticked groups" not in page  # one group: nothing to merge
        assert "Split the group" in page
        seat_of = {s.user_id: s.position for s in game.seats.all()}
        split = client.post(
            url,
            {"type": "split", "group": "1", "items": [f"{seat_of[holder.pk]}:0"], "round": "1"},
            HTTP_HX_REQUEST="true",
        ).content.decode()
        assert "Merge the ticked groups" in split
        client.post(url, {"type": "merge", "groups": ["1", "2"], "round": "1"})
        response = client.post(url, {"type": "confirm", "round": "1"}, follow=True)
        page = response.content.decode()
        assert "The round is scored." in page and "Round 1: the answers" in page and "+2 points each" in page
        assert "merged" in page and "Answers ruled the same in this game" in page
        record = ThinkAlikeRound.objects.get(game=game)
        assert sorted(record.points.values()) == [2, 2, 2]

    def test_bad_forms_get_a_message_and_change_nothing(self, client, content):
        game, users = think_alike_game(3)
        holder = next(u for u in users if u.username == view_for(game, users[0])["turn"])
        client.force_login(holder)
        url = reverse("games:act", args=[game.pk])
        version = game.version
        for post, words in [
            ({"type": "move", "direction": "cw"}, "not what the game is waiting for"),
            ({"type": "swap", "remove": "x", "add": "1"}, "Check the remove of this swap action."),
            ({"type": "split", "group": "1", "items": ["a:b"]}, "Check the items of this split action."),
            ({"type": "roll", "round": "7"}, "has moved on"),
        ]:
            response = client.post(url, post, HTTP_HX_REQUEST="true")
            assert words in response.content.decode(), post
        game.refresh_from_db()
        assert game.version == version

    def test_a_spectator_sees_the_table_and_no_form(self, client, content):
        game, _users = think_alike_game(3)
        client.force_login(UserFactory())
        page = client.get(game.get_absolute_url()).content.decode()
        assert (
            'class="ring' in page
            and "Waiting for" in page
            and "<form" not in page.split('id="play"')[1].split("</section>")[0]
        )
        assert client.get(reverse("games:board", args=[game.pk])).status_code == 200


def test_rules_pages(client):
    page = client.get(reverse("games:rules", args=["think_alike"])).content.decode()
    assert "Think Alike: the rules" in page and "Four players with the same answer get 3 points each." in page
    assert client.get(reverse("games:rules", args=["chess"])).status_code == 404


def test_notifications_speak_of_think_alike(client, content):
    game, users = think_alike_game(3)
    client.force_login(users[0])
    page = client.get(reverse("notifications:list")).content.decode()
    assert "has started: see who rolled highest and starts." in page
