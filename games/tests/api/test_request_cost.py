"""What one request to the API costs the server besides its own work, held (issue 41): a token's check is one
statement that brings its user (no read of the users' cache), and a request with a token passes the pages' own
middleware (its session, signed-in user and messages). Nothing of it is kept between requests: a token revoked,
or its user made inactive, is refused at the very next request."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import ApiToken, User
from accounts.services import token_create, token_revoke
from games.api.middleware import API_PATH

from .conftest import API, ApiClient, error_of

pytestmark = pytest.mark.django_db


def statements(call) -> tuple[object, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        answer = call()
    return answer, [query["sql"] for query in queries.captured_queries]


def test_a_fetch_of_a_game_is_two_statements_with_the_users_cache_empty(seated):
    game_id, users = seated(4)
    _user, client = users[1]
    assert client.get(f"/games/{game_id}").status_code == 200
    cache.clear()  # no user kept anywhere: the token's statement brings it
    answer, sql = statements(lambda: client.get(f"/games/{game_id}"))
    assert answer.status_code == 200 and answer.json()["id"] == game_id
    assert len(sql) == 2, sql  # the token with its user; the game's version (its view kept for the version)
    assert '"accounts_user"' in sql[0] and '"accounts_apitoken"' in sql[0]
    assert not any("django_session" in one for one in sql)


def test_an_action_through_the_api_with_its_answer_holds_its_statements(seated):
    game_id, users = seated(4)
    teller = next(client for _user, client in users if client.get(f"/games/{game_id}").json()["you"]["to_act"])
    card = teller.get(f"/games/{game_id}").json()["hand"][0]["id"]
    answer, sql = statements(
        lambda: teller.post(f"/games/{game_id}/actions", {"type": "clue", "card": card, "text": "a fox"})
    )
    assert answer.status_code == 200 and answer.json()["phase"] == "submit"
    # The token (with its user) and the game's kind; the action's own, its savepoint here for a transaction
    # (games.tests.test_services holds those: at most 15 for a clue); its answer: the game's version, and here,
    # where the test's transaction never commits (so the service's game_remember waits), the game and seats.
    # No session, no user read apart.
    assert len(sql) <= 20, sql
    assert not any('FROM "accounts_user"' in one for one in sql), sql
    assert not any("django_session" in one for one in sql)


def test_a_revoked_token_is_refused_at_the_next_request(seated):
    game_id, users = seated(3)
    user, client = users[0]
    assert client.get(f"/games/{game_id}").status_code == 200
    assert token_revoke(user=user, token_id=ApiToken.objects.get(user=user).pk)
    assert error_of(client.get(f"/games/{game_id}")) == (401, "unauthorized")


def test_a_user_made_inactive_is_refused_at_the_next_request_even_without_a_save(seated):
    game_id, users = seated(3)
    user, client = users[0]
    assert client.get(f"/games/{game_id}").status_code == 200
    User.objects.filter(pk=user.pk).update(is_active=False)  # no signal: nothing told any cache
    assert error_of(client.get(f"/games/{game_id}")) == (401, "unauthorized")


def test_a_request_with_a_token_is_the_tokens_whatever_session_it_brings(seated):
    game_id, users = seated(3)
    (alice, _alice_api), (bob, _bob_api) = users[0], users[1]
    outsider = User.objects.create(username="outsider")
    browser = Client()
    browser.force_login(alice)  # a signed-in browser's cookie, sent with someone else's token
    _token, secret = token_create(user=outsider, name="x")
    answer = browser.get(f"{API}/games/{game_id}", headers={"Authorization": f"Bearer {secret}"})
    assert answer.status_code == 200 and answer.json()["you"] == {  # the outsider's answer, not Alice's
        "username": "outsider",
        "seat": None,
        "to_act": False,
    }
    answer = browser.get(f"{API}/games/{game_id}", headers={"Authorization": f"Bearer {_bob_api.token}"})
    assert answer.status_code == 200 and answer.json()["you"]["username"] == bob.username
    assert "Cookie" not in answer.get("Vary", "") and "sessionid" not in answer.cookies
    # Without a token, the same browser's session is read as ever: its pages know Alice.
    assert browser.get(reverse("games:mine")).context["user"] == alice


def test_the_api_answers_to_a_token_with_the_pages_headers_and_its_language(seated):
    game_id, users = seated(3)
    _user, client = users[0]
    answer = client.client.get(
        f"{API}/games/{game_id}/nowhere", headers={"Authorization": f"Bearer {client.token}", "Accept-Language": "fr"}
    )
    assert error_of(answer)[0] == 404 and answer["Content-Language"] == "fr"
    assert answer["X-Content-Type-Options"] == "nosniff" and answer["X-Frame-Options"] == "DENY"
    assert "Content-Security-Policy" in answer


def test_what_comes_without_a_token_or_with_one_it_does_not_need_works_as_before(anon, make_player):
    user, client = make_player(username="tokenholder")
    user.set_password("a long pass phrase")
    user.save()
    # A token asked for while sending an old one: the password decides, the old token changes nothing.
    asked = client.post("/tokens", {"username": "tokenholder", "password": "a long pass phrase", "name": "again"})
    assert asked.status_code == 201, asked.content
    assert ApiClient(asked.json()["token"]).get("/games").status_code == 200
    assert Client().get(f"{API}/docs", headers={"Authorization": f"Bearer {client.token}"}).status_code == 200
    assert anon.get("/games").status_code == 401


def test_the_api_lives_where_the_middleware_looks_for_it():
    assert reverse("api-v1:api-root").startswith(API_PATH)
    assert not reverse("games:mine").startswith(API_PATH)
