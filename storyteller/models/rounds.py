"""A Storyteller game's revealed rounds as rows: the round and its clue, the cards on
its table (``StorytellerTableCard``), the votes, and each seat's points.

The engine's JSON state stays the fast path of play; these rows are written by
``storyteller_record`` in the transaction that reveals a round, never updated
afterwards, and are what replays, statistics and the admin read. The database
holds the rules it can: one vote per voter per round, one appearance per card, the
storyteller's card once, one score per seat.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import RoundScoreBase


class StorytellerRound(models.Model):
    """One revealed round of Storyteller, or a turn the storyteller lost (``skipped``).

    ``storyteller`` is the storyteller's seat position, beside the seat itself,
    so statistics need no join. ``table``, ``points`` and ``scores_after`` are the
    JSON record of before the rows (``table_cards``, ``votes``, ``scores``): still
    written, read by nothing; a later migration may drop them.
    """

    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="storyteller_rounds", verbose_name=_("game")
    )
    number = models.PositiveIntegerField(_("round"))
    storyteller = models.PositiveSmallIntegerField(_("storyteller's seat position"))
    storyteller_seat = models.ForeignKey(
        "games.Seat", on_delete=models.CASCADE, related_name="storyteller_rounds", verbose_name=_("storyteller")
    )
    clue = models.CharField(_("clue"), max_length=200, blank=True)
    clue_media = models.ForeignKey(
        "storyteller.ClueMedia",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("drawn or sung clue"),
    )
    storyteller_card = models.ForeignKey(
        "storyteller.Card",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("storyteller's card"),
    )
    skipped = models.BooleanField(_("turn lost"), default=False, help_text=_("The storyteller gave no clue in time."))
    table = models.JSONField(default=list)
    points = models.JSONField(default=dict)
    scores_after = models.JSONField(default=dict)
    revealed_at = models.DateTimeField(_("revealed at"))

    class Meta:
        db_table = "games_storytellerround"  # the table it had in the games app
        ordering = ["game", "number"]
        verbose_name = _("Storyteller round")
        verbose_name_plural = _("Storyteller rounds")
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="storyteller_round_once"),
            models.CheckConstraint(
                condition=Q(skipped=False) | (Q(clue="") & Q(storyteller_card__isnull=True)),
                name="storyteller_round_skipped_has_no_clue",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} round {self.number}"


class StorytellerVote(models.Model):
    """A voter's vote in a revealed round: the card on the table they chose.

    That a voter never votes for their own card is the engine's rule and
    ``storyteller_record``'s check: a constraint cannot see the card's owner.
    """

    round = models.ForeignKey(StorytellerRound, on_delete=models.CASCADE, related_name="votes", verbose_name=_("round"))
    voter = models.ForeignKey(
        "games.Seat", on_delete=models.CASCADE, related_name="storyteller_votes", verbose_name=_("voter")
    )
    table_card = models.ForeignKey(
        "storyteller.StorytellerTableCard",
        on_delete=models.CASCADE,
        related_name="votes_drawn",
        verbose_name=_("card voted for"),
    )

    class Meta:
        ordering = ["round", "voter"]
        verbose_name = _("Storyteller vote")
        verbose_name_plural = _("Storyteller votes")
        constraints = [models.UniqueConstraint(fields=["round", "voter"], name="storyteller_vote_once_per_round")]

    def __str__(self) -> str:
        return f"{self.round} vote of seat {self.voter_id}"


class StorytellerRoundScore(RoundScoreBase):
    """A seat's points in a round (0 included) and its score after it."""

    round = models.ForeignKey(
        StorytellerRound, on_delete=models.CASCADE, related_name="scores", verbose_name=_("round")
    )
    seat = models.ForeignKey(
        "games.Seat", on_delete=models.CASCADE, related_name="storyteller_scores", verbose_name=_("seat")
    )

    class Meta(RoundScoreBase.Meta):
        verbose_name = _("Storyteller round score")
        verbose_name_plural = _("Storyteller round scores")
