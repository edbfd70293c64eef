"""A player's own decks: make, rename, share and delete them; add, describe, reorder and delete their pictures.

Who may do what:

- a deck is its owner's to change; the players it is shared with may see it and play on it (``not_owner``,
  403, when they try to change it); to anyone else it does not exist (``not_found``, 404);
- a player holds at most ``FABULA_OWN_CARDS_MAX`` cards and ``FABULA_OWN_CARDS_MAX_BYTES`` bytes of pictures
  (as stored: re-encoded at card size) over all their decks; beyond that an upload is ``quota`` (409).

A picture is decoded, checked and re-encoded (``cards.card_image_prepare``) before any transaction is
opened: it takes a good part of a second for a phone's photo, and nobody waits on a lock for it. Only the
row is written inside one, with the player's quota counted under a lock of their account's row (two
uploads at once cannot both take the last place).

Removing a card (its owner, an admin, or the owner's account deleted) follows one rule: a card no game
ever dealt goes, row and file; one that a game dealt stays as a row "removed" (no picture, no words), so
that finished games keep their ids and show a grey placeholder. ``cards_withdrawn`` is sent inside the
transaction, for games in progress to let go of the cards.
"""

import uuid

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Count, Max, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.text import TextRefused, text_clean
from games.services.errors import GameError
from storyteller.models import Card, Deck
from storyteller.models.card_stats import CardDeal, StorytellerTableCard
from storyteller.models.cards import ALT_TEXT_MAX_LENGTH, DECK_NAME_MAX_LENGTH, alt_language
from storyteller.models.rounds import StorytellerRound
from storyteller.signals import cards_withdrawn

from .cards import IMAGE_FORMATS, MAX_IMAGE_BYTES, CardImageError, PicturesBusy, PreparedImage, card_image_prepare

try:  # HEIC/HEIF (iPhones' photos): pillow-heif registers its decoder with Pillow
    import pillow_heif
except ImportError:  # pragma: no cover - a dependency; without it HEIC is refused as not a picture
    OWN_FORMATS: tuple[str, ...] = IMAGE_FORMATS
else:
    pillow_heif.register_heif_opener(thumbnails=False)
    OWN_FORMATS = (*IMAGE_FORMATS, "HEIF")

# A player's picture: at most 50 million pixels decoded (this path's decompression-bomb limit, checked on
# the header before any pixel is decoded), 10 MB as sent (``cards.MAX_IMAGE_BYTES``).
OWN_MAX_PIXELS = 50_000_000


def _missing() -> GameError:
    return GameError("not_found", _("There is no such deck."), "not_found")


def _not_owner() -> GameError:
    return GameError("not_owner", _("This deck is shared with you: only its owner can change it."), "forbidden")


def _bad(code: str, message) -> GameError:
    return GameError(code, message, "invalid")


# --- reading ------------------------------------------------------------------------


def deck_for_viewer(*, user, deck_id) -> Deck:
    """A player deck ``user`` may see (their own, or shared with them), or ``not_found``."""
    if user is None or not user.is_authenticated:
        raise _missing()
    deck = Deck.objects.usable_by(user).filter(pk=deck_id).select_related("owner").first()
    if deck is None:
        raise _missing()
    return deck


def deck_for_owner(*, user, deck_id, lock: bool = False) -> Deck:
    """``user``'s own deck, or ``not_owner`` (one shared with them) or ``not_found`` (any other)."""
    deck = deck_for_viewer(user=user, deck_id=deck_id)
    if deck.owner_id != user.pk:
        raise _not_owner()
    if lock:
        deck = Deck.objects.select_for_update().get(pk=deck.pk)
        if deck.removed_at is not None or deck.owner_id != user.pk:
            raise _missing()
    return deck


def decks_of(*, user):
    """``user``'s decks and those shared with them, their own first, then by name; each with ``hidden_cards``,
    its cards hidden after reports (what its owner is told on "My decks")."""
    hidden = Q(cards__hidden_at__isnull=False, cards__removed_at__isnull=True)
    decks = (
        Deck.objects.usable_by(user)
        .annotate(hidden_cards=Count("cards", filter=hidden, distinct=True))
        .select_related("owner")
        .prefetch_related("shared_with")
    )
    return sorted(decks, key=lambda deck: (deck.owner_id != user.pk, deck.name.casefold(), deck.pk))


def deck_cards(*, deck: Deck, user) -> list[Card]:
    """The deck's cards in their order, as ``user`` may see them: its owner every live card (a hidden one too,
    marked by ``hidden_at``), a player it is shared with only those in play."""
    cards = Card.objects.filter(deck=deck, removed_at__isnull=True).order_by("position", "pk")
    if deck.owner_id != user.pk:  # not a hidden one, nor one whose words its owner has not confirmed
        cards = cards.filter(hidden_at__isnull=True, is_retired=False)
    return list(cards)


