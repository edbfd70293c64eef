"""Drawing Think Alike's table: the circle of fields and the die."""

import functools
from datetime import datetime

from django import template
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from infrastructure.caches import register as register_cache
from think_alike.engine.rules import BOARD_SIZE
from think_alike.models import BoardField

register = template.Library()

# Where a die face has its pips, on a 3 x 3 grid (0, 1, 2 on each axis).
PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


@register.filter
def die_pips(value) -> list[tuple[int, int]]:
    """Centres of the pips of a die face, in a 0..30 square."""
    return [(6 + 9 * x, 6 + 9 * y) for x, y in PIPS.get(value, [])]


@register.simple_tag
def ring_slots(board) -> list:
    """The board's fields by position, with None for the places a draft has not filled yet."""
    return list(board) + [None] * (BOARD_SIZE - len(board))


@register.simple_tag
def ring_field(field: dict) -> SafeString:
    """A field of the ring as a view gives it: its words, then what screen readers hear of its kind and place."""
    return format_html(
        '<span class="field-text">{}</span>{}',
        field["text"],
        _field_marks(field["kind"], bool(field["start"]), field["position"], get_language()),
    )


@functools.cache
def _field_marks(kind: str, start: bool, position: int, language: str | None) -> SafeString:
    # Bounded by the code: a few kinds, 16 places, the site's languages.
    return render_to_string(
        "think_alike/partials/field_marks.html", {"kind": kind, "start": start, "position": position}
    )


register_cache("think_alike.templatetags.think_alike._field_marks", _field_marks.cache_clear)


@register.filter
def field_kind(kind: str) -> str:
    """A field kind's name in the page's language."""
    return BoardField.Kind(kind).label if kind in BoardField.Kind.values else kind


@register.filter
def field_at(board, position):
    """The field at a board position (a view's ``board``), or None."""
    return next((field for field in board or () if field["position"] == position), None)


@register.filter
def answer_numbers(count) -> range:
    """1..count, for one input per answer a task card asks for."""
    return range(1, (count or 0) + 1)


@register.filter
def names_of(usernames, names) -> list[str]:
    """Display names for usernames (a view's ``names``)."""
    return [names.get(username, username) for username in usernames or ()]


@register.filter
def parse_iso(value):
    """An ISO 8601 date and time (as the views give them) as a datetime, for the ``date`` filter."""
    try:
        return datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return None


@register.filter
def answer_progress(count) -> list[dict]:
    """Each state of an answer form of ``count`` answers: how many are written and how many are left."""
    count = count or 0
    return [{"written": written, "left": count - written} for written in range(count + 1)]


@register.filter
def blank_count(answers) -> int:
    """How many of a player's answers are blank (empty or only spaces)."""
    return sum(1 for answer in answers or () if not (answer or "").strip())
