"""The notifications' API routes (added to the API by ``FABULA_API_ROUTERS``): mute one game.

A muted game sends its player no turn email, no reminder and no push; the bell still counts it
(``notifications.push.game_mute_set``, the same as the game page's "Mute this game").
"""

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from ninja import Router
from pydantic import Field

from games.api.errors import ApiError, errors
from games.api.schemas import Answer
from games.selectors.games import game_get_for_viewer

from .push import game_mute_set

router = Router(tags=["notifications"])

MUTE = "/games/{id:game_id}/mute"
NOT_A_PLAYER = _("Only the game's players can mute it.")


class GameMuteOut(Answer):
    game: int
    muted: bool = Field(description="True: no turn email, reminder or push for this game; the bell still counts it.")


def _mute(request, game_id: int, muted: bool) -> dict:
    game, seats = game_get_for_viewer(game_id=game_id, user=request.user)
    if not any(seat.user_id == request.user.pk for seat in seats):
        raise ApiError(403, "not_a_player", NOT_A_PLAYER)
    game_mute_set(user=request.user, game=game, muted=muted, now=timezone.now())
    return {"game": game.pk, "muted": muted}


@router.put(MUTE, summary="Mute a game", response={200: GameMuteOut, **errors(401, 403, 404)})
def game_mute_add(request, game_id: int):
    """No more turn emails, reminders or pushes for this game you play in (doing it twice changes nothing)."""
    return _mute(request, game_id, True)


@router.delete(MUTE, summary="Unmute a game", response={200: GameMuteOut, **errors(401, 403, 404)})
def game_mute_remove(request, game_id: int):
    """Turn emails, reminders and pushes for this game again."""
    return _mute(request, game_id, False)
