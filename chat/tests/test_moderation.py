"""Admins see reports and messages, resolve reports and take messages out of the chat."""

import pytest
from django.urls import reverse

from chat.models import ChatMessage, ChatReport
from chat.services import chat_post, chat_report

pytestmark = pytest.mark.django_db


def test_a_report_is_listed_for_the_admins_and_resolved_there(table, admin_client):
    game, (alice, bob, _carol), _clients = table
    message = chat_post(game_id=game.pk, user=bob, text="a very rude remark")
    chat_report(game_id=game.pk, user=alice, message_id=message.pk, reason="insults")

    page = admin_client.get(reverse("admin:chat_chatreport_changelist")).content.decode()
    assert "a very rude remark" in page and "insults" in page and str(alice) in page

    report = ChatReport.objects.get()
    admin_client.post(
        reverse("admin:chat_chatreport_changelist"),
        {"action": "resolve_reports", "_selected_action": [report.pk]},
    )
    report.refresh_from_db()
    assert report.resolved and report.resolved_at is not None


def test_removing_a_reported_message_hides_it_from_everyone(table, admin_client):
    game, (alice, bob, carol), (a, _b, c) = table
    message = chat_post(game_id=game.pk, user=bob, text="spoiler")
    chat_post(game_id=game.pk, user=carol, text="fine words")
    chat_report(game_id=game.pk, user=alice, message_id=message.pk)

    messages_page = admin_client.get(reverse("admin:chat_chatmessage_changelist")).content.decode()
    assert "spoiler" in messages_page and "fine words" in messages_page

    report = ChatReport.objects.get()
    admin_client.post(
        reverse("admin:chat_chatreport_changelist"),
        {"action": "remove_reported_messages", "_selected_action": [report.pk]},
    )
    message.refresh_from_db()
    report.refresh_from_db()
    assert message.removed_at is not None and report.resolved
    for client in (a, c):
        assert [m["text"] for m in client.get(f"/games/{game.pk}/chat").json()["messages"]] == ["fine words"]


def test_admins_remove_messages_from_the_message_list(table, admin_client):
    game, (_alice, bob, _carol), (a, _b, _c) = table
    message = chat_post(game_id=game.pk, user=bob, text="remove me")
    admin_client.post(
        reverse("admin:chat_chatmessage_changelist"),
        {"action": "remove_messages", "_selected_action": [message.pk]},
    )
    assert ChatMessage.objects.get().removed_at is not None
    assert a.get(f"/games/{game.pk}/chat").json()["messages"] == []


def test_only_staff_see_the_chat_admin(table, client):
    _game, (alice, _bob, _carol), _clients = table
    client.force_login(alice)
    assert client.get(reverse("admin:chat_chatreport_changelist")).status_code == 302
