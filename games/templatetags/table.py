from functools import lru_cache

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from games.track import Track, score_track
from infrastructure.caches import register as register_cache

register = template.Library()


@register.simple_tag
def track_of(game, view):
    """The game's score track (``games.track.Track``), or None: its kind draws none, or it has not begun."""
    if game.status == "open":
        return None
    length = game.game_kind.presentation.score_track(view)
    if not length:
        return None
    return score_track(view["players"], length)


@register.simple_tag
def track_cells(track: Track) -> SafeString:
    """The numbered cells of a track of this length, drawn once per process (they hold no words and
    no players)."""
    return _cells(track.length)


@lru_cache(maxsize=64)
def _cells(length: int) -> SafeString:
    return render_to_string("games/partials/track_cells.html", {"track": score_track([], length)})


register_cache("games.templatetags.table._cells", _cells.cache_clear)  # one a track length (a handful)
