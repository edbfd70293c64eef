"""Admins see the table talk and its reports: resolve a report, take a message out of the chat."""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import ChatMessage, ChatMute, ChatReport
from .services import chat_messages_remove, chat_reports_resolve


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "game", "user", "text", "round", "removed_at", "report_count")
    list_filter = (("removed_at", admin.EmptyFieldListFilter),)
    search_fields = ("text", "user__username", "=game__id")
    list_select_related = ("game", "user")
    readonly_fields = ("game", "user", "text", "round", "created_at", "removed_at")
    date_hierarchy = "created_at"
    actions = ("remove_messages",)

    def has_add_permission(self, request):
        return False  # messages are said by players, not written by admins

    @admin.display(description=_("reports"))
    def report_count(self, message):
        return message.reports.count()

    @admin.action(description=_("Remove the selected messages from the chat"), permissions=["change"])
    def remove_messages(self, request, queryset):
        removed = chat_messages_remove(messages=queryset)
        self.message_user(
            request,
            ngettext("%(n)d message removed.", "%(n)d messages removed.", removed) % {"n": removed},
            messages.SUCCESS,
        )


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "reporter", "message_author", "message_text", "reason", "resolved", "game")
    list_filter = ("resolved",)
    search_fields = ("reason", "message__text", "reporter__username", "message__user__username")
    list_select_related = ("reporter", "message__user", "message__game")
    readonly_fields = ("message", "reporter", "reason", "created_at", "resolved_at")
    actions = ("resolve_reports", "remove_reported_messages")

    def has_add_permission(self, request):
        return False

    @admin.display(description=_("game"))
    def game(self, report):
        return report.message.game

    @admin.display(description=_("said by"))
    def message_author(self, report):
        return report.message.user

    @admin.display(description=_("message"))
    def message_text(self, report):
        text = report.message.text
        return f"{text} ({_('removed')})" if report.message.removed_at else text

    @admin.action(description=_("Mark the selected reports resolved"), permissions=["change"])
    def resolve_reports(self, request, queryset):
        resolved = chat_reports_resolve(reports=queryset)
        self.message_user(
            request,
            ngettext("%(n)d report resolved.", "%(n)d reports resolved.", resolved) % {"n": resolved},
            messages.SUCCESS,
        )

    @admin.action(description=_("Remove the reported messages from the chat (and resolve)"), permissions=["change"])
    def remove_reported_messages(self, request, queryset):
        removed = chat_messages_remove(messages=ChatMessage.objects.filter(reports__in=queryset).distinct())
        chat_reports_resolve(reports=queryset)
        self.message_user(
            request,
            ngettext("%(n)d message removed.", "%(n)d messages removed.", removed) % {"n": removed},
            messages.SUCCESS,
        )


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin):
    list_display = ("created_at", "game", "muter", "muted")
    search_fields = ("muter__username", "muted__username")
    list_select_related = ("game", "muter", "muted")
    readonly_fields = ("game", "muter", "muted", "created_at")

    def has_add_permission(self, request):
        return False
