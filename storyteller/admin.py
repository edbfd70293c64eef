from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import F
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.text import Truncator, format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.admin import GameListFilter, ReadOnlyInline, RoundScoreInline, seat_label

from .decks.selectors import card_picture_url
from .decks.services.cards import (
    MAX_IMAGE_BYTES,
    MAX_ZIP_BYTES,
    MB,
    CardImageError,
    CardImportError,
    alt_texts_clean,
    card_create,
    card_image_prepare,
    cards_import_zip,
    cards_restore,
    cards_retire,
    decks_set_active,
    tags_clean,
)
from .decks.services.reports import card_remove, cards_keep
from .models import (
    Card,
    CardReport,
    ClueMedia,
    Deck,
    StorytellerRound,
    StorytellerRoundScore,
    StorytellerTableCard,
    StorytellerVote,
)
from .models.cards import ALT_TEXT_MAX_LENGTH, alt_languages

# --- decks ---------------------------------------------------------------------------


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "is_active", "in_play_column", "retired_column", "created_at")
    list_filter = ("is_active",)
    search_fields = ("name", "slug", "description")
    prepopulated_fields = {"slug": ("name",)}
    fields = ("name", "slug", "description", "is_active")
    actions = ("activate", "retire")

    def get_queryset(self, request):
        return super().get_queryset(request).with_card_counts()

    def has_delete_permission(self, request, obj=None):
        return False  # games and cards refer to decks: retire one instead

    @admin.display(description=_("cards in play"), ordering="cards_in_play")
    def in_play_column(self, deck):
        return _cards_link(deck.cards_in_play, deck=deck, is_retired=False)

    @admin.display(description=_("retired cards"), ordering="cards_retired")
    def retired_column(self, deck):
        return _cards_link(deck.cards_retired, deck=deck, is_retired=True)

    @admin.action(description=_("Activate the selected decks (new games may use them)"))
    def activate(self, request, queryset):
        count = decks_set_active(decks=queryset, is_active=True)
        self.message_user(request, ngettext("%(n)d deck activated.", "%(n)d decks activated.", count) % {"n": count})

    @admin.action(description=_("Retire the selected decks (running games keep them)"))
    def retire(self, request, queryset):
        count = decks_set_active(decks=queryset, is_active=False)
        self.message_user(request, ngettext("%(n)d deck retired.", "%(n)d decks retired.", count) % {"n": count})

    def get_urls(self):
        return [
            path(
                "<path:object_id>/import/",
                self.admin_site.admin_view(self.import_view),
                name="storyteller_deck_import",
            ),
            *super().get_urls(),
        ]

    def import_view(self, request, object_id):
        """A zip of pictures becomes cards of this deck, all of them or none."""
        deck = get_object_or_404(Deck, pk=object_id)
        card_admin = self.admin_site.get_model_admin(Card)
        if not (self.has_view_permission(request, deck) and card_admin.has_add_permission(request)):
            raise PermissionDenied
        problems, error = [], None
        if request.method == "POST":
            form = ZipImportForm(request.POST, request.FILES)
            if form.is_valid():
                try:
                    imported = cards_import_zip(deck=deck, archive=form.cleaned_data["archive"])
                except CardImportError as failure:
                    error, problems = failure.message, failure.problems
                else:
                    for card in imported.cards:
                        card_admin.log_addition(request, card, [{"added": {}}])
                    _report_import(request, deck, imported)
                    return HttpResponseRedirect(_cards_url(deck=deck))
        else:
            form = ZipImportForm()
        return _upload_page(
            request,
            admin_view=self,
            title=_("Import pictures into the deck “%(deck)s”") % {"deck": deck.name},
            form=form,
            error=error,
            problems=problems,
            deck=deck,
        )


