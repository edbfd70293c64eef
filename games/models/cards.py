import uuid
from pathlib import PurePath

from django.db import models
from django.utils.translation import gettext_lazy as _


def card_image_path(card: "Card", filename: str) -> str:
    # Never the uploader's file name: it could say what the picture shows.
    suffix = PurePath(filename).suffix.lower() or ".webp"
    return f"cards/{uuid.uuid4().hex}{suffix}"


class Deck(models.Model):
    slug = models.SlugField(_("slug"), unique=True)
    name = models.CharField(_("name"), max_length=80)
    description = models.TextField(_("description"), blank=True)
    is_active = models.BooleanField(_("active"), default=True, help_text=_("Only active decks can be chosen for new games."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("deck")
        verbose_name_plural = _("decks")

    def __str__(self) -> str:
        return self.name


class CardQuerySet(models.QuerySet):
    def in_play(self):
        return self.filter(is_retired=False)


class Card(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.PROTECT, related_name="cards", verbose_name=_("deck"))
    image = models.ImageField(_("image"), upload_to=card_image_path)
    alt_text = models.TextField(_("alt text"), help_text=_("One or two sentences that describe the picture."))
    tags = models.CharField(_("tags"), max_length=200, blank=True, help_text=_("Comma-separated."))
    is_retired = models.BooleanField(
        _("retired"), default=False, help_text=_("A retired card is dealt in no new game; running games keep it.")
    )
    source_key = models.CharField(
        max_length=120, unique=True, null=True, blank=True, editable=False,
        help_text="Where a built-in card came from (deck slug/file), so loading a deck twice adds nothing.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CardQuerySet.as_manager()

    class Meta:
        ordering = ["deck", "id"]
        verbose_name = _("card")
        verbose_name_plural = _("cards")

    def __str__(self) -> str:
        return f"{self.deck.slug} #{self.pk}"
