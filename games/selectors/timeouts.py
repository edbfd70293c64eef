"""What missed deadlines did, in words: "Ada ran out of time and did not vote."

Read from the ``Move`` rows a deadline writes (``by_timeout``; ``games.services.games``),
for the status line right after a timeout and for the replay.
"""

from django.core.cache import caches
from django.db import transaction
from django.utils.translation import gettext as _

from games.models import Game, Move


def _quiet_key(game: Game) -> str:
    """One entry per game, holding the version known quiet: the next version's replaces it (a key per version
    left one behind for each, up to the cache's bound)."""
    return f"quiet-version:{game.pk}:{game.created_at.timestamp()}"


def note_no_timeouts(game: Game) -> None:
    """Say, once the transaction commits, that ``game`` at its version holds no timeout (a player's action,
    most changes): what a deadline did "just now" is then known to be nothing without a query. Kept in
    this process's views cache (bounded, in memory); a version not there (a deadline's, another
    process's) is asked of the database. Not before the commit: a version rolled back could be made
    again, by a deadline."""
    key, version = _quiet_key(game), game.version
    transaction.on_commit(lambda: caches["views"].set(key, version))


def timeout_text(game: Game, payload, name: str) -> str:
    """One timeout move's sentence, in the kind's words for what it did (``KindPresentation.timeout_texts``)."""
    outcome = payload.get("outcome") if isinstance(payload, dict) else None
    texts = game.game_kind.presentation.timeout_texts
    text = (texts.get(outcome) if isinstance(outcome, str) else None) or _("%(name)s ran out of time.")
    return text % {"name": name}


def timeouts_just_now(game: Game) -> list[str]:
    """What the deadline did if the game's latest change was a timeout (else nothing): one query."""
    if game.status != Game.Status.ACTIVE or caches["views"].get(_quiet_key(game)) == game.version:
        return []
    moves = Move.objects.filter(game=game, by_timeout=True, version=game.version).select_related("seat__user")
    return [timeout_text(game, move.payload, move.seat.user.name if move.seat else "?") for move in moves]
