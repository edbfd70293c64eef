"""The six content languages in play: the options form and the new-game page offer them, the
creator's language first; the API's ``lang`` takes them (and only them), defaulting to the
request's language; and a game in each language deals that language's cards and fields."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.models import Game
from games.services.games import game_create
from games.tests.api.conftest import API, error_of, make_player  # noqa: F401 (a fixture)
from games.tests.factories import UserFactory
from think_alike.api import ThinkAlikeCreateIn
from think_alike.engine import rules as engine
from think_alike.forms import ThinkAlikeOptionsForm
from think_alike.models import LANGS, BoardField, TaskCard
from think_alike.selectors import think_alike_view

from .content import builtin_content, think_alike_game

pytestmark = pytest.mark.django_db

BASE = {"kind": "think_alike", "max_seats": "4", "pace": "async", "phase_hours": "24", "visibility": "public"}


@pytest.fixture
def content(db):
    builtin_content()


def test_the_engine_matches_answers_in_every_content_language():
    assert set(LANGS) <= set(engine.LANGS)


class TestForm:
    def test_the_six_languages_are_offered_by_name(self, content):
        with translation.override("en"):
            choices = [(value, str(label)) for value, label in ThinkAlikeOptionsForm().fields["lang"].choices]
        assert choices == [
            ("en", "English"),
            ("da", "Danish"),
            ("sv", "Swedish"),
            ("nb", "Norwegian"),
            ("fi", "Finnish"),
            ("fr", "French"),
        ]

    @pytest.mark.parametrize(
        "active, given, initial",
        [("fi", "fi", "fi"), ("nb", "nb", "nb"), ("fr", "en", "fr"), ("en", "da", "da"), ("de", "de", "en")],
    )
    def test_the_creators_language_comes_first(self, content, active, given, initial):
        with translation.override(active):
            assert ThinkAlikeOptionsForm(lang=given).fields["lang"].initial == initial

    def test_a_language_chosen_or_left_to_the_creators(self, content):
        form = ThinkAlikeOptionsForm({"lang": "sv"})
        assert form.is_valid() and form.options()["lang"] == "sv"
        with translation.override("fi"):
            form = ThinkAlikeOptionsForm({})
            assert form.is_valid() and form.options()["lang"] == "fi"
        form = ThinkAlikeOptionsForm({"lang": "de"})
        assert not form.is_valid() and "lang" in form.errors

    def test_the_course_is_chosen_from_fields_in_the_creators_language(self, content):
        with translation.override("fr"):
            page = str(ThinkAlikeOptionsForm(lang="fr")["course_1"])
        assert "Grandes vacances" in page and "Summer holiday" not in page


class TestPages:
    def test_the_new_game_page_offers_the_creators_language(self, client, content):
        client.force_login(UserFactory())
        page = client.get(reverse("games:create") + "?kind=think_alike", HTTP_ACCEPT_LANGUAGE="sv").content.decode()
        assert re.search(r'name="lang" value="sv"[^>]*checked', page)
        assert all(f'name="lang" value="{lang}"' in page for lang in LANGS)

    @pytest.mark.parametrize("lang", LANGS)
    def test_a_game_created_in_each_language(self, client, content, lang):
        client.force_login(UserFactory())
        response = client.post(reverse("games:create"), {**BASE, "stop": "points", "board": "random", "lang": lang})
        game = Game.objects.get()
        assert response.url == game.get_absolute_url() and game.options["lang"] == lang
        page = client.get(game.get_absolute_url()).content.decode()
        name = translation.get_language_info(lang)["name"]  # in the reader's language (English here)
        assert f'<span class="card-language">{name[0].upper()}{name[1:]}</span>' in page

    def test_the_cards_language_is_named_in_the_readers_language(self, client, content):
        """Issue 39: "English" stood untranslated on a Danish or Finnish page."""
        client.force_login(UserFactory())
        client.post(reverse("games:create"), {**BASE, "stop": "points", "board": "random", "lang": "en"})
        game = Game.objects.get()
        for reader, name in (("da", "Engelsk"), ("fi", "Englanti")):
            page = client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=reader).content.decode()
            assert f'<span class="card-language">{name}</span>' in page, reader


class TestApi:
    def test_the_schema_lists_the_six(self):
        schema = ThinkAlikeCreateIn.model_json_schema()
        assert schema["properties"]["lang"]["anyOf"][0]["enum"] == list(LANGS)

    @pytest.mark.parametrize("lang", LANGS)
    def test_each_language_is_taken(self, content, make_player, lang):
        _user, client = make_player()
        response = client.post("/games", {"kind": "think_alike", "seats": 3, "lang": lang})
        assert response.status_code == 201, response.content
        assert Game.objects.get().options["lang"] == lang

    def test_an_unknown_language_is_refused(self, content, make_player):
        _user, client = make_player()
        assert error_of(client.post("/games", {"kind": "think_alike", "seats": 3, "lang": "de"})) == (
            400,
            "bad_request",
        )
        assert not Game.objects.exists()

    @pytest.mark.parametrize("header, lang", [("nb-NO,nb;q=0.9", "nb"), ("fi", "fi"), ("de-DE", "en")])
    def test_the_default_is_the_requests_language(self, content, make_player, header, lang):
        _user, client = make_player()
        response = client.client.post(
            API + "/games",
            '{"kind": "think_alike", "seats": 3}',
            content_type="application/json",
            headers={**client._headers(None), "Accept-Language": header},
        )
        assert response.status_code == 201, response.content
        assert Game.objects.get().options["lang"] == lang

    def test_the_fields_in_a_language(self, content, make_player):
        _user, client = make_player()
        texts = {f["text"] for f in client.get("/think-alike/fields", lang="fi").json()["fields"]}
        assert {"Lähtö", "Talvi", "Kaksintaistelu 4 pisteestä"} <= texts and "Winter" not in texts
        assert error_of(client.get("/think-alike/fields", lang="de"))[0] == 400


@pytest.mark.parametrize("lang", LANGS)
def test_a_game_in_each_language_deals_that_languages_cards(content, lang):
    game, users = think_alike_game(3, options={"lang": lang})
    cards = {card.pk: card.text(lang) for card in TaskCard.objects.all()}
    fields = {field.pk: field.text(lang) for field in BoardField.objects.all()}
    assert {task["id"]: task["text"] for task in game.state["tasks"]} == cards
    assert all(field["text"] == fields[field["id"]] for field in game.state["fields"])
    if lang != "en":
        english = {card.text_en for card in TaskCard.objects.all()}
        assert not english & set(cards.values()) - {"Hobby"}  # the same word in some languages only
    view = think_alike_view(game=game, seats=list(game.seats.order_by("position")), viewer=users[0])
    assert view["lang"] == lang
    assert {field["text"] for field in view["board"]} <= set(fields.values())


def test_a_game_created_in_the_creators_language_by_default(content):
    with translation.override("sv"):
        game = game_create(creator=UserFactory(), kind="think_alike", max_seats=3, options={})
    assert game.options["lang"] == "sv"