def _cards_url(**filters) -> str:
    query = {}
    if "deck" in filters:
        query["deck__id__exact"] = filters["deck"].pk
    if "is_retired" in filters:
        query["is_retired__exact"] = int(filters["is_retired"])
    if "alt_text" in filters:
        query["alt_text"] = filters["alt_text"]
    return f"{reverse('admin:storyteller_card_changelist')}?{urlencode(query)}"


def _cards_link(count: int, **filters):
    return format_html('<a href="{}">{}</a>', _cards_url(**filters), count)


def _report_import(request, deck: Deck, imported) -> None:
    count = len(imported.cards)
    messages.success(
        request,
        ngettext(
            "%(n)d card was added to the deck “%(deck)s”.", "%(n)d cards were added to the deck “%(deck)s”.", count
        )
        % {"n": count, "deck": deck.name},
    )
    missing = len(imported.without_alt_text)
    if missing:
        messages.warning(
            request,
            format_html(
                '{} <a href="{}">{}</a>',
                ngettext(
                    "%(n)d card has no alt text yet, so it is retired until someone describes it and restores it.",
                    "%(n)d cards have no alt text yet, so they are retired until someone describes and restores them.",
                    missing,
                )
                % {"n": missing},
                _cards_url(deck=deck, alt_text="missing"),
                _("Describe them"),
            ),
        )


