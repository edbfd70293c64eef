from django import template
from django.template.defaultfilters import floatformat

from games.models import Game

register = template.Library()


@register.filter
def percent(value) -> str:
    """0.456 -> "46%", in the page's number format; "" for no value."""
    if value is None:
        return ""
    return f"{floatformat(value * 100, 0)}%"


@register.filter
def kind_label(kind: str) -> str:
    try:
        return Game.Kind(kind).label
    except ValueError:
        return kind
