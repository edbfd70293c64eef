"""Shown names are unique after folding (case, NFKC, look-alike letters), in the database and in the forms."""

import json

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.models import User
from accounts.names import name_key
from games.tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-Long-pass-123"


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Anna", "anna"),
        ("Anna", "ＡＮＮＡ"),  # full-width
        ("Anna", "\u0410nna"),  # a Cyrillic А
        ("Tom", "\u0422\u043em"),  # Cyrillic Т and о
        ("Ian", "lan"),  # a capital I and a small L
        ("Ola", "0la"),
        ("Anna  K", "anna k"),
        ("Anna", "ΑΝΝΑ"),  # Greek capitals
        ("Kim", "Κіm"),  # Greek Κ, Cyrillic і
    ],
)
def test_look_alikes_share_a_key(one, other):
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize(("one", "other"), [("Anna", "Anne"), ("Zoë", "Zoe"), ("Ann", "Anna")])
def test_different_names_keep_different_keys(one, other):
    assert name_key(one) != name_key(other)


def test_the_database_refuses_two_players_with_one_name():
    UserFactory(display_name="Anna")
    with pytest.raises(IntegrityError), transaction.atomic():
        UserFactory(display_name="\u0430nna")  # Cyrillic а


def test_a_username_counts_as_a_name_when_there_is_no_display_name():
    UserFactory(username="zed", display_name="")
    with pytest.raises(IntegrityError), transaction.atomic():
        UserFactory(display_name="ZED")


def test_the_key_follows_an_update_of_the_name_alone():
    user = UserFactory(display_name="Anna")
    user.display_name = "Bella"
    user.save(update_fields=["display_name"])
    user.refresh_from_db()
    assert user.name_key == "bella"
    UserFactory(display_name="Anna")  # free again


def test_the_profile_refuses_a_look_alike_of_another_players_name(client):
    UserFactory(display_name="Anna")
    user = UserFactory()
    client.force_login(user)
    response = client.post(reverse("accounts:profile"), {"display_name": "ΑΝΝΑ", "colour": "red"})  # Greek
    assert response.status_code == 200
    assert "looks the same" in response.content.decode()
    user.refresh_from_db()
    assert user.display_name != "ΑΝΝΑ"


def test_the_profile_keeps_ones_own_name_in_another_case(client):
    user = UserFactory(display_name="Anna")
    client.force_login(user)
    assert client.post(reverse("accounts:profile"), {"display_name": "ANNA", "colour": "red"}).status_code == 302


def test_clearing_a_display_name_is_refused_when_the_username_looks_like_another_name(client):
    UserFactory(display_name="Kim")
    user = UserFactory(username="kim", display_name="Kimberly")
    client.force_login(user)
    response = client.post(reverse("accounts:profile"), {"display_name": "", "colour": "red"})
    assert response.status_code == 200
    assert "choose a display name" in response.content.decode()


def test_sign_up_refuses_a_username_that_looks_like_a_players_name(client):
    UserFactory(display_name="Anna")
    response = client.post(
        reverse("accounts:signup"),
        {"username": "anna", "email": "a@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200
    assert "looks the same" in response.content.decode()
    assert not User.objects.filter(username="anna").exists()


def test_the_api_sign_up_answers_409_for_a_look_alike(client):
    UserFactory(display_name="Anna")
    response = client.post(
        "/api/v1/accounts",
        json.dumps({"username": "ANNA", "email": "a@example.com", "password": PASSWORD}),
        content_type="application/json",
    )
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "username_taken"


def test_the_admin_refuses_a_look_alike(client):
    UserFactory(display_name="Anna")
    admin = UserFactory(is_staff=True, is_superuser=True)
    other = UserFactory()
    client.force_login(admin)
    page = client.get(reverse("admin:accounts_user_change", args=[other.pk]))
    form = page.context["adminform"].form
    data = {name: form[name].value() or "" for name in form.fields if name not in ("password",)}
    data.update({"display_name": "anna", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"})
    data.pop("date_joined", None)
    data.pop("last_login", None)
    data["groups"] = []
    data["user_permissions"] = []
    response = client.post(reverse("admin:accounts_user_change", args=[other.pk]), data)
    assert response.status_code == 200
    assert "looks the same" in response.content.decode()


def test_the_admin_add_form_refuses_a_look_alike_username(client):
    UserFactory(display_name="Anna")
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    response = client.post(
        reverse("admin:accounts_user_add"),
        {"username": "ANNA", "usable_password": "true", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200
    assert "looks the same" in response.content.decode()
    assert not User.objects.filter(username="ANNA").exists()
