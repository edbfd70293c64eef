from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import Game, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "colour", "score", "to_act", "is_absent", "has_resigned", "is_winner")
    readonly_fields = fields
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "status", "pace", "visibility", "round", "phase", "created_at")
    list_filter = ("kind", "status", "pace", "visibility")
    readonly_fields = ("state", "version", "round", "phase", "deadline_at", "invite_code")
    inlines = [SeatInline]


class GameListFilter(admin.SimpleListFilter):
    """Rows of one game (``?game=<id>``): the latest games with such rows to pick from, any other by its id.

    A plain list filter on ``game`` would list every game ever played.
    """

    title = _("game")
    parameter_name = "game"
    choices_shown = 10

    def lookups(self, request, model_admin):
        latest = (model_admin.get_queryset(request).order_by("-game_id").values_list("game_id", flat=True).distinct())[
            : self.choices_shown
        ]
        games = Game.objects.in_bulk(list(latest))
        chosen = self.value()
        if chosen and chosen.isdigit() and int(chosen) not in games:
            games.update(Game.objects.in_bulk([int(chosen)]))
        return [(str(pk), str(game)) for pk, game in sorted(games.items(), reverse=True)]

    def queryset(self, request, queryset):
        chosen = self.value()
        if chosen and chosen.isdigit():
            return queryset.filter(game_id=int(chosen))
        return queryset


class ReadOnlyInline(admin.TabularInline):
    """Rows a game wrote (a round's cards, votes, answers, scores): shown, never edited."""

    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


def seat_label(seat) -> str:
    """A seat as the rows of a round name it: its position and its player."""
    return f"{seat.position}: {seat.user}"


class RoundScoreInline(ReadOnlyInline):
    """A round's score rows (a kind's ``RoundScoreBase``), each seat by position and player; a kind's inline
    names its ``model`` and its ``fields``."""

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("seat__user")

    @admin.display(description=_("seat"))
    def seat_column(self, score):
        return seat_label(score.seat)
