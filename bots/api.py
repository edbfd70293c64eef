"""The bots' API routes (added to the API by ``FABULA_API_ROUTERS``)."""

import json

from django.utils.translation import gettext_lazy as _
from ninja import Router

from games.api.errors import errors
from games.api.games import GAME, AnyGameView, view_response  # view_response: the one game view the API answers
from games.api.limits import rate_hit
from games.services.errors import GameError

from .services import DEFAULT_LEVEL, LEVELS, game_bot_add

router = Router(tags=["bots"])

# The optional body, documented by hand: it is read here so that a malformed one is `bad_options` too.
BOT_BODY = {
    "requestBody": {
        "required": False,
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "level": {
                            "type": "string",
                            "enum": list(LEVELS),
                            "default": DEFAULT_LEVEL,
                            "description": "How well the bot plays: `easy`, `normal` or `hard`.",
                        }
                    },
                    "additionalProperties": False,
                }
            }
        },
    }
}


def bot_options(body: bytes):
    """The level a request's body asks for (None: none asked); anything but ``{"level": ...}`` is bad_options."""
    if not body or not body.strip():
        return None
    bad = GameError("bad_options", _('The body is {"level": "easy" | "normal" | "hard"}, or nothing.'), "invalid")
    try:
        options = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise bad from None
    if not isinstance(options, dict) or set(options) - {"level"}:
        raise bad
    return options.get("level")


@router.post(
    GAME + "/bots",
    summary="Add a bot",
    response={201: AnyGameView, **errors(400, 401, 403, 404, 409, 429)},
    exclude_unset=True,
    openapi_extra=BOT_BODY,
)
def games_bot_add(request, game_id: int):
    """Fill an empty seat of your game with a bot (creator only, while the game is open).

    The body, optional, sets its level: `{"level": "easy" | "normal" | "hard"}` (default `normal`);
    any other level, another key or a body that is not such JSON answers 400 `bad_options`.
    The bot is marked `"bot": true` in `players`, with its `"bot_level"`, and plays by itself through
    the same rules as everyone, a moment after its turn comes. The last seat taken starts the game,
    as with people. A game that is no longer open answers 409 `not_open`, a full one 409 `game_full`;
    a player who did not create the game, 403 `not_creator`.
    """
    rate_hit("actions", request)
    game_bot_add(game_id=game_id, user=request.user, level=bot_options(request.body))
    return view_response(request, game_id, status=201)
