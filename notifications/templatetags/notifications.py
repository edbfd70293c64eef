from django import template
from django.urls import reverse

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