def own_usage(*, user) -> tuple[int, int]:
    """(cards, bytes) ``user`` holds over all their decks: every card with a picture (hidden ones too)."""
    live = Card.objects.filter(deck__owner=user, deck__removed_at__isnull=True, removed_at__isnull=True)
    figures = live.aggregate(bytes=Sum("size"), cards=Count("pk"))
    return figures["cards"], figures["bytes"] or 0


def own_limits() -> tuple[int, int]:
    return settings.FABULA_OWN_CARDS_MAX, settings.FABULA_OWN_CARDS_MAX_BYTES


# --- decks --------------------------------------------------------------------------


def _deck_name(name) -> str:
    if not isinstance(name, str):
        raise _bad("bad_name", _("Give the deck a name."))
    try:
        name = text_clean(" ".join(name.split()))
    except TextRefused as refused:
        raise _bad("bad_name", refused.message) from None
    if not name:
        raise _bad("bad_name", _("Give the deck a name."))
    if len(name) > DECK_NAME_MAX_LENGTH:
        raise _bad(
            "bad_name",
            _("A deck's name is at most %(max)d characters.") % {"max": DECK_NAME_MAX_LENGTH},
        )
    return name


def deck_create(*, user, name) -> Deck:
    """A new, empty deck of ``user``'s, private to them."""
    name = _deck_name(name)
    return Deck.objects.create(owner=user, name=name, slug=f"own-{uuid.uuid4().hex[:20]}", is_active=True)


def deck_rename(*, user, deck_id, name) -> Deck:
    name = _deck_name(name)
    with transaction.atomic():
        deck = deck_for_owner(user=user, deck_id=deck_id, lock=True)
        deck.name = name
        deck.save(update_fields=["name"])
    return deck


def deck_change(*, user, deck_id, name=None, public=None) -> Deck:
    """Rename ``user``'s deck (``name``), make it public or private (``public``), or both, in one transaction:
    a refusal of either changes nothing. Neither given: 400 ``bad_request``."""
    if name is None and public is None:
        raise _bad("bad_request", _("Give the deck a new name, or say whether it is public."))
    with transaction.atomic():
        if name is not None:
            deck = deck_rename(user=user, deck_id=deck_id, name=name)
        if public is not None:
            deck = deck_set_public(user=user, deck_id=deck_id, public=public)
    return deck


def deck_set_public(*, user, deck_id, public) -> Deck:
    """Make ``user``'s deck public (``public``: the players it is shared with may make public games on it, and
    whoever watches one sees its cards) or private again (the default: public games on it made by others show
    their spectators no picture of it from then on). ``public`` must be a boolean (400 ``bad_request``)."""
    if not isinstance(public, bool):
        raise _bad("bad_request", _("A deck is public or not: say true or false."))
    with transaction.atomic():
        deck = deck_for_owner(user=user, deck_id=deck_id, lock=True)
        if deck.is_public != public:
            deck.is_public = public
            deck.save(update_fields=["is_public"])
    return deck


def deck_share(*, user, deck_id, username) -> Deck:
    """Let the player named ``username`` see ``user``'s deck and play on it. An unknown name is
    ``no_such_player`` (400); sharing with oneself is refused."""
    deck = deck_for_owner(user=user, deck_id=deck_id)
    other = _player_named(username)
    if other is None:
        raise _bad("no_such_player", _("There is no player of that name."))
    if other.pk == user.pk:
        raise _bad("no_such_player", _("This deck is yours already."))
    deck.shared_with.add(other)
    return deck


def deck_unshare(*, user, deck_id, username) -> Deck:
    """No longer share ``user``'s deck with the player named ``username`` (nothing changes if it was not)."""
    deck = deck_for_owner(user=user, deck_id=deck_id)
    other = _player_named(username)
    if other is not None:
        deck.shared_with.remove(other)
    return deck


def _player_named(username):
    if not isinstance(username, str) or not username.strip() or "\x00" in username:
        return None
    User = get_user_model()
    return User.objects.filter(**{f"{User.USERNAME_FIELD}__iexact": username.strip()}, is_active=True).first()


def deck_delete(*, user, deck_id) -> None:
    """Delete ``user``'s deck and its cards (those a game dealt stay, removed: see the module's rule)."""
    with transaction.atomic():
        deck = deck_for_owner(user=user, deck_id=deck_id, lock=True)
        _deck_remove(deck)


