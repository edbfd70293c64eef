from django.contrib import admin

from .models import EmailPreferences, GameMute, Notification, PushSubscription, Turn


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "game", "round", "created_at", "read_at")
    list_filter = ("kind",)
    raw_id_fields = ("user", "game", "actor")


@admin.register(Turn)
class TurnAdmin(admin.ModelAdmin):
    list_display = ("seat", "phase_key", "asked", "asked_at", "closed_at", "emailed_at", "reminded_at")
    raw_id_fields = ("seat",)


@admin.register(EmailPreferences)
class EmailPreferencesAdmin(admin.ModelAdmin):
    list_display = ("user", "turn_emails", "reminder_emails", "updated_at")
    raw_id_fields = ("user",)


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("user", "user_agent", "language", "created_at", "last_success_at")
    raw_id_fields = ("user",)
    # The endpoint and keys let anyone push to the device: not shown.
    exclude = ("endpoint", "p256dh", "auth")


@admin.register(GameMute)
class GameMuteAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "created_at")
    raw_id_fields = ("user", "game")
