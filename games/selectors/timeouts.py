"""What missed deadlines did, in words: "Ada ran out of time and did not vote."

Read from the ``Move`` rows a deadline writes (``by_timeout``; ``games.services.games``),
for the status line right after a timeout and for the replay.
"""

import threading
from collections import OrderedDict

from django.utils.translation import gettext as _

from games.models import Game, Move

# Game versions this process made and committed with no timeout in them (a player's action, most
# changes): what a deadline did "just now" at such a version is nothing, known without a query.
# Bounded; a version not here is asked of the database, as any made by another process is.
_QUIET_VERSIONS_MAX = 4096
_quiet_versions: OrderedDict = OrderedDict()
_quiet_lock = threading.Lock()


def _version_key(game: Game) -> tuple:
    return (game.pk, game.version, game.created_at)


def note_no_timeouts(game: Game) -> None:
    """Say that ``game`` at its version, as committed, holds no timeout (``timeouts_just_now`` is [])."""
    with _quiet_lock:
        _quiet_versions[_version_key(game)] = True
        while len(_quiet_versions) > _QUIET_VERSIONS_MAX:
            _quiet_versions.popitem(last=False)


def timeout_text(game: Game, payload, name: str) -> str:
    """One timeout move's sentence, in the kind's words for what it did (``GameKind.timeout_texts``)."""
    outcome = payload.get("outcome") if isinstance(payload, dict) else None
    text = game.game_kind.timeout_texts.get(outcome) or _("%(name)s ran out of time.")
    return text % {"name": name}


def timeouts_just_now(game: Game) -> list[str]:
    """What the deadline did if the game's latest change was a timeout (else nothing): one query."""
    if game.status != Game.Status.ACTIVE or _version_key(game) in _quiet_versions:
        return []
    moves = Move.objects.filter(game=game, by_timeout=True, version=game.version).select_related("seat__user")
    return [timeout_text(game, move.payload, move.seat.user.name if move.seat else "?") for move in moves]
