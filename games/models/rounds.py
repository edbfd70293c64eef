"""What every kind's round rows share: a seat's points in a scored round and its score after it."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class RoundScoreBase(models.Model):
    """A seat's points in a round (0 included) and its score after it; a kind's score row subclasses it and
    adds its ``round`` (a foreign key to its round, ``related_name="scores"``), its ``seat`` (to ``games.Seat``,
    ``related_name="<app label>_scores"``: spelt out, as the kinds' migrations have it) and its Meta's names."""

    points = models.PositiveSmallIntegerField(_("points"))
    score_after = models.PositiveIntegerField(_("score after the round"))

    class Meta:
        abstract = True
        ordering = ["round", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="%(app_label)s_score_once_per_seat"),
            models.CheckConstraint(condition=Q(points__lte=models.F("score_after")), name="%(app_label)s_score_within"),
        ]

    def __str__(self) -> str:
        return f"{self.round} seat {self.seat_id}: {self.points}"
