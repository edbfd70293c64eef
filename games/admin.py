from django.contrib import admin

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

