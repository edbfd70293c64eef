import uuid
from pathlib import PurePath

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Count, F, FloatField, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Cast, Coalesce, NullIf
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from .card_stats import CardDeal


def card_image_path(card: "Card", filename: str) -> str:
    # Never the uploader's file name: it could say what the picture shows.
    suffix = PurePath(filename).suffix.lower() or ".webp"
    return f"cards/{uuid.uuid4().hex}{suffix}"


ALT_TEXT_MAX_LENGTH = 1000


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
    def with_card_counts(self):
        return self.annotate(
            cards_in_play=Count("cards", filter=Q(cards__is_retired=False)),
            cards_retired=Count("cards", filter=Q(cards__is_retired=True)),
        )


class Deck(models.Model):
    slug = models.SlugField(_("slug"), unique=True)
    name = models.CharField(_("name"), max_length=80)
    description = models.TextField(_("description"), blank=True)
    is_active = models.BooleanField(
        _("active"), default=True, help_text=_("Only active decks can be chosen for new games.")
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
        return self.filter(is_retired=False)

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
    image = models.ImageField(_("image"), upload_to=card_image_path)
    alt_text = models.TextField(_("alt text"), help_text=_("One or two sentences that describe the picture."))
    alt_texts = models.JSONField(
        _("translated alt texts"),
        default=dict,
        blank=True,
        validators=[validate_alt_texts],
        help_text=_("The alt text in the site's other languages; the alt text itself is the English one."),
    )
    tags = models.CharField(_("tags"), max_length=200, blank=True, help_text=_("Comma-separated."))
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
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CardQuerySet.as_manager()

    class Meta:
        db_table = "games_card"  # the table it had in the games app
        ordering = ["deck", "id"]
        verbose_name = _("card")
        verbose_name_plural = _("cards")

    def __str__(self) -> str:
        return f"{self.deck.slug} #{self.pk}"

    def alt_in(self, language: str | None = None) -> dict:
        """The picture in words in ``language`` (default: the active one), as views show it:
        ``{"alt": text, "alt_lang": ""}``, or the English text with ``"alt_lang": "en"`` where the card
        has no words in that language (an ``<img lang="en">`` lets a screen reader say them right)."""
        return card_alt(self.alt_text, self.alt_texts, language)


def card_alt(alt_text: str, alt_texts: dict | None, language: str | None = None) -> dict:
    """See ``Card.alt_in``: the same from the two columns, for code that reads them as values."""
    wanted = alt_language(translation.get_language() if language is None else language)
    if wanted != settings.LANGUAGE_CODE:
        text = (alt_texts or {}).get(wanted)
        if isinstance(text, str) and text:
            return {"alt": text, "alt_lang": ""}
        if alt_text:
            return {"alt": alt_text, "alt_lang": settings.LANGUAGE_CODE}
    return {"alt": alt_text, "alt_lang": ""}
