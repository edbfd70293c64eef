"""Storyteller's pages beside the game page: a card's report, a drawn or sung clue's upload (the API's is
``storyteller.api``) and its file, for those who may see the game.

Each handler makes one service call and maps its errors to an answer.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from ninja.errors import Throttled

from games.api.limits import rate_hit
from games.media import media_response, media_viewer
from games.services.errors import GameError

from .decks.services.reports import card_report
from .services.media import clue_media_for_viewer, clue_media_read, clue_media_upload

STATUS_OF_KIND = {"invalid": 400, "forbidden": 403, "not_found": 404, "conflict": 409}


@login_required
@require_POST
def card_report_page(request, game_id: int):
    """The game page's "Report a card" form (session and CSRF token; ``card``: its id, ``reason``): reported,
    back to the game with a message saying so; refused, the same with the refusal's words."""
    card = request.POST.get("card", "")
    try:
        rate_hit("actions", request)
        _report, hidden = card_report(
            game_id=game_id,
            card_id=int(card) if card.isdigit() and len(card) < 19 else None,
            user=request.user,
            reason=request.POST.get("reason", ""),
        )
    except Throttled:
        messages.error(request, _("Too many requests: wait a little and try again."))
    except GameError as error:
        messages.error(request, error.message)
    else:
        if hidden:
            messages.success(request, _("Thank you: the card is reported, and hidden until an admin looks at it."))
        else:
            messages.success(request, _("Thank you: the card is reported; an admin will look at it."))
    return redirect("games:detail", game_id=game_id)


@login_required
@require_POST
def clue_media_create_page(request, game_id: int):
    """The pages' upload (session and CSRF token): the same as the API's, answered in its JSON format."""
    try:
        rate_hit("actions", request)
        media = clue_media_upload(game_id=game_id, user=request.user, data=clue_media_read(request.FILES.get("file")))
    except Throttled as throttled:
        response = JsonResponse(
            {"error": {"code": "rate_limited", "message": _("Too many requests: wait a little and try again.")}},
            status=429,
        )
        response["Retry-After"] = str(int(throttled.wait or 1))
        return response
    except GameError as error:
        status = STATUS_OF_KIND.get(error.kind, 409)
        return JsonResponse({"error": {"code": error.code, "message": str(error.message)}}, status=status)
    return JsonResponse({"id": media.pk}, status=201)


@require_GET
def clue_media_file(request, game_id: int, media_id: int):
    """A clue's drawing or sound, with its type, for whoever may see the game: a page's session, or an API
    client's bearer token. Anyone else, and an upload not given as a clue, gets 404."""
    try:
        media = clue_media_for_viewer(game_id=game_id, media_id=media_id, user=media_viewer(request))
    except GameError:
        raise Http404("no such clue media") from None
    extension = media.file.name.rsplit(".", 1)[-1]
    return media_response(file=media.file, content_type=media.content_type, download_name=f"clue.{extension}")
