"""A drawn or sung clue's file (rules: the mime or song variant; online a drawing or a short sound).

Uploaded by the player whose clue it is, before the clue that names it; served only
to those who may see the game (``storyteller.views.clue_media_file``, through the
media door ``games.media``), never from a public URL. The file lives in the
``protected`` storage: ``MEDIA_ROOT`` on the embedded default, an S3-compatible
bucket in production.
"""

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.media import protected_storage


def clue_media_path(instance: "ClueMedia", filename: str) -> str:
    # The name says nothing of the game or the player; the extension follows the sniffed type.
    extension = {
        "image/png": "png",
        "image/webp": "webp",
        "audio/ogg": "ogg",
        "audio/webm": "webm",
        "audio/mp4": "m4a",
    }.get(instance.content_type, "bin")
    return f"clue-media/{secrets.token_hex(16)}.{extension}"


class ClueMedia(models.Model):
    class Kind(models.TextChoices):
        DRAWING = "drawing", _("drawing")
        SOUND = "sound", _("sound")

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="clue_media", verbose_name=_("game"))
    seat = models.ForeignKey(
        "games.Seat", on_delete=models.CASCADE, related_name="clue_media", verbose_name=_("uploaded by")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    file = models.FileField(_("file"), upload_to=clue_media_path, storage=protected_storage)
    content_type = models.CharField(_("content type"), max_length=40)
    size = models.PositiveIntegerField(_("size in bytes"))
    duration = models.FloatField(_("duration in seconds"), null=True, blank=True)
    created_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("clue drawing or sound")
        verbose_name_plural = _("clue drawings and sounds")
        constraints = [
            models.CheckConstraint(condition=models.Q(kind__in=["drawing", "sound"]), name="clue_media_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} (game {self.game_id})"


class ClueMediaTally(models.Model):
    """Uploads a seat has tried in its game, taken or refused: what the per-seat cap counts (a refused
    upload cost its checking too), counted before the file is checked."""

    seat = models.OneToOneField(
        "games.Seat", on_delete=models.CASCADE, related_name="clue_media_tally", verbose_name=_("seat")
    )
    uploads = models.PositiveIntegerField(_("uploads tried"), default=0)

    class Meta:
        verbose_name = _("clue uploads of a seat")
        verbose_name_plural = _("clue uploads of seats")

    def __str__(self) -> str:
        return f"seat {self.seat_id}: {self.uploads}"
