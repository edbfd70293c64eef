"""Hostile input to every URL of the API: always a 4xx, always in the API's error format (issue 13)."""

import json

import pytest

from accounts.models import User
from games.models import Game

from .conftest import API, ApiClient, error_of

pytestmark = pytest.mark.django_db

ACCOUNT = {"username": "newcomer", "email": "newcomer@example.com", "password": "a-long-Secret-42"}


@pytest.fixture
def player(make_player):
    return make_player()


@pytest.fixture
def private_game(deck, make_player):
    """A private game of another player's, its id, and an id no game has."""
    _creator, client = make_player()
    view = client.post("/games", {"seats": 3, "visibility": "private"}).json()
    return view["id"], Game.objects.order_by("-pk").values_list("pk", flat=True).first() + 1000


class TestMethods:
    @pytest.mark.parametrize(
        ("method", "path", "allowed"),
        [
            ("get", "/games/{id}/actions", "POST"),
            ("delete", "/games/{id}", "GET"),
            ("put", "/games/{id}", "GET"),
            ("patch", "/games", "GET"),
            ("options", "/games/{id}/join", "POST"),
            ("delete", "/accounts", "POST"),
            ("get", "/tokens", "POST"),
            ("post", "/openapi.json", "GET"),
            ("delete", "/docs", "GET"),
            ("post", "/think-alike/fields", "GET"),
        ],
    )
    def test_a_method_a_path_does_not_take_is_a_405_in_the_format(self, player, seated, method, path, allowed):
        game_id, _users = seated(3)
        _user, client = player
        url = API + path.format(id=game_id)
        response = client.client.generic(method.upper(), url, headers=client._headers(None))
        assert error_of(response) == (405, "method_not_allowed")
        assert allowed in response["Allow"].split(", ")

    def test_every_405_says_what_the_path_takes(self, player):
        _user, client = player
        response = client.client.put(f"{API}/games", headers=client._headers(None))
        assert set(response["Allow"].split(", ")) == {"GET", "POST"}


class TestUnknownPaths:
    @pytest.mark.parametrize(
        "path",
        [
            "/",
            "/nope",
            "/games/abc",
            "/games/1/nope",
            "/games/-1",
            "/games/" + "9" * 40,
            "/games/%00",
            "/%C3%A6%C3%B8%C3%A5",
            "/" + "a" * 5000,
            "/games/1/actions/",
        ],
    )
    @pytest.mark.parametrize("method", ["get", "post", "delete"])
    def test_unknown_is_a_404_in_the_format(self, player, path, method):
        _user, client = player
        response = client.client.generic(method.upper(), API + path, headers=client._headers(None))
        assert response.status_code in (404, 405), response.content
        assert error_of(response)[1] in ("not_found", "method_not_allowed")


class TestMediaTypes:
    @pytest.mark.parametrize(
        "content_type",
        ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "", "text/json"],
    )
    def test_a_json_body_sent_as_another_type_is_refused(self, content_type):
        """A page on any site can send these from a visitor's browser without asking first (no CORS preflight)."""
        client = ApiClient().client
        response = client.post(f"{API}/accounts", json.dumps(ACCOUNT), content_type=content_type)
        assert error_of(response) == (415, "unsupported_media_type")
        assert not User.objects.filter(username=ACCOUNT["username"]).exists()

    def test_nor_to_a_token(self, make_player):
        user, _client = make_player()
        user.set_password("a-long-Secret-42")
        user.save()
        body = json.dumps({"username": user.username, "password": "a-long-Secret-42"})
        response = ApiClient().client.post(f"{API}/tokens", body, content_type="text/plain")
        assert error_of(response) == (415, "unsupported_media_type")

    @pytest.mark.parametrize("path", ["/games", "/games/{id}/leave", "/games/{id}/start", "/games/{id}/actions"])
    def test_every_post_takes_json_only(self, player, deck, path):
        user, client = player
        game_id = client.post("/games", {"seats": 3}).json()["id"]
        response = client.client.post(
            API + path.format(id=game_id),
            '{"type": "resign"}',
            content_type="text/plain",
            headers=client._headers(None),
        )
        assert error_of(response) == (415, "unsupported_media_type")

    def test_json_with_a_charset_is_json(self):
        client = ApiClient().client
        response = client.post(f"{API}/accounts", json.dumps(ACCOUNT), content_type="application/json; charset=utf-8")
        assert response.status_code == 201, response.content

    def test_a_post_without_a_body_needs_no_type(self, player, deck):
        _user, client = player
        game_id = client.post("/games", {"seats": 3}).json()["id"]
        response = client.client.generic("POST", f"{API}/games/{game_id}/leave", headers=client._headers(None))
        assert response.status_code == 200, response.content

    def test_the_document_says_so(self, client):
        document = client.get(f"{API}/openapi.json").json()
        for path, item in document["paths"].items():
            for method, operation in item.items():
                if method == "post":
                    assert "415" in operation["responses"], path
        assert "405" in document["info"]["description"] and "415" in document["info"]["description"]


