"""Log-in lockouts (axes), sign-up and password-reset rates (ratelimit), the client's address behind proxies."""

import json
import logging

import pytest
from axes.models import AccessAttempt
from django.contrib.admin.sites import site
from django.core import mail
from django.test import RequestFactory
from django.urls import reverse

from accounts.network import TrustedProxyMiddleware, client_address, forwarded_address
from accounts.throttle import fold
from games.tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def log_in(client, username, password="wrong", address="10.0.0.1", **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address, **extra)


class TestLogInLockout:
    def test_an_account_locks_at_the_guessers_address_with_a_translated_429(self, client, settings):
        settings.AXES_FAILURE_LIMIT = 3
        UserFactory(username="anna")
        for _ in range(2):
            assert log_in(client, "anna", address="10.0.0.9").status_code == 200  # the form, with its error
        response = log_in(client, "anna", address="10.0.0.9")
        assert response.status_code == 429
        assert "Too many failed log-ins" in response.content.decode()
        assert int(response["Retry-After"]) == 15 * 60
        # Locked at that address: even the right password does not get in there...
        response = log_in(client, "anna", password=PASSWORD, address="10.0.0.9")
        assert response.status_code == 429
        assert "_auth_user_id" not in client.session
        # ...while Anna at home does.
        assert log_in(client, "anna", password=PASSWORD, address="10.9.9.9").status_code == 302

    def test_the_message_is_in_the_readers_language(self, client, settings):
        settings.AXES_FAILURE_LIMIT = 1
        UserFactory(username="anna")
        response = log_in(client, "anna", HTTP_ACCEPT_LANGUAGE="fr")
        assert response.status_code == 429
        assert '<html lang="fr">' in response.content.decode()

    def test_a_shared_address_does_not_lock_out_everyone_behind_it(self, client, settings):
        """A guesser in the café fails 20 times at each of three accounts; Bo, at the next table (the same
        address), logs in with his password, and so does one of the guessed accounts' owners from home."""
        settings.AXES_FAILURE_LIMIT = 20
        UserFactory(username="bo")
        UserFactory(username="x1")
        for name in ("x1", "x2", "x3"):
            for _ in range(20):
                log_in(client, name, address="10.1.1.1")
        assert log_in(client, "x1", password=PASSWORD, address="10.1.1.1").status_code == 429
        assert log_in(client, "bo", password=PASSWORD, address="10.1.1.1").status_code == 302
        client.logout()
        assert log_in(client, "x1", password=PASSWORD, address="10.2.2.2").status_code == 302

    def test_bo_gets_in_at_the_attackers_address_even_after_guesses_at_his_own_account_elsewhere(
        self, client, settings
    ):
        settings.AXES_FAILURE_LIMIT = 3
        UserFactory(username="bo")
        for _ in range(5):
            log_in(client, "bo", address="10.7.7.7")  # locked there
        assert log_in(client, "bo", password=PASSWORD, address="10.7.7.8").status_code == 302

    def test_a_guesser_spread_over_many_addresses_is_stopped_per_account(self, client, settings):
        settings.AXES_FAILURE_LIMIT = 20
        settings.FABULA_ACCOUNT_RATES = {"login-account": "5/h"}
        UserFactory(username="gus")
        UserFactory(username="hal")
        for n in range(5):
            assert log_in(client, "gus", address=f"10.8.0.{n}").status_code == 200
        response = log_in(client, "GUS", password=PASSWORD, address="10.8.1.1")
        assert response.status_code == 429
        assert "Too many failed log-ins" in response.content.decode()
        assert "_auth_user_id" not in client.session
        # Only that account: another one at the same addresses is untouched.
        assert log_in(client, "hal", password=PASSWORD, address="10.8.0.1").status_code == 302

    def test_the_account_counts_however_its_name_is_typed(self, client, settings):
        settings.AXES_FAILURE_LIMIT = 3
        user = UserFactory(username="anna")
        for typed in ["anna", "ANNA", "ａｎｎａ"]:
            log_in(client, typed, address="10.3.0.1")
        assert log_in(client, user.username, password=PASSWORD, address="10.3.0.1").status_code == 429

    def test_the_lockout_ends_by_itself_after_the_cool_off(self, client, settings):
        settings.AXES_FAILURE_LIMIT = 2
        UserFactory(username="cy")
        log_in(client, "cy")
        log_in(client, "cy")
        assert log_in(client, "cy", password=PASSWORD).status_code == 429
        AccessAttempt.objects.update(
            attempt_time=AccessAttempt.objects.first().attempt_time - settings.AXES_COOLOFF_TIME
        )
        assert log_in(client, "cy", password=PASSWORD).status_code == 302

    def test_lockouts_are_listed_and_cleared_in_the_admin(self, client, settings):
        settings.AXES_FAILURE_LIMIT = 2
        UserFactory(username="dee")
        log_in(client, "dee")
        log_in(client, "dee")
        assert AccessAttempt in site._registry
        admin = UserFactory(is_staff=True, is_superuser=True)
        client.force_login(admin)
        listing = client.get(reverse("admin:axes_accessattempt_changelist"))
        assert listing.status_code == 200 and "dee" in listing.content.decode()
        attempt = AccessAttempt.objects.get()
        response = client.post(
            reverse("admin:axes_accessattempt_changelist"),
            {"action": "delete_selected", "_selected_action": [attempt.pk], "post": "yes"},
        )
        assert response.status_code == 302
        assert not AccessAttempt.objects.exists()
        client.logout()
        assert log_in(client, "dee", password=PASSWORD).status_code == 302

    def test_the_api_token_endpoint_is_locked_too_in_the_apis_format(self, client, settings):
        settings.AXES_FAILURE_LIMIT = 2
        UserFactory(username="eve")

        def token(password):
            return client.post(
                "/api/v1/tokens",
                json.dumps({"username": "eve", "password": password}),
                content_type="application/json",
            )

        assert token("wrong").status_code == 401
        response = token("wrong")
        assert response.status_code == 429
        assert response.json()["error"]["code"] == "rate_limited"
        assert response["Retry-After"]
        assert token(PASSWORD).status_code == 429


