"""Hostile checks of a rematch's held seats (issue 30: "a stranger took an old player's seat").

Two tables of three accounts each finish a game through the API (two players resign), a public one and a
private one, and one player of each plays again. The players of each table are strangers to the other's
rematch: they try its seats every way the API offers (one join, ten at once, declining a seat not theirs,
opening the seats as if the creator) and look for it in the lobby. The checks change nothing when the site
holds, so they share the two tables: six accounts in all (the API gives an address ten tokens a minute).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from . import Account, Fell, Site


def _finished_game(site: Site, visibility: str) -> tuple[int, list[Account]]:
    players = [site.account() for _ in range(3)]
    created = players[0].api.post("/games", json={"seats": 3, "visibility": visibility})
    if created.status_code != 201:
        raise RuntimeError(f"create failed: {created.status_code} {created.text[:200]}")
    game = created.json()
    for player in players[1:]:
        joined = player.api.post(f"/games/{game['id']}/join", json={"invite_code": game.get("invite_code")})
        if joined.status_code != 200:
            raise RuntimeError(f"join failed: {joined.status_code} {joined.text[:200]}")
    for player in players[1:]:
        if player.api.get(f"/games/{game['id']}").json()["status"] == "finished":
            break
        player.api.post(f"/games/{game['id']}/actions", json={"type": "resign"})
    if players[0].api.get(f"/games/{game['id']}").json()["status"] != "finished":
        raise RuntimeError("the game did not finish on resignations")
    return game["id"], players


_TABLES: dict[tuple[int, str], tuple[dict, list[Account]]] = {}


def _rematch(site: Site, visibility: str) -> tuple[dict, list[Account]]:
    """The rematch of a finished game of this visibility, and its old table (made once per site)."""
    key = (id(site), visibility)
    if key not in _TABLES:
        old, players = _finished_game(site, visibility)
        answer = players[0].api.post(f"/games/{old}/rematch")
        if answer.status_code != 201:
            raise RuntimeError(f"rematch failed: {answer.status_code} {answer.text[:200]}")
        _TABLES[key] = (answer.json(), players)
    return _TABLES[key]


def _strangers(site: Site, visibility: str) -> list[Account]:
    """Accounts that never sat at the table of this visibility: the other table's players."""
    return _rematch(site, "private" if visibility == "public" else "public")[1]


def _code(answer) -> tuple[int, str | None]:
    try:
        return answer.status_code, answer.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return answer.status_code, None


def a_stranger_cannot_take_a_held_seat(site: Site) -> str:
    rematch, _players = _rematch(site, "public")
    stranger = _strangers(site, "public")[0]
    game_id = rematch["id"]
    if any(game["id"] == game_id for game in stranger.api.get("/games").json()["games"]):
        raise Fell("a public rematch holding seats is listed in the lobby")
    tries = {
        "join": _code(stranger.api.post(f"/games/{game_id}/join")),
        "decline": _code(stranger.api.post(f"/games/{game_id}/decline")),
        "open-seats": _code(stranger.api.post(f"/games/{game_id}/open-seats")),
    }
    expected = {"join": (403, "seat_held"), "decline": (403, "no_seat_held"), "open-seats": (403, "not_creator")}
    if tries != expected:
        raise Fell(f"a stranger's tries at held seats answered {tries}, not {expected}")
    after = stranger.api.get(f"/games/{game_id}").json()
    if after["version"] != rematch["version"] or after["seats_held"] != 2 or len(after["players"]) != 1:
        raise Fell(f"the stranger's tries changed the rematch: {after['version']=}, {after['seats_held']=}")
    return "a stranger got 403 seat_held / no_seat_held / not_creator; the lobby does not list the rematch"


def ten_strangers_at_once_take_no_held_seat(site: Site) -> str:
    rematch, _players = _rematch(site, "public")
    pool_of = _strangers(site, "public")
    strangers = [pool_of[number % len(pool_of)] for number in range(10)]
    with ThreadPoolExecutor(max_workers=10) as pool:
        answers = list(pool.map(lambda one: _code(one.api.post(f"/games/{rematch['id']}/join")), strangers))
    if answers != [(403, "seat_held")] * 10:
        raise Fell(f"ten joins at once for held seats answered {sorted(set(answers))}")
    after = strangers[0].api.get(f"/games/{rematch['id']}").json()
    if len(after["players"]) != 1 or after["version"] != rematch["version"]:
        raise Fell(f"{len(after['players']) - 1} strangers sat in held seats")
    return "10 parallel joins by strangers: all 403 seat_held, nobody seated, the rematch unchanged"


def a_private_rematch_is_not_there_for_a_stranger(site: Site) -> str:
    rematch, _players = _rematch(site, "private")
    stranger = _strangers(site, "private")[0]
    answers = {
        route: _code(stranger.api.post(f"/games/{rematch['id']}/{route}"))
        for route in ("join", "decline", "open-seats")
    }
    if set(answers.values()) != {(404, "not_found")}:
        raise Fell(f"a private rematch answered a stranger {answers}")
    if any(game["id"] == rematch["id"] for game in stranger.api.get("/games", params={"mine": "true"}).json()["games"]):
        raise Fell("a private rematch shows in a stranger's own games")
    return "join, decline and open-seats of a private rematch: 404 for a stranger"


CHECKS = [
    a_stranger_cannot_take_a_held_seat,
    ten_strangers_at_once_take_no_held_seat,
    a_private_rematch_is_not_there_for_a_stranger,
]
