import uuid
from pathlib import PurePath

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Count, F, FloatField, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Cast, Coalesce, NullIf
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games.media import protected_storage

from .card_stats import CardDeal


def card_image_path(card: "Card | None", filename: str) -> str:
    # Never the uploader's file name: it could say what the picture shows. A player's own pictures
    # are kept apart (cards/own/), though the name is no credential: every request is checked.
    suffix = PurePath(filename).suffix.lower() or ".webp"
    own = card is not None and card.deck_id is not None and card.deck.owner_id is not None
    folder = "cards/own" if own else "cards"
    return f"{folder}/{uuid.uuid4().hex}{suffix}"


ALT_TEXT_MAX_LENGTH = 1000
DECK_NAME_MAX_LENGTH = 80
TAGS_MAX_LENGTH = 200
REPORT_REASON_MAX_LENGTH = 300


def alt_languages() -> list[str]:
    """The languages a card's alt text may be translated into: the site's, less its own (English)."""
    return [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def alt_language(code: str | None) -> str:
    """The site language a language code stands for ("fi-FI" -> "fi", "no" -> "nb"), else the site's own."""
    base = (code or "").lower().replace("_", "-").split("-")[0]
    base = "nb" if base in ("no", "nn") else base
    return base if base in alt_languages() else settings.LANGUAGE_CODE


def validate_alt_texts(value) -> None:
    """Translations of an alt text: {language: text}, each language one of the site's (not English, which is
    the alt text itself), each text a non-empty string of at most ``ALT_TEXT_MAX_LENGTH`` characters."""
    if not isinstance(value, dict):
        raise ValidationError(_("The translated alt texts should be an object of language: text."), code="not_object")
    known = alt_languages()
    unknown = sorted(str(key) for key in value if key not in known)
    if unknown:
        raise ValidationError(
            _("Unknown language for an alt text: %(keys)s (the languages are %(known)s).")
            % {"keys": ", ".join(unknown), "known": ", ".join(known)},
            code="language",
        )
    for language, text in value.items():
        if not isinstance(text, str) or not text.strip():
            raise ValidationError(_("The alt text in “%(language)s” is empty.") % {"language": language}, code="empty")
        if len(text) > ALT_TEXT_MAX_LENGTH:
            raise ValidationError(
                _("The alt text in “%(language)s” is longer than %(max)d characters.")
                % {"language": language, "max": ALT_TEXT_MAX_LENGTH},
                code="length",
            )


class DeckQuerySet(models.QuerySet):
    def builtin(self):
        """The site's decks (an admin's), which anyone may see and choose."""
        return self.filter(owner__isnull=True, removed_at__isnull=True)

    def owned_by(self, user):
        return self.filter(owner=user, removed_at__isnull=True)

    def usable_by(self, user):
        """The player decks ``user`` may choose for a game: their own and those shared with them."""
        return self.filter(Q(owner=user) | Q(shared_with=user), owner__isnull=False, removed_at__isnull=True).distinct()

    def with_card_counts(self):
        return self.annotate(
            cards_in_play=Count(
                "cards",
                filter=Q(cards__is_retired=False, cards__hidden_at__isnull=True, cards__removed_at__isnull=True),
            ),
            cards_retired=Count("cards", filter=Q(cards__is_retired=True)),
        )


class Deck(models.Model):
    """A deck of picture cards: the site's (no owner: an admin's, for everyone), or a player's own.

    A player's deck is private: its pictures go only to its owner, the players it is shared with now, and
    the players seated at a game dealt from it, for that game's cards (``storyteller.selectors``). Its owner
    may make it public (``is_public``): then the players it is shared with may make public games on it, and
    whoever watches such a game sees that game's cards. It is never listed publicly.
    A deck whose owner deleted their account is ``removed``: its cards keep only what finished games
    need to stay readable (their ids), with no picture and no words.
    """

    slug = models.SlugField(_("slug"), unique=True)
    name = models.CharField(_("name"), max_length=DECK_NAME_MAX_LENGTH)
    description = models.TextField(_("description"), blank=True)
    is_active = models.BooleanField(
        _("active"), default=True, help_text=_("Only active decks can be chosen for new games.")
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="card_decks",
        verbose_name=_("owner"),
        help_text=_("The player whose own deck this is; empty for the site's decks."),
    )
    shared_with = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="card_decks_shared",
        verbose_name=_("shared with"),
        help_text=_("Players who may use this deck for their own games."),
    )
    is_public = models.BooleanField(
        _("public"),
        default=False,
        help_text=_(
            "Its owner lets the players it is shared with make public games on it, whose spectators see its cards."
        ),
    )
    removed_at = models.DateTimeField(
        _("removed at"), null=True, blank=True, help_text=_("Its owner deleted it (or their account).")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = DeckQuerySet.as_manager()

    class Meta:
        db_table = "games_deck"  # the table it had in the games app
        ordering = ["name"]
        verbose_name = _("deck")
        verbose_name_plural = _("decks")

    def __str__(self) -> str:
        return self.name


class CardQuerySet(models.QuerySet):
    def in_play(self):
        """Cards that may be dealt in a new game: not retired, not hidden after reports, not removed."""
        return self.filter(is_retired=False, hidden_at__isnull=True, removed_at__isnull=True)

    def with_figures(self):
        """Annotate how each card fared in the games (see ``card_stats``).

        - ``times_dealt``: games in which it reached a hand;
        - ``times_told``: rounds in which a storyteller chose it;
        - ``found_percent``: of the votes cast in those rounds, the share that found
          it (None if never told): near 100 it is too easy, near 0 too obscure;
        - ``times_found_by_all`` / ``times_found_by_none``: rounds in which it scored
          nothing for its storyteller for being too easy / too obscure;
        - ``decoy_votes``: votes it drew when it was not the storyteller's card.
        """
        told = Q(table_appearances__is_storyteller_card=True)
        decoy = Q(table_appearances__is_storyteller_card=False)
        voted = Q(table_appearances__votes_cast__gt=0)
        deals = CardDeal.objects.filter(card=OuterRef("pk")).order_by().values("card").annotate(n=Count("*"))
        return self.annotate(
            # A subquery, not a join: joining deals and table appearances together
            # would multiply the rows of one by the other.
            times_dealt=Coalesce(Subquery(deals.values("n")), 0),
            times_told=Count("table_appearances", filter=told),
            times_found_by_all=Count(
                "table_appearances",
                filter=told & voted & Q(table_appearances__votes=F("table_appearances__votes_cast")),
            ),
            times_found_by_none=Count("table_appearances", filter=told & voted & Q(table_appearances__votes=0)),
            found_percent=Cast(Sum("table_appearances__votes", filter=told), FloatField())
            * Value(100.0)
            / Cast(NullIf(Sum("table_appearances__votes_cast", filter=told), 0), FloatField()),
            decoy_votes=Coalesce(Sum("table_appearances__votes", filter=decoy), 0),
        )


class Card(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.PROTECT, related_name="cards", verbose_name=_("deck"))
    # Every card's picture goes out through the media door (``storyteller.decks.views.card_picture_file``),
    # which checks a player's own pictures against who asks. Empty once a card is removed.
    image = models.ImageField(_("image"), upload_to=card_image_path, storage=protected_storage, blank=True)
    alt_text = models.TextField(_("alt text"), help_text=_("One or two sentences that describe the picture."))
    alt_texts = models.JSONField(
        _("translated alt texts"),
        default=dict,
        blank=True,
        validators=[validate_alt_texts],
        help_text=_("The alt text in the site's other languages; the alt text itself is the English one."),
    )
    alt_language = models.CharField(
        _("language of the alt text"),
        max_length=8,
        blank=True,
        help_text=_("The language a player wrote the alt text in; empty: English, the site's decks' own."),
    )
    tags = models.CharField(_("tags"), max_length=TAGS_MAX_LENGTH, blank=True, help_text=_("Comma-separated."))
    is_retired = models.BooleanField(
        _("retired"), default=False, help_text=_("A retired card is dealt in no new game; running games keep it.")
    )
    source_key = models.CharField(
        max_length=120,
        unique=True,
        null=True,
        blank=True,
        editable=False,
        help_text="Where a built-in card came from (deck slug/file), so loading a deck twice adds nothing.",
    )
    position = models.PositiveIntegerField(_("position"), default=0, help_text=_("Its place in its deck's order."))
    size = models.PositiveIntegerField(_("size in bytes"), default=0, help_text=_("Of the stored picture (quotas)."))
    hidden_at = models.DateTimeField(
        _("hidden at"),
        null=True,
        blank=True,
        help_text=_("Hidden after players reported it, until an admin decides: shown as a grey placeholder."),
    )
    removed_at = models.DateTimeField(
        _("removed at"),
        null=True,
        blank=True,
        help_text=_("Its picture and words were deleted; games that dealt it show a grey placeholder."),
    )
    review_requested_at = models.DateTimeField(
        _("review asked for at"),
        null=True,
        blank=True,
        help_text=_("Its owner asked an admin to look at it while it is hidden: first in the reports to decide."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CardQuerySet.as_manager()

    class Meta:
        db_table = "games_card"  # the table it had in the games app
        ordering = ["deck", "position", "id"]
        verbose_name = _("card")
        verbose_name_plural = _("cards")

    def __str__(self) -> str:
        return f"{self.deck.slug} #{self.pk}"

    def alt_in(self, language: str | None = None) -> dict:
        """The picture in words in ``language`` (default: the active one), as views show it:
        ``{"alt": text, "alt_lang": ""}``, or the English text with ``"alt_lang": "en"`` where the card
        has no words in that language (an ``<img lang="en">`` lets a screen reader say them right). A player's
        own card's words are in the language they wrote them in (``alt_language``)."""
        return card_alt(self.alt_text, self.alt_texts, language, source=self.alt_language)


def card_alt(alt_text: str, alt_texts: dict | None, language: str | None = None, *, source: str = "") -> dict:
    """See ``Card.alt_in``: the same from the columns, for code that reads them as values (``source``: the
    language ``alt_text`` is in; empty, the site's own)."""
    wanted = alt_language(translation.get_language() if language is None else language)
    source = alt_language(source) if source else settings.LANGUAGE_CODE
    if wanted != source:
        text = (alt_texts or {}).get(wanted)
        if isinstance(text, str) and text:
            return {"alt": text, "alt_lang": ""}
        if alt_text:
            return {"alt": alt_text, "alt_lang": source}
    return {"alt": alt_text, "alt_lang": ""}


class CardReport(models.Model):
    """A player's report of a card seen in a game: an admin decides (keep it, or remove it); enough reports
    that cost something to fake hide a player's own card until then (``storyteller.decks.services.reports``)."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="reports", verbose_name=_("card"))
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="card_reports", verbose_name=_("reported by")
    )
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="card_reports",
        verbose_name=_("game"),
    )
    reason = models.CharField(_("reason"), max_length=REPORT_REASON_MAX_LENGTH, blank=True)
    created_at = models.DateTimeField(_("reported at"), auto_now_add=True)
    resolved_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("card report")
        verbose_name_plural = _("card reports")
        constraints = [models.UniqueConstraint(fields=["card", "reporter"], name="card_report_once_per_player")]

    def __str__(self) -> str:
        return f"report of card {self.card_id} by {self.reporter_id}"
