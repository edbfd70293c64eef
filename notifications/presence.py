"""Who is looking at which game right now, so nobody gets an email about a game
that is open in front of them.

A game page says so itself: its bell (templates/base.html) fetches its fragment
with ``?game=<id>&visible=visible`` when the page loads, every minute while the tab
is visible, when the tab becomes visible again and on every live refresh. The
fragment's view calls ``game_seen``; the email task asks ``seen_recently``. The
record lives in the cache (shared by web and worker processes: files on the
embedded default, Redis in production) and expires by itself, so a closed tab
stops counting after ``SEEN_FOR_SECONDS``. Anything else that knows a person has
a game open (a WebSocket consumer, say) may call ``game_seen`` too.
"""

from datetime import datetime

from django.core.cache import cache
from django.utils import timezone

SEEN_FOR_SECONDS = 120  # two missed heartbeats of a visible page


def _key(user_id: int, game_id: int) -> str:
    return f"notifications:seen:{user_id}:{game_id}"


def game_seen(*, user_id: int, game_id: int, now: datetime | None = None) -> None:
    now = now or timezone.now()
    cache.set(_key(user_id, game_id), now.timestamp(), timeout=SEEN_FOR_SECONDS)


def seen_recently(*, user_id: int, game_id: int, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    seen_at = cache.get(_key(user_id, game_id))
    # A record from a moment later than ``now`` (another process's clock) counts too.
    return seen_at is not None and now.timestamp() - seen_at < SEEN_FOR_SECONDS
