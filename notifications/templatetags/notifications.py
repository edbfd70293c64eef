from django import template
from django.db.models import Exists
from django.template.loader import render_to_string
from django.urls import reverse

from games.models import Game, Seat
from notifications.models import GameMute
from notifications.push import push_enabled, vapid_public_key
from notifications.services import unread_count

register = template.Library()


@register.inclusion_tag("notifications/partials/bell.html", takes_context=True)
def notification_bell(context):
    """The header's bell. On a game page it also tells the server the game is being
    looked at (``notifications.presence``): on load and every minute while visible."""
    request = context["request"]
    match = getattr(request, "resolver_match", None)
    game_id = match.kwargs.get("game_id") if match and match.view_name == "games:detail" else None
    url = reverse("notifications:bell")
    return {
        "bell_url": f"{url}?game={game_id}" if game_id else url,
        "on_game_page": game_id is not None,
        "unread": unread_count(user=context["user"]),
    }


@register.simple_tag(takes_context=True)
def game_mute_toggle(context, game) -> str:
    """The game page's "Mute this game" for a player of a game still going ("" for anyone else);
    once the game has started, with the offer of push on this device (push is never offered
    before a player's first game starts, and the permission prompt only follows a click).

    Outside the cached board: it is this player's choice, not the game's state. One query.
    """
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or game.status not in (Game.Status.OPEN, Game.Status.ACTIVE):
        return ""
    seated = (
        Seat.objects.filter(game=game, user=user)
        .annotate(muted=Exists(GameMute.objects.filter(user=user, game=game)))
        .values_list("muted", flat=True)
        .first()
    )
    if seated is None:
        return ""
    html = render_to_string("notifications/partials/mute.html", {"game": game, "muted": seated}, request)
    if game.status == Game.Status.ACTIVE and push_enabled():
        html += render_to_string(
            "notifications/partials/push_offer.html", {"vapid_public_key": vapid_public_key()}, request
        )
    return html
