from dataclasses import replace

from django.conf import settings
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from games import kinds
from games.selectors.games import game_get_for_viewer
from games.selectors.reliability import reliability_of

from .models import Period
from .selectors import (
    game_replay,
    leaderboard_page,
    player_abandoned_count,
    player_games,
    player_get,
    player_history,
    player_practice_count,
    player_practice_games,
    player_profile,
)


@require_GET
def replay(request, game_id: int):
    game, seats = game_get_for_viewer(game_id=game_id, user=request.user)
    return render(request, "stats/replay.html", game_replay(game=game, seats=seats))


@require_GET
def player(request, username: str):
    player = player_get(username=username)
    history = player_history(player=player, viewer=request.user)
    profiles = [replace(profile, history=history.get(profile.kind)) for profile in player_profile(player=player)]
    return render(
        request,
        "stats/player.html",
        {
            "player": player,
            "profiles": profiles,
            "games": player_games(player=player, viewer=request.user, page=request.GET.get("page")),
            "abandoned": player_abandoned_count(player=player),
            "practice": player_practice_count(player=player),
            "practice_games": player_practice_games(player=player, viewer=request.user),
            "provisional_games": settings.FABULA_RATING_PROVISIONAL_GAMES,
            "is_me": request.user.is_authenticated and request.user.pk == player.pk,
            "reliability": reliability_of(user=player, now=timezone.now()),
        },
    )


@require_GET
def leaderboards(request):
    return redirect("stats:leaderboard", kind=kinds.default_slug(), board="rating")


@require_GET
def leaderboard(request, kind: str, board: str):
    game_kind = kinds.get(kind)
    if game_kind is None or game_kind.stats is None:
        raise Http404("no such leaderboard")
    view = leaderboard_page(
        kind=kind,
        board=board,
        period=request.GET.get("period", Period.ALL_TIME),
        page=request.GET.get("page", 1),
        viewer=request.user,
    )
    return render(
        request,
        "stats/leaderboard.html",
        {
            "lb": view,
            "periods": Period.choices,
            "kind_label": game_kind.label,
            "kinds": [(k.slug, k.label) for k in kinds.every() if k.stats is not None],
        },
    )