def _upload_page(request, *, admin_view, title, form, error=None, problems=(), deck=None):
    context = {
        **admin_view.admin_site.each_context(request),
        "title": title,
        "form": form,
        "error": error,
        "problems": problems,
        "deck": deck,
        "opts": admin_view.model._meta,
        "limits": {"image_mb": MAX_IMAGE_BYTES // MB, "zip_mb": MAX_ZIP_BYTES // MB},
    }
    return TemplateResponse(request, "admin/storyteller/card_upload.html", context)


class ZipImportForm(forms.Form):
    archive = forms.FileField(
        label=_("Zip of pictures"),
        help_text=_(
            "PNG, JPEG or WebP pictures. Each is cropped to the card's shape and resized. To give alt texts "
            "and tags, add a file cards.csv (columns: file, alt, tags) or cards.json (a list of objects with "
            "file, alt and tags). Pictures without an alt text are retired until described. The alt text in "
            "another language goes in a column (or key) alt_ and its code: alt_da, alt_fi, alt_fr, alt_nb, alt_sv."
        ),
    )


# --- cards ---------------------------------------------------------------------------


# Card.objects.with_figures() annotation -> (column title, what it means)
FIGURES = {
    "times_dealt": (_("dealt"), _("Games in which it was dealt")),
    "times_told": (_("told"), _("Rounds in which a storyteller chose it")),
    "found_percent": (_("found"), _("Votes that found it, when it was the storyteller's")),
    "times_found_by_all": (_("all found it"), _("Rounds in which every voter found it (too easy)")),
    "times_found_by_none": (_("none found it"), _("Rounds in which no voter found it (too obscure)")),
    "decoy_votes": (_("decoy votes"), _("Votes it drew as a decoy")),
}


def _show_figure(card: Card, name: str):
    value = getattr(card, name)
    if name == "found_percent":
        return "—" if value is None else f"{value:.0f} %"
    return value


def _figure_column(name: str):
    @admin.display(description=FIGURES[name][0], ordering=name)
    def column(model_admin, card):
        return _show_figure(card, name)

    return column


class AltTextFilter(admin.SimpleListFilter):
    title = _("alt text")
    parameter_name = "alt_text"

    def lookups(self, request, model_admin):
        return [("missing", _("Missing")), ("written", _("Written"))]

    def queryset(self, request, queryset):
        if self.value() == "missing":
            return queryset.filter(alt_text="")
        if self.value() == "written":
            return queryset.exclude(alt_text="")
        return queryset


class AltTranslationFilter(admin.SimpleListFilter):
    title = _("translated alt text")
    parameter_name = "alt_missing_in"

    def lookups(self, request, model_admin):
        names = dict(settings.LANGUAGES)
        return [(code, format_lazy(_("Missing in {}"), names[code])) for code in alt_languages()]

    def queryset(self, request, queryset):
        if self.value() in alt_languages():
            return queryset.exclude(alt_texts__has_key=self.value())
        return queryset


def alt_translation_field(code: str) -> str:
    return f"alt_text_{code}"


ALT_TRANSLATION_FIELDS = tuple(alt_translation_field(code) for code in alt_languages())


class CardChangeForm(forms.ModelForm):
    """The card's words, with one box for each of the site's other languages (``Card.alt_texts``)."""

    class Meta:
        model = Card
        fields = ("alt_text", "tags", "is_retired")
        widgets = {"tags": forms.TextInput(attrs={"class": "vLargeTextField"})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            for code in alt_languages():
                self.initial.setdefault(alt_translation_field(code), self.instance.alt_texts.get(code, ""))

    def clean_tags(self):
        try:
            return tags_clean(self.cleaned_data["tags"])
        except CardImageError as error:
            raise ValidationError(error.message) from None

    def clean(self):
        cleaned = super().clean() or self.cleaned_data
        texts = {code: cleaned.get(alt_translation_field(code), "") for code in alt_languages()}
        try:
            cleaned["alt_texts"] = alt_texts_clean(texts)
        except CardImageError as error:
            raise ValidationError(error.message) from None
        self.instance.alt_texts = cleaned["alt_texts"]
        return cleaned


def _add_translation_fields(form_class) -> None:
    names = dict(settings.LANGUAGES)
    for code in alt_languages():
        field = forms.CharField(
            label=format_lazy(_("Alt text in {}"), names[code]),
            required=False,
            max_length=ALT_TEXT_MAX_LENGTH,
            widget=forms.Textarea(attrs={"rows": 2, "cols": 80, "lang": code}),
            help_text=_("Left empty, the English alt text is read out in its place."),
        )
        form_class.base_fields[alt_translation_field(code)] = field
        form_class.declared_fields[alt_translation_field(code)] = field


_add_translation_fields(CardChangeForm)


class CardAddForm(CardChangeForm):
    picture = forms.FileField(
        label=_("Picture"),
        help_text=_("PNG, JPEG or WebP; it is cropped to the card's shape (2:3) and resized to 480 × 720."),
    )

    class Meta(CardChangeForm.Meta):
        fields = ("deck", "picture", "alt_text", "tags")
        # (and the translations, from CardChangeForm)

    def clean_picture(self):
        upload = self.cleaned_data["picture"]
        try:
            # Read one byte past the limit: enough to know it is too large.
            return card_image_prepare(name=upload.name, data=upload.read(MAX_IMAGE_BYTES + 1))
        except CardImageError as error:
            raise ValidationError(error.message) from None


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = (
        "thumbnail",
        "alt_text_column",
        "deck",
        "tags",
        "in_play_column",
        "times_dealt_column",
        "times_told_column",
        "found_column",
        "found_by_all_column",
        "found_by_none_column",
        "decoy_votes_column",
    )
    list_display_links = ("alt_text_column",)
    list_filter = ("deck", "is_retired", AltTextFilter, AltTranslationFilter)
    list_select_related = ("deck",)
    search_fields = ("alt_text", "tags")
    ordering = ("deck", "id")
    actions = ("retire", "restore")
    form = CardChangeForm
    readonly_fields = ("preview", "deck", "figures")
    fieldsets = (
        (None, {"fields": ("preview", "deck", "alt_text", "tags", "is_retired")}),
        (_("The alt text in other languages"), {"fields": ALT_TRANSLATION_FIELDS}),
        (_("In the games"), {"fields": ("figures",)}),
    )

    def get_queryset(self, request):
        return super().get_queryset(request).with_figures()

    def has_delete_permission(self, request, obj=None):
        return False  # running games hold card ids: retire a card instead

    def add_view(self, request, form_url="", extra_context=None):
        """One picture becomes one card (the service stores it outside the admin's transaction)."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        if request.method == "POST":
            form = CardAddForm(request.POST, request.FILES)
            if form.is_valid():
                data = form.cleaned_data
                card = card_create(
                    deck=data["deck"],
                    image=data["picture"],
                    alt_text=data["alt_text"],
                    tags=data["tags"],
                    alt_texts=data["alt_texts"],
                )
                self.log_addition(request, card, [{"added": {}}])
                self.message_user(request, _("The card “%(card)s” was added.") % {"card": card}, messages.SUCCESS)
                return HttpResponseRedirect(reverse("admin:storyteller_card_change", args=[card.pk]))
        else:
            form = CardAddForm(initial={"deck": request.GET.get("deck")})
        return _upload_page(request, admin_view=self, title=_("Add a card"), form=form)

    @admin.display(description=_("picture"))
    def thumbnail(self, card):
        return _picture(card, width=48, height=72)

    @admin.display(description=_("picture"))
    def preview(self, card):
        return format_html(
            "{}<p class='help'>{}</p>",
            _picture(card, width=240, height=360),
            _("Open it at full size: click the picture."),
        )

    @admin.display(description=_("alt text"), ordering="alt_text")
    def alt_text_column(self, card):
        if not card.alt_text:
            return format_html("<strong>{}</strong>", _("missing: write it"))
        return Truncator(card.alt_text).chars(120)

    @admin.display(description=_("in play"), boolean=True, ordering="is_retired")
    def in_play_column(self, card):
        return not card.is_retired

    times_dealt_column = _figure_column("times_dealt")
    times_told_column = _figure_column("times_told")
    found_column = _figure_column("found_percent")
    found_by_all_column = _figure_column("times_found_by_all")
    found_by_none_column = _figure_column("times_found_by_none")
    decoy_votes_column = _figure_column("decoy_votes")

    @admin.display(description=_("figures"))
    def figures(self, card):
        rows = ((FIGURES[name][1], _show_figure(card, name)) for name in FIGURES)
        return format_html("<dl class='card-figures'>{}</dl>", format_html_join("", "<dt>{}</dt><dd>{}</dd>", rows))

    @admin.action(description=_("Retire the selected cards (dealt in no new game)"))
    def retire(self, request, queryset):
        count = cards_retire(cards=queryset)
        self.message_user(request, ngettext("%(n)d card retired.", "%(n)d cards retired.", count) % {"n": count})

    @admin.action(description=_("Restore the selected cards"))
    def restore(self, request, queryset):
        restored, blocked = cards_restore(cards=queryset)
        self.message_user(
            request, ngettext("%(n)d card restored.", "%(n)d cards restored.", restored) % {"n": restored}
        )
        if blocked:
            self.message_user(
                request,
                ngettext(
                    "%(n)d card has no alt text and stays retired: describe it first.",
                    "%(n)d cards have no alt text and stay retired: describe them first.",
                    blocked,
                )
                % {"n": blocked},
                messages.WARNING,
            )


def _picture(card: Card, *, width: int, height: int):
    if not card.image:
        return "—"
    face = card.alt_in()
    return format_html(
        '<a href="{}" target="_blank" rel="noopener">'
        '<img src="{}" alt="{}"{} width="{}" height="{}" loading="lazy"></a>',
        card_picture_url(card),
        card_picture_url(card),
        face["alt"],
        format_html(' lang="{}"', face["alt_lang"]) if face["alt_lang"] else "",
        width,
        height,
    )


# --- reports ---------------------------------------------------------------------------


class OpenReportFilter(admin.SimpleListFilter):
    title = _("decision")
    parameter_name = "open"

    def lookups(self, request, model_admin):
        return [("yes", _("To decide")), ("no", _("Decided"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(resolved_at__isnull=True)
        if self.value() == "no":
            return queryset.filter(resolved_at__isnull=False)
        return queryset


@admin.register(CardReport)
class CardReportAdmin(admin.ModelAdmin):
    """Players' reports of cards, with the picture (staff see every card's: ``decks.selectors.staff_may_see_cards``),
    the reason and the card's state; "Keep" shows a card again, "Remove" deletes it (issue 33)."""

    list_display = (
        "picture",
        "card_state",
        "card_deck",
        "reason_column",
        "reporter",
        "game",
        "created_at",
        "resolved_at",
    )
    list_filter = (OpenReportFilter,)
    list_select_related = ("card", "card__deck", "card__deck__owner", "reporter", "game")
    # The cards whose owners asked for a review first (issue 37), then the reports to decide.
    ordering = (F("card__review_requested_at").desc(nulls_last=True), "resolved_at", "card", "-created_at")
    readonly_fields = ("picture_large", "card", "reporter", "game", "reason", "created_at", "resolved_at")
    fields = readonly_fields
    actions = ("keep_cards", "remove_cards")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        if "open" not in request.GET and not request.GET.get("q") and request.method == "GET":
            # The reports to decide first; "All" in the filter shows the others.
            query = request.GET.copy()
            query["open"] = "yes"
            request.GET = query
            request.META["QUERY_STRING"] = query.urlencode()
        return super().changelist_view(request, extra_context)

    @admin.display(description=_("picture"))
    def picture(self, report):
        return _picture(report.card, width=96, height=144)

    @admin.display(description=_("picture"))
    def picture_large(self, report):
        return _picture(report.card, width=240, height=360)

    @admin.display(description=_("card"))
    def card_state(self, report):
        card = report.card
        if card.removed_at is not None:
            state = _("removed")
        elif card.hidden_at is not None:
            state = _("hidden")
        else:
            state = _("shown")
        open_reports = card.reports.filter(resolved_at__isnull=True).count()
        return format_html(
            "#{} · {}<br>{}{}",
            card.pk,
            state,
            ngettext("%(n)d report to decide", "%(n)d reports to decide", open_reports) % {"n": open_reports},
            format_html("<br><strong>{}</strong>", _("its owner asks for a review"))
            if card.review_requested_at is not None and card.hidden_at is not None
            else "",
        )

    @admin.display(description=_("deck"))
    def card_deck(self, report):
        deck = report.card.deck
        return format_html("{}<br><span class='help'>{}</span>", deck.name or "—", deck.owner or _("the site's"))

    @admin.display(description=_("reason"))
    def reason_column(self, report):
        return report.reason or "—"

    @admin.action(description=_("Keep the cards: show them again, the reports decided"), permissions=["decide"])
    def keep_cards(self, request, queryset):
        cards = Card.objects.filter(pk__in=queryset.values("card_id"))
        shown = cards_keep(cards=list(cards))
        self.message_user(
            request,
            ngettext("%(n)d card is shown again.", "%(n)d cards are shown again.", shown) % {"n": shown},
            messages.SUCCESS,
        )

    @admin.action(description=_("Remove the cards: their pictures deleted for good"), permissions=["decide"])
    def remove_cards(self, request, queryset):
        cards = Card.objects.filter(pk__in=queryset.values("card_id"))
        deleted, kept = card_remove(cards=list(cards))
        self.message_user(
            request,
            ngettext("%(n)d card is removed.", "%(n)d cards are removed.", deleted + kept) % {"n": deleted + kept},
            messages.SUCCESS,
        )

    def has_decide_permission(self, request):
        return request.user.has_perm("storyteller.change_card")


# --- rounds ----------------------------------------------------------------------------


class TableCardInline(ReadOnlyInline):
    model = StorytellerTableCard
    fields = readonly_fields = ("position", "picture", "owner_column", "is_storyteller_card", "votes")
    verbose_name = _("card on the table")
    verbose_name_plural = _("cards on the table")

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("card", "owner__user")

    @admin.display(description=_("picture"))
    def picture(self, laid):
        return _picture(laid.card, width=48, height=72)

    @admin.display(description=_("played by"))
    def owner_column(self, laid):
        return seat_label(laid.owner)


class VoteInline(ReadOnlyInline):
    model = StorytellerVote
    fields = readonly_fields = ("voter_column", "position_column")

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("voter__user", "table_card")

    @admin.display(description=_("voter"))
    def voter_column(self, vote):
        return seat_label(vote.voter)

    @admin.display(description=_("card voted for (its place)"))
    def position_column(self, vote):
        return vote.table_card.position


class ScoreInline(RoundScoreInline):
    model = StorytellerRoundScore
    fields = readonly_fields = ("seat_column", "points", "score_after")


@admin.register(StorytellerRound)
class StorytellerRoundAdmin(admin.ModelAdmin):
    """Revealed rounds, read only: the game writes them when it reveals one."""

    list_display = ("__str__", "game", "number", "storyteller_column", "clue", "skipped", "revealed_at")
    list_filter = (GameListFilter, "skipped")
    list_select_related = ("game", "storyteller_seat__user")
    search_fields = ("clue",)
    ordering = ("-game_id", "number")
    fields = readonly_fields = (
        "game",
        "number",
        "storyteller_column",
        "clue",
        "storyteller_card",
        "skipped",
        "revealed_at",
    )
    inlines = [TableCardInline, VoteInline, ScoreInline]

    def get_queryset(self, request):
        return super().get_queryset(request).defer("table", "points", "scores_after")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("storyteller"), ordering="storyteller")
    def storyteller_column(self, round_):
        return seat_label(round_.storyteller_seat)


