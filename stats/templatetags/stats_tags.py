from django import template
from django.template.defaultfilters import floatformat

from games import kinds

register = template.Library()


@register.filter
def percent(value) -> str:
    """0.456 -> "46%", in the page's number format; "" for no value."""
    if value is None:
        return ""
    return f"{floatformat(value * 100, 0)}%"


@register.filter
def kind_label(kind: str) -> str:
    game_kind = kinds.get(kind)
    return game_kind.label if game_kind is not None else kind
