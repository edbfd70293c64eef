"""Decks and cards: choosing a deck for a game, adding pictures, retiring cards.

Every picture is decoded by Pillow from a short list of formats, checked, cropped
to the card's 2:3 shape, resized and re-encoded as WebP before it is stored: what
a player's browser receives is never the uploaded file itself (no scripts, no
EXIF with a location, no odd format), and no file name of the uploader is kept.
"""

import csv
import io
import json
import warnings
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from PIL import Image, UnidentifiedImageError

from accounts.text import TextRefused, text_clean
from games.services.errors import GameError
from storyteller.models import Card, Deck
from storyteller.models.cards import ALT_TEXT_MAX_LENGTH, TAGS_MAX_LENGTH, alt_languages, validate_alt_texts

from .picture_decoding import DecodeFailed, NoRoom, card_decode, decode_budget
from .picture_worker import decode_memory

DEFAULT_DECK_SLUG = "dream"  # the illustrated deck shipped with Fabula

CARD_SIZE = (480, 720)  # width, height: every card, whatever was uploaded
MIN_SOURCE_SIZE = (240, 360)  # smaller pictures would look blurred once enlarged
IMAGE_FORMATS = ("PNG", "JPEG", "WEBP")
WEBP_QUALITY = 85
DRAFT_SIDE = 2 * max(CARD_SIZE)  # a JPEG is decoded no smaller than this on either side
MAX_IMAGE_BYTES = 10 * 1024 * 1024
MAX_IMAGE_PIXELS = 40_000_000  # decoded, a picture takes about 4 bytes a pixel
MAX_ZIP_BYTES = 50 * 1024 * 1024
MAX_ZIP_FILES = 500
MAX_ZIP_UNPACKED_BYTES = 200 * 1024 * 1024

MB = 1024 * 1024


class CardImageError(Exception):
    """A picture that cannot become a card; ``message`` says why, for the uploader."""

    def __init__(self, message):
        super().__init__(str(message))
        self.message = message


class PicturesBusy(CardImageError):
    """No room to decode the picture now (``picture_decoding``): try again in a moment."""


class CardImportError(Exception):
    """Nothing was imported. ``problems`` lists (file name, why) for each refused file."""

    def __init__(self, message, problems: Sequence[tuple[str, str]] = ()):
        super().__init__(str(message))
        self.message = message
        self.problems = list(problems)


@dataclass(frozen=True)
class PreparedImage:
    """A checked picture, already at card size and encoded as WebP."""

    content: bytes = field(repr=False)
    # The picture's own description (EXIF, XMP), for its uploader to confirm: "" if it has none.
    suggested_alt: str = ""


@dataclass(frozen=True)
class CardImport:
    cards: list[Card]

    @property
    def without_alt_text(self) -> list[Card]:
        return [card for card in self.cards if not card.alt_text]


# --- choosing a deck ---------------------------------------------------------------


def storyteller_cards_needed(seats: int, hand_size: int | None = None) -> int:
    """Cards a deck must hold in play to deal a game of ``seats`` players.

    The engine deals every hand at the start (rules: 7 cards each with 3
    players, 6 otherwise; or the house rule's ``hand_size``) and refuses a smaller
    deck; a test keeps the two agreeing.
    """
    return (hand_size or (7 if seats == 3 else 6)) * seats


