"""Drawn and sung clues over HTTP: the upload (API and pages) and the file, for those who may see the game.

Each handler makes one service call and maps its errors to an answer.
"""

import mimetypes

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from ninja import Body, File, Router, Status
from ninja.errors import Throttled
from ninja.files import UploadedFile

from games.api.errors import errors
from games.api.limits import rate_hit
from games.media import media_response, media_viewer
from games.services.errors import GameError

from .api import CardReportIn, CardReportOut, ClueMediaOut
from .selectors import card_picture_by_name
from .services.media import MAX_SOUND_BYTES, clue_media_for_viewer, clue_media_upload
from .services.reports import card_report

STATUS_OF_KIND = {"invalid": 400, "forbidden": 403, "not_found": 404, "conflict": 409}


def _read(upload) -> bytes:
    """The upload's bytes; a file larger than any allowed is refused unread."""
    if upload is None:
        raise GameError("bad_media", _("Send the drawing or sound as the form field “file”."), "invalid")
    if upload.size is not None and upload.size > MAX_SOUND_BYTES:
        raise GameError("bad_media", _("A drawing is at most 512 KB, a sound at most 1 MB."), "invalid")
    return upload.read(MAX_SOUND_BYTES + 1)


def add_api_routes(router: Router) -> None:
    """Storyteller's own endpoints, beside the games'."""

    @router.post(
        "/games/{id:game_id}/clue-media",
        summary="Upload a drawn or sung clue",
        response={201: ClueMediaOut, **errors(400, 401, 403, 404, 409, 429)},
        tags=["storyteller"],
    )
    def clue_media_create(request, game_id: int, file: UploadedFile = File(...)):
        """Storyteller, where the game's `rules.clue_modes` allow: a drawing (a still PNG or WebP, at most 512 KB,
        4096 pixels a side and 2048 x 2048 in full colour once decoded) or a sound (Opus in Ogg, WebM or a
        fragmented MP4, or AAC in MP4; at most 1 MB and 20 seconds counted from its packets) for the clue you
        are to give now, as the multipart form field `file`. The type is read from the bytes; anything else,
        an animation included, is 400 `bad_media`, a mode the game does not allow 400 `mode_not_allowed`.
        Each seat may try 40 uploads a game, refused ones included (then 409 `too_many_media`). Then give the
        clue with `"media": <id>`."""
        rate_hit("actions", request)
        media = clue_media_upload(game_id=game_id, user=request.user, data=_read(file))
        return Status(201, {"id": media.pk})

    @router.post(
        "/games/{id:game_id}/cards/{id:card_id}/report",
        summary="Report a card",
        response={201: CardReportOut, **errors(400, 401, 403, 404, 409, 429)},
        tags=["storyteller"],
    )
    def card_report_create(request, game_id: int, card_id: int, payload: CardReportIn = Body(...)):
        """Players of the game: report a card you have seen in it (in your hand, handed in, on the table of the
        vote, or in a revealed round), with an optional reason. Once per player and card: a second report is 409
        `already_reported`. A card you have not seen in this game, or one removed, is 404 `not_found`; not a
        player, 403 `not_a_player`; more than 20 reports in 24 hours (`FABULA_CARD_REPORTS_PER_DAY`), 409
        `too_many_reports`. Every report goes to the admins, who keep or remove the card. A card of the site's
        decks stays in play until they decide. A card of a player's own deck is hidden at once (`"hidden":
        true`: games show a placeholder, and it leaves hands and draw piles of the games in progress) when
        FABULA_CARD_REPORTS_TO_HIDE (2) reports of it are open from accounts at least a week old that have
        finished 3 games with at least two other people (docs/playing/decks.md, "Card reports")."""
        rate_hit("actions", request)
        _report, hidden = card_report(game_id=game_id, card_id=card_id, user=request.user, reason=payload.reason)
        return Status(201, {"card": str(card_id), "hidden": hidden})

    from .deck_api import add_deck_routes

    add_deck_routes(router)


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
        media = clue_media_upload(game_id=game_id, user=request.user, data=_read(request.FILES.get("file")))
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


@require_GET
def card_picture_file(request, name: str):
    """A card's picture, at its ``image.url``: only a file that is a card's, and a player's own card only for
    those who may see it (``card_picture_by_name``: by the page's session or an API client's bearer token).
    Anyone else gets 404, as for a file that does not exist."""
    card = card_picture_by_name(name=name, user=media_viewer(request))
    if card is None:
        raise Http404("no such card picture")
    content_type = mimetypes.guess_type(card.image.name)[0] or "application/octet-stream"
    extension = card.image.name.rsplit(".", 1)[-1]
    # A player's picture may stop being one's to see (unshared, deleted): a browser keeps it a short while.
    max_age = 86400 if card.deck.owner_id is None else 300
    download_name = f"card.{extension}"
    return media_response(file=card.image, content_type=content_type, download_name=download_name, max_age=max_age)
