"""Play Storyteller through the services, as players would: each one sees only
its own view (the selector's), and picks among what that view offers."""

import random
from datetime import timedelta

from django.test import TestCase

from games.models import Game
from games.selectors.games import game_view
from games.services.games import game_act, game_expire


def view_for(game: Game, user) -> dict:
    game.refresh_from_db()
    seats = list(game.seats.select_related("user").order_by("position"))
    return game_view(game=game, seats=seats, user=user)


def play_step(game: Game, users, rng: random.Random) -> bool:
    """One player who is waited for acts; returns False once the game is over."""
    game.refresh_from_db()
    if game.status != Game.Status.ACTIVE:
        return False
    views = {user.pk: view_for(game, user) for user in users}
    acting = [user for user in users if views[user.pk]["you"]["to_act"]]
    user = rng.choice(acting)
    view = views[user.pk]
    game_act(game_id=game.pk, user=user, action=action_for(view, rng), expected_round=view["round"])
    return True


def action_for(view: dict, rng: random.Random) -> dict:
    """An action the player whose ``view`` this is may take now, picked by ``rng`` among those it offers."""
    if view["phase"] == "clue":
        card = rng.choice(view["hand"])["id"]
        return {"type": "clue", "card": card, "text": f"clue {rng.randint(1, 999)}"}
    if view["phase"] == "submit":
        cards = rng.sample([c["id"] for c in view["hand"]], view["cards_to_submit"])
        return {"type": "submit", "cards": cards}
    positions = [c["position"] for c in view["table"] if not c["mine"]]
    return {"type": "vote", "position": rng.choice(positions)}


def play_to_end(game: Game, users, rng: random.Random, max_steps: int = 2000) -> Game:
    for _ in range(max_steps):
        if not play_step(game, users, rng):
            break
    game.refresh_from_db()
    return game


def play_at_random(kind, game: Game, users, rng: random.Random, at_each, *, max_steps=120, expire_sometimes=0.1):
    """Play ``game`` of ``kind`` to its end through the services, each move one its engine offers (``rng``), a
    deadline let pass now and then; what is left of a long game ends in resignations. ``at_each()`` runs at every
    position, the first and the last included, the game read again before it."""
    by_seat = {seat.position: seat.user for seat in game.seats.select_related("user")}
    for _step in range(max_steps):
        game.refresh_from_db()
        at_each()
        if game.status == Game.Status.FINISHED:
            return
        state = kind.engine.from_dict(game.state)
        offers = {seat: kind.sample_action(state, seat=seat, rng=rng) for seat in sorted(kind.engine.to_act(state))}
        offers = {seat: action for seat, action in offers.items() if action is not None}
        if not offers or (not game.is_paused and rng.random() < expire_sometimes):
            assert game_expire(game_id=game.pk, version=game.version, now=game.deadline_at + timedelta(seconds=1))
            continue
        seat = rng.choice(sorted(offers))
        with TestCase.captureOnCommitCallbacks(execute=True):  # the game left for the views (game_remember)
            game_act(game_id=game.pk, user=by_seat[seat], action=offers[seat], expected_round=game.round)
    for user in users[1:]:
        game.refresh_from_db()
        if game.status != Game.Status.FINISHED:
            with TestCase.captureOnCommitCallbacks(execute=True):
                game_act(game_id=game.pk, user=user, action={"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    at_each()
