"""The API tokens page: list, create (shown once), revoke."""

import pytest
from django.urls import reverse

from accounts.models import ApiToken
from accounts.services import token_authenticate, token_create, token_hash
from games.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def user_client(client):
    user = UserFactory()
    client.force_login(user)
    return user, client


def test_the_profile_links_to_the_tokens_page(user_client):
    _user, client = user_client
    assert reverse("accounts:tokens") in client.get(reverse("accounts:profile")).content.decode()


def test_create_shows_the_secret_once_and_keeps_only_its_hash(user_client):
    user, client = user_client
    response = client.post(reverse("accounts:tokens"), {"name": "my bot"})
    assert response.status_code == 200
    secret = response.context["secret"]
    assert secret.startswith("fab_") and secret in response.content.decode()
    token = ApiToken.objects.get(user=user)
    assert token.name == "my bot" and token.key_hash == token_hash(secret)
    assert token_authenticate(raw=secret) == token
    again = client.get(reverse("accounts:tokens")).content.decode()
    assert "my bot" in again and token.prefix in again and secret not in again


def test_a_name_is_required(user_client):
    user, client = user_client
    response = client.post(reverse("accounts:tokens"), {"name": ""})
    assert response.status_code == 200 and response.context["secret"] is None
    assert not ApiToken.objects.filter(user=user).exists()


def test_revoke_only_ones_own_tokens(user_client):
    user, client = user_client
    mine, secret = token_create(user=user, name="mine")
    theirs, their_secret = token_create(user=UserFactory(), name="theirs")
    client.post(reverse("accounts:token_revoke", args=[theirs.pk]))
    assert token_authenticate(raw=their_secret) == theirs
    response = client.post(reverse("accounts:token_revoke", args=[mine.pk]))
    assert response.status_code == 302
    assert token_authenticate(raw=secret) is None
    assert client.get(reverse("accounts:token_revoke", args=[theirs.pk])).status_code == 405


def test_the_page_needs_a_login(client):
    response = client.get(reverse("accounts:tokens"))
    assert response.status_code == 302 and reverse("login") in response["Location"]
