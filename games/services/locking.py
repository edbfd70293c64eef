from django.utils.translation import gettext_lazy as _

from games.models import Game

from .errors import GameError


def game_lock(*, game_id) -> Game:
    """Lock and re-read the game row; call inside ``transaction.atomic``.

    Every write locks the game row first and only then reads what it decides on,
    so two requests for the same game run one after the other. (On SQLite the
    IMMEDIATE transaction mode takes the database's write lock at BEGIN.)
    """
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except (Game.DoesNotExist, ValueError, TypeError):
        raise GameError("not_found", _("There is no such game."), "not_found") from None