def _deck_remove(deck: Deck) -> None:
    """The deck and its cards gone, by the rule; the deck's row stays (nameless, ownerless) only while a card
    of it does. Inside a transaction."""
    cards_remove(cards=Card.objects.filter(deck=deck))
    if Card.objects.filter(deck=deck).exists():  # dealt in a game: kept, removed
        deck.shared_with.clear()
        Deck.objects.filter(pk=deck.pk).update(removed_at=timezone.now(), name="", owner=None, is_active=False)
    else:
        deck.shared_with.clear()
        Deck.objects.filter(pk=deck.pk).delete()


def own_decks_delete(*, user) -> None:
    """Everything of ``user``'s own decks, as their account is deleted: each deck as ``deck_delete``."""
    for deck in Deck.objects.filter(owner=user):
        with transaction.atomic():
            deck = Deck.objects.select_for_update().filter(pk=deck.pk).first()
            if deck is not None:
                _deck_remove(deck)
    # Decks shared with them are no longer.
    for deck in Deck.objects.filter(shared_with=user):
        deck.shared_with.remove(user)


# --- cards --------------------------------------------------------------------------


def card_alt_clean(alt) -> str:
    """A card's words as a player gives them: 1 to ``ALT_TEXT_MAX_LENGTH`` characters of one line, kept by the
    text policy (``accounts.text``); else ``bad_alt`` (400)."""
    if not isinstance(alt, str) or not alt.strip():
        raise _bad("bad_alt", _("Describe the picture in a sentence or two (its alt text)."))
    try:
        alt = text_clean(" ".join(alt.split()))
    except TextRefused as refused:
        raise _bad("bad_alt", refused.message) from None
    if len(alt) > ALT_TEXT_MAX_LENGTH:
        raise _bad("bad_alt", _("The alt text is at most %(max)d characters.") % {"max": ALT_TEXT_MAX_LENGTH})
    return alt


def own_picture_prepare(*, name: str, data: bytes) -> PreparedImage:
    """A player's picture checked and re-encoded (slow: call it outside any transaction), or ``bad_media``;
    ``busy`` (503) when no room to decode it came in time (``picture_decoding``)."""
    try:
        return card_image_prepare(
            name=name,
            data=data,
            formats=OWN_FORMATS,
            max_pixels=OWN_MAX_PIXELS,
            refuse_animation=True,
            suggest_alt=True,
        )
    except PicturesBusy as busy:
        raise GameError("busy", busy.message, "busy") from None
    except CardImageError as error:
        raise _bad("bad_media", error.message) from None


def _quota_check(*, user, adding_bytes: int) -> None:
    cards, used = own_usage(user=user)
    max_cards, max_bytes = own_limits()
    if cards + 1 > max_cards:
        raise GameError(
            "quota",
            _("You have %(count)d cards, the most a player may keep: delete some first.") % {"count": cards},
            "conflict",
        )
    if used + adding_bytes > max_bytes:
        raise GameError(
            "quota",
            _("Your pictures take %(used)s of %(max)s MB: delete some first.")
            % {"used": mb(used), "max": mb(max_bytes)},
            "conflict",
        )


def mb(size: int) -> str:
    """Bytes as megabytes for people: "12", "0.4"."""
    value = size / (1024 * 1024)
    return f"{value:.0f}" if value >= 10 or value == 0 else f"{value:.1f}"


def card_upload(*, user, deck_id, name: str, data: bytes, alt=None, language: str | None = None) -> Card:
    """A new card in ``user``'s deck from an uploaded picture.

    ``alt`` is required from the API (``require_alt``: the caller checks it first). The pages may upload a
    picture before its words (several at once from a phone): then the card waits, not dealt (retired),
    with the picture's own description if it has one as its suggested words, until its owner confirms
    them (``card_alt_edit``). ``language``: the uploader's, that of the words (``Card.alt_language``).
    """
    alt_text = card_alt_clean(alt) if alt not in (None, "") else None
    deck_for_owner(user=user, deck_id=deck_id)  # refused before the slow part
    _quota_check(user=user, adding_bytes=0)
    image = own_picture_prepare(name=name, data=data)  # outside any transaction
    field = Card._meta.get_field("image")
    storage = field.storage
    stored = storage.save(f"cards/own/{uuid.uuid4().hex}.webp", ContentFile(image.content))
    try:
        with transaction.atomic():
            User = get_user_model()
            User.objects.select_for_update().filter(pk=user.pk).first()  # one upload at a time counts the quota
            deck = deck_for_owner(user=user, deck_id=deck_id, lock=True)
            _quota_check(user=user, adding_bytes=len(image.content))
            last = Card.objects.filter(deck=deck).aggregate(last=Max("position"))["last"]
            card = Card.objects.create(
                deck=deck,
                image=stored,
                alt_text=alt_text if alt_text is not None else image.suggested_alt,
                alt_language=alt_language(language),
                is_retired=alt_text is None,
                position=(last or 0) + 1,
                size=len(image.content),
            )
    except BaseException:
        storage.delete(stored)
        raise
    return card


