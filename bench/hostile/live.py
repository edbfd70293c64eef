"""The live socket: what a page's socket hears of a game it may follow but not read all of (issue 29)."""

from __future__ import annotations

import json
import time

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from . import Fell, Site


def _socket(site: Site, query: str, cookie: str | None = None):
    host, port = site.host_port
    headers = {"Cookie": cookie} if cookie else None
    return connect(
        f"ws://{host}:{port}/ws/live/?{query}", origin=site.base, additional_headers=headers, open_timeout=10
    )


def _heard(socket, seconds: float) -> list[dict]:
    """Every message the socket hears within ``seconds``."""
    messages = []
    ends_at = time.monotonic() + seconds
    while (left := ends_at - time.monotonic()) > 0:
        try:
            messages.append(json.loads(socket.recv(timeout=left)))
        except TimeoutError:
            break
        except ConnectionClosed:
            break
    return messages


def spectators_do_not_hear_the_table_talk(site: Site) -> str:
    """A stranger, signed in or not, follows a public game's page: its socket must not hear ``chat.changed``
    when the players talk (the game's players' sockets do: the control)."""
    player, stranger = site.account(), site.account()
    game = player.api.post("/games", json={"seats": 3, "visibility": "public"})
    if game.status_code != 201:
        raise RuntimeError(f"creating a game failed: {game.status_code} {game.text[:200]}")
    game_id = game.json()["id"]
    cookies = []
    for account in (player, stranger):
        browser = site.browser(account)  # signed in through the log-in page: its session cookie
        cookies.append("; ".join(f"{name}={value}" for name, value in browser.cookies.items()))
        browser.close()
    with (
        _socket(site, f"game={game_id}", cookies[0]) as players_page,
        _socket(site, f"game={game_id}", cookies[1]) as strangers_page,
        _socket(site, f"game={game_id}") as anonymous_page,
    ):
        said = player.api.post(f"/games/{game_id}/chat", json={"text": "our secret plan"})
        if said.status_code != 201:
            raise RuntimeError(f"saying something failed: {said.status_code} {said.text[:200]}")
        control = _heard(players_page, 2.0)
        stranger_heard, anonymous_heard = _heard(strangers_page, 0.5), _heard(anonymous_page, 0.5)
    if not any(message.get("type") == "chat.changed" for message in control):
        raise RuntimeError(f"the player's own page heard nothing of the talk: {control}")
    leaked = [m for m in stranger_heard + anonymous_heard if m.get("type") == "chat.changed"]
    if leaked:
        raise Fell(f"a spectator's socket heard {leaked}")
    return "a player's socket heard chat.changed; a signed-in stranger's and an anonymous spectator's did not"


CHECKS = [spectators_do_not_hear_the_table_talk]