class TestTokensFoldUsernames:
    def test_a_full_width_username_gets_a_token(self, client):
        # Sign-up stores the NFKC form: "ａｎｎａ" is signed up as "anna".
        client.post(
            reverse("accounts:signup"),
            {"username": "ａｎｎａ", "email": "a@example.com", "password1": PASSWORD, "password2": PASSWORD},
        )
        response = client.post(
            "/api/v1/tokens",
            json.dumps({"username": "ａｎｎａ", "password": PASSWORD}),
            content_type="application/json",
        )
        assert response.status_code == 201, response.content


class TestSignUpAndResetRates:
    def sign_up(self, client, n, address="10.0.0.1", email=None):
        return client.post(
            reverse("accounts:signup"),
            {
                "username": f"user{n}",
                "email": email or f"user{n}@example.com",
                "password1": "a-Long-pass-123",
                "password2": "a-Long-pass-123",
            },
            REMOTE_ADDR=address,
        )

    def test_sign_up_is_limited_per_address(self, client, settings):
        settings.FABULA_ACCOUNT_RATES = {"signup-address": "2/h"}
        for n in range(2):
            assert self.sign_up(client, n).status_code == 302
            client.logout()
        response = self.sign_up(client, 3)
        assert response.status_code == 429
        assert "Try again in" in response.content.decode()
        assert self.sign_up(client, 4, address="10.0.0.2").status_code == 302

    def test_sign_up_is_limited_per_account_from_any_address(self, client, settings):
        settings.FABULA_ACCOUNT_RATES = {"signup-account": "2/h"}
        for n in range(2):
            self.sign_up(client, 5, address=f"10.0.1.{n}", email="same@example.com")
        assert self.sign_up(client, 6, address="10.0.2.1", email="SAME@example.com").status_code == 429

    def test_password_reset_is_limited_per_email_and_per_address(self, client, settings):
        settings.FABULA_ACCOUNT_RATES = {"password-reset-account": "2/h", "password-reset-address": "3/h"}
        UserFactory(email="fay@example.com")
        url = reverse("accounts:password_reset")
        for n in range(2):
            assert client.post(url, {"email": "fay@example.com"}, REMOTE_ADDR=f"10.0.3.{n}").status_code == 302
        assert client.post(url, {"email": "Fay@example.com"}, REMOTE_ADDR="10.0.3.9").status_code == 429
        assert len(mail.outbox) == 2
        for other in ("x", "y"):  # the address's second and third
            assert client.post(url, {"email": f"{other}@example.com"}, REMOTE_ADDR="10.0.3.0").status_code == 302
        assert client.post(url, {"email": "z@example.com"}, REMOTE_ADDR="10.0.3.0").status_code == 429

    def test_an_unreachable_rate_store_lets_requests_through_and_logs(self, client, settings, caplog):
        settings.CACHES = {
            **settings.CACHES,
            "unreachable": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": "redis://127.0.0.1:1/0",
            },
        }
        settings.RATELIMIT_USE_CACHE = "unreachable"
        settings.FABULA_ACCOUNT_RATES = {"signup-address": "1/h"}
        with caplog.at_level(logging.WARNING, logger="accounts.throttle"):
            for n in range(3):
                assert self.sign_up(client, 10 + n).status_code == 302
                client.logout()
        assert "rate store is unreachable" in caplog.text