HOSTILE_STRINGS = [
    "a\ud800b",
    "\udfff",
    "\x00",
    "a\x00b",
    "\u202eevil",
    "\u200b",
    "æøå",
    "💥" * 10,
    "x" * 60_000,
    "%s%n{0}{{x}}<script>",
]
WRONG_TYPES = [None, 1, -1, 2**70, 1.5, True, [], ["x"], {}, {"x": 1}]


def _raw(body) -> str:
    """JSON that keeps a lone surrogate as its escape (json.dumps would too; said for the reader)."""
    return json.dumps(body, ensure_ascii=True)


class TestHostileBodies:
    @pytest.mark.parametrize("value", HOSTILE_STRINGS + WRONG_TYPES)
    @pytest.mark.parametrize(
        ("path", "field", "base"),
        [
            ("/accounts", "username", ACCOUNT),
            ("/accounts", "email", ACCOUNT),
            ("/accounts", "password", ACCOUNT),
            ("/tokens", "username", {"username": "someone", "password": "secret"}),
            ("/tokens", "password", {"username": "someone", "password": "secret"}),
            ("/tokens", "name", {"username": "someone", "password": "secret"}),
            ("/games", "kind", {}),
            ("/games", "pace", {}),
            ("/games", "visibility", {}),
            ("/games", "seats", {}),
            ("/games/{id}/join", "invite_code", {}),
            ("/games/{id}/actions", "type", {}),
            ("/games/{id}/actions", "text", {"type": "clue", "card": 1}),
            ("/games/{id}/actions", "card", {"type": "clue", "text": "x"}),
            ("/games/{id}/actions", "round", {"type": "resign"}),
        ],
    )
    def test_any_value_of_any_field_is_a_4xx(self, deck, player, path, field, base, value):
        _user, client = player
        game_id = client.post("/games", {"seats": 3}).json()["id"]
        body = {**base, field: value}
        response = client.post(path.format(id=game_id), raw=_raw(body))
        status, _code = error_of(response) if response.status_code >= 400 else (response.status_code, None)
        assert status < 500, response.content
        if value in ("a\ud800b", "\udfff", "\x00", "a\x00b"):
            assert 400 <= status < 500, response.content  # never stored

    @pytest.mark.parametrize(
        "raw",
        [
            b"{",
            b'{"type": ',
            b"\xff\xfe\x00",
            b'{"type": "resign"}\x00',
            b"[" * 100_000 + b"]" * 100_000,
            b'{"type": "clue", "card": 1, "text": "\\ud800"}',
            b'{"type": NaN}',
            b'"resign"',
            b"null",
            b"[]",
            b"1e999999",
            b"\xef\xbb\xbf{}",
        ],
    )
    @pytest.mark.parametrize("path", ["/games", "/games/{id}/join", "/games/{id}/actions", "/accounts", "/tokens"])
    def test_malformed_json_is_a_4xx(self, deck, player, path, raw):
        _user, client = player
        game_id = client.post("/games", {"seats": 3}).json()["id"]
        response = client.client.post(
            API + path.format(id=game_id), raw, content_type="application/json", headers=client._headers(None)
        )
        if response.status_code < 400:  # a body that is JSON after all (the defaults of a create or join)
            return
        status, _code = error_of(response)
        assert 400 <= status < 500, response.content

    @pytest.mark.parametrize("header", ["Bearer " + "x" * 10_000, "Bearer \x00", "Bearer æøå", "Basic abc", ""])
    def test_a_hostile_token_is_a_401(self, header):
        response = ApiClient().client.get(f"{API}/games", headers={"Authorization": header})
        assert error_of(response) == (401, "unauthorized")

    @pytest.mark.parametrize(
        "query", ["limit=0", "limit=x", "limit=" + "9" * 50, "status=%00", "status=æ", "mine=maybe", "x=%ff"]
    )
    def test_hostile_query_parameters_are_a_4xx(self, player, query):
        _user, client = player
        response = client.client.get(f"{API}/games?{query}", headers=client._headers(None))
        assert response.status_code < 500, response.content
        if response.status_code >= 400:
            error_of(response)


