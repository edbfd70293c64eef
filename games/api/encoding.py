"""Between the selectors' and services' Python values and the API's JSON.

Card ids are integers inside; the API gives them as strings and takes strings
or integers. Image URLs go out absolute. Nothing here knows a game's rules: a
card is any object with an ``image``, and the action goes to the engine whole.
"""

import re

from django.utils.translation import gettext as _

from games import kinds
from games.services.errors import GameError

CARD_ID = re.compile(r"[0-9]{1,18}")


def _id_fields() -> dict[str, bool]:
    """Action fields that carry ids (one, or a list: True), of every kind; the API takes them as strings."""
    return {name: many for kind in kinds.every() for name, many in kind.api_id_fields.items()}


def view_out(view: dict, *, request) -> dict:
    """A selector's view of a game, in the API's terms."""
    out = _encode(view, request)
    if out.get("you") is None:  # a spectator of a public game
        out["you"] = {"username": request.user.username, "to_act": False, "seat": None}
    return out


def _encode(value, request):
    if isinstance(value, dict):
        out = {key: _encode(item, request) for key, item in value.items()}
        if isinstance(value.get("image"), str):  # a card
            if "id" in value:
                out["id"] = str(value["id"])
            out["image"] = request.build_absolute_uri(value["image"]) if value["image"] else ""
        return out
    if isinstance(value, (list, tuple)):
        return [_encode(item, request) for item in value]
    return value


def summary_out(game) -> dict:
    """One game in a list; ``game`` comes annotated by ``games_listed``."""
    return {
        "id": game.pk,
        "kind": game.kind,
        "status": game.status,
        "pace": game.pace,
        "visibility": game.visibility,
        "seats": game.max_seats,
        "seated": game.seated,
        "creator": game.creator.username,
        "round": game.round,
        "phase": game.phase or None,
        "deadline_at": game.deadline_at.isoformat() if game.deadline_at else None,
        "version": game.version,
        "created_at": game.created_at.isoformat(),
        "joined": game.joined,
        "to_act": game.my_turn,
    }


def action_in(payload: dict) -> tuple[dict, int | None]:
    """The engine's action dict and the round it is meant for, from a client's JSON object."""
    action = dict(payload)
    expected_round = action.pop("round", None)
    if expected_round is not None and (type(expected_round) is not int):
        raise GameError("bad_action", _("That request is not understood."), "invalid")
    for field, many in _id_fields().items():
        if field not in action:
            continue
        if many and isinstance(action[field], list):
            action[field] = [_card_id(item) for item in action[field]]
        elif not many:
            action[field] = _card_id(action[field])
    return action, expected_round


def _card_id(value):
    if isinstance(value, str) and CARD_ID.fullmatch(value):
        return int(value)
    return value  # anything else: the engine refuses it as it is
