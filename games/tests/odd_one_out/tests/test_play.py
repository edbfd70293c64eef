"""Odd one out plays through the core as the real games do: the API, the pages, the
notifications and the replay, with nothing of it outside its own folder."""

import json
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.services import token_create
from games import kinds
from games.models import Game, Move
from games.services.errors import GameError
from games.services.games import game_create, game_expire, game_join
from games.tests.factories import UserFactory
from games.tests.odd_one_out.kind import KIND

pytestmark = pytest.mark.django_db


class Forms(HTMLParser):
    """The forms of a page: each one's attributes and its inputs (name, type, value)."""

    def __init__(self, html: str):
        super().__init__()
        self.forms: list[dict] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"attrs": attrs, "inputs": []})
        elif tag == "input" and self.forms:
            self.forms[-1]["inputs"].append(attrs)

    def by_class(self, name: str) -> dict:
        return next(form for form in self.forms if name in form["attrs"].get("class", "").split())


def filled(form: dict, *, choose: dict, write: dict) -> dict:
    """What a browser sends for ``form``: its hidden inputs, the radio values chosen, the texts written."""
    data = {i["name"]: i.get("value", "") for i in form["inputs"] if i.get("type") == "hidden"}
    for i in form["inputs"]:
        if i.get("type") == "radio" and choose.get(i["name"]) == i["value"]:
            data[i["name"]] = i["value"]
        elif i.get("type") == "text":
            data[i["name"]] = write.get(i["name"], "")
    return data


class Api:
    def __init__(self, user):
        _token, secret = token_create(user=user, name="odd")
        self.client = Client(headers={"Authorization": f"Bearer {secret}"})

    def get(self, path):
        return self.client.get("/api/v1" + path)

    def post(self, path, body):
        return self.client.post("/api/v1" + path, json.dumps(body), content_type="application/json")


def test_it_is_registered_by_its_app():
    assert kinds.get("odd_one_out") is KIND
    assert "odd_one_out" in dict(kinds.choices())


def test_a_game_through_the_api():
    users = UserFactory.create_batch(3)
    apis = [Api(user) for user in users]
    created = apis[0].post("/games", {"kind": "odd_one_out", "seats": 3, "rounds": 2})
    assert created.status_code == 201, created.content
    view = created.json()
    assert (view["kind"], view["status"], view["rounds"]) == ("odd_one_out", "open", 2)
    game_id = view["id"]
    for api in apis[1:]:
        joined = api.post(f"/games/{game_id}/join", {})
        assert joined.status_code == 200, joined.content
    view = apis[0].get(f"/games/{game_id}").json()
    assert (view["status"], view["phase"], view["round"]) == ("active", "pick", 1)
    words = [w["word"] for w in view["words"]]
    assert len(words) == 4 and view["you"]["to_act"]

    picked = apis[0].post(f"/games/{game_id}/actions", {"type": "pick", "word": words[0], "round": 1}).json()
    assert picked["you"]["pick"] == words[0] and not picked["you"]["to_act"]
    # Another player sees that the first has picked, never what.
    other = apis[1].get(f"/games/{game_id}").json()
    assert other["picked"] == [users[0].username]
    assert words[0] not in json.dumps({k: v for k, v in other.items() if k != "words"})

    refused = apis[0].post(f"/games/{game_id}/actions", {"type": "pick", "word": words[1]})
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "already_picked")
    refused = apis[1].post(f"/games/{game_id}/actions", {"type": "pick", "word": "  "})
    assert (refused.status_code, refused.json()["error"]["code"]) == (400, "word_empty")

    apis[1].post(f"/games/{game_id}/actions", {"type": "pick", "word": words[0]})
    view = apis[2].post(f"/games/{game_id}/actions", {"type": "pick", "word": "my own"}).json()
    assert view["round"] == 2
    assert view["last_round"]["majority"] == words[0]
    assert view["last_round"]["picks"][users[2].username] == "my own"
    assert [p["score"] for p in view["players"]] == [1, 1, 0]

    for api in apis:
        view = api.post(f"/games/{game_id}/actions", {"type": "pick", "word": "owl"}).json()
    assert view["status"] == "finished"
    assert view["winners"] == [u.username for u in users[:2]]
    assert Move.objects.filter(game_id=game_id, kind="pick").count() == 6


def test_the_openapi_document_holds_its_view_and_action():
    document = Client().get("/api/v1/openapi.json").json()
    schemas = document["components"]["schemas"]
    assert "OddOneOutView" in schemas
    body = document["paths"]["/api/v1/games/{game_id}/actions"]["post"]["requestBody"]["content"]["application/json"]
    assert {"$ref": "#/components/schemas/Pick"} in body["schema"]["oneOf"]
    assert set(schemas["Pick"]["properties"]) == {"type", "word", "round"}


