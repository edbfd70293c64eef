"""Think Alike's house rules in its view (``rules``: its own options and ``chat``), from the API and the form."""

import pytest
from django.urls import reverse

from games.models import Game
from games.tests.api.conftest import error_of, fresh_rate_counts, make_player  # noqa: F401
from games.tests.factories import UserFactory

from .content import small_content

pytestmark = pytest.mark.django_db


@pytest.fixture
def content(db):
    return small_content()


def test_chat_off_and_the_rules_in_the_view(content, make_player):
    _user, client = make_player()
    body = {"kind": "think_alike", "seats": 3, "stop": "tasks", "count": 2, "lang": "fr", "chat": False}
    view = client.post("/games", body).json()
    assert view["rules"] == {
        "stop": "tasks",
        "target": None,
        "count": 2,
        "minutes": None,
        "board": "random",
        "lang": "fr",
        "chat": False,
    }
    assert Game.objects.get(pk=view["id"]).options["chat"] is False
    assert view["options"]["chat"] is False


def test_chat_is_on_by_default_and_a_bool(content, make_player):
    _user, client = make_player()
    view = client.post("/games", {"kind": "think_alike", "seats": 3}).json()
    assert view["rules"]["chat"] is True and view["rules"]["stop"] == "points"
    assert error_of(client.post("/games", {"kind": "think_alike", "seats": 3, "chat": "no"})) == (400, "bad_request")


def test_the_form_offers_chat(content, client):
    client.force_login(UserFactory())
    response = client.post(
        reverse("games:create"),
        {
            "kind": "think_alike",
            "max_seats": 3,
            "pace": "async",
            "phase_hours": 24,
            "visibility": "public",
            "stop": "points",
            "board": "random",
            "lang": "en",
        },
    )
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert Game.objects.get().options["chat"] is False  # the box was not ticked


def test_the_lobby_row_tells_how_the_game_ends_its_language_and_no_chat(content, make_player, client):
    _user, api = make_player()
    api.post("/games", {"kind": "think_alike", "seats": 3, "stop": "tasks", "count": 2, "lang": "fr", "chat": False})
    api.post("/games", {"kind": "think_alike", "seats": 3, "stop": "time", "minutes": 45})
    client.force_login(UserFactory())
    row = client.get(reverse("games:lobby_fragment")).content.decode()
    assert "2 task cards" in row and '<span class="card-language">French</span>' in row and "No chat" in row
    assert "Play for 45 minutes" in row
