"""The chat panel of the game page: its fragment, and the forms it posts (each view one service call).

An htmx request gets the fresh panel back, with the refusal in it and the refusal's
status (``chat.js`` swaps a refused panel too); a plain form post is redirected to the
game page with a message (post/redirect/get). A game that does not exist and a
private game the viewer may not see are the same 404; a game they may see but do not
play in is a 403.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from ninja.errors import Throttled

from games.api.limits import rate_hit
from games.selectors.games import game_get_for_viewer
from games.services.errors import GameError

from .selectors import chat_state
from .services import chat_mute, chat_post, chat_report

PANEL_TEMPLATE = "chat/partials/panel.html"
STATUS_OF_KIND = {"invalid": 400, "forbidden": 403, "conflict": 409}


def _is_htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"


def panel_html(request, *, game, seats, error=None) -> str:
    """The chat panel as the request's user sees it (``GameError`` 403 for anyone not seated)."""
    context = chat_state(game=game, seats=seats, user=request.user) | {"error": error}
    return render_to_string(PANEL_TEMPLATE, context, request)


def _forbidden(error: GameError) -> HttpResponse:
    return HttpResponse(str(error.message), status=403, content_type="text/plain; charset=utf-8")


@require_GET
def panel(request, game_id: int):
    game, seats = game_get_for_viewer(game_id=game_id, user=request.user)
    try:
        return HttpResponse(panel_html(request, game=game, seats=seats))
    except GameError as error:
        return _forbidden(error)


def _answer(request, game_id: int, *, error=None, status: int = 200, success=None, wait=None):
    """The fresh panel (htmx), or back to the game page with a message."""
    if _is_htmx(request):
        game, seats = game_get_for_viewer(game_id=game_id, user=request.user)
        try:
            return HttpResponse(panel_html(request, game=game, seats=seats, error=error), status=status)
        except GameError as refused:
            return _forbidden(refused)
    if status == 429:
        headers = {"Retry-After": str(int(wait))} if wait else {}
        return HttpResponse(str(error), status=429, content_type="text/plain; charset=utf-8", headers=headers)
    if status == 403:
        return HttpResponse(str(error), status=403, content_type="text/plain; charset=utf-8")
    if error:
        messages.error(request, error)
    elif success:
        messages.success(request, success)
    return redirect("games:detail", game_id=game_id)


def _act(request, game_id: int, call, *, success=None, throttle: bool = True):
    """Run one service call for the request's user; answer as ``_answer`` does."""
    game_get_for_viewer(game_id=game_id, user=request.user)  # 404 for a game they may not see
    try:
        if throttle:
            rate_hit("chat", request)
        call()
    except Throttled as exc:
        slow = _("You are writing too fast: wait a little and try again.")
        return _answer(request, game_id, error=slow, status=429, wait=exc.wait)
    except GameError as error:
        if error.code == "no_such_message":
            return _answer(request, game_id, error=error.message, status=404)
        return _answer(request, game_id, error=error.message, status=STATUS_OF_KIND.get(error.kind, 409))
    return _answer(request, game_id, success=success)


@login_required
@require_POST
def say(request, game_id: int):
    text = request.POST.get("text", "")
    return _act(request, game_id, lambda: chat_post(game_id=game_id, user=request.user, text=text))


@login_required
@require_POST
def mute(request, game_id: int):
    username = request.POST.get("username", "")
    muted = request.POST.get("mute") != "0"
    return _act(
        request,
        game_id,
        lambda: chat_mute(game_id=game_id, user=request.user, username=username, muted=muted),
        throttle=False,
    )


@login_required
@require_POST
def report(request, game_id: int, message_id: int):
    reason = request.POST.get("reason", "")
    return _act(
        request,
        game_id,
        lambda: chat_report(game_id=game_id, user=request.user, message_id=message_id, reason=reason),
        success=_("Thank you: the admins will look at this message."),
    )
