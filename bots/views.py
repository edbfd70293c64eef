"""The pages' "Add a bot" button (with its level, a select beside it) and the lobby's "Play now with bots": one
service call each, then to the game."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import kinds
from games.models import Game
from games.selectors.games import game_visible_to
from games.services.errors import GameError

from .services import game_bot_add, game_with_bots_create


@login_required
@require_POST
def bot_add(request, game_id: int):
    try:
        game_bot_add(game_id=game_id, user=request.user, level=request.POST.get("level") or None)
    except GameError as error:
        game = Game.objects.filter(pk=game_id).first()
        # One answer for a game that does not exist and a private game this user may not see.
        if error.kind == "not_found" or game is None or not game_visible_to(game=game, user=request.user):
            raise Http404 from None
        messages.error(request, error.message)
        return redirect("games:detail", game_id=game_id)
    messages.success(request, _("A bot has taken a seat."))
    return redirect("games:detail", game_id=game_id)


@login_required
@require_POST
def play_now(request):
    """A live game with three bots, started at once, of the kind asked for (the default one otherwise)."""
    kind = request.POST.get("kind") or None
    try:
        game = game_with_bots_create(creator=request.user, kind=kind if kind and kinds.get(kind) else None)
    except GameError as error:
        messages.error(request, error.message)
        return redirect("games:lobby")
    return redirect("games:detail", game_id=game.pk)
