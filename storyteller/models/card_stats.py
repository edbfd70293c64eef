"""What happened to each card in play: the facts card and player statistics read.

Rows are written by the services in the transaction that changes the game, and
never updated afterwards, so figures are sums over them and always agree with
the games.
"""

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class CardDeal(models.Model):
    """A card dealt into a hand in a game.

    The draw pile is never reshuffled, so a card is dealt at most once per game.
    """

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="card_deals")
    card = models.ForeignKey("storyteller.Card", on_delete=models.PROTECT, related_name="deals")
    dealt_at = models.DateTimeField()

    class Meta:
        db_table = "games_carddeal"  # the table it had in the games app
        verbose_name = _("card dealt")
        verbose_name_plural = _("cards dealt")
        constraints = [models.UniqueConstraint(fields=["card", "game"], name="card_deal_once_per_game")]

    def __str__(self) -> str:
        return f"card {self.card_id} dealt in game {self.game_id}"


class StorytellerTableCard(models.Model):
    """A card on the table of a revealed Storyteller round: the storyteller's, or one a
    player submitted, where it lay, and the votes it drew.

    It is the round's submission row: one per card, the storyteller's card once.
    Who voted for it are its ``votes_drawn`` (``StorytellerVote``); ``votes`` counts
    them and ``votes_cast`` counts the round's, so ``votes / votes_cast`` is how
    often the storyteller's card was found, or how well a decoy worked, without
    reading the round.
    """

    round = models.ForeignKey("storyteller.StorytellerRound", on_delete=models.CASCADE, related_name="table_cards")
    card = models.ForeignKey("storyteller.Card", on_delete=models.PROTECT, related_name="table_appearances")
    owner = models.ForeignKey(
        "games.Seat", on_delete=models.CASCADE, related_name="table_cards", help_text=_("The seat that played it.")
    )
    position = models.PositiveSmallIntegerField(help_text=_("Its place on the table, from 1."))
    is_storyteller_card = models.BooleanField()
    votes = models.PositiveSmallIntegerField(help_text=_("Votes it drew."))
    votes_cast = models.PositiveSmallIntegerField(help_text=_("Votes cast in the round, for any card."))

    class Meta:
        db_table = "games_storytellertablecard"  # the table it had in the games app
        ordering = ["round", "position"]
        verbose_name = _("card on a Storyteller table")
        verbose_name_plural = _("cards on Storyteller tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "position"], name="table_card_one_per_position"),
            models.UniqueConstraint(fields=["round", "card"], name="table_card_once_per_round"),
            models.CheckConstraint(condition=Q(votes__lte=F("votes_cast")), name="table_card_votes_within_cast"),
            models.UniqueConstraint(
                fields=["round"], condition=Q(is_storyteller_card=True), name="table_card_one_storyteller_card"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} card {self.position}"
