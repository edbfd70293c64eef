"""Think Alike: task cards, board fields, and a record of every scored round.

Cards and fields are dealt into a game by id and text (the engine's state holds
both), so editing or retiring one changes no running game: a retired card or field
is only left out of the games that start afterwards.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

TEXT_MAX_LENGTH = 120
MAX_ANSWERS = 10  # the engine's MAX_ANSWERS_PER_TASK; a test keeps the two agreeing


class ContentQuerySet(models.QuerySet):
    def in_play(self):
        return self.filter(is_retired=False)


class TaskCard(models.Model):
    """A task card: "A fruit that is not round". ``answers``: how many answers it asks for."""

    key = models.SlugField(_("key"), max_length=80, unique=True, help_text=_("A stable name for imports and exports."))
    text_en = models.CharField(_("text (English)"), max_length=TEXT_MAX_LENGTH)
    text_da = models.CharField(_("text (Danish)"), max_length=TEXT_MAX_LENGTH)
    answers = models.PositiveSmallIntegerField(_("answers asked for"), default=1)
    is_retired = models.BooleanField(
        _("retired"), default=False, help_text=_("A retired card is dealt in no new game; running games keep it.")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ContentQuerySet.as_manager()

    class Meta:
        db_table = "games_taskcard"  # the table it had in the games app
        ordering = ["key"]
        verbose_name = _("Think Alike task card")
        verbose_name_plural = _("Think Alike task cards")
        constraints = [
            models.CheckConstraint(
                condition=Q(answers__gte=1) & Q(answers__lte=MAX_ANSWERS), name="task_card_answers_1_to_10"
            ),
        ]

    def __str__(self) -> str:
        return self.text_en or self.key

    def text(self, lang: str) -> str:
        return self.text_da if lang == "da" else self.text_en


class BoardField(models.Model):
    """A field of the board: an association (a hint) or an action (swap, move, duel)."""

    class Kind(models.TextChoices):
        ASSOCIATION = "association", _("Association")
        SWAP = "swap", _("Swap")
        MOVE = "move", _("Move")
        DUEL = "duel", _("Duel")

    key = models.SlugField(_("key"), max_length=80, unique=True, help_text=_("A stable name for imports and exports."))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    bonus = models.PositiveSmallIntegerField(
        _("duel bonus"), null=True, blank=True, help_text=_("Duel fields only: 2 or 4 points.")
    )
    text_en = models.CharField(_("text (English)"), max_length=TEXT_MAX_LENGTH)
    text_da = models.CharField(_("text (Danish)"), max_length=TEXT_MAX_LENGTH)
    is_start = models.BooleanField(
        _("start field"), default=False, help_text=_("The one swap field every board starts with.")
    )
    is_retired = models.BooleanField(
        _("retired"), default=False, help_text=_("A retired field is laid on no new board; running games keep it.")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ContentQuerySet.as_manager()

    class Meta:
        db_table = "games_boardfield"  # the table it had in the games app
        ordering = ["kind", "key"]
        verbose_name = _("Think Alike board field")
        verbose_name_plural = _("Think Alike board fields")
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="duel") & Q(bonus__in=[2, 4])) | (~Q(kind="duel") & Q(bonus__isnull=True)),
                name="board_field_duel_bonus",
            ),
            models.CheckConstraint(condition=Q(is_start=False) | Q(kind="swap"), name="board_field_start_is_swap"),
            models.UniqueConstraint(fields=["is_start"], condition=Q(is_start=True), name="board_field_one_start"),
        ]

    def __str__(self) -> str:
        return self.text_en or self.key

    def text(self, lang: str) -> str:
        return self.text_da if lang == "da" else self.text_en


class ThinkAlikeRound(models.Model):
    """One scored round of Think Alike, kept for replays and statistics.

    Seats are positions; ``answers``, ``points`` and ``scores_after`` map a seat
    (as a string) to its answers (a list of texts, or None: no answer in time), its
    points this round (duel bonus included) and its score after it. ``groups`` are
    the final groups, the turn holder's merges and splits applied:
    ``[{"id", "key", "items": [[seat, index], ...]}]``; ``rulings`` the merges and
    splits as they were made: ``[{"kind", "groups", "result", "items"}]``.
    """

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="think_alike_rounds")
    number = models.PositiveIntegerField()
    turn = models.PositiveSmallIntegerField(help_text=_("The turn holder's seat."))
    task = models.ForeignKey(TaskCard, on_delete=models.PROTECT, null=True, blank=True, related_name="rounds")
    task_text = models.CharField(max_length=TEXT_MAX_LENGTH)
    answers_asked = models.PositiveSmallIntegerField()
    die = models.PositiveSmallIntegerField(null=True, blank=True)
    direction = models.CharField(max_length=3, blank=True)
    landed_kind = models.CharField(max_length=12, blank=True, help_text=_("The kind of field the die reached."))
    hint_field = models.ForeignKey(BoardField, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    hint = models.CharField(max_length=TEXT_MAX_LENGTH, blank=True)
    swap = models.JSONField(null=True, blank=True, help_text=_("[field removed, field added]"))
    moved_to = models.PositiveSmallIntegerField(null=True, blank=True)
    duel_opponent = models.PositiveSmallIntegerField(null=True, blank=True)
    duel_bonus = models.PositiveSmallIntegerField(null=True, blank=True)
    duel_winner = models.PositiveSmallIntegerField(null=True, blank=True)
    auto = models.BooleanField(default=False, help_text=_("The turn holder's choices were made at random."))
    answers = models.JSONField(default=dict)
    groups = models.JSONField(default=list)
    rulings = models.JSONField(default=list)
    points = models.JSONField(default=dict)
    scores_after = models.JSONField(default=dict)
    scored_at = models.DateTimeField()

    class Meta:
        db_table = "games_thinkalikeround"  # the table it had in the games app
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="think_alike_round_once")]

    def __str__(self) -> str:
        return f"{self.game_id} round {self.number}"
