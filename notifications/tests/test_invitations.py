"""A rematch's held seat told at once: the bell, an email as the player chose, a push (issue 30)."""

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.services.games import game_decline, game_join, game_rematch
from games.tests.factories import UserFactory
from games.tests.test_rematch import finished_game, make_bot
from notifications.models import EmailPreferences, Notification

from .test_push import Device, push_service, vapid  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def test_every_held_player_gets_the_bell_an_email_and_a_push(
    vapid,  # noqa: F811
    push_service,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    old, users = finished_game(4, visibility="private")
    make_bot(users[3])
    EmailPreferences.objects.create(user=users[2], rematch_emails=False)  # as they chose: no email
    device = Device(users[1], f"{push_service.url}/device/one", language="fr")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        new = game_rematch(game_id=old.pk, user=users[0])
    # The bell: one unread item each for the two held players (not the presser, not the bot).
    notes = Notification.objects.filter(game=new, kind=Notification.Kind.REMATCH_INVITED)
    assert sorted(notes.values_list("user", flat=True)) == sorted([users[1].pk, users[2].pk])
    assert {note.actor_id for note in notes} == {users[0].pk}
    # The email: to users[1] only, saying who, where and until when; with its unsubscribe headers.
    (email,) = mail.outbox
    assert email.to == [users[1].email]
    # In the language of the person's device: they never chose one on a page of the site.
    assert email.subject == f"{users[0].name} veut rejouer : une place vous est réservée dans Conteur #{new.pk}."
    assert f"/games/{new.pk}/" in email.body and email.body.startswith(f"Bonjour {users[1].name},")
    assert email.extra_headers["List-Unsubscribe"].startswith("<http")
    # The push: encrypted for users[1]'s device, in the language it subscribed in.
    (request,) = push_service.received("/device/one")
    payload = device.decrypt(request["body"])
    assert payload["url"] == new.get_absolute_url() and payload["tag"] == f"fabula-game-{new.pk}"
    assert payload["title"] == f"{users[0].name} veut rejouer : une place vous est réservée dans Conteur #{new.pk}."
    assert "(UTC)" in payload["body"] and "202" in payload["body"]  # until when, on the person's own clock
    # The list and the bell say it in words, and lead to the rematch.
    client = Client()
    client.force_login(users[1])
    page = client.get(reverse("notifications:list")).content.decode()
    assert f"{users[0].name} wants to play again: a seat is held for you in Storyteller #{new.pk}." in page
    note = notes.get(user=users[1])
    assert client.get(note.get_absolute_url()).url == new.get_absolute_url()


def test_whoever_joined_or_declined_before_the_task_ran_hears_nothing_more(django_capture_on_commit_callbacks):
    old, users = finished_game(3)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        new = game_rematch(game_id=old.pk, user=users[0])
    game_join(game_id=new.pk, user=users[1])
    game_decline(game_id=new.pk, user=users[2])
    mail.outbox.clear()
    for callback in callbacks:
        callback()
    assert mail.outbox == []


def test_the_email_choice_is_on_the_settings_page_and_in_the_export(client):
    user = UserFactory()
    client.force_login(user)
    page = client.get(reverse("notifications:settings")).content.decode()
    assert 'name="rematch_emails"' in page
    client.post(reverse("notifications:settings"), {"turn_emails": "on"})
    assert EmailPreferences.objects.get(user=user).rematch_emails is False
    from notifications.personal_data import notifications_personal_data

    assert notifications_personal_data(sender=None, user=user)["email_preferences"]["rematch_emails"] is False


def test_one_click_unsubscribe_stops_the_rematch_emails_too():
    from notifications.emails import emails_unsubscribe

    user = UserFactory()
    emails_unsubscribe(user=user)
    assert EmailPreferences.objects.get(user=user).rematch_emails is False
