"""A player's own decks on the pages: "My decks" and a deck's page, with forms that work without JavaScript
(one picture and its words at a time) and the same routes answering JSON to the page's script (several
pictures, a progress bar each); and the door of every card's picture (``card_picture``). Each handler makes one
service call and maps its errors to an answer."""

import mimetypes

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from ninja.errors import Throttled

from games.api.limits import rate_hit
from games.media import media_response, media_viewer
from games.services.errors import GameError
from storyteller.models.cards import ALT_TEXT_MAX_LENGTH

from .selectors import card_picture_by_name, card_picture_url, deck_needs
from .services import own_decks
from .services.cards import MAX_IMAGE_BYTES
from .services.reports import card_review_request

STATUS_OF_KIND = {"invalid": 400, "forbidden": 403, "not_found": 404, "conflict": 409, "busy": 503}


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def card_json(card) -> dict:
    return {
        "id": card.pk,
        "image": card_picture_url(card),
        "alt": card.alt_text,
        "waiting": own_decks.card_is_waiting(card),
    }


def _act(request, deck_id, action, *, success: str = "", status: int = 200, back=None):
    """Run ``action()`` (a service call) and answer: JSON to the page's script, else back to the deck's page
    with a message. A deck the player may not see is 404, as the API says."""
    try:
        rate_hit("actions", request)
        result = action()
    except Throttled:
        error = GameError("rate_limited", _("Too many requests: wait a little and try again."), "conflict")
        status_code = 429
    except GameError as refused:
        if refused.kind == "not_found" and not _wants_json(request):
            raise Http404(str(refused.message)) from None
        error, status_code = refused, STATUS_OF_KIND.get(refused.kind, 409)
    else:
        if _wants_json(request):
            return JsonResponse(card_json(result) if hasattr(result, "alt_text") else {"ok": True}, status=status)
        if success:
            messages.success(request, success)
        return redirect(back or "decks:deck", *([] if back else [deck_id]))
    if _wants_json(request):
        answer = JsonResponse({"error": {"code": error.code, "message": str(error.message)}}, status=status_code)
        if status_code == 503:
            answer["Retry-After"] = str(settings.FABULA_BUSY_RETRY_AFTER)
        return answer
    messages.error(request, str(error.message))
    return redirect(back or "decks:deck", *([] if back else [deck_id]))


@login_required
@require_http_methods(["GET", "POST"])
def deck_list(request):
    """Your decks and those shared with you; a form to make one."""
    if request.method == "POST":
        try:
            rate_hit("actions", request)
            deck = own_decks.deck_create(user=request.user, name=request.POST.get("name", ""))
        except (GameError, Throttled) as refused:
            messages.error(
                request, str(getattr(refused, "message", _("Too many requests: wait a little and try again.")))
            )
            return redirect("decks:list")
        return redirect("decks:deck", deck.pk)
    cards, used = own_decks.own_usage(user=request.user)
    max_cards, max_bytes = own_decks.own_limits()
    decks = own_decks.decks_of(user=request.user)
    return render(
        request,
        "storyteller/decks/list.html",
        {
            "own": [deck for deck in decks if deck.owner_id == request.user.pk],
            "shared": [deck for deck in decks if deck.owner_id != request.user.pk],
            "quota": _quota(cards, used, max_cards, max_bytes),
        },
    )


def _quota(cards, used, max_cards, max_bytes) -> dict:
    return {
        "cards": cards,
        "max_cards": max_cards,
        "mb": own_decks.mb(used),
        "max_mb": own_decks.mb(max_bytes),
        "full": cards >= max_cards or used >= max_bytes,
    }


@login_required
def deck_page(request, deck_id: int):
    """A deck: its pictures in order, and for its owner the upload, words, order, sharing and deletion."""
    try:
        deck = own_decks.deck_for_viewer(user=request.user, deck_id=deck_id)
    except GameError:
        raise Http404("no such deck") from None
    mine = deck.owner_id == request.user.pk
    shown = own_decks.deck_cards(deck=deck, user=request.user)
    for card in shown:
        card.picture_url = card_picture_url(card)  # type: ignore[attr-defined]  # for the template, this request's
    cards, used = own_decks.own_usage(user=request.user)
    max_cards, max_bytes = own_decks.own_limits()
    return render(
        request,
        "storyteller/decks/deck.html",
        {
            "deck": deck,
            "mine": mine,
            "cards": shown,
            "hidden_count": sum(1 for card in shown if card.hidden_at is not None),
            "shared_with": sorted(other.username for other in deck.shared_with.all()) if mine else [],
            "quota": _quota(cards, used, max_cards, max_bytes),
            "alt_max": ALT_TEXT_MAX_LENGTH,
            "max_mb": MAX_IMAGE_BYTES // (1024 * 1024),
            "needs": deck_needs(deck=deck),
        },
    )


@login_required
@require_POST
def deck_rename(request, deck_id: int):
    name = request.POST.get("name", "")
    return _act(request, deck_id, lambda: own_decks.deck_rename(user=request.user, deck_id=deck_id, name=name))


