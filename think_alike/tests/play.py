"""Play Think Alike through the services as players would: each looks at its own view
(the selector's) and picks among the choices it offers, as the example bot does."""

import random

from games.models import Game
from games.services.games import game_act
from games.tests.api.conftest import load_bot
from games.tests.play import view_for
from think_alike.kind import KIND

bot = load_bot()


def action_for(view: dict, rng: random.Random) -> dict:
    """A legal action for what the viewer's phase asks, at random: the example bot's choice, as the API reads it."""
    return KIND.action_to_engine(KIND.action_parse(bot.choose_think_alike(view, rng)))


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
