"""What the chat keeps about a person: their messages, mutes and reports in their data export, and what
goes with their account (``accounts.signals``).

A deleted account's messages stay in the games' history, as its seats do: the table
talked with them, and the talk reads on. They show as "deleted player" (the emptied
account's ``name``). Their mutes and reports are theirs alone and go; so do the
others' mutes of them (there is no one left to mute).
"""

from django.db.models import Q
from django.dispatch import receiver

from accounts.signals import account_deleting, personal_data

from .models import ChatMessage, ChatMute, ChatReport


@receiver(personal_data, dispatch_uid="chat.personal_data")
def chat_personal_data(sender, *, user, **kwargs) -> dict:
    return {
        "chat_messages": [
            {
                "game": message.game_id,
                "round": message.round,
                "text": message.text,
                "created_at": message.created_at.isoformat(),
                "removed_by_admin": message.removed_at is not None,
            }
            for message in ChatMessage.objects.filter(user=user).order_by("created_at", "pk")
        ],
        "chat_mutes": [
            {"game": game, "muted": username}
            for game, username in ChatMute.objects.filter(muter=user)
            .order_by("created_at", "pk")
            .values_list("game_id", "muted__username")
        ],
        "chat_reports": [
            {
                "game": report.message.game_id,
                "message": report.message_id,
                "reason": report.reason,
                "created_at": report.created_at.isoformat(),
                "resolved": report.resolved,
            }
            for report in ChatReport.objects.filter(reporter=user).select_related("message").order_by("created_at")
        ],
    }


@receiver(account_deleting, dispatch_uid="chat.account_deleting")
def chat_let_go(sender, *, user, **kwargs) -> None:
    ChatMute.objects.filter(Q(muter=user) | Q(muted=user)).delete()
    ChatReport.objects.filter(reporter=user).delete()
