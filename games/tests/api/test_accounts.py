"""POST /api/v1/accounts and POST /api/v1/tokens; tokens as credentials."""

import pytest

from accounts.models import ApiToken
from accounts.services import token_create, token_hash, token_revoke
from games.tests.factories import UserFactory

from .conftest import error_of

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


class TestSignUp:
    def test_creates_the_account(self, anon, django_user_model):
        response = anon.post(
            "/accounts", {"username": "ada", "email": "ada@example.com", "password": "a long pass phrase"}
        )
        assert response.status_code == 201
        assert response.json() == {"username": "ada"}
        user = django_user_model.objects.get(username="ada")
        assert user.email == "ada@example.com" and user.check_password("a long pass phrase")

    def test_uses_the_sign_up_pages_checks(self, anon, django_user_model):
        response = anon.post("/accounts", {"username": "ada", "email": "not an email", "password": "123"})
        assert error_of(response) == (400, "bad_account")
        fields = response.json()["error"]["fields"]
        assert set(fields) == {"email", "password"}
        assert not django_user_model.objects.filter(username="ada").exists()

    def test_a_taken_username_is_a_conflict(self, anon):
        UserFactory(username="ada")
        response = anon.post(
            "/accounts", {"username": "ada", "email": "other@example.com", "password": "a long pass phrase"}
        )
        assert error_of(response) == (409, "username_taken")

    @pytest.mark.parametrize(
        "body",
        [
            {},
            {"username": "ada"},
            {"username": 5, "email": "a@example.com", "password": "x" * 12},
            {"username": "ada", "email": "a@example.com", "password": "a long pass phrase", "admin": True},
            {"username": "a\x00da", "email": "a@example.com", "password": "a long pass phrase"},
        ],
    )
    def test_malformed_bodies_are_400(self, anon, body):
        assert error_of(anon.post("/accounts", body)) == (400, "bad_request")

    def test_is_rate_limited_per_address(self, anon, settings):
        settings.FABULA_API_RATES = {"accounts": (2, 3600)}
        for n in range(2):
            anon.post(
                "/accounts", {"username": f"u{n}", "email": f"u{n}@example.com", "password": "a long pass phrase"}
            )
        response = anon.post(
            "/accounts", {"username": "u9", "email": "u9@example.com", "password": "a long pass phrase"}
        )
        assert error_of(response) == (429, "rate_limited")
        assert int(response["Retry-After"]) > 0


class TestTokens:
    def test_a_token_for_the_right_password(self, anon):
        user = UserFactory()
        response = anon.post("/tokens", {"username": user.username, "password": PASSWORD})
        assert response.status_code == 201
        assert "no-store" in response["Cache-Control"]
        secret = response.json()["token"]
        token = ApiToken.objects.get(user=user)
        # Only a hash is kept; the secret is nowhere in the database.
        assert token.key_hash == token_hash(secret) and secret not in (token.key_hash, token.prefix)
        assert anon.get("/games", token=secret).status_code == 200

    @pytest.mark.parametrize("username,password", [("nobody", PASSWORD), (None, "wrong password")])
    def test_wrong_credentials_are_401(self, anon, username, password):
        user = UserFactory()
        response = anon.post("/tokens", {"username": username or user.username, "password": password})
        assert error_of(response) == (401, "bad_credentials")
        assert not ApiToken.objects.exists()

    def test_inactive_accounts_get_no_token_and_their_tokens_stop_working(self, anon):
        user = UserFactory()
        _token, secret = token_create(user=user, name="bot")
        user.is_active = False
        user.save()
        assert error_of(anon.post("/tokens", {"username": user.username, "password": PASSWORD}))[0] == 401
        assert error_of(anon.get("/games", token=secret)) == (401, "unauthorized")

    def test_token_requests_are_rate_limited(self, anon):
        user = UserFactory()
        codes = [anon.post("/tokens", {"username": user.username, "password": "wrong"}).status_code for _ in range(11)]
        assert codes == [401] * 10 + [429]
        # The right password does not get past the limit either.
        assert anon.post("/tokens", {"username": user.username, "password": PASSWORD}).status_code == 429

    def test_malformed_bodies_are_400(self, anon):
        assert error_of(anon.post("/tokens", {"username": "x"})) == (400, "bad_request")
        assert error_of(anon.post("/tokens", raw="{not json")) == (400, "malformed_json")


class TestBearer:
    @pytest.mark.parametrize(
        "header", [None, "Bearer", "Bearer nonsense", "Basic dXNlcjpwYXNz", "Bearer " + "x" * 5000]
    )
    def test_no_or_bad_token_is_401(self, anon, header):
        headers = {"Authorization": header} if header else {}
        response = anon.client.get("/api/v1/games", headers=headers)
        assert error_of(response) == (401, "unauthorized")
        assert response["WWW-Authenticate"].startswith("Bearer")

    def test_a_revoked_token_is_401(self, anon):
        user = UserFactory()
        token, secret = token_create(user=user, name="bot")
        assert anon.get("/games", token=secret).status_code == 200
        assert token_revoke(user=user, token_id=token.pk)
        assert error_of(anon.get("/games", token=secret)) == (401, "unauthorized")

    def test_no_csrf_for_bearer_requests(self, deck, make_player):
        _user, client = make_player()
        client.client = type(client.client)(enforce_csrf_checks=True)
        assert client.post("/games", {"seats": 3}).status_code == 201

    def test_every_request_is_counted_per_account(self, make_player, settings):
        settings.FABULA_API_RATES = {"requests": (3, 60)}
        _user, client = make_player()
        _other, other = make_player()
        assert [client.get("/games").status_code for _ in range(4)] == [200, 200, 200, 429]
        assert other.get("/games").status_code == 200

    def test_last_use_is_recorded(self, make_player):
        user, client = make_player()
        client.get("/games")
        assert ApiToken.objects.get(user=user).last_used_at is not None
