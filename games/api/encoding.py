"""Between the selectors' and services' Python values and the API's JSON.

Card ids are integers inside; the API gives them as strings (and takes strings
or integers: ``games.actions.Id``). Image and file URLs go out absolute. Nothing here
knows a game's rules: a card is any object with an ``image``.
"""


def view_out(view: dict, *, request) -> dict:
    """A selector's view of a game, in the API's terms."""
    out = _encode(view, request)
    if out.get("you") is None:  # a spectator of a public game
        out["you"] = {"username": request.user.username, "seat": None, "to_act": False}
    return out


def _encode(value, request):
    if isinstance(value, dict):
        out = {key: _encode(item, request) for key, item in value.items()}
        if isinstance(value.get("image"), str):  # a card
            if "id" in value:
                out["id"] = str(value["id"])
            out["image"] = request.build_absolute_uri(value["image"]) if value["image"] else ""
        if isinstance(value.get("url"), str) and value["url"].startswith("/"):  # a file of the site's (a clue's)
            out["url"] = request.build_absolute_uri(value["url"])
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
        "seat_held": game.seat_held,
    }
