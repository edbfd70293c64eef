"""What the server renders for Think Alike's table (issue 15): the answer form's counter of
answers still to write and its question before blank answers are handed in, the count of
blank answers once they are in, and the course drawn as a circle on the new-game form, its
fields named in the page's language."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from accounts.services import token_create
from games.models import Game
from games.services.games import game_act
from games.tests.factories import UserFactory
from games.tests.play import view_for
from think_alike.engine.rules import BOARD_SIZE
from think_alike.forms import COURSE_LENGTH

from .content import course_ids, small_content, think_alike_game

pytestmark = pytest.mark.django_db

BASE = {"kind": "think_alike", "max_seats": "4", "pace": "async", "phase_hours": "24", "visibility": "public"}


def to_answers(content):
    """A game of three on a course of association fields, in the answer phase."""
    game, users = think_alike_game(3, options={"board": "course", "course": course_ids(content)})
    holder = next(u for u in users if u.username == view_for(game, users[0])["turn"])
    game_act(game_id=game.pk, user=holder, action={"type": "roll"})
    game_act(game_id=game.pk, user=holder, action={"type": "move", "direction": "cw"})
    assert view_for(game, users[0])["phase"] == "answer"
    return game, users


def answer_form(page: str) -> str:
    return re.search(r"<form[^>]*class=\"ta-form answer-form\".*?</form>", page, re.S).group(0)


class TestTheAnswerForm:
    def test_five_answers_count_down_and_blanks_are_asked_about(self, client):
        game, users = to_answers(small_content(answers=5))
        client.force_login(users[0])
        page = client.get(game.get_absolute_url()).content.decode()
        form = answer_form(page)
        assert form.count('name="answers"') == 5
        counter = re.search(r'<p class="answer-count"([^>]*)>(.*?)</p>', form, re.S)
        assert 'aria-live="polite"' in counter.group(1) and 'role="status"' in counter.group(1)
        assert counter.group(2).strip() == "0 of 5 answers written — 5 to go"
        # The words for every count, rendered with their plural forms, for the script to show.
        texts = re.search(r"<template data-answer-count-texts>(.*?)</template>", form, re.S).group(1)
        assert '<span data-written="3">3 of 5 answers written — 2 to go</span>' in texts
        assert '<span data-written="5">All 5 answers written</span>' in texts
        blanks = re.search(r"<template data-blank-texts>(.*?)</template>", form, re.S).group(1)
        assert '<span data-blank="1">You left 1 answer blank. Hand in anyway?</span>' in blanks
        assert '<span data-blank="2">You left 2 answers blank. Hand in anyway?</span>' in blanks
        assert 'data-blank="0"' not in blanks
        assert re.search(r"<dialog [^>]*aria-labelledby=\"blank-question-1\"", form)
        assert "Hand in anyway" in form and "Keep writing" in form
        # The script is a file of the site (no inline script: the pages' CSP allows none).
        assert re.search(r'<script src="[^"]*js/think_alike\.js" defer></script>', page)
        assert "onclick" not in form and "<script" not in form

    def test_one_answer(self, client):
        game, users = to_answers(small_content(answers=1))
        client.force_login(users[0])
        form = answer_form(client.get(game.get_absolute_url()).content.decode())
        assert "0 of 1 answer written — 1 to go" in form and "Your answer is written" in form

    @pytest.mark.parametrize(
        "answers, said",
        [
            (["Owl", "", "Cat", "  ", "Dog"], "You left 2 answers blank: they score nothing."),
            (["Owl", "Cat", "", "Dog", "Hen"], "You left 1 answer blank: it scores nothing."),
            (["Owl", "Cat", "Cow", "Dog", "Hen"], None),
        ],
    )
    def test_blank_answers_are_taken_and_counted_after(self, client, answers, said):
        game, users = to_answers(small_content(answers=5))
        client.force_login(users[0])
        url = reverse("games:act", args=[game.pk])
        response = client.post(url, {"type": "answer", "round": "1", "answers": answers}, follow=True)
        page = response.content.decode()
        assert "Your answers are in." in page
        assert view_for(game, users[0])["you"]["answers"] == [a.strip() for a in answers]
        if said:
            assert f'<p class="blank-count">{said}</p>' in page
        else:
            assert "blank-count" not in page

    def test_the_board_an_htmx_hand_in_gets_back_counts_the_blanks(self, client):
        game, users = to_answers(small_content(answers=5))
        client.force_login(users[0])
        url = reverse("games:act", args=[game.pk])
        answers = ["Owl", "", "", "", "Dog"]
        response = client.post(url, {"type": "answer", "round": "1", "answers": answers}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        assert '<p class="blank-count">You left 3 answers blank: they score nothing.</p>' in response.content.decode()

    def test_the_api_takes_blank_answers_as_before(self, client):
        game, users = to_answers(small_content(answers=3))
        _token, secret = token_create(user=users[1], name="test")
        response = client.post(
            f"/api/v1/games/{game.pk}/actions",
            {"type": "answer", "answers": ["", "Cat", ""]},
            content_type="application/json",
            headers={"Authorization": f"Bearer {secret}"},
        )
        assert response.status_code == 200, response.content
        assert view_for(game, users[1])["you"]["answers"] == ["", "Cat", ""]


class TestTheCourseBuilder:
    def page(self, client, lang="en", data=None):
        client.force_login(UserFactory())
        url = reverse("games:create") + "?kind=think_alike"
        if data is None:
            return client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        return client.post(url, data, HTTP_ACCEPT_LANGUAGE=lang).content.decode()

    @staticmethod
    def builder(page: str) -> str:
        return re.search(r"<div class=\"course-builder\".*?<details class=\"course-lists\"", page, re.S).group(0)

    def test_the_circle_and_the_palette(self, client):
        content = small_content()
        builder = self.builder(self.page(client))
        places = re.findall(r'<button type="button" class="ring-field ring-at-(\d+) course-place empty"', builder)
        assert places == [str(n) for n in range(1, COURSE_LENGTH + 1)]
        start = r'class="ring-field ring-at-0 kind-swap course-start"><span class="field-text">Start<'
        assert re.search(start, builder)
        palette = re.findall(r'data-field="(\d+)" data-kind="(\w+)" data-text="([^"]*)"', builder)
        fields = [content["start"], *content["associations"]]
        assert len(palette) == len(fields) - 1 + 4  # every field but the start, each once
        assert palette[0] == (str(content["associations"][0].pk), "association", "Theme 0")
        assert (str(content["duel4"].pk), "duel", "Duel for 4") in palette
        assert 'course-builder" data-course-builder hidden' in builder  # shown by the script only
        # The lists stay, the form's inputs, open where there is no script.
        page = self.page(client)
        assert '<details class="course-lists" open>' in page and page.count('name="course_') == COURSE_LENGTH

    def test_the_fields_are_named_in_the_pages_language(self, client):
        small_content()
        builder = self.builder(self.page(client, lang="fr"))
        assert 'data-text="Theme 3 (fr)"' in builder and 'data-text="Duel for 4 (fr)"' in builder
        assert 'data-text="Theme 3"' not in builder and 'data-text="Tema 3"' not in builder
        assert '<span class="field-text">Start (fr)</span>' in builder

    def test_the_page_language_not_the_cards_language(self, client):
        """A French page creating a Danish game shows the fields in French: the course is laid on
        this page; the game's cards are dealt in Danish."""
        content = small_content()
        chosen = content["associations"][2]
        data = {**BASE, "stop": "points", "board": "course", "lang": "da", "course_1": str(chosen.pk)}
        builder = self.builder(self.page(client, lang="fr", data=data))
        assert not Game.objects.exists()
        first = re.search(r'data-place="1".*?</button>', builder, re.S).group(0)
        assert '<span class="field-text">Theme 2 (fr)</span>' in first and "data-empty hidden" in first
        assert "Tema 2" not in builder
        second = re.search(r'data-place="2".*?</button>', builder, re.S).group(0)
        assert '<span class="field-text"></span>' in second and "data-empty hidden" not in second

    def test_a_course_laid_by_the_lists_is_the_games(self, client):
        content = small_content()
        course = course_ids(content, "duel2", "move", "swap")
        places = {f"course_{n}": str(field) for n, field in enumerate(course[1:], start=1)}
        client.force_login(UserFactory())
        client.post(reverse("games:create"), {**BASE, "stop": "points", "board": "course", "lang": "en", **places})
        assert Game.objects.get().options["course"] == course


def test_the_board_places_its_fields_by_class_not_inline_style(client):
    """A strict Content-Security-Policy refuses inline styles: the circle's places are classes of the
    style sheet, one for each place of the board."""
    game, users = to_answers(small_content())
    client.force_login(users[0])
    page = client.get(game.get_absolute_url()).content.decode()
    ring = re.search(r'<div class="ring.*?<div class="ring-center">', page, re.S).group(0)
    assert "style=" not in ring
    assert sorted(int(n) for n in re.findall(r"ring-at-(\d+)", ring)) == list(range(BOARD_SIZE))
    css = (Path(__file__).parents[1] / "static/css/think_alike.css").read_text()
    assert all(re.search(rf"\.ring-at-{n} {{ left: [\d.]+%; top: [\d.]+%; }}", css) for n in range(BOARD_SIZE))