@login_required
@require_POST
def deck_public(request, deck_id: int):
    """The owner makes the deck public (``public=1``) or private again (``public=0``)."""
    public = {"1": True, "0": False}.get(request.POST.get("public", ""), request.POST.get("public"))
    return _act(
        request,
        deck_id,
        lambda: own_decks.deck_set_public(user=request.user, deck_id=deck_id, public=public),
        success=_("The deck is public now.") if public is True else _("The deck is private now."),
    )


@login_required
@require_POST
def deck_delete(request, deck_id: int):
    return _act(
        request,
        deck_id,
        lambda: own_decks.deck_delete(user=request.user, deck_id=deck_id),
        success=_("The deck was deleted."),
        back="decks:list",
    )


@login_required
@require_POST
def deck_share(request, deck_id: int):
    username = request.POST.get("username", "")
    return _act(
        request,
        deck_id,
        lambda: own_decks.deck_share(user=request.user, deck_id=deck_id, username=username),
        success=_("The deck is shared with %(name)s.") % {"name": username.strip()},
    )


@login_required
@require_POST
def deck_unshare(request, deck_id: int):
    username = request.POST.get("username", "")
    return _act(request, deck_id, lambda: own_decks.deck_unshare(user=request.user, deck_id=deck_id, username=username))


@login_required
@require_POST
def card_upload(request, deck_id: int):
    """One picture (the form field ``file``) and, from the form, its words (``alt``); from the page's script the
    words may come later: the card then waits for them, with the picture's own description suggested."""
    upload = request.FILES.get("file")
    alt = request.POST.get("alt")
    if not _wants_json(request) and not (alt or "").strip():
        alt = " "  # the form asks for words with the picture: refused as missing, nothing stored

    def upload_card():
        if upload is None:
            raise GameError("bad_media", _("Choose a picture to upload."), "invalid")
        if upload.size is not None and upload.size > MAX_IMAGE_BYTES:
            raise GameError("bad_media", own_decks.too_large_message(), "invalid")
        data = upload.read(MAX_IMAGE_BYTES + 1)
        return own_decks.card_upload(
            user=request.user,
            deck_id=deck_id,
            name=upload.name or "",
            data=data,
            alt=alt,
            language=translation.get_language(),
        )

    return _act(request, deck_id, upload_card, success=_("The picture was added."), status=201)


@login_required
@require_POST
def card_alt(request, deck_id: int, card_id: int):
    alt = request.POST.get("alt", "")
    if request.headers.get("HX-Request") == "true":
        return _card_alt_in_place(request, deck_id, card_id, alt)
    return _act(
        request,
        deck_id,
        lambda: own_decks.card_alt_edit(
            user=request.user, deck_id=deck_id, card_id=card_id, alt=alt, language=translation.get_language()
        ),
        success=_("The words were saved."),
    )


@login_required
@require_POST
def card_move(request, deck_id: int, card_id: int):
    by = -1 if request.POST.get("direction") == "up" else 1
    return _act(
        request, deck_id, lambda: own_decks.card_move(user=request.user, deck_id=deck_id, card_id=card_id, by=by)
    )


@login_required
@require_POST
def card_delete(request, deck_id: int, card_id: int):
    return _act(
        request,
        deck_id,
        lambda: own_decks.card_delete(user=request.user, deck_id=deck_id, card_id=card_id),
        success=_("The picture was deleted."),
    )


def _card_alt_in_place(request, deck_id: int, card_id: int, alt: str):
    """The words saved from the deck's page by htmx: the card alone, again, with "saved" or the refusal beside its
    button, so that the page stays where the player is (a reload jumped to its top)."""
    saved, error = False, ""
    try:
        rate_hit("actions", request)
        own_decks.card_alt_edit(
            user=request.user, deck_id=deck_id, card_id=card_id, alt=alt, language=translation.get_language()
        )
        saved = True
    except Throttled:
        error = _("Too many requests: wait a little and try again.")
    except GameError as refused:
        if refused.kind == "not_found":
            raise Http404(str(refused.message)) from None
        error = str(refused.message)
    deck = own_decks.deck_for_viewer(user=request.user, deck_id=deck_id)
    shown = own_decks.deck_cards(deck=deck, user=request.user)
    index = next((i for i, card in enumerate(shown) if card.pk == card_id), None)
    if index is None:
        raise Http404("no such card")
    card = shown[index]
    card.picture_url = card_picture_url(card)  # type: ignore[attr-defined]  # for the template, this request's
    context = {
        "deck": deck,
        "card": card,
        "mine": deck.owner_id == request.user.pk,
        "n": index + 1,
        "first": index == 0,
        "last": index == len(shown) - 1,
        "alt_max": ALT_TEXT_MAX_LENGTH,
        "alt_saved": saved,
        "alt_error": error,
    }
    return render(request, "storyteller/decks/card.html", context)  # 200 either way: htmx swaps only those


@login_required
@require_POST
def card_review(request, deck_id: int, card_id: int):
    """A hidden card's "Ask for a review": first in the admins' queue."""
    return _act(
        request,
        deck_id,
        lambda: card_review_request(user=request.user, deck_id=deck_id, card_id=card_id),
        success=_("An admin will look at this card first."),
    )


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
