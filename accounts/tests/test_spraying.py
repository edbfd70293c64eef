"""Password spraying slowed (issue 37, item 9): failed log-ins from one address across many usernames make
the address *sprayed*; there a wrong password answers 429 as a lockout does, an account guessed at a few
times is refused unchecked, while a neighbour at that address who types the right password still gets in.
The log-in page and the API's token route alike, the one counting with the other."""

import json

import pytest
from django.urls import reverse

from accounts.models import ApiToken
from accounts.throttle import DEFAULT_RATES
from games.tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
SPRAYER = "10.5.5.5"
SPRAYED_LIMIT = int(DEFAULT_RATES["login-address"].split("/")[0])


def log_in(client, username, password="Summer2024!", address=SPRAYER):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def get_token(client, username, password="Summer2024!", address=SPRAYER):
    return client.post(
        "/api/v1/tokens",
        json.dumps({"username": username, "password": password}),
        content_type="application/json",
        REMOTE_ADDR=address,
    )


@pytest.fixture
def victims():
    return [UserFactory(username=f"victim{n}") for n in range(SPRAYED_LIMIT + 20)]


def test_a_spray_from_one_address_is_refused_while_the_neighbour_gets_in(client, victims):
    """The shipped figures: past 30 failed log-ins from one address within the hour, every other account's
    wrong password there answers 429, with the lockout's words and Retry-After."""
    codes = [log_in(client, victim.username).status_code for victim in victims]
    assert codes == [200] * SPRAYED_LIMIT + [429] * 20  # the form's error, then refused
    refused = log_in(client, "victim0")
    assert "Too many failed log-ins" in refused.content.decode()
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert "_auth_user_id" not in client.session
    # The neighbour at the same address, who knows their password, gets in.
    neighbour = UserFactory(username="neighbour")
    answer = log_in(client, "neighbour", password=PASSWORD)
    assert answer.status_code == 302
    assert client.session["_auth_user_id"] == str(neighbour.pk)
    # Even one of the sprayed accounts, guessed at once there, with its right password.
    client.logout()
    assert log_in(client, "victim5", password=PASSWORD).status_code == 302
    # Another address is not slowed.
    client.logout()
    assert log_in(client, "victim1", address="10.6.6.6").status_code == 200


def test_a_neighbour_who_mistypes_once_still_gets_in(client, settings):
    settings.FABULA_ACCOUNT_RATES = {"login-address": "5/h"}
    for n in range(5):
        log_in(client, f"nobody{n}")
    UserFactory(username="bo")
    assert log_in(client, "bo", password="oops").status_code == 429  # answered as throttled...
    assert log_in(client, "bo", password=PASSWORD).status_code == 302  # ...and the right one gets in


def test_at_a_sprayed_address_an_account_guessed_at_three_times_is_refused_unchecked(client, settings):
    settings.FABULA_ACCOUNT_RATES = {"login-address": "5/h"}
    UserFactory(username="cy")
    for n in range(5):
        log_in(client, f"nobody{n}")
    for _ in range(3):
        assert log_in(client, "CY").status_code == 429  # however the name is typed
    response = log_in(client, "cy", password=PASSWORD)
    assert response.status_code == 429 and "_auth_user_id" not in client.session
    # Cy at home gets in.
    assert log_in(client, "cy", password=PASSWORD, address="10.7.7.7").status_code == 302


def test_below_the_count_failures_answer_as_before(client, settings):
    settings.FABULA_ACCOUNT_RATES = {"login-address": "5/h"}
    UserFactory(username="dee")
    for _ in range(3):
        assert log_in(client, "dee").status_code == 200
    assert log_in(client, "dee", password=PASSWORD).status_code == 302


class TestTheTokenRoute:
    @pytest.fixture(autouse=True)
    def rates(self, settings):
        settings.FABULA_ACCOUNT_RATES = {"login-address": "5/h"}
        settings.FABULA_API_RATES = {"tokens": (1000, 60), "tokens-user": (1000, 60)}  # the address count alone

    def test_a_spray_through_the_api_is_refused_while_the_neighbour_gets_a_token(self, client):
        for n in range(8):
            UserFactory(username=f"target{n}")
        codes = [get_token(client, f"target{n}").status_code for n in range(8)]
        assert codes == [401] * 5 + [429] * 3
        refused = get_token(client, "target0")
        assert refused.json()["error"]["code"] == "rate_limited" and int(refused["Retry-After"]) > 0
        neighbour = UserFactory(username="neighbour")
        answer = get_token(client, "neighbour", password=PASSWORD)
        assert answer.status_code == 201 and ApiToken.objects.filter(user=neighbour).count() == 1
        assert get_token(client, "target0", address="10.6.6.6").status_code == 401  # elsewhere as before

    def test_the_page_and_the_api_count_together(self, client):
        for n in range(3):
            log_in(client, f"ghost{n}")
        for n in range(2):
            get_token(client, f"ghost{n + 3}")
        assert get_token(client, "ghost9").status_code == 429
        assert log_in(client, "ghost9").status_code == 429
        UserFactory(username="ann")
        assert get_token(client, "ann", password=PASSWORD).status_code == 201