class TestInviteCodes:
    @pytest.mark.parametrize("code", ["æøå", "\u202e", "a" * 64 + "b", "\x00", "ÿ" * 16, "💥"])
    def test_a_non_ascii_invite_code_is_refused_not_a_server_error(self, private_game, make_player, code):
        game_id, _missing = private_game
        _user, client = make_player()
        status, _code = error_of(client.post(f"/games/{game_id}/join", {"invite_code": code}))
        assert 400 <= status < 500

    def test_nor_from_a_player_already_in_the_game(self, deck, make_player):
        _creator, client = make_player()
        game_id = client.post("/games", {"seats": 3, "visibility": "private"}).json()["id"]
        status, _code = error_of(client.post(f"/games/{game_id}/join", {"invite_code": "æøå"}))
        assert 400 <= status < 500


class TestPrivateGamesAnswerAsMissingOnes:
    """A private game one may not see and a game that does not exist: the same answer, whatever the request."""

    @pytest.mark.parametrize(
        ("method", "path", "body"),
        [
            ("get", "/games/{id}", None),
            ("post", "/games/{id}/join", None),
            ("post", "/games/{id}/join", {"invite_code": "guess"}),
            ("post", "/games/{id}/join", {"invite_code": 5}),
            ("post", "/games/{id}/leave", None),
            ("post", "/games/{id}/start", None),
            ("post", "/games/{id}/actions", {"type": "resign"}),
            ("post", "/games/{id}/actions", {"type": "roll"}),
            ("post", "/games/{id}/actions", {"type": "clue", "card": "1", "text": "x"}),
            ("post", "/games/{id}/actions", {"type": "nonsense"}),
            ("post", "/games/{id}/actions", {}),
            ("post", "/games/{id}/actions", "resign"),
            ("delete", "/games/{id}", None),
            ("put", "/games/{id}/join", None),
        ],
    )
    def test_the_same_answer(self, private_game, make_player, method, path, body):
        hidden, missing = private_game
        _user, stranger = make_player()

        def ask(game_id):
            url = API + path.format(id=game_id)
            data = {} if body is None else {"data": json.dumps(body), "content_type": "application/json"}
            response = getattr(stranger.client, method)(url, headers=stranger._headers(None), **data)
            return response.status_code, response.json(), response.get("Allow")

        assert ask(hidden) == ask(missing)
        assert ask(hidden)[0] >= 400

    def test_the_same_answer_once_started(self, deck, make_player):
        users = [make_player() for _ in range(3)]
        view = users[0][1].post("/games", {"seats": 3, "visibility": "private"}).json()
        for _user, client in users[1:]:
            client.post(f"/games/{view['id']}/join", {"invite_code": view["invite_code"]})
        _user, stranger = make_player()
        for path in ("/games/{id}/leave", "/games/{id}/start", "/games/{id}/join"):
            hidden = stranger.post(path.format(id=view["id"]))
            missing = stranger.post(path.format(id=view["id"] + 1000))
            assert (
                (hidden.status_code, hidden.json())
                == (missing.status_code, missing.json())
                == (
                    404,
                    {"error": {"code": "not_found", "message": "There is no such game."}},
                )
            )

    def test_its_players_and_its_code_still_get_in(self, private_game, deck, make_player):
        creator, client = make_player()
        view = client.post("/games", {"seats": 3, "visibility": "private"}).json()
        assert client.get(f"/games/{view['id']}").status_code == 200
        _user, friend = make_player()
        assert friend.post(f"/games/{view['id']}/join", {"invite_code": view["invite_code"]}).status_code == 200
        assert error_of(friend.post(f"/games/{view['id']}/join", {"invite_code": view["invite_code"]})) == (
            409,
            "already_joined",
        )
        assert error_of(friend.post(f"/games/{view['id']}/start")) == (403, "not_creator")