@admin.register(ClueMedia)
class ClueMediaAdmin(admin.ModelAdmin):
    """Drawn and sung clues: seen and heard here, removed (file and row) by an admin who may delete them."""

    list_display = ("id", "kind", "game_link", "uploader", "size", "duration", "created_at")
    list_filter = ("kind", "created_at")
    search_fields = ("game__id", "seat__user__username")
    list_select_related = ("game", "seat__user")
    readonly_fields = ("game", "seat", "kind", "content_type", "size", "duration", "created_at", "preview")
    fields = readonly_fields
    actions = ["delete_selected"]

    def has_add_permission(self, request):
        return False  # uploaded by players only, through the clue form or the API

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description=_("game"))
    def game_link(self, obj):
        return format_html('<a href="{}">#{}</a>', obj.game.get_absolute_url(), obj.game_id)

    @admin.display(description=_("uploaded by"))
    def uploader(self, obj):
        return obj.seat.user.username

    @admin.display(description=_("preview"))
    def preview(self, obj):
        url = reverse("admin:storyteller_cluemedia_file", args=[obj.pk])
        if obj.kind == ClueMedia.Kind.DRAWING:
            return format_html('<img src="{}" alt="{}" width="480">', url, _("the drawn clue"))
        return format_html('<audio controls preload="none" src="{}"></audio>', url)

    def get_urls(self):
        return [
            path(
                "<id:pk>/file/",
                self.admin_site.admin_view(self.file_view),
                name="storyteller_cluemedia_file",
            ),
            *super().get_urls(),
        ]

    def file_view(self, request, pk: int):
        from games.media import media_response

        if not self.has_view_permission(request):
            raise PermissionDenied
        media = get_object_or_404(ClueMedia, pk=pk)
        extension = media.file.name.rsplit(".", 1)[-1]
        return media_response(
            file=media.file, content_type=media.content_type, download_name=f"clue.{extension}", max_age=0
        )

    def delete_model(self, request, obj):
        from .services.media import clue_media_delete

        clue_media_delete(queryset=ClueMedia.objects.filter(pk=obj.pk))

    def delete_queryset(self, request, queryset):
        from .services.media import clue_media_delete

        clue_media_delete(queryset=queryset)
