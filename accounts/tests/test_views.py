import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from games.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_sign_up_logs_in_and_lands_on_the_lobby(client):
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "anna",
            "email": "anna@example.com",
            "password1": "a-Long-pass-123",
            "password2": "a-Long-pass-123",
        },
    )
    assert response.status_code == 302
    assert response.url == reverse("games:lobby")
    user = User.objects.get(username="anna")
    assert user.email == "anna@example.com"
    assert client.get(reverse("games:mine")).status_code == 200


def test_sign_up_refuses_a_taken_email_and_weak_password(client):
    UserFactory(email="bo@example.com")
    response = client.post(
        reverse("accounts:signup"),
        {"username": "bo2", "email": "BO@example.com", "password1": "123", "password2": "123"},
    )
    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    assert not User.objects.filter(username="bo2").exists()


def test_sign_up_goes_back_to_the_invite(client):
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "cy",
            "email": "cy@example.com",
            "password1": "a-Long-pass-123",
            "password2": "a-Long-pass-123",
            "next": "/games/invite/abc/",
        },
    )
    assert response.url == "/games/invite/abc/"
    client.logout()
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "dy",
            "email": "dy@example.com",
            "password1": "a-Long-pass-123",
            "password2": "a-Long-pass-123",
            "next": "https://evil.example/",
        },
    )
    assert response.url == reverse("games:lobby")


def test_log_in_and_out(client):
    UserFactory(username="eve")
    response = client.post(reverse("login"), {"username": "eve", "password": "correct horse battery"})
    assert response.status_code == 302
    assert "_auth_user_id" in client.session
    client.post(reverse("logout"))
    assert "_auth_user_id" not in client.session


def test_password_reset_by_email(client):
    user = UserFactory(email="fay@example.com")
    client.post(reverse("accounts:password_reset"), {"email": "fay@example.com"})
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/password/reset/\S+/)", mail.outbox[0].body).group(1)
    response = client.get(link, follow=True)
    form_url = response.redirect_chain[-1][0]
    response = client.post(form_url, {"new_password1": "Brand-new-pass-9", "new_password2": "Brand-new-pass-9"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("Brand-new-pass-9")


def test_profile_sets_display_name_and_colour(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(reverse("accounts:profile"), {"display_name": "  Anna   K ", "colour": "green"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.display_name, user.colour) == ("Anna K", "green")
    response = client.post(reverse("accounts:profile"), {"display_name": "x", "colour": "plaid"})
    assert response.status_code == 200
    user.refresh_from_db()
    assert user.colour == "green"


@pytest.mark.parametrize("name", ["\u3164", "Ann\u2800a", "Anna\u202e", "An\u200bna"])
def test_profile_refuses_a_display_name_the_text_policy_refuses(client, name):
    """The names' policy is the clues' (accounts.text): a blank filler or a direction override is no name."""
    user = UserFactory(display_name="Kept")
    client.force_login(user)
    response = client.post(reverse("accounts:profile"), {"display_name": name, "colour": "red"})
    assert response.status_code == 200
    assert "Use letters, digits, spaces and punctuation only." in response.content.decode()
    user.refresh_from_db()
    assert user.display_name == "Kept"


def test_profile_keeps_a_display_name_in_its_normal_form(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(reverse("accounts:profile"), {"display_name": "Zoe\u0301\u00a0K", "colour": "red"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.display_name == "Zo\u00e9 K"


def test_hostile_display_name_is_shown_as_text(client):
    user = UserFactory()
    client.force_login(user)
    client.post(reverse("accounts:profile"), {"display_name": "<script>alert(1)</script>", "colour": "red"})
    page = client.get(reverse("accounts:profile")).content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
