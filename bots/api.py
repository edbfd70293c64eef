"""The bots' API routes (added to the API by ``FABULA_API_ROUTERS``)."""

from ninja import Router

from games.api.errors import errors
from games.api.games import GAME, AnyGameView, view_response  # view_response: the one game view the API answers
from games.api.limits import rate_hit

from .services import game_bot_add

router = Router(tags=["bots"])


@router.post(
    GAME + "/bots",
    summary="Add a bot",
    response={201: AnyGameView, **errors(401, 403, 404, 409, 429)},
    exclude_unset=True,
)
def games_bot_add(request, game_id: int):
    """Fill an empty seat of your game with a bot (creator only, while the game is open).

    The bot is marked `"bot": true` in `players` and plays by itself through the same rules as
    everyone, a moment after its turn comes. The last seat taken starts the game, as with people.
    A game that is no longer open answers 409 `not_open`, a full one 409 `game_full`; a player
    who did not create the game, 403 `not_creator`.
    """
    rate_hit("actions", str(request.auth.pk))
    game_bot_add(game_id=game_id, user=request.user)
    return view_response(request, game_id, status=201)
