"""A player's own decks over the API: make, list, rename, share and delete decks; upload, describe, reorder and
delete their pictures. Each handler makes one service call (``storyteller.decks.services.own_decks``)."""

from typing import Literal

from django.utils import translation
from ninja import File, Form, Router, Status
from ninja.files import UploadedFile
from pydantic import Field

from games.api.errors import errors
from games.api.limits import rate_hit
from games.api.schemas import Answer, Request
from games.services.errors import GameError
from storyteller.models import Card, Deck
from storyteller.models.cards import ALT_TEXT_MAX_LENGTH

from .selectors import card_picture_url
from .services import own_decks
from .services.cards import MAX_IMAGE_BYTES
from .services.reports import card_review_request

router = Router(tags=["decks"])  # mounted at the API's root by the kind (``StorytellerKind.api_routers``)


class DeckCardOut(Answer):
    id: int
    image: str = Field(description="The absolute URL that serves the picture (to those who may see the deck).")
    alt: str = Field(description="The picture in words, as its owner wrote them (in `alt_lang`).")
    alt_lang: str = Field(description="The language the owner wrote `alt` in.")
    waiting: bool = Field(
        False,
        description="Uploaded from a page without its words: not dealt until its owner confirms `alt` (a suggestion "
        "read from the picture, or empty).",
    )
    hidden: bool = Field(
        False, description="Hidden after players reported it (only its owner sees it, until an admin decides)."
    )
    review_requested: bool = Field(
        False,
        description="Hidden, and its owner asked for a review (`POST .../review`): first in the admins' queue.",
    )


class DeckOut(Answer):
    id: int
    name: str
    cards: list[DeckCardOut] = Field(description="The deck's cards in their order.")
    owner: str = Field(description="The owner's username.")
    shared: bool = Field(
        description="True: another player's deck, shared with you (you may play on it, not change it)."
    )
    shared_with: list[str] = Field(description="Usernames the deck is shared with (for its owner; empty for others).")
    public: bool = Field(
        False,
        description="Made public by its owner: the players it is shared with may make public games on it (else "
        "409 `deck_private`), and whoever watches such a game sees the cards dealt in it. Its pictures are never "
        "listed to anyone else.",
    )


class Quota(Answer):
    cards: int = Field(description="Cards you hold over all your decks.")
    max_cards: int
    bytes: int = Field(description="Bytes your pictures take, as stored.")
    max_bytes: int


class DeckList(Answer):
    decks: list[DeckOut] = Field(description="Your decks first, then those shared with you, by name.")
    quota: Quota


class DeckIn(Request):
    name: str = Field(min_length=1, max_length=80)


class DeckChange(Request):
    name: str | None = Field(None, min_length=1, max_length=80, description="A new name.")
    public: bool | None = Field(None, description="Make the deck public (true) or private again (false).")


class DeckCardChange(Request):
    alt: str | None = Field(
        None, min_length=1, max_length=ALT_TEXT_MAX_LENGTH, description="New words (confirms them)."
    )
    move: Literal["up", "down"] | None = Field(None, description="One place up or down the deck's order.")


class ShareIn(Request):
    username: str = Field(min_length=1, max_length=150)


def card_out(request, card: Card) -> dict:
    return {
        "id": card.pk,
        "image": request.build_absolute_uri(url) if (url := card_picture_url(card)) else "",
        "alt": card.alt_text,
        "alt_lang": card.alt_language or "en",
        "waiting": own_decks.card_is_waiting(card),
        "hidden": card.hidden_at is not None,
        "review_requested": card.hidden_at is not None and card.review_requested_at is not None,
    }


def deck_out(request, deck: Deck) -> dict:
    user = request.user
    mine = deck.owner_id == user.pk
    return {
        "id": deck.pk,
        "name": deck.name,
        "cards": [card_out(request, card) for card in own_decks.deck_cards(deck=deck, user=user)],
        "owner": deck.owner.username if deck.owner is not None else "",
        "shared": not mine,
        "shared_with": sorted(other.username for other in deck.shared_with.all()) if mine else [],
        "public": deck.is_public,
    }


def _read(upload) -> bytes:
    if upload.size is not None and upload.size > MAX_IMAGE_BYTES:
        raise GameError("bad_media", own_decks.too_large_message(), "invalid")
    return upload.read(MAX_IMAGE_BYTES + 1)


@router.post("/decks", summary="Make a deck of your own", response={201: DeckOut, **errors(400, 401, 429)})
def deck_create(request, payload: DeckIn):
    """A new, empty deck of your own pictures, private to you: `{"name"}` (1 to 80 characters). It answers
    the deck, `cards` its (empty) list of cards `{"id", "image", "alt"}`."""
    rate_hit("actions", request)
    deck = own_decks.deck_create(user=request.user, name=payload.name)
    return Status(201, deck_out(request, deck))


@router.get("/decks", summary="Your decks", response={200: DeckList, **errors(401, 429)})
def deck_list(request):
    """Your decks and those shared with you (never anyone else's), with your quota: at most 300 cards and
    100 MB of pictures over all your decks."""
    cards, used = own_decks.own_usage(user=request.user)
    max_cards, max_bytes = own_decks.own_limits()
    return {
        "decks": [deck_out(request, deck) for deck in own_decks.decks_of(user=request.user)],
        "quota": {"cards": cards, "max_cards": max_cards, "bytes": used, "max_bytes": max_bytes},
    }


@router.get("/decks/{id:deck_id}", summary="One deck", response={200: DeckOut, **errors(401, 404, 429)})
def deck_get(request, deck_id: int):
    """A deck of yours or shared with you; any other is 404."""
    return deck_out(request, own_decks.deck_for_viewer(user=request.user, deck_id=deck_id))


