"""A person's notifications, email settings, push devices and muted games: in their data export,
and gone with their account (``accounts.signals``)."""

from django.dispatch import receiver

from accounts.signals import account_deleting, personal_data

from .models import EmailPreferences, GameMute, Notice, Notification, PushSubscription


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
            "rematch_emails": preferences.rematch_emails if preferences else True,
            "daily_letter_hour": preferences.daily_letter_hour if preferences else None,
            "language": preferences.language if preferences else "",
        },
        "push_devices": [
            {
                "user_agent": subscription.user_agent,
                "language": subscription.language,
                "created_at": subscription.created_at.isoformat(),
                # No delivery status: it would tell whoever set the endpoint whether the site reached it.
            }
            for subscription in PushSubscription.objects.filter(user=user).order_by("created_at", "pk")
        ],
        "muted_games": list(GameMute.objects.filter(user=user).order_by("game_id").values_list("game_id", flat=True)),
    }


@receiver(account_deleting, dispatch_uid="notifications.account_deleting")
def notifications_delete(sender, *, user, **kwargs) -> None:
    Notification.objects.filter(user=user).delete()
    Notice.objects.filter(user=user).delete()
    EmailPreferences.objects.filter(user=user).delete()
    PushSubscription.objects.filter(user=user).delete()
    GameMute.objects.filter(user=user).delete()
