from django.contrib import admin

from .models import EmailPreferences, Notification, Turn


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
