from django import template

from games.track import score_track

register = template.Library()


@register.simple_tag
def track_of(game, view):
    """The game's score track (``games.track.Track``), or None: its kind draws none, or it has not begun."""
    if game.status == "open":
        return None
    length = game.game_kind.score_track(view)
    if not length:
        return None
    return score_track(view["players"], length)
