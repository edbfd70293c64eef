from django.db import models


class StorytellerRound(models.Model):
    """One revealed round of Storyteller, kept for the reveal, replays and statistics.

    ``table`` is a list of {"position", "card", "owner", "voters"} where owner and
    voters are seat positions; ``points`` and ``scores_after`` map seat position
    (as a string) to points.
    """

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="storyteller_rounds")
    number = models.PositiveIntegerField()
    storyteller = models.PositiveSmallIntegerField()
    clue = models.CharField(max_length=200, blank=True)
    storyteller_card = models.ForeignKey("storyteller.Card", on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    skipped = models.BooleanField(default=False)
    table = models.JSONField(default=list)
    points = models.JSONField(default=dict)
    scores_after = models.JSONField(default=dict)
    revealed_at = models.DateTimeField()

    class Meta:
        db_table = "games_storytellerround"  # the table it had in the games app
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="storyteller_round_once")]
