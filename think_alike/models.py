"""Think Alike: task cards, board fields, and a record of every scored round.

Cards and fields are dealt into a game by id and text (the engine's state holds
both), so editing or retiring one changes no running game: a retired card or field
is only left out of the games that start afterwards.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import RoundScoreBase

TEXT_MAX_LENGTH = 120
MAX_ANSWERS = 10  # the engine's MAX_ANSWERS_PER_TASK; a test keeps the two agreeing

# The languages of the task cards and fields: every card and field has a text in each
# (a column ``text_<lang>``), written for that language, not translated word for word.
LANGS = ("en", "da", "sv", "nb", "fi", "fr")
LANG_NAMES = {
    "en": _("English"),
    "da": _("Danish"),
    "sv": _("Swedish"),
    "nb": _("Norwegian"),
    "fi": _("Finnish"),
    "fr": _("French"),
}
TEXT_COLUMNS = tuple(f"text_{lang}" for lang in LANGS)


def content_lang(code: str | None) -> str:
    """The content language for a language code ("nb-no", "da", "no"...): one of ``LANGS``, else English."""
    base = (code or "").lower().replace("_", "-").split("-")[0]
    base = "nb" if base in ("no", "nn") else base
    return base if base in LANGS else "en"


TEXT_LABELS = {
    "en": _("text (English)"),
    "da": _("text (Danish)"),
    "sv": _("text (Swedish)"),
    "nb": _("text (Norwegian)"),
    "fi": _("text (Finnish)"),
    "fr": _("text (French)"),
}


def _text_field(lang: str) -> models.CharField:
    """A card's or field's text in one language. Every language is asked for (forms, imports, the
    built-in files); a blank one, left by a row older than the language, reads as English."""
    return models.CharField(
        TEXT_LABELS[lang], max_length=TEXT_MAX_LENGTH, **({} if lang in ("en", "da") else {"default": ""})
    )


def _text(item, lang: str) -> str:
    return (getattr(item, f"text_{lang}") if lang in LANGS else "") or item.text_en


class ContentQuerySet(models.QuerySet):
    def in_play(self):
        return self.filter(is_retired=False)


class TaskCard(models.Model):
    """A task card: "A fruit that is not round". ``answers``: how many answers it asks for."""

    key = models.SlugField(_("key"), max_length=80, unique=True, help_text=_("A stable name for imports and exports."))
    text_en = _text_field("en")
    text_da = _text_field("da")
    text_sv = _text_field("sv")
    text_nb = _text_field("nb")
    text_fi = _text_field("fi")
    text_fr = _text_field("fr")
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
        """The text in a content language; English where it has none."""
        return _text(self, lang)


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
    text_en = _text_field("en")
    text_da = _text_field("da")
    text_sv = _text_field("sv")
    text_nb = _text_field("nb")
    text_fi = _text_field("fi")
    text_fr = _text_field("fr")
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
        """The text in a content language; English where it has none."""
        return _text(self, lang)


class ThinkAlikeRound(models.Model):
    """One scored round of Think Alike, kept for replays and statistics.

    Seats are positions (``turn``, ``moved_to``, ``duel_*``). What everyone wrote and
    scored are rows beside it: ``answer_rows`` (``ThinkAlikeAnswer``), ``group_rows``
    (the final groups, the turn holder's merges and splits applied), ``ruling_rows``
    and ``scores`` (each seat's points and score after the round). The JSON columns
    ``answers``, ``groups``, ``rulings``, ``points`` and ``scores_after`` are the
    record of before the rows: still written, read by nothing; a later migration may
    drop them.
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


class ThinkAlikeGroup(models.Model):
    """A final group of a scored round: answers that counted as the same.

    ``number`` is the engine's group id in the round; ``key`` the normalised text
    that named it. Its answers are its ``answers`` (``ThinkAlikeAnswer.group``).
    """

    round = models.ForeignKey(
        ThinkAlikeRound, on_delete=models.CASCADE, related_name="group_rows", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(_("group"))
    key = models.CharField(_("key"), max_length=200, blank=True)

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("Think Alike answer group")
        verbose_name_plural = _("Think Alike answer groups")
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="think_alike_group_once")]

    def __str__(self) -> str:
        return f"{self.round} group {self.number}"


class ThinkAlikeAnswer(models.Model):
    """One answer a seat wrote in a scored round (``index`` from 0 on cards asking for more).

    A blank answer is kept, in no group; a seat that gave no answer in time has no
    rows (its ``ThinkAlikeRoundScore.answered`` is false).
    """

    round = models.ForeignKey(
        ThinkAlikeRound, on_delete=models.CASCADE, related_name="answer_rows", verbose_name=_("round")
    )
    seat = models.ForeignKey(
        "games.Seat", on_delete=models.CASCADE, related_name="think_alike_answers", verbose_name=_("seat")
    )
    index = models.PositiveSmallIntegerField(_("answer number"), help_text=_("From 0."))
    text = models.CharField(_("text"), max_length=TEXT_MAX_LENGTH, blank=True)
    group = models.ForeignKey(
        ThinkAlikeGroup,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="answers",
        verbose_name=_("group"),
    )

    class Meta:
        ordering = ["round", "seat", "index"]
        verbose_name = _("Think Alike answer")
        verbose_name_plural = _("Think Alike answers")
        constraints = [
            models.UniqueConstraint(fields=["round", "seat", "index"], name="think_alike_answer_once"),
            models.CheckConstraint(condition=Q(index__lt=MAX_ANSWERS), name="think_alike_answer_index_in_range"),
            models.CheckConstraint(condition=~Q(text="") | Q(group__isnull=True), name="think_alike_blank_in_no_group"),
        ]

    def __str__(self) -> str:
        return self.text


class ThinkAlikeRuling(models.Model):
    """A merge or a split the turn holder made in review, in the order made.

    ``groups``: the group ids merged, or the one split; ``result``: the merged
    group's id, or the new group's; ``items``: a split's moved answers, [[seat, index]].
    """

    class Kind(models.TextChoices):
        MERGE = "merge", _("Merge")
        SPLIT = "split", _("Split")

    round = models.ForeignKey(
        ThinkAlikeRound, on_delete=models.CASCADE, related_name="ruling_rows", verbose_name=_("round")
    )
    order = models.PositiveSmallIntegerField(_("order"))
    kind = models.CharField(_("kind"), max_length=5, choices=Kind.choices)
    groups = models.JSONField(_("groups"), default=list)
    result = models.PositiveSmallIntegerField(_("resulting group"))
    items = models.JSONField(_("answers moved"), default=list, blank=True)

    class Meta:
        ordering = ["round", "order"]
        verbose_name = _("Think Alike ruling")
        verbose_name_plural = _("Think Alike rulings")
        constraints = [
            models.UniqueConstraint(fields=["round", "order"], name="think_alike_ruling_once"),
            models.CheckConstraint(condition=Q(kind__in=["merge", "split"]), name="think_alike_ruling_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.round} {self.kind}"


class ThinkAlikeRoundScore(RoundScoreBase):
    """A seat's points in a scored round (duel bonus included, 0 too) and its score after it."""

    round = models.ForeignKey(ThinkAlikeRound, on_delete=models.CASCADE, related_name="scores", verbose_name=_("round"))
    seat = models.ForeignKey(
        "games.Seat", on_delete=models.CASCADE, related_name="think_alike_scores", verbose_name=_("seat")
    )
    answered = models.BooleanField(_("answered"), help_text=_("False: no answer in time."))

    class Meta(RoundScoreBase.Meta):
        verbose_name = _("Think Alike round score")
        verbose_name_plural = _("Think Alike round scores")