@router.patch(
    "/decks/{id:deck_id}",
    summary="Rename a deck, or make it public or private",
    response={200: DeckOut, **errors(400, 401, 403, 404, 429)},
)
def deck_rename(request, deck_id: int, payload: DeckChange):  # its operationId from before the switch
    """`{"name"}` renames it, `{"public": true|false}` makes it public or private again (a new deck is
    private), or both. Only its owner may (403 `not_owner` for a deck shared with you)."""
    rate_hit("actions", request)
    return deck_out(
        request, own_decks.deck_change(user=request.user, deck_id=deck_id, name=payload.name, public=payload.public)
    )


@router.delete("/decks/{id:deck_id}", summary="Delete a deck", response={204: None, **errors(401, 403, 404, 429)})
def deck_delete(request, deck_id: int):
    """The deck and its pictures. Games in progress on it finish with the built-in deck; finished games show a
    grey placeholder for its cards."""
    rate_hit("actions", request)
    own_decks.deck_delete(user=request.user, deck_id=deck_id)
    return Status(204, None)


@router.post(
    "/decks/{id:deck_id}/shares",
    summary="Share a deck with a player",
    response={200: DeckOut, **errors(400, 401, 403, 404, 429)},
)
def deck_share(request, deck_id: int, payload: ShareIn):
    """`{"username"}`: that player may see the deck and play on it, not change it. An unknown name is 400
    `no_such_player`."""
    rate_hit("actions", request)
    return deck_out(request, own_decks.deck_share(user=request.user, deck_id=deck_id, username=payload.username))


@router.delete(
    "/decks/{id:deck_id}/shares/{username}",
    summary="Stop sharing a deck with a player",
    response={204: None, **errors(401, 403, 404, 429)},
)
def deck_unshare(request, deck_id: int, username: str):
    rate_hit("actions", request)
    own_decks.deck_unshare(user=request.user, deck_id=deck_id, username=username)
    return Status(204, None)


@router.post(
    "/decks/{id:deck_id}/cards",
    summary="Add a picture to a deck",
    response={201: DeckCardOut, **errors(400, 401, 403, 404, 409, 429)},
)
def deck_card_create(
    request,
    deck_id: int,
    file: UploadedFile = File(...),
    alt: str = Form(..., min_length=1, max_length=ALT_TEXT_MAX_LENGTH),
):
    """Multipart fields `file` (a JPEG, PNG, WebP or HEIC picture of at most 10 MB and 50 million pixels) and
    `alt` (the picture in words, 1 to 1000 characters, in your language). The picture is turned the way
    its EXIF says, cropped to the card's 2:3 shape, re-encoded at card size as WebP and stripped of all its
    metadata (no camera, no GPS position). Anything else (not a picture, SVG, an animation, too large, or more
    memory to decode than the server allows) is 400 `bad_media`; beyond your quota (300 cards, 100 MB) 409
    `quota`; with no room to decode it just now, 503 `busy` (try again after `Retry-After`)."""
    rate_hit("actions", request)
    card = own_decks.card_upload(
        user=request.user,
        deck_id=deck_id,
        name=file.name or "",
        data=_read(file),
        alt=alt,
        language=translation.get_language(),
    )
    return Status(201, card_out(request, card))


@router.patch(
    "/decks/{id:deck_id}/cards/{id:card_id}",
    summary="Describe or move a card",
    response={200: DeckCardOut, **errors(400, 401, 403, 404, 429)},
)
def deck_card_change(request, deck_id: int, card_id: int, payload: DeckCardChange):
    """`{"alt"}` gives the card new words (and confirms a card waiting for them), `{"move": "up"|"down"}`
    moves it one place in the deck's order."""
    rate_hit("actions", request)
    user = request.user
    card = None
    if payload.alt is not None:
        card = own_decks.card_alt_edit(
            user=user, deck_id=deck_id, card_id=card_id, alt=payload.alt, language=translation.get_language()
        )
    if payload.move is not None:
        by = -1 if payload.move == "up" else 1
        card = own_decks.card_move(user=user, deck_id=deck_id, card_id=card_id, by=by)
    if card is None:
        card = own_decks.card_get(user=user, deck_id=deck_id, card_id=card_id)
    return card_out(request, card)


@router.post(
    "/decks/{id:deck_id}/cards/{id:card_id}/review",
    summary="Ask for a review of a hidden card",
    response={200: DeckCardOut, **errors(401, 404, 409, 429)},
)
def deck_card_review(request, deck_id: int, card_id: int):
    """Your card hidden after players reported it (`"hidden": true`): an admin is asked to look at it first
    of all the reports to decide. Once each time it is hidden (then 409 `review_requested`); a card that is
    not hidden is 409 `not_hidden`; one not in your decks 404. An admin's "Keep" shows it again, in your
    deck and in games; "Remove" deletes it."""
    rate_hit("actions", request)
    return card_out(request, card_review_request(user=request.user, deck_id=deck_id, card_id=card_id))


@router.delete(
    "/decks/{id:deck_id}/cards/{id:card_id}",
    summary="Delete a card",
    response={204: None, **errors(401, 403, 404, 429)},
)
def deck_card_delete(request, deck_id: int, card_id: int):
    """The card and its picture. A game in progress that holds it finishes with the built-in deck; a finished
    game shows a grey placeholder."""
    rate_hit("actions", request)
    own_decks.card_delete(user=request.user, deck_id=deck_id, card_id=card_id)
    return Status(204, None)
