"""Table talk: what the players of a game say to each other, whom each has muted, and what was reported."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from games.models import Game

TEXT_MAX_LENGTH = 500
REASON_MAX_LENGTH = 500


class ChatMessage(models.Model):
    """One message of a seated player to the table.

    ``round`` is the game's round when it was said (None before the game started or
    after it ended): the replay shows each round's talk beside the round. A message an
    admin removed stays for the record of its reports and is shown to no one.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages")
    text = models.CharField(_("text"), max_length=TEXT_MAX_LENGTH)
    round = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(_("said at"))
    removed_at = models.DateTimeField(_("removed"), null=True, blank=True)

    class Meta:
        ordering = ["game", "created_at", "pk"]
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        indexes = [models.Index(fields=["game", "created_at", "id"], name="chat_message_game_idx")]
        constraints = [
            models.CheckConstraint(condition=~Q(text=""), name="chat_message_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.game}: {self.text[:40]}"


class ChatMute(models.Model):
    """``muter`` no longer sees what ``muted`` says in one game (a per-table choice, as at a real table)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_mutes")
    muter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_muted_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")
        constraints = [
            models.UniqueConstraint(fields=["game", "muter", "muted"], name="chat_mute_once"),
            models.CheckConstraint(condition=~Q(muter=F("muted")), name="chat_mute_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.muter} mutes {self.muted} in {self.game}"


class ChatReport(models.Model):
    """A player's report of a message to the admins; resolved once an admin has dealt with it."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports")
    reason = models.CharField(_("reason"), max_length=REASON_MAX_LENGTH, blank=True)
    created_at = models.DateTimeField(_("reported at"))
    resolved = models.BooleanField(_("resolved"), default=False)
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)

    class Meta:
        ordering = ["resolved", "-created_at"]
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")]

    def __str__(self) -> str:
        return f"{self.reporter} reports message {self.message_id}"
