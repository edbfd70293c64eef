"""Play Think Alike through the services as players would: each looks at its own view
(the selector's) and picks among the choices it offers."""

import random

from games.models import Game
from games.services.games import game_act
from games.tests.play import view_for

ANSWERS = ["apple", "Apples", "banana", "pear", "the sea", "sea", "red", "7", "seven"]


def action_for(view: dict, rng: random.Random, *, merge_chance: float = 0.3) -> dict:
    """A legal action for what the viewer's phase asks, at random."""
    phase, choices = view["phase"], view["choices"]
    if phase == "draft":
        return {"type": "place_field", "field": int(rng.choice(choices["fields"])["id"])}
    if phase == "roll":
        return {"type": "roll"}
    if phase == "move":
        return {"type": "move", "direction": rng.choice(choices["directions"])}
    if phase == "swap":
        return {
            "type": "swap",
            "remove": int(rng.choice(choices["remove"])["id"]),
            "add": int(rng.choice(choices["add"])["id"]),
        }
    if phase == "move_to":
        return {"type": "move_to", "position": rng.choice(choices["positions"])}
    if phase == "duel":
        position = rng.choice(choices["positions"]) if choices["positions"] else None
        return {"type": "duel", "opponent": rng.choice(choices["opponents"])["seat"], "position": position}
    if phase == "answer":
        return {"type": "answer", "answers": [rng.choice(ANSWERS) for _ in range(choices["answers"])]}
    if len(choices["groups"]) >= 2 and rng.random() < merge_chance:
        return {"type": "merge", "groups": rng.sample(choices["groups"], 2)}
    return {"type": "confirm"}


def play_step(game: Game, users, rng: random.Random, now=None) -> bool:
    """One player who is waited for acts; False once the game is over."""
    game.refresh_from_db()
    if game.status != Game.Status.ACTIVE:
        return False
    views = {user.pk: view_for(game, user) for user in users}
    acting = [user for user in users if views[user.pk]["you"]["to_act"]]
    user = rng.choice(acting)
    view = views[user.pk]
    game_act(game_id=game.pk, user=user, action=action_for(view, rng), expected_round=view["round"], now=now)
    return True


def play_to_end(game: Game, users, rng: random.Random, max_steps: int = 3000, now=None) -> Game:
    for _ in range(max_steps):
        if not play_step(game, users, rng, now=now):
            break
    game.refresh_from_db()
    return game
