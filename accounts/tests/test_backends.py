"""The signed-in user comes from the cache (accounts.backends), never stale after a save."""

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def user_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return sum('FROM "accounts_user"' in query["sql"] for query in queries)


def test_a_signed_in_request_reads_no_user_row_once_cached(client):
    user = UserFactory()
    client.force_login(user, backend="accounts.backends.CachedModelBackend")
    user_queries(client, reverse("games:mine"))  # the first request keeps the user
    assert user_queries(client, reverse("games:mine")) == 0


def test_a_saved_user_is_read_again(client):
    user = UserFactory(display_name="Before")
    client.force_login(user, backend="accounts.backends.CachedModelBackend")
    client.get(reverse("games:mine"))
    user.display_name = "After"
    user.save()
    assert "After" in client.get(reverse("games:mine")).content.decode()


def test_a_deactivated_user_is_signed_out_at_once(client):
    user = UserFactory()
    client.force_login(user, backend="accounts.backends.CachedModelBackend")
    assert client.get(reverse("games:mine")).status_code == 200
    user.is_active = False
    user.save()
    assert client.get(reverse("games:mine")).status_code == 302  # to the log-in page


def test_a_new_password_ends_the_other_sessions(client):
    user = UserFactory()
    client.force_login(user, backend="accounts.backends.CachedModelBackend")
    client.get(reverse("games:mine"))
    user.set_password("a brand new secret 42")
    user.save()
    assert client.get(reverse("games:mine")).status_code == 302


def test_a_session_of_the_plain_backend_stays_signed_in(client):
    user = UserFactory()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    assert client.session[BACKEND_SESSION_KEY] == "django.contrib.auth.backends.ModelBackend"
    assert client.get(reverse("games:mine")).status_code == 200


def test_logging_in_uses_the_cached_backend(client):
    UserFactory(username="ann", password="a long secret 1")
    assert client.post(reverse("login"), {"username": "ann", "password": "a long secret 1"}).status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == "accounts.backends.CachedModelBackend"