class TestClientAddress:
    @pytest.mark.parametrize(
        ("proxies", "header", "expected"),
        [
            (0, "1.2.3.4", None),  # no trusted proxy: the header is anyone's word
            (1, "6.6.6.6, 1.2.3.4", "1.2.3.4"),  # the proxy appended the client it saw
            (2, "6.6.6.6, 1.2.3.4, 10.0.0.5", "1.2.3.4"),
            (2, "1.2.3.4", None),  # fewer hops than proxies: not through them
            (1, "not-an-address", None),
            (1, "", None),
        ],
    )
    def test_forwarded_address(self, proxies, header, expected):
        assert forwarded_address({"HTTP_X_FORWARDED_FOR": header}, proxies) == expected

    def test_lockouts_key_on_the_forwarded_client_only_when_trusted(self, client, settings):
        settings.AXES_FAILURE_LIMIT = 2
        UserFactory(username="gus")
        for _ in range(2):
            log_in(client, "gus", address="10.0.0.1", HTTP_X_FORWARDED_FOR="1.1.1.1")
        # Untrusted: the header is ignored, so the proxy's address (10.0.0.1) is the one locked.
        response = log_in(client, "gus", password=PASSWORD, address="10.0.0.1", HTTP_X_FORWARDED_FOR="2.2.2.2")
        assert response.status_code == 429
        AccessAttempt.objects.all().delete()
        settings.FABULA_TRUSTED_PROXIES = 1
        for _ in range(2):
            log_in(client, "gus", address="10.0.0.1", HTTP_X_FORWARDED_FOR="1.1.1.1")
        assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"1.1.1.1"}
        response = log_in(client, "gus", password=PASSWORD, address="10.0.0.1", HTTP_X_FORWARDED_FOR="2.2.2.2")
        assert response.status_code == 302

    def test_fold(self):
        assert fold(" ＡＮＮＡ ") == fold("anna") == "anna"

    def test_request_factory_address(self, settings):
        settings.FABULA_TRUSTED_PROXIES = 1
        request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="9.9.9.9")
        TrustedProxyMiddleware(lambda r: r)(request)
        assert request.META["REMOTE_ADDR"] == "9.9.9.9"


def test_logging_in_to_ones_own_account_does_not_wipe_the_failures_against_another(client, settings):
    settings.AXES_FAILURE_LIMIT = 3
    UserFactory(username="victim")
    UserFactory(username="mallory")
    for _ in range(2):
        log_in(client, "victim")
    assert log_in(client, "mallory", password=PASSWORD).status_code == 302
    client.logout()
    log_in(client, "victim")
    assert log_in(client, "victim", password=PASSWORD).status_code == 429


def test_a_request_without_an_address_has_none():
    assert client_address(RequestFactory().get("/", REMOTE_ADDR="")) is None
    assert client_address(RequestFactory().get("/", REMOTE_ADDR="unix:/run/x.sock")) is None
    assert client_address(RequestFactory().get("/", REMOTE_ADDR="::1")) == "::1"


@pytest.mark.parametrize("url", ["accounts:delete", "accounts:password_change"])
def test_forms_that_check_the_password_are_limited(client, settings, url):
    settings.FABULA_ACCOUNT_RATES = {"password-check-address": "2/h"}
    user = UserFactory()
    client.force_login(user)
    for _ in range(2):
        assert client.post(reverse(url), {"password": "guess", "old_password": "guess"}).status_code == 200
    assert client.post(reverse(url), {"password": PASSWORD, "old_password": PASSWORD}).status_code == 429
    user.refresh_from_db()
    assert user.is_active


def test_the_api_token_endpoint_counts_an_accounts_failures_from_every_address(client, settings):
    settings.FABULA_ACCOUNT_RATES = {"login-account": "3/h"}
    UserFactory(username="ivy")

    def token(password, address):
        return client.post(
            "/api/v1/tokens",
            json.dumps({"username": "ivy", "password": password}),
            content_type="application/json",
            REMOTE_ADDR=address,
        )

    for n in range(3):
        assert token("wrong", f"10.9.0.{n}").status_code == 401
    response = token(PASSWORD, "10.9.1.1")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "rate_limited"
    assert int(response["Retry-After"]) > 0


@pytest.mark.parametrize("url", ["accounts:delete", "accounts:password_change"])
def test_forms_that_check_the_password_count_the_account_from_every_address_and_session(settings, url):
    """One account, one limit: a session per address does not buy more guesses."""
    from django.test import Client

    settings.FABULA_ACCOUNT_RATES = {"password-check-address": "3/h"}
    user = UserFactory()
    codes = []
    for n in range(4):
        client = Client()
        client.force_login(user)
        form = {"password": "guess", "old_password": "guess"}
        codes.append(client.post(reverse(url), form, REMOTE_ADDR=f"10.4.0.{n}").status_code)
    assert codes == [200, 200, 200, 429]
    other = Client()
    other.force_login(UserFactory())
    assert other.post(reverse(url), {"password": "x", "old_password": "x"}, REMOTE_ADDR="10.4.9.9").status_code == 200
