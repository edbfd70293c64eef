"""Hostile checks of the accounts' area (issue 29's findings, issue 30's deletion): stacked accents in text
fields, a log-in lockout that a shared address could turn on everyone behind it, a deleted account's name
on a warmed board. Each attacks the started site over HTTP only (``bench/hostile/__init__.py``)."""

from __future__ import annotations

import secrets

from . import Account, Fell, Site

# 400 combining marks on one letter (the finding: "a message of 400 stacked accents is accepted").
ZALGO = "a" + "\u0301\u0316\u0352\u036b" * 100
# More failed log-ins from one address than the per-(account, address) limit (20 by default), fewer than
# the per-account limit from every address (100 an hour).
GUESSES = 25


def _error_code(answer) -> str | None:
    try:
        return answer.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


def _game_of_three(site: Site) -> tuple[int, list[Account]]:
    """A started public game of three fresh accounts (the last join starts it)."""
    players = [site.account() for _ in range(3)]
    answer = players[0].api.post("/games", json={"seats": 3})
    if answer.status_code != 201:
        raise RuntimeError(f"game create failed: {answer.status_code} {answer.text[:200]}")
    game_id = answer.json()["id"]
    for player in players[1:]:
        joined = player.api.post(f"/games/{game_id}/join", json={})
        if joined.status_code != 200:
            raise RuntimeError(f"join failed: {joined.status_code} {joined.text[:200]}")
    return game_id, players


def stacked_accents_are_refused(site: Site) -> str:
    """400 accents on one letter, in a chat message and in a token's name: 400 ``bad_text``, nothing kept."""
    game_id, (ann, *_others) = _game_of_three(site)
    said = ann.api.post(f"/games/{game_id}/chat", json={"text": f"hi {ZALGO}"})
    if said.status_code != 400 or _error_code(said) != "bad_text":
        raise Fell(f"a chat message of 400 stacked accents got {said.status_code} {said.text[:120]}")
    listed = ann.api.get(f"/games/{game_id}/chat")
    if "\u0301\u0316" in listed.text:
        raise Fell("the refused message is in the chat")
    with site.client() as plain:
        token = plain.post("/api/v1/tokens", json={"username": ann.username, "password": ann.password, "name": ZALGO})
    if token.status_code != 400:
        raise Fell(f"a token named with 400 stacked accents got {token.status_code}")
    return f"chat and token name: 400 {_error_code(said)}, nothing kept"


def _log_in(site: Site, username: str, password: str) -> int:
    """A log-in through the page, as a browser does it; the answer's status (302: in; 200: refused; 429)."""
    with site.client(follow_redirects=False) as client:
        client.get("/accounts/login/")
        answer = client.post(
            "/accounts/login/",
            data={
                "username": username,
                "password": password,
                "csrfmiddlewaretoken": client.cookies.get("csrftoken", ""),
            },
            headers={"Referer": site.base + "/accounts/login/"},
        )
        return answer.status_code


def a_shared_address_does_not_lock_out_everyone(site: Site) -> str:
    """A guesser fails 25 times at one account from this address (127.0.0.1, as everyone here): the guessed
    account is locked at this address, and another person at the same address still logs in."""
    target, neighbour = site.account(), site.account()
    for _ in range(GUESSES):
        _log_in(site, target.username, secrets.token_urlsafe(12))
    neighbour_in = _log_in(site, neighbour.username, neighbour.password)
    if neighbour_in != 302:
        raise Fell(
            f"after {GUESSES} failures at another account, a correct log-in from the same address got {neighbour_in}"
        )
    guessed = _log_in(site, target.username, target.password)
    if guessed != 429:
        raise Fell(
            f"after {GUESSES} failures, the guessed account still logs in from the guesser's address ({guessed})"
        )
    return f"neighbour logged in (302); the guessed account locked at this address (429) after {GUESSES} failures"


def a_deleted_name_leaves_a_warmed_board(site: Site) -> str:
    """Three play; the others' board and API view are cached; one deletes the account through the page: the
    next board and API view hold no trace of the name."""
    game_id, (ann, bob, gone) = _game_of_three(site)
    watcher = site.browser(ann)
    paths = [f"/games/{game_id}/board/", f"/games/{game_id}/"]

    def seen() -> str:
        pages = [watcher.get(path).text for path in paths for _ in range(2)]  # the second from the caches
        views = [bob.api.get(f"/games/{game_id}").text for _ in range(2)]
        return "".join(pages + views)

    if gone.username not in seen():
        raise RuntimeError("the name is not on the board to begin with")
    leaving = site.browser(gone)
    leaving.get("/accounts/delete/")
    deleted = leaving.post(
        "/accounts/delete/",
        data={"password": gone.password, "csrfmiddlewaretoken": leaving.cookies.get("csrftoken", "")},
    )
    leaving.close()
    if deleted.status_code not in (302, 303):
        raise RuntimeError(f"the deletion page answered {deleted.status_code}")
    after = seen()
    watcher.close()
    if gone.username in after:
        raise Fell("a deleted account's name is still on the warmed board or API view")
    if "deleted player" not in after:
        raise Fell("the deleted seat does not read 'deleted player'")
    return "board, page and API view read 'deleted player' at the next request"


CHECKS = [
    stacked_accents_are_refused,
    a_shared_address_does_not_lock_out_everyone,
    a_deleted_name_leaves_a_warmed_board,
]
