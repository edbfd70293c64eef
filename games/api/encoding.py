"""Between the selectors' and services' Python values and the API's JSON.

Card ids are integers inside; the API gives them as strings (and takes strings
or integers: ``games.actions.Id``). Image and file URLs go out absolute. A view's
schema does both as the view is validated, the request its context (a kind's
answer models type them ``games.api.schemas.IdText``, ``PictureUrl`` and
``SiteFileUrl``): one pass through the view, in pydantic's own code, where a walk
of every key of every view here cost about as much as the validation itself.
"""


def view_out(view: dict, *, request) -> dict:
    """A selector's view of a game, in the API's terms: ids and URLs are the view's schema's to encode, as it is
    validated (``games.api.schemas.IdText``, ``PictureUrl``, ``SiteFileUrl``)."""
    if view.get("you") is None:  # a spectator of a public game
        view["you"] = {"username": request.user.username, "seat": None, "to_act": False}
    return view


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