def deck_for_new_game(*, deck: Deck | None, seats: int, hand_size: int | None = None) -> Deck:
    """The deck a new Storyteller game for ``seats`` players will be dealt from.

    Without a choice: the illustrated deck if it can deal the game, otherwise the
    oldest active deck that can. Raises ``GameError`` for a retired deck or one
    with too few cards in play.
    """
    needed = storyteller_cards_needed(seats, hand_size)
    if deck is None:
        playable = Deck.objects.builtin().filter(is_active=True).with_card_counts().filter(cards_in_play__gte=needed)
        deck = playable.filter(slug=DEFAULT_DECK_SLUG).first() or playable.order_by("pk").first()
        if deck is None:
            raise GameError(
                "no_deck",
                _("There is no card deck with enough cards for %(seats)d players.") % {"seats": seats},
                "invalid",
            )
        return deck
    if not deck.is_active:
        raise GameError(
            "deck_retired", _("The deck “%(deck)s” is retired; choose another.") % {"deck": deck.name}, "invalid"
        )
    in_play = Card.objects.in_play().filter(deck=deck).count()
    if in_play < needed:
        raise _too_small(deck=deck, count=in_play, seats=seats, needed=needed)
    return deck


def _too_small(*, deck: Deck, count: int, seats: int, needed: int) -> GameError:
    # 409: the deck is well named, it just cannot deal this game (issue 33's contract).
    return GameError(
        "deck_too_small",
        _("The deck “%(deck)s” has %(count)d cards; %(seats)d players need at least %(needed)d.")
        % {"deck": deck.name, "count": count, "seats": seats, "needed": needed},
        "conflict",
    )


def storyteller_cards_per_round(seats: int) -> int:
    """Cards one round takes from the hands (and the refill from the draw pile): the storyteller's
    and one a player, two each with three players (rules/storyteller.md)."""
    return 1 + (seats - 1) * (2 if seats == 3 else 1)


def own_cards_needed(seats: int, hand_size: int | None = None) -> int:
    """Cards a player's deck must hold in play for "own cards only": the deal and one round's refill."""
    return storyteller_cards_needed(seats, hand_size) + storyteller_cards_per_round(seats)


def top_up_target(*, top_up: Deck | None, seats: int, hand_size: int | None = None) -> int:
    """How many cards a game on a player's deck is dealt from by default: as many as the site's deck
    would give it (a game as long as usual), at least the deal and one round."""
    builtin = Card.objects.in_play().filter(deck=top_up).count() if top_up is not None else 0
    return max(own_cards_needed(seats, hand_size), builtin)


@dataclass(frozen=True)
class DeckChoice:
    """The deck a new game is dealt from; for a player's deck, the site's deck that tops it up
    (None: it holds enough, or "own cards only")."""

    deck: Deck
    top_up: Deck | None = None
    own_cards_only: bool = False

    def options(self) -> dict:
        if self.deck.owner_id is None:
            return {"deck": self.deck.pk}
        chosen = {"deck": self.deck.pk, "own_cards_only": self.own_cards_only}
        if self.top_up is not None:
            chosen["top_up"] = self.top_up.pk
        return chosen


NO_SUCH_DECK = _("There is no such card deck.")
DECK_PRIVATE = _(
    "This deck is another player's and private: only they can make a public game on it. Make the game private, "
    "or ask them to make the deck public."
)