def card_is_waiting(card: Card) -> bool:
    """Whether a player's card waits for its owner to confirm its words (uploaded from a page without them)."""
    return card.is_retired and card.removed_at is None


def _own_card(*, user, deck_id, card_id, lock: bool = True) -> Card:
    deck = deck_for_owner(user=user, deck_id=deck_id, lock=lock)
    card = Card.objects.filter(pk=card_id, deck=deck, removed_at__isnull=True).first()
    if card is None:
        raise GameError("not_found", _("There is no such card in this deck."), "not_found")
    return card


def card_get(*, user, deck_id, card_id) -> Card:
    """A card of ``user``'s own deck (``not_owner``, ``not_found`` as for the deck)."""
    return _own_card(user=user, deck_id=deck_id, card_id=card_id, lock=False)


def too_large_message():
    return _("It is larger than %(mb)d MB.") % {"mb": MAX_IMAGE_BYTES // (1024 * 1024)}


def card_alt_edit(*, user, deck_id, card_id, alt, language: str | None = None) -> Card:
    """The card's words, given or confirmed by its owner: a card waiting for them is dealt from now on."""
    alt = card_alt_clean(alt)
    with transaction.atomic():
        card = _own_card(user=user, deck_id=deck_id, card_id=card_id)
        card.alt_text = alt
        card.alt_texts = {}
        card.alt_language = alt_language(language)
        card.is_retired = False
        card.save(update_fields=["alt_text", "alt_texts", "alt_language", "is_retired"])
    return card


def card_move(*, user, deck_id, card_id, by: int) -> Card:
    """Move a card ``by`` places in its deck's order (-1: one up, 1: one down); at an end it stays."""
    if by not in (-1, 1):
        raise _bad("bad_request", _("A card moves one place up or down."))
    with transaction.atomic():
        card = _own_card(user=user, deck_id=deck_id, card_id=card_id)
        cards = list(
            Card.objects.filter(deck_id=card.deck_id, removed_at__isnull=True).order_by("position", "pk").only("pk")
        )
        order = [other.pk for other in cards]
        index = order.index(card.pk)
        target = index + by
        if 0 <= target < len(order):
            order[index], order[target] = order[target], order[index]
            for position, pk in enumerate(order, start=1):
                Card.objects.filter(pk=pk).exclude(position=position).update(position=position)
        card.refresh_from_db(fields=["position"])
    return card


def card_delete(*, user, deck_id, card_id) -> None:
    """Delete a card of ``user``'s deck (by the module's rule)."""
    with transaction.atomic():
        card = _own_card(user=user, deck_id=deck_id, card_id=card_id)
        cards_remove(cards=Card.objects.filter(pk=card.pk))


def cards_remove(*, cards) -> list[int]:
    """Remove cards by the rule (an owner's, an admin's decision, an account deleted): a card no game dealt
    goes, row and file; any other keeps its row with no picture and no words, ``removed_at`` set. Sends
    ``cards_withdrawn`` with every card's id. Inside a transaction (one is opened if none is); the files go
    once it commits. Returns the ids of the cards removed."""
    with transaction.atomic():
        rows = list(cards.select_for_update().filter(removed_at__isnull=True).only("pk", "image"))
        if not rows:
            return []
        ids = [card.pk for card in rows]
        dealt = (
            set(CardDeal.objects.filter(card_id__in=ids).values_list("card_id", flat=True))
            | set(StorytellerTableCard.objects.filter(card_id__in=ids).values_list("card_id", flat=True))
            | set(StorytellerRound.objects.filter(storyteller_card__in=ids).values_list("storyteller_card", flat=True))
        )
        names = [card.image.name for card in rows if card.image]
        cards_withdrawn.send(sender=Card, card_ids=ids)
        kept = [pk for pk in ids if pk in dealt]
        if kept:
            Card.objects.filter(pk__in=kept).update(
                image="", alt_text="", alt_texts={}, tags="", removed_at=timezone.now(), size=0
            )
        Card.objects.filter(pk__in=[pk for pk in ids if pk not in dealt]).delete()
        storage = Card._meta.get_field("image").storage
        transaction.on_commit(lambda: list(map(storage.delete, names)))
    return ids
