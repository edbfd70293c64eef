"""Each kind of game at a glance, with its own art (the home page, the lobby's rows).

What a kind shows comes from its ``showcase`` hook, which caches it; one page asks each kind
once, however many rows name it."""

from django import template
from django.utils.translation import get_language

from games import kinds
from games.selectors.games import games_open_public

register = template.Library()

_MEMO = "games.showcase"


def _showcases(context) -> dict[str, dict]:
    memo = context.render_context.get(_MEMO)
    if memo is None:
        lang = get_language() or "en"
        memo = {kind.slug: {"kind": kind, **kind.presentation.showcase(lang=lang)} for kind in kinds.every()}
        context.render_context[_MEMO] = memo
    return memo


@register.simple_tag(takes_context=True)
def kind_showcases(context) -> list[dict]:
    """Every kind: ``kind``, ``pitch``, ``pictures`` (``image``, ``alt``), ``card`` (``title``, ``text``, ``lang``)."""
    return list(_showcases(context).values())


@register.inclusion_tag("games/partials/kind_thumb.html", takes_context=True)
def kind_thumb(context, slug: str) -> dict:
    """A small picture of the kind ``slug`` (decorative: the row names the game in words)."""
    showcase = _showcases(context).get(slug) or {}
    pictures = showcase.get("pictures") or []
    return {"picture": pictures[0] if pictures else None, "card": showcase.get("card"), "slug": slug}


@register.simple_tag(takes_context=True)
def open_seats(context, kind: str | None = None, count: int = 3) -> list:
    """Up to ``count`` public games waiting for players that the viewer does not sit in, newest first
    (of ``kind`` when it names one): a newcomer may take a seat rather than wait in a new game."""
    user = context["user"]
    games = games_open_public()
    if user.is_authenticated:
        games = games.exclude(seats__user=user)
    if kind and kinds.get(kind):
        games = games.filter(kind=kind)
    return list(games[:count])
