"""Think Alike's task cards and board fields in the admin: search, filters, retire and
restore, import and export as CSV or JSON (``services.think_alike_content``).

A card or field is edited with its text in each of the six content languages side by
side; the list shows the English text and the admin's own language's."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.admin import GameListFilter, ReadOnlyInline, RoundScoreInline, seat_label

from .models import (
    LANGS,
    TEXT_COLUMNS,
    BoardField,
    TaskCard,
    ThinkAlikeAnswer,
    ThinkAlikeGroup,
    ThinkAlikeRound,
    ThinkAlikeRoundScore,
    ThinkAlikeRuling,
    content_lang,
)
from .services.content import (
    MAX_IMPORT_BYTES,
    ContentImportError,
    content_export,
    content_import,
    content_of,
    content_problems,
    content_restore,
    content_retire,
    content_rows_read,
)


class ContentImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV or JSON file"),
        help_text=_(
            "A file exported here, or one like it: rows are matched by their key; a known key updates its row, "
            "a new one adds one. One bad row and nothing is imported."
        ),
    )


class ContentForm(forms.ModelForm):
    """A card or field as an import checks a row: the six texts, the count said, no duplicate in play."""

    def clean(self):
        data = super().clean()
        if not self.errors:
            problems = content_problems(content=content_of(self._meta.model), values=data, key=data.get("key"))
            for problem in problems:
                self.add_error(None, problem)
        return data


class ContentAdmin(admin.ModelAdmin):
    """What task cards and fields share: retire, restore, import, export."""

    form = ContentForm

    actions = ("retire", "restore", "export_csv", "export_json")
    change_list_template = "admin/think_alike/content/change_list.html"

    def has_delete_permission(self, request, obj=None):
        return False  # rounds and running games refer to them: retire one instead

    @admin.display(description=_("in play"), boolean=True, ordering="is_retired")
    def in_play_column(self, item):
        return not item.is_retired

    @admin.display(description=_("text in your language"))
    def local_text_column(self, item):
        lang = content_lang(translation.get_language())
        return "—" if lang == "en" else getattr(item, f"text_{lang}") or "—"

    @admin.display(description=_("languages"))
    def languages_column(self, item):
        """The content languages it has a text in, or how many it lacks."""
        missing = [lang for lang in LANGS if not getattr(item, f"text_{lang}")]
        return (
            _("all %(n)d") % {"n": len(LANGS)} if not missing else _("lacks %(langs)s") % {"langs": ", ".join(missing)}
        )

    def get_fieldsets(self, request, obj=None):
        texts = (
            _("Texts"),
            {
                "fields": TEXT_COLUMNS,
                "description": _(
                    "Each text written for its language, asking the same thing in each: a card asking for several "
                    "answers says how many in every language."
                ),
            },
        )
        return [(None, {"fields": self.head_fields}), texts, (None, {"fields": self.tail_fields})]

    @admin.action(description=_("Retire the selected (used in no new game)"))
    def retire(self, request, queryset):
        retired, kept = content_retire(items=queryset)
        self.message_user(request, ngettext("%(n)d retired.", "%(n)d retired.", retired) % {"n": retired})
        if kept:
            self.message_user(request, _("The start field stays in play: every board needs it."), messages.WARNING)

    @admin.action(description=_("Restore the selected"))
    def restore(self, request, queryset):
        restored = content_restore(items=queryset)
        self.message_user(request, ngettext("%(n)d restored.", "%(n)d restored.", restored) % {"n": restored})

    @admin.action(description=_("Export the selected as CSV"))
    def export_csv(self, request, queryset):
        return self._export(queryset, "csv")

    @admin.action(description=_("Export the selected as JSON"))
    def export_json(self, request, queryset):
        return self._export(queryset, "json")

    def _export(self, queryset, fmt):
        body, content_type, name = content_export(content=content_of(self.model), items=queryset, fmt=fmt)
        response = HttpResponse(body, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response

    def get_urls(self):
        info = self.model._meta.app_label, self.model._meta.model_name
        return [
            path("import/", self.admin_site.admin_view(self.import_view), name="{}_{}_import".format(*info)),
            *super().get_urls(),
        ]

    def import_view(self, request):
        if not (self.has_add_permission(request) and self.has_change_permission(request)):
            raise PermissionDenied
        error, problems = None, []
        form = ContentImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                rows = content_rows_read(name=upload.name, data=upload.read(MAX_IMPORT_BYTES + 1))
                done = content_import(content=content_of(self.model), rows=rows)
            except ContentImportError as failure:
                error, problems = failure.message, failure.problems
            else:
                self.message_user(
                    request,
                    _("Imported: %(created)d added, %(updated)d updated, %(unchanged)d unchanged.")
                    % {"created": done.created, "updated": done.updated, "unchanged": done.unchanged},
                    messages.SUCCESS,
                )
                info = self.model._meta.app_label, self.model._meta.model_name
                return HttpResponseRedirect(reverse("admin:{}_{}_changelist".format(*info)))
        context = {
            **self.admin_site.each_context(request),
            "title": _("Import %(things)s") % {"things": self.model._meta.verbose_name_plural},
            "form": form,
            "error": error,
            "problems": problems,
            "opts": self.model._meta,
            "columns": content_of(self.model).columns,
        }
        return TemplateResponse(request, "admin/think_alike/content/import.html", context)


@admin.register(TaskCard)
class TaskCardAdmin(ContentAdmin):
    list_display = (
        "text_en",
        "local_text_column",
        "answers",
        "key",
        "languages_column",
        "in_play_column",
        "times_played",
    )
    list_filter = ("is_retired", "answers")
    search_fields = ("key", *TEXT_COLUMNS)
    head_fields = ("key", "answers")
    tail_fields = ("is_retired",)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(played=Count("rounds"))

    @admin.display(description=_("rounds played"), ordering="played")
    def times_played(self, card):
        return card.played


@admin.register(BoardField)
class BoardFieldAdmin(ContentAdmin):
    list_display = (
        "text_en",
        "local_text_column",
        "kind",
        "bonus",
        "key",
        "languages_column",
        "is_start",
        "in_play_column",
    )
    list_filter = ("kind", "is_retired", "is_start")
    search_fields = ("key", *TEXT_COLUMNS)
    head_fields = ("key", "kind", "bonus")
    tail_fields = ("is_start", "is_retired")


# --- rounds ----------------------------------------------------------------------------


class AnswerInline(ReadOnlyInline):
    model = ThinkAlikeAnswer
    fields = readonly_fields = ("seat_column", "index", "text", "group_column")

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("seat__user", "group")

    @admin.display(description=_("seat"))
    def seat_column(self, answer):
        return seat_label(answer.seat)

    @admin.display(description=_("group"))
    def group_column(self, answer):
        return answer.group.number if answer.group else "—"


class GroupInline(ReadOnlyInline):
    model = ThinkAlikeGroup
    fields = readonly_fields = ("number", "key", "size")

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(answer_count=Count("answers"))

    @admin.display(description=_("answers"))
    def size(self, group):
        return group.answer_count


class RulingInline(ReadOnlyInline):
    model = ThinkAlikeRuling
    fields = readonly_fields = ("order", "kind", "groups", "result", "items")


class ScoreInline(RoundScoreInline):
    model = ThinkAlikeRoundScore
    fields = readonly_fields = ("seat_column", "answered", "points", "score_after")


@admin.register(ThinkAlikeRound)
class ThinkAlikeRoundAdmin(admin.ModelAdmin):
    """Scored rounds, read only: the game writes them when it scores one."""

    list_display = ("__str__", "game", "number", "turn", "task_text", "landed_kind", "auto", "scored_at")
    list_filter = (GameListFilter, "landed_kind", "auto")
    list_select_related = ("game",)
    search_fields = ("task_text", "hint")
    ordering = ("-game_id", "number")
    fields = readonly_fields = (
        "game",
        "number",
        "turn",
        "task",
        "task_text",
        "answers_asked",
        "die",
        "direction",
        "landed_kind",
        "hint_field",
        "hint",
        "swap",
        "moved_to",
        "duel_opponent",
        "duel_bonus",
        "duel_winner",
        "auto",
        "scored_at",
    )
    inlines = [AnswerInline, GroupInline, RulingInline, ScoreInline]

    def get_queryset(self, request):
        return super().get_queryset(request).defer("answers", "groups", "rulings", "points", "scores_after")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
