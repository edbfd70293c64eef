"""Hostile checks of card reports (issue 37: "two accounts can take the built-in deck out of play").

Two accounts made on the spot make 3-seat Storyteller games filled with two bots and report every card they
are dealt, again and again, for ``FABULA_HOSTILE_REPORT_SECONDS`` (60) seconds, through the API only. The site
holds when no report hid a card of the site's deck, every hand of theirs in play is whole (its cards plus
what it handed in this round make the hand size) and shows no hidden card, and then a 6-seat game on the
site's deck deals (five bots and a third account).
"""

from __future__ import annotations

import os
import time
from collections import Counter

from . import Account, Fell, Site

SECONDS = float(os.environ.get("FABULA_HOSTILE_REPORT_SECONDS", "60"))


def _game_with_bots(account: Account, seats: int) -> dict:
    created = account.api.post("/games", json={"seats": seats})
    if created.status_code != 201:
        raise RuntimeError(f"create failed: {created.status_code} {created.text[:200]}")
    game = created.json()
    for _ in range(seats - 1):
        added = account.api.post(f"/games/{game['id']}/bots")
        while added.status_code == 429:
            time.sleep(min(float(added.headers.get("Retry-After", "1")), 5.0))
            added = account.api.post(f"/games/{game['id']}/bots")
        if added.status_code != 201:
            raise RuntimeError(f"bot failed: {added.status_code} {added.text[:200]}")
        game = added.json()
    return game


def _whole(view: dict) -> bool:
    """The hand and what its holder put down this round make the hand size; no card in it is hidden."""
    you = view.get("you") or {}
    down = len(you.get("submitted") or []) + (1 if you.get("storyteller_card") else 0)
    hand = view.get("hand") or []
    return len(hand) + down == view["rules"]["hand_size"] and not any(card.get("hidden") for card in hand)


def check_two_accounts_reporting_for_a_minute_take_no_site_card_out_of_play(site: Site) -> str:
    attackers = [site.account(), site.account()]
    answers: Counter = Counter()
    games: list[tuple[Account, int]] = []
    cards: set[int] = set()
    started = time.monotonic()
    while time.monotonic() - started < SECONDS:
        for attacker in attackers:
            game = _game_with_bots(attacker, 3)
            games.append((attacker, game["id"]))
            for card in game.get("hand") or []:
                answer = attacker.api.post(f"/games/{game['id']}/cards/{card['id']}/report", json={"reason": "x"})
                if answer.status_code == 201:
                    answers["hidden" if answer.json()["hidden"] else "reported"] += 1
                    cards.add(card["id"])
                else:
                    answers[f"{answer.status_code} {answer.json().get('error', {}).get('code')}"] += 1
    if answers["hidden"]:
        raise Fell(f"{answers['hidden']} reports hid a card of the site's deck ({dict(answers)})")
    short = []
    for attacker, game_id in games:
        view = attacker.api.get(f"/games/{game_id}").json()
        if view["status"] == "active" and not _whole(view):
            short.append(game_id)
    if short:
        raise Fell(f"{len(short)} of {len(games)} games in play hold a short hand (e.g. game {short[0]})")
    big = _game_with_bots(site.account(), 6)
    if big["status"] != "active" or len(big.get("hand") or []) != 6:
        raise Fell(f"a 6-seat game on the site's deck did not deal: {big['status']}, {len(big.get('hand') or [])}")
    refused = sum(count for key, count in answers.items() if key not in ("reported", "hidden"))
    return (
        f"{SECONDS:.0f} s, {len(games)} games, {answers['reported']} reports of {len(cards)} cards taken, "
        f"{refused} refused ({', '.join(f'{k}: {v}' for k, v in sorted(answers.items()) if k != 'reported')}); "
        f"0 hidden, 0 short hands, a 6-seat game dealt"
    )


CHECKS = [check_two_accounts_reporting_for_a_minute_take_no_site_card_out_of_play]
