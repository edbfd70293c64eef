"""Where signing up leads: on to the page a "Play" or invite link named (``next``), if it is on this site;
anywhere else is neither followed nor written back into the page."""

import pytest
from django.urls import reverse

from accounts.models import User
from games.tests.factories import UserFactory

pytestmark = pytest.mark.django_db

UNSAFE = [
    "https://evil.example/",
    "//evil.example/games/",
    "/\\evil.example/",
    "\\\\evil.example",
    "javascript:alert(1)",
    "http://testserver.evil.example/",
    "ftp://testserver/games/",
]
SAFE = ["/games/new/?kind=storyteller", "/games/invite/abc/", "http://testserver/games/mine/"]


def _sign_up(client, next_url, username="newbie"):
    return client.post(
        reverse("accounts:signup"),
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": "a-Long-pass-123",
            "password2": "a-Long-pass-123",
            "next": next_url,
        },
    )


@pytest.mark.parametrize("next_url", SAFE)
def test_sign_up_goes_on_to_a_page_of_this_site(client, next_url):
    response = _sign_up(client, next_url)
    assert response.status_code == 302
    assert response.url == next_url
    assert User.objects.filter(username="newbie").exists()


@pytest.mark.parametrize("next_url", UNSAFE)
def test_sign_up_never_leaves_for_another_site(client, next_url):
    response = _sign_up(client, next_url)
    assert response.status_code == 302
    assert response.url == reverse("games:lobby")
    assert User.objects.filter(username="newbie").exists()  # signed up all the same


@pytest.mark.parametrize("next_url", UNSAFE)
def test_the_form_does_not_carry_an_address_elsewhere(client, next_url):
    response = client.get(reverse("accounts:signup"), {"next": next_url})
    html = response.content.decode()
    assert response.status_code == 200
    html = html[html.index("<main") : html.index("</main>")]  # (the language form names the page itself)
    assert 'name="next" value=""' in html
    assert "evil" not in html and "javascript:" not in html


def test_the_form_carries_a_safe_next_to_the_log_in_link_too(client):
    response = client.get(reverse("accounts:signup"), {"next": "/games/new/?kind=think_alike"})
    html = response.content.decode()
    assert 'name="next" value="/games/new/?kind=think_alike"' in html
    assert 'href="/accounts/login/?next=/games/new/%3Fkind%3Dthink_alike"' in html


def test_a_signed_in_visitor_is_sent_on_and_never_elsewhere(client):
    client.force_login(UserFactory())
    response = client.get(reverse("accounts:signup"), {"next": "/games/new/?kind=storyteller"})
    assert response.url == "/games/new/?kind=storyteller"
    response = client.get(reverse("accounts:signup"), {"next": "https://evil.example/"})
    assert response.url == reverse("games:mine")


def test_a_refused_sign_up_keeps_the_way_and_signs_nobody_up(client):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "x", "email": "bad", "password1": "1", "password2": "2", "next": "/games/new/?kind=storyteller"},
    )
    assert response.status_code == 200
    assert 'name="next" value="/games/new/?kind=storyteller"' in response.content.decode()
    assert not User.objects.filter(username="x").exists()


def test_the_form_says_where_it_goes_on_to_only_with_a_next(client):
    said = "you go straight on to the game"
    assert said in client.get(reverse("accounts:signup"), {"next": "/games/new/?kind=storyteller"}).content.decode()
    assert said not in client.get(reverse("accounts:signup")).content.decode()
    assert said not in client.get(reverse("accounts:signup"), {"next": "https://evil.example/"}).content.decode()