def deck_choice_for_new_game(
    *,
    deck_id: int | None,
    creator,
    seats: int,
    hand_size: int | None = None,
    own_cards_only: bool = False,
    table_deck: bool = False,
    public: bool = False,
) -> DeckChoice:
    """The deck ``creator`` chose for a new game of ``seats`` (None: the site's default), checked.

    A site's deck: as ``deck_for_new_game``. A player's deck must be one ``creator`` may use (their own, or
    shared with them), else 404 ``not_found`` as for no deck at all: another player's deck is not
    said to exist (``table_deck``: the rematch of a game ``creator`` played on it, which its table may
    go on with). A ``public`` game on it (anyone may join and watch) is its owner's to make, or anyone's
    who may use it once its owner made it public (``Deck.is_public``), else 409 ``deck_private``. With
    ``own_cards_only`` it must hold the deal and one round (else 409 ``deck_too_small``); without, a deck
    smaller than the site's is topped up from the site's deck.
    """
    if deck_id is None:
        return DeckChoice(deck=deck_for_new_game(deck=None, seats=seats, hand_size=hand_size))
    deck = Deck.objects.filter(pk=deck_id, removed_at__isnull=True).first()
    if deck is None:
        raise GameError("not_found", NO_SUCH_DECK, "not_found")
    if deck.owner_id is None:
        return DeckChoice(deck=deck_for_new_game(deck=deck, seats=seats, hand_size=hand_size))
    user_id = getattr(creator, "pk", None)
    if not table_deck and (user_id is None or not Deck.objects.usable_by(creator).filter(pk=deck.pk).exists()):
        raise GameError("not_found", NO_SUCH_DECK, "not_found")
    if public and deck.owner_id != user_id and not deck.is_public:
        raise GameError("deck_private", DECK_PRIVATE, "conflict")
    in_play = Card.objects.in_play().filter(deck=deck).count()
    if own_cards_only:
        needed = own_cards_needed(seats, hand_size)
        if in_play < needed:
            raise _too_small(deck=deck, count=in_play, seats=seats, needed=needed)
        return DeckChoice(deck=deck, own_cards_only=True)
    top_up = deck_for_new_game(deck=None, seats=seats, hand_size=hand_size)
    if in_play >= top_up_target(top_up=top_up, seats=seats, hand_size=hand_size):
        return DeckChoice(deck=deck)
    return DeckChoice(deck=deck, top_up=top_up)


# --- retiring and restoring ----------------------------------------------------------


def cards_retire(*, cards) -> int:
    """Deal these cards in no new game; games already dealt keep them. Returns how many changed."""
    return Card.objects.filter(pk__in=_pks(cards), is_retired=False).update(is_retired=True)


def cards_restore(*, cards) -> tuple[int, int]:
    """Deal these cards again; returns (restored, left retired for want of an alt text)."""
    pks = _pks(cards)
    retired = Card.objects.filter(pk__in=pks, is_retired=True)
    blocked = retired.filter(alt_text="").count()
    restored = retired.exclude(alt_text="").update(is_retired=False)
    return restored, blocked


def _pks(cards) -> list[int]:
    return [card.pk for card in cards]


def decks_set_active(*, decks, is_active: bool) -> int:
    return Deck.objects.filter(pk__in=_pks(decks)).exclude(is_active=is_active).update(is_active=is_active)


# --- adding pictures -----------------------------------------------------------------


def tags_clean(tags) -> str:
    """Tags as stored: trimmed, without repeats, separated by ", "."""
    if isinstance(tags, str):
        tags = tags.split(",")
    seen: dict[str, None] = {}
    for tag in tags:
        tag = _one_line(str(tag))
        if tag and tag.lower() not in {known.lower() for known in seen}:
            seen[tag] = None
    cleaned = ", ".join(seen)
    if len(cleaned) > TAGS_MAX_LENGTH:
        raise CardImageError(_("The tags are longer than %(max)d characters.") % {"max": TAGS_MAX_LENGTH})
    return cleaned


def _one_line(text: str) -> str:
    """Spaces for runs of whitespace, and no control characters (PostgreSQL stores no NUL)."""
    return "".join(char for char in " ".join(text.split()) if char.isprintable())