def test_a_game_through_the_pages():
    users = UserFactory.create_batch(3)
    browsers = []
    for user in users:
        browser = Client(enforce_csrf_checks=True)
        browser.force_login(user)
        browsers.append(browser)

    form = browsers[0].get(reverse("games:create")).content.decode()
    assert 'value="odd_one_out"' in form  # the new-game form offers the kind ...
    assert 'name="rounds"' in form  # ... and its options
    create = Forms(form).by_class("create-form")
    token = next(i["value"] for i in create["inputs"] if i["name"] == "csrfmiddlewaretoken")
    response = browsers[0].post(
        reverse("games:create"),
        {
            "csrfmiddlewaretoken": token,
            "kind": "odd_one_out",
            "max_seats": "3",
            "pace": "async",
            "phase_hours": "24",
            "visibility": "public",
            "rounds": "1",
        },
    )
    game = Game.objects.get(kind="odd_one_out")
    assert response.url == game.get_absolute_url()
    assert game.options == {"rounds": 1}
    for browser in browsers[1:]:
        join = Forms(browser.get(game.get_absolute_url()).content.decode()).forms
        [form] = [f for f in join if f["attrs"]["action"] == reverse("games:join", args=[game.pk])]
        browser.post(form["attrs"]["action"], filled(form, choose={}, write={}))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    # Its notifications speak of words (the bell lists what still waits: the start, until the game is opened).
    notes = browsers[0].get(reverse("notifications:list")).content.decode()
    assert "has started: pick a word" in notes

    page = browsers[0].get(game.get_absolute_url()).content.decode()
    assert "Round 1 of 1" in page  # its phase partial
    assert 'class="pick-form"' in page  # its play partial, with the form
    assert "1 round" in page  # its options partial
    assert ".odd-one-out .words" in page  # its head partial
    pick = Forms(page).by_class("pick-form")
    words = [i["value"] for i in pick["inputs"] if i["name"] == "word"]
    assert len(words) == 4
    word = words[0]

    # The page's own form, as a browser posts it (its CSRF token, type and round).
    response = browsers[0].post(pick["attrs"]["action"], filled(pick, choose={"word": word}, write={}))
    assert response.status_code == 302
    page = browsers[0].get(game.get_absolute_url()).content.decode()
    assert "Your word is in." in page
    assert f"Your word: {word}" in page
    assert 'class="pick-form"' not in page
    # An htmx post answers with the board; a word of one's own wins over the radio buttons.
    pick = Forms(browsers[1].get(game.get_absolute_url()).content.decode()).by_class("pick-form")
    assert pick["attrs"]["hx-post"] == pick["attrs"]["action"]
    board = (
        browsers[1]
        .post(
            pick["attrs"]["action"],
            filled(pick, choose={"word": word}, write={"own": "Lantern"}),
            headers={"HX-Request": "true"},
        )
        .content.decode()
    )
    assert 'id="board"' in board and "Your word: lantern" in board
    # The last one lets the deadline pass: they abstain, the round is scored and the game ends.
    game.refresh_from_db()
    assert game_expire(game_id=game.pk, version=game.version, now=game.deadline_at + timedelta(seconds=1))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    page = browsers[2].get(game.get_absolute_url()).content.decode()
    assert "Final standings" in page
    assert "No word had a majority." in page  # its reveal partial

    replay = browsers[2].get(reverse("stats:replay", args=[game.pk]))
    assert replay.status_code == 200
    assert "lantern" in replay.content.decode()
    rules = browsers[2].get(reverse("games:rules", args=["odd_one_out"])).content.decode()
    assert "Odd one out: the rules" in rules

    # Opening the game read its start; what waits now is the end.
    notes = browsers[0].get(reverse("notifications:list")).content.decode()
    assert "has started" not in notes and "is over" in notes


def test_bad_options_are_refused():
    with pytest.raises(GameError) as refused:
        game_create(creator=UserFactory(), kind="odd_one_out", max_seats=3, options={"rounds": 9})
    assert (refused.value.code, refused.value.kind) == ("bad_options", "invalid")
    assert game_create(creator=UserFactory(), kind="odd_one_out", max_seats=3).options == {"rounds": 3}


def test_a_deadline_not_yet_due_changes_nothing():
    users = UserFactory.create_batch(3)
    game = game_create(creator=users[0], kind="odd_one_out", max_seats=3)
    for user in users[1:]:
        game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    assert not game_expire(game_id=game.pk, version=game.version, now=timezone.now())
    assert Game.objects.get(pk=game.pk).version == game.version
