from django.utils.translation import gettext_lazy as _

from games.models import Game
from games.selectors.games import as_game_id
from infrastructure.raw_sql import raw_sql

from .errors import GameError


def game_lock(*, game_id) -> Game:
    """Lock and re-read the game row; call inside ``transaction.atomic``.

    Every write locks the game row first and only then reads what it decides on,
    so two requests for the same game run one after the other. (On SQLite the
    IMMEDIATE transaction mode takes the database's write lock at BEGIN.)
    """
    key = as_game_id(game_id)
    game = next(iter(_locked(key)), None) if key is not None else None
    if game is None:
        raise GameError("not_found", _("There is no such game."), "not_found")
    return game


@raw_sql(
    lambda sql, game_id: sql.select(Game, where=f"{sql.column(Game, 'pk')} = %s", params=[game_id], for_update=True),
    model=Game,
)
def _locked(game_id: int):
    return Game.objects.select_for_update().filter(pk=game_id)
