"""A person's notifications and email settings: in their data export, and gone with their account
(``accounts.signals``)."""

from django.dispatch import receiver

from accounts.signals import account_deleting, personal_data

from .models import EmailPreferences, Notification


@receiver(personal_data, dispatch_uid="notifications.personal_data")
def notifications_personal_data(sender, *, user, **kwargs) -> dict:
    preferences = EmailPreferences.objects.filter(user=user).first()
    return {
        "notifications": [
            {
                "kind": notification.kind,
                "game": notification.game_id,
                "round": notification.round,
                "won": notification.won,
                "created_at": notification.created_at.isoformat(),
                "read_at": notification.read_at.isoformat() if notification.read_at else None,
            }
            for notification in Notification.objects.filter(user=user).order_by("created_at", "pk")
        ],
        "email_preferences": {
            "turn_emails": preferences.turn_emails if preferences else True,
            "reminder_emails": preferences.reminder_emails if preferences else True,
        },
    }


@receiver(account_deleting, dispatch_uid="notifications.account_deleting")
def notifications_delete(sender, *, user, **kwargs) -> None:
    Notification.objects.filter(user=user).delete()
    EmailPreferences.objects.filter(user=user).delete()