def card_image_prepare(
    *,
    name: str,
    data: bytes,
    formats: tuple[str, ...] = IMAGE_FORMATS,
    max_pixels: int = MAX_IMAGE_PIXELS,
    refuse_animation: bool = False,
    suggest_alt: bool = False,
) -> PreparedImage:
    """Check an uploaded picture and turn it into a card image, or raise ``CardImageError``.

    ``formats``: the Pillow formats read (a player's own deck adds HEIF where pillow-heif is installed);
    ``max_pixels``: the decompression-bomb limit of this path, checked on the header's size before any
    pixel is decoded; ``refuse_animation``: an animated picture (GIF, APNG, animated WebP) is refused
    rather than cut to its first frame; ``suggest_alt``: the picture's own description, if it has one
    (EXIF ImageDescription or XPComment, XMP dc:description), as ``suggested_alt``, for its uploader to
    confirm. Whatever the picture carried (EXIF, XMP, ICC profile, GPS position) stays behind: the card
    is re-encoded from its pixels, turned the way its EXIF orientation says first, with no metadata.
    """
    if len(data) > MAX_IMAGE_BYTES:
        raise CardImageError(_("It is larger than %(mb)d MB.") % {"mb": MAX_IMAGE_BYTES // MB})
    if _looks_like_svg(name, data):
        raise CardImageError(_("SVG pictures are refused: they can carry scripts. Export it as PNG, JPEG or WebP."))
    try:
        # Pillow warns about a picture of too many pixels and refuses one of far
        # too many; both are refused here, before anything is decoded. Only the header is read in this
        # process: the pixels are decoded in one of its own (``picture_decoding``).
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=formats) as probe:
                _check_dimensions(*probe.size, max_pixels=max_pixels)
                if refuse_animation and (getattr(probe, "is_animated", False) or getattr(probe, "n_frames", 1) > 1):
                    raise CardImageError(_("Animated pictures are refused: send a still one."))
                # A JPEG is decoded at 1/2, 1/4 or 1/8 of its size where that still leaves twice the card's
                # longer side both ways (a phone's 12 megapixels at half): several times less to decode and
                # scale, no visible loss at card size. Other formats are decoded whole: their budget says so.
                need = decode_memory(probe, data_bytes=len(data), draft_side=DRAFT_SIDE)
                found = probe.format
                probe.verify()
    except CardImageError:
        raise
    except UnidentifiedImageError:
        if "HEIF" in formats:
            raise CardImageError(_("It is not a JPEG, PNG, WebP or HEIC picture.")) from None
        raise CardImageError(_("It is not a PNG, JPEG or WebP picture.")) from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise CardImageError(_too_many_pixels(max_pixels)) from None
    except Exception:  # Pillow reports damaged data with many exception types
        raise CardImageError(DAMAGED) from None
    budget = decode_budget()
    if need > budget:
        raise CardImageError(
            _(
                "Decoded, it would take about %(need)d MB of memory, more than the %(max)d MB allowed: "
                "send it with fewer pixels, or as a JPEG."
            )
            % {"need": -(-need // MB), "max": budget // MB}
        )
    try:
        content, descriptions = card_decode(
            data,
            need=need,
            card_size=CARD_SIZE,
            draft_side=DRAFT_SIDE,
            formats=(found,) if found in formats else formats,  # what the header said it is, and nothing else
            quality=WEBP_QUALITY,
            describe=suggest_alt,
        )
    except NoRoom:
        raise PicturesBusy(_("Many pictures are being read just now: try again in a moment.")) from None
    except DecodeFailed:
        raise CardImageError(DAMAGED) from None
    return PreparedImage(content=content, suggested_alt=_described(descriptions) if suggest_alt else "")


DAMAGED = _("The picture is damaged or incomplete.")


# What cameras write as a picture's description when nobody described it: no help to anyone.
CAMERA_DESCRIPTIONS = frozenset(
    {"olympus digital camera", "sony dsc", "default", "image", "picture", "photo", "digital camera", "samsung"}
)


def _described(found: list[str]) -> str:
    """The first of the picture's own descriptions (``picture_worker``) worth suggesting: one line of at most
    ``ALT_TEXT_MAX_LENGTH`` characters that the text policy keeps (``accounts.text``), else ""."""
    for text in found:
        text = _one_line(text.replace("\x00", " "))
        if not text or text.lower() in CAMERA_DESCRIPTIONS:
            continue
        try:
            text = text_clean(text)
        except TextRefused:
            continue
        return text[:ALT_TEXT_MAX_LENGTH]
    return ""


def _looks_like_svg(name: str, data: bytes) -> bool:
    if PurePosixPath(name.lower()).suffix in {".svg", ".svgz"}:
        return True
    head = data[:1024].lstrip().lower()
    return head.startswith(b"<") and b"<svg" in head


def _too_many_pixels(max_pixels: int = MAX_IMAGE_PIXELS):
    return _("It has more than %(mp)d million pixels.") % {"mp": max_pixels // 1_000_000}


def _check_dimensions(width: int, height: int, *, max_pixels: int = MAX_IMAGE_PIXELS) -> None:
    if width * height > max_pixels:
        raise CardImageError(_too_many_pixels(max_pixels))
    min_width, min_height = MIN_SOURCE_SIZE
    if width < min_width or height < min_height:
        raise CardImageError(
            _("It is %(width)d × %(height)d pixels; a card needs at least %(min_width)d × %(min_height)d.")
            % {"width": width, "height": height, "min_width": min_width, "min_height": min_height}
        )


def alt_texts_clean(texts) -> dict[str, str]:
    """Translations of an alt text as stored: {language: one line of text}, without the empty ones.

    Raises ``CardImageError`` for a language the site does not have (or English, which is the alt
    text itself) or a text that is too long.
    """
    if texts is None:
        return {}
    if not isinstance(texts, dict):
        raise CardImageError(_("The translated alt texts should be an object of language: text."))
    cleaned = {}
    for language, text in texts.items():
        if text is None:
            text = ""
        if not isinstance(text, str):
            raise CardImageError(_("The alt text in “%(language)s” is not text.") % {"language": language})
        text = _one_line(text)
        if text or language not in alt_languages():
            cleaned[language] = text  # an unknown language is refused below, even without words
    try:
        validate_alt_texts(cleaned)
    except ValidationError as error:
        raise CardImageError(error.messages[0]) from None
    return cleaned


def card_create(
    *,
    deck: Deck,
    image: PreparedImage,
    alt_text: str,
    tags: str = "",
    is_retired: bool = False,
    alt_texts: dict[str, str] | None = None,
) -> Card:
    """A new card from a prepared picture (see ``card_image_prepare``); ``alt_texts`` translates
    ``alt_text`` into the site's other languages ({language: text})."""
    fields = {
        "alt_text": alt_text,
        "alt_texts": alt_texts_clean(alt_texts),
        "tags": tags_clean(tags),
        "is_retired": is_retired,
    }
    return _cards_store(deck=deck, entries=[(image, fields)])[0]


def _cards_store(*, deck: Deck, entries) -> list[Card]:
    """Save the pictures and create their cards, all or nothing.

    The files are written first, then the rows in one transaction; if anything
    fails, the files written are deleted again, so storage keeps no picture
    without a card. (Call it outside any transaction of your own: a rollback
    after it returns would leave the files.)
    """
    image_field = Card._meta.get_field("image")
    storage = image_field.storage
    saved: list[str] = []
    try:
        with transaction.atomic():
            cards = []
            for image, fields in entries:
                name = storage.save(image_field.generate_filename(None, "card.webp"), ContentFile(image.content))
                saved.append(name)
                cards.append(Card(deck=deck, image=name, **fields))
            return Card.objects.bulk_create(cards)
    except BaseException:
        for name in saved:
            storage.delete(name)
        raise


# --- importing a zip -----------------------------------------------------------------

IGNORED_PARTS = ("__MACOSX",)  # what archivers add beside the files


def cards_import_zip(*, deck: Deck, archive) -> CardImport:
    """Add a card for every picture in a zip, or none at all.

    ``archive`` is a file object (an upload). A ``.csv`` (columns file, alt,
    tags, and alt_da, alt_fi... for the alt text in the site's other languages)
    or ``.json`` file in the zip (a list of {"file", "alt", "tags"}, or an
    object with such a list under "cards", like the built-in decks' manifests)
    gives alt texts and tags by file name. In JSON the translations are
    "alt_texts": {"fi": ...} (as in the built-in decks), "alt_fi" keys, or "alt"
    as an object {"en": ..., "fi": ...}. A picture without an (English) alt
    text is imported retired, with an empty alt text: it is dealt once someone
    has described it and restored it.

    Raises ``CardImportError`` listing every refused file and why.
    """
    archive_name = getattr(archive, "name", "") or "zip"
    size = archive.seek(0, io.SEEK_END)
    archive.seek(0)
    if size > MAX_ZIP_BYTES:
        raise CardImportError(_("The zip is larger than %(mb)d MB.") % {"mb": MAX_ZIP_BYTES // MB})
    try:
        zipped = zipfile.ZipFile(archive)
    except (zipfile.BadZipFile, OSError, ValueError):
        raise CardImportError(_("“%(name)s” is not a zip file.") % {"name": archive_name}) from None
    with zipped:
        members = [info for info in zipped.infolist() if not info.is_dir() and not _is_archiver_litter(info.filename)]
        # The sizes come from the zip's directory and bound what reading can
        # return, so a zip bomb is refused here, before anything is unpacked.
        if len(members) > MAX_ZIP_FILES:
            raise CardImportError(
                _("The zip holds %(count)d files; at most %(max)d are accepted at once.")
                % {"count": len(members), "max": MAX_ZIP_FILES}
            )
        if sum(info.file_size for info in members) > MAX_ZIP_UNPACKED_BYTES:
            raise CardImportError(
                _("Unpacked, the zip would take more than %(mb)d MB.") % {"mb": MAX_ZIP_UNPACKED_BYTES // MB}
            )
        problems: list[tuple[str, str]] = []
        safe = []
        for info in members:
            reason = _unsafe_member(info)
            if reason:
                problems.append((info.filename, reason))
            else:
                safe.append(info)
        manifests = [info for info in safe if PurePosixPath(info.filename).suffix.lower() in {".csv", ".json"}]
        pictures = [info for info in safe if info not in manifests]
        details: dict[str, dict] = {}
        if len(manifests) > 1:
            problems.extend(
                (info.filename, str(_("Only one .csv or .json file of alt texts is read."))) for info in manifests
            )
        elif manifests:
            try:
                details = _read_manifest(manifests[0].filename, zipped.read(manifests[0]))
            except CardImportError as error:
                problems.append((manifests[0].filename, str(error.message)))
        by_name: dict[str, zipfile.ZipInfo] = {}
        for info in pictures:
            base = PurePosixPath(info.filename).name
            if base in by_name:
                problems.append((info.filename, str(_("Another file in the zip has the same name."))))
            else:
                by_name[base] = info
        for base in sorted(set(details) - set(by_name)):
            problems.append((base, str(_("The file of alt texts names it, but it is not in the zip."))))
        prepared = []
        for base, info in by_name.items():
            try:
                image = card_image_prepare(name=info.filename, data=_read_member(zipped, info))
                meta = details.get(base, {})
                alt_text = meta.get("alt_text", "")
                fields = {
                    "alt_text": alt_text,
                    "alt_texts": meta.get("alt_texts", {}),
                    "tags": tags_clean(meta.get("tags", "")),
                    "is_retired": not alt_text,
                }
            except CardImageError as error:
                problems.append((info.filename, str(error.message)))
                continue
            prepared.append((image, fields))
    if problems:
        raise CardImportError(
            ngettext(
                "Nothing was imported: %(count)d file was refused.",
                "Nothing was imported: %(count)d files were refused.",
                len(problems),
            )
            % {"count": len(problems)},
            problems,
        )
    if not prepared:
        raise CardImportError(_("The zip holds no pictures."))
    return CardImport(cards=_cards_store(deck=deck, entries=prepared))


def _is_archiver_litter(name: str) -> bool:
    parts = PurePosixPath(name).parts
    return any(part in IGNORED_PARTS or (part.startswith(".") and part != "..") for part in parts)


def _unsafe_member(info: zipfile.ZipInfo) -> str | None:
    name = info.filename
    parts = PurePosixPath(name).parts
    if name.startswith("/") or "\\" in name or ".." in parts or (parts and ":" in parts[0]):
        return str(_("Its name points outside the zip."))
    if info.flag_bits & 0x1:
        return str(_("It is encrypted."))
    if info.file_size > MAX_IMAGE_BYTES:
        return str(_("It is larger than %(mb)d MB.") % {"mb": MAX_IMAGE_BYTES // MB})
    return None


def _read_member(zipped: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    try:
        with zipped.open(info) as member:
            # Never more than the limit, whatever the directory claimed.
            return member.read(MAX_IMAGE_BYTES + 1)
    except (zipfile.BadZipFile, NotImplementedError, RuntimeError, OSError, EOFError):
        raise CardImageError(_("It cannot be unpacked: the zip is damaged or uses an unknown compression.")) from None


def _read_manifest(name: str, data: bytes) -> dict[str, dict]:
    """File name -> {"alt_text", "alt_texts", "tags"} from the zip's .csv or .json file."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CardImportError(_("It is not UTF-8 text.")) from None
    if name.lower().endswith(".json"):
        try:
            loaded = json.loads(text)
        except ValueError:
            raise CardImportError(_("It is not valid JSON.")) from None
        rows = loaded.get("cards") if isinstance(loaded, dict) else loaded
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise CardImportError(_("It should be a list of objects with “file”, “alt” and “tags”."))
    else:
        reader = csv.DictReader(io.StringIO(text))
        if "file" not in (reader.fieldnames or ()):
            raise CardImportError(_("Its first line should name the columns: file, alt, tags."))
        try:
            rows = list(reader)
        except csv.Error:
            raise CardImportError(_("It is not a valid CSV file.")) from None
    details: dict[str, dict] = {}
    for number, row in enumerate(rows, start=1):
        file = row.get("file")
        alt = row.get("alt", row.get("alt_text", ""))
        tags = row.get("tags", "")
        if not isinstance(file, str) or not file.strip():
            raise CardImportError(_("Entry %(n)d names no file.") % {"n": number})
        translations = _translations_of(row, number)
        if isinstance(alt, dict):  # "alt": {"en": ..., "fi": ...}
            translations = {**alt, **translations}
            alt = translations.pop(settings.LANGUAGE_CODE, "")
        if not isinstance(alt, str) or not isinstance(tags, (str, list)):
            raise CardImportError(_("Entry %(n)d: alt is text and tags a list or text.") % {"n": number})
        base = PurePosixPath(file.strip()).name
        if base in details:
            raise CardImportError(_("“%(file)s” is described twice.") % {"file": base})
        alt = _one_line(alt)
        if len(alt) > ALT_TEXT_MAX_LENGTH:
            raise CardImportError(
                _("The alt text of “%(file)s” is longer than %(max)d characters.")
                % {"file": base, "max": ALT_TEXT_MAX_LENGTH}
            )
        try:
            translations = alt_texts_clean(translations)
        except CardImageError as error:
            raise CardImportError(_("“%(file)s”: %(problem)s") % {"file": base, "problem": error.message}) from None
        details[base] = {"alt_text": alt, "alt_texts": translations, "tags": tags}
    return details


def _translations_of(row: dict, number: int) -> dict:
    """The translations of an entry's alt text: its "alt_texts" object and its "alt_<language>" keys."""
    translations = row.get("alt_texts") or {}
    if not isinstance(translations, dict):
        raise CardImportError(_("Entry %(n)d: alt_texts should be an object of language: text.") % {"n": number})
    translations = dict(translations)
    for key, text in row.items():
        if isinstance(key, str) and key.startswith("alt_") and key not in ("alt_text", "alt_texts"):
            translations[key.removeprefix("alt_")] = text
    return translations
