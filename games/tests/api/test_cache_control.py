"""Every answer of the API is its caller's: ``Cache-Control: private``, so that no shared cache (a proxy, a CDN)
keeps one for someone else. What an answer said already stays said: a new token's ``no-store``, a view's
``no-cache`` beside its ETag."""

import pytest

from games.tests.factories import UserFactory

from .conftest import error_of

pytestmark = pytest.mark.django_db


def directives(response) -> set[str]:
    return {part.strip() for part in response["Cache-Control"].split(",")}


def test_a_list_a_game_and_an_action_s_answer_are_private(seated):
    game_id, users = seated(3)
    _user, client = users[0]
    listed = client.get("/games")
    assert listed.status_code == 200
    assert "private" in directives(listed)
    view = client.get(f"/games/{game_id}")
    assert view.status_code == 200
    assert {"private", "no-cache"} <= directives(view) and view["ETag"]
    left = client.post(f"/games/{game_id}/leave")
    assert left.status_code in (200, 409)
    assert "private" in directives(left)


def test_errors_are_private_too(make_player, anon):
    _user, client = make_player()
    missing = client.get("/games/999999")
    assert error_of(missing)[0] == 404 and "private" in directives(missing)
    refused = anon.get("/games")
    assert error_of(refused)[0] == 401 and "private" in directives(refused)
    wrong_method = client.delete("/games")
    assert error_of(wrong_method)[0] == 405 and "private" in directives(wrong_method)


def test_a_new_token_s_answer_is_still_kept_by_no_cache_at_all(anon):
    user = UserFactory()
    response = anon.post("/tokens", {"username": user.username, "password": "correct horse battery"})
    assert response.status_code == 201
    assert {"no-store", "private"} <= directives(response)


def test_a_page_of_the_site_is_not_touched(client):
    response = client.get("/privacy/")
    assert response.status_code == 200
    assert "private" not in response.get("Cache-Control", "")
