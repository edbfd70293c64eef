"""The chat's pieces in pages it does not own: the game page's panel, the replay's table talk.

Outside the game's cached board (``games.pages``): the panel changes with every message,
the board only with the game's version.
"""

from django import template
from django.template.loader import render_to_string

from ..selectors import chat_replay as replay_parts
from ..services import chat_allowed
from ..views import panel_html

register = template.Library()


@register.simple_tag(takes_context=True)
def chat_panel(context, game) -> str:
    """The chat panel of ``game`` for a player of it ("" for anyone else, and in a game without chat)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not chat_allowed(game):
        return ""
    seats = list(game.seats.select_related("user").order_by("position"))
    if not any(seat.user_id == user.pk for seat in seats):
        return ""
    return panel_html(request, game=game, seats=seats)


@register.simple_tag(takes_context=True)
def chat_replay(context, game) -> str:
    """The game's table talk, part by part (before the game, each round, after it), for its players only."""
    request = context.get("request")
    parts = replay_parts(game=game, user=getattr(request, "user", None))
    if parts is None:
        return ""
    return render_to_string("chat/partials/replay.html", {"game": game, "parts": parts}, request)
