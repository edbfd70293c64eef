"""Drawn and sung clues: an upload checked from its bytes and stored, the clue's media checked, a file to serve.

A file's type is read from its first bytes (magic numbers), never from its name or
the client's header: PNG or WebP (verified by Pillow) up to 512 KB, Ogg, WebM or
MP4 audio up to 1 MB and 20 seconds (the length read from the container: mutagen
for Ogg and MP4, the WebM's own timecodes otherwise, as a browser's recorder often
writes no duration). Anything else is ``bad_media``.
"""

import io
import struct
from dataclasses import dataclass

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.models import Game
from games.selectors.games import game_visible_to
from games.services.errors import GameError
from games.services.locking import game_lock
from storyteller.engine import rules as engine
from storyteller.models import ClueMedia, StorytellerRound

from .game import DEFAULT_CLUE_MODES

MAX_IMAGE_BYTES = 512 * 1024
MAX_SOUND_BYTES = 1024 * 1024
MAX_SOUND_SECONDS = 20
# A recorder stopped at 20 s writes a few milliseconds more.
SOUND_SECONDS_GRACE = 0.5
MAX_IMAGE_SIDE = 4096
# Uploads a seat may make in one game: enough to redraw a clue many times, not to fill the storage.
MAX_UPLOADS_PER_SEAT = 40


@dataclass(frozen=True)
class Sniffed:
    kind: str  # "drawing" or "sound"
    content_type: str
    duration: float | None = None


def _bad(message) -> GameError:
    return GameError("bad_media", message, "invalid")


def media_sniff(data: bytes) -> Sniffed:
    """What the bytes are, checked whole; raises ``GameError`` ``bad_media`` for anything else or too big."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") or (data[:4] == b"RIFF" and data[8:12] == b"WEBP"):
        return _image(data)
    if data.startswith((b"OggS", b"\x1a\x45\xdf\xa3")) or data[4:8] == b"ftyp":
        return _sound(data)
    raise _bad(_("A drawing is a PNG or WebP picture; a sound is Ogg, WebM or MP4 audio."))


def _image(data: bytes) -> Sniffed:
    from PIL import Image, UnidentifiedImageError

    if len(data) > MAX_IMAGE_BYTES:
        raise _bad(_("A drawing is at most 512 KB."))
    try:
        with Image.open(io.BytesIO(data)) as image:
            fmt = image.format
            width, height = image.size
            image.verify()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise _bad(_("That picture cannot be read.")) from None
    if fmt not in ("PNG", "WEBP"):
        raise _bad(_("A drawing is a PNG or WebP picture."))
    if not (0 < width <= MAX_IMAGE_SIDE and 0 < height <= MAX_IMAGE_SIDE):
        raise _bad(_("A drawing is at most 4096 pixels wide and high."))
    return Sniffed("drawing", "image/png" if fmt == "PNG" else "image/webp")


def _sound(data: bytes) -> Sniffed:
    if len(data) > MAX_SOUND_BYTES:
        raise _bad(_("A sound is at most 1 MB."))
    if data.startswith(b"OggS"):
        content_type, seconds = "audio/ogg", _mutagen_length(data, "ogg")
    elif data.startswith(b"\x1a\x45\xdf\xa3"):
        content_type, seconds = "audio/webm", webm_duration(data)
    else:
        content_type, seconds = "audio/mp4", _mutagen_length(data, "mp4")
    if seconds is None or seconds <= 0:
        raise _bad(_("That sound cannot be read."))
    if seconds > MAX_SOUND_SECONDS + SOUND_SECONDS_GRACE:
        raise _bad(_("A sound lasts at most 20 seconds."))
    return Sniffed("sound", content_type, round(seconds, 3))


def _mutagen_length(data: bytes, container: str) -> float | None:
    from mutagen import MutagenError
    from mutagen.mp4 import MP4
    from mutagen.oggflac import OggFLAC
    from mutagen.oggopus import OggOpus
    from mutagen.oggspeex import OggSpeex
    from mutagen.oggvorbis import OggVorbis

    readers = (MP4,) if container == "mp4" else (OggOpus, OggVorbis, OggFLAC, OggSpeex)
    for reader in readers:
        try:
            audio = reader(io.BytesIO(data))
        except (MutagenError, ValueError, struct.error, IndexError, KeyError):
            continue
        length = getattr(audio.info, "length", None)
        if container == "mp4" and not getattr(audio.info, "codec", ""):
            return None  # no audio track
        return float(length) if length else None
    return None


# --- WebM (EBML): the length a recorder's file holds -----------------------------------

_EBML = 0x1A45DFA3
_DOC_TYPE = 0x4282
_SEGMENT = 0x18538067
_INFO = 0x1549A966
_TIMECODE_SCALE = 0x2AD7B1
_DURATION = 0x4489
_CLUSTER = 0x1F43B675
_TIMECODE = 0xE7
_BLOCK_GROUP = 0xA0
_BLOCK = 0xA1
_SIMPLE_BLOCK = 0xA3
_TRACKS = 0x1654AE6B
_TRACK_ENTRY = 0xAE
_TRACK_TYPE = 0x83
# Read through, not skipped: their children are what is looked for.
_CONTAINERS = {_SEGMENT, _INFO, _CLUSTER, _BLOCK_GROUP, _TRACKS, _TRACK_ENTRY}


def _vint(data: bytes, pos: int, *, keep_marker: bool) -> tuple[int, int, bool]:
    """An EBML variable-length integer at ``pos``: (value, next position, all value bits set)."""
    if pos >= len(data):
        raise ValueError("truncated")
    first = data[pos]
    length = 1
    mask = 0x80
    while length <= 8 and not first & mask:
        length += 1
        mask >>= 1
    if length > 8 or pos + length > len(data):
        raise ValueError("bad vint")
    value = first if keep_marker else first & (mask - 1)
    for byte in data[pos + 1 : pos + length]:
        value = (value << 8) | byte
    unknown = not keep_marker and value == (1 << (7 * length)) - 1
    return value, pos + length, unknown


def webm_duration(data: bytes) -> float | None:
    """Seconds of a WebM file holding an audio track and no video: the header's Duration, or else
    the last block's time (a live recorder writes no Duration); None where it is not such a file."""
    pos = 0
    scale = 1_000_000  # nanoseconds per timecode tick, WebM's default
    duration = None
    cluster_time = 0
    last_time = None
    doc_type = None
    track_types: list[int] = []
    try:
        while pos < len(data):
            element, pos, _ = _vint(data, pos, keep_marker=True)
            size, pos, unknown = _vint(data, pos, keep_marker=False)
            if element in _CONTAINERS:
                continue  # read its children in place (a recorder's sizes are often unknown)
            if unknown or pos + size > len(data):
                raise ValueError("truncated element")
            body = data[pos : pos + size]
            pos += size
            if element == _EBML:
                doc_type = _doc_type(body)
            elif element == _TIMECODE_SCALE:
                scale = int.from_bytes(body, "big")
            elif element == _DURATION:
                duration = struct.unpack(">f" if size == 4 else ">d", body)[0]
            elif element == _TIMECODE:
                cluster_time = int.from_bytes(body, "big")
            elif element == _TRACK_TYPE:
                track_types.append(int.from_bytes(body, "big"))
            elif element in (_SIMPLE_BLOCK, _BLOCK):
                _, at, _ = _vint(body, 0, keep_marker=False)  # the track number
                (relative,) = struct.unpack(">h", body[at : at + 2])
                time = cluster_time + relative
                last_time = time if last_time is None else max(last_time, time)
    except (ValueError, struct.error):
        return None
    # Track type 2 is audio, 1 video: a sound has audio and no video.
    if doc_type != "webm" or 2 not in track_types or 1 in track_types:
        return None
    ticks = duration if duration else last_time
    if ticks is None:
        return None
    return ticks * scale / 1e9


def _doc_type(header: bytes) -> str | None:
    pos = 0
    while pos < len(header):
        element, pos, _ = _vint(header, pos, keep_marker=True)
        size, pos, _ = _vint(header, pos, keep_marker=False)
        if element == _DOC_TYPE:
            return header[pos : pos + size].decode("ascii", "replace")
        pos += size
    return None


# --- the game's side -------------------------------------------------------------------


def clue_modes_of(game: Game) -> list[str]:
    return list((game.options or {}).get("clue_modes") or DEFAULT_CLUE_MODES)


def clue_media_upload(*, game_id, user, data: bytes) -> ClueMedia:
    """Store a drawing or a sound for the clue the uploader is to give now (in round 1, anyone may).

    Refused: bytes of no allowed type or too big (``bad_media``, 400), a mode the game's
    house rules do not allow (``mode_not_allowed``, 400), an outsider (403), not the time
    or not the uploader's clue (409).
    """
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        if game.kind != "storyteller":
            raise GameError("not_found", _("There is no such game."), "not_found")
        seat = game.seats.filter(user=user).first() if user is not None and user.is_authenticated else None
        if seat is None:
            if game_visible_to(game=game, user=user):
                raise GameError("not_a_player", _("You do not play in this game."), "forbidden")
            raise GameError("not_found", _("There is no such game."), "not_found")
        sniffed = media_sniff(data)
        if sniffed.kind not in clue_modes_of(game):
            raise GameError(
                "mode_not_allowed",
                _("This game's house rules do not allow a clue of this kind (%(kind)s).")
                % {"kind": ClueMedia.Kind(sniffed.kind).label},
                "invalid",
            )
        if game.status != Game.Status.ACTIVE or game.state is None:
            raise GameError("wrong_phase", _("That is not what the game is waiting for now."))
        state = engine.from_dict(game.state)
        if state.phase != engine.Phase.CLUE:
            raise GameError("wrong_phase", _("That is not what the game is waiting for now."))
        if seat.position not in engine.to_act(state):
            raise GameError("not_your_turn", _("It is not your turn to do that."))
        if ClueMedia.objects.filter(game=game, seat=seat).count() >= MAX_UPLOADS_PER_SEAT:
            raise GameError("too_many_media", _("You have uploaded too many drawings and sounds in this game."))
        media = ClueMedia(
            game=game,
            seat=seat,
            kind=sniffed.kind,
            content_type=sniffed.content_type,
            size=len(data),
            duration=sniffed.duration,
        )
        media.file.save("clue", ContentFile(data), save=False)
        media.save()
    return media


def clue_given_check(*, game: Game, before, after) -> None:
    """A clue given in this change (``before`` had none, ``after`` has one), held to the house rules:
    words only where they allow words, a drawing or sound only the storyteller's own, for this game."""
    if before is None or before.clue is not None or after.clue is None:
        return
    if after.clue and "words" not in clue_modes_of(game):
        raise GameError("mode_not_allowed", _("In this game a clue is drawn or recorded, not written."), "invalid")
    if after.clue_media is not None:
        clue_media_check(game=game, seat=after.storyteller, media_id=after.clue_media)


def clue_media_check(*, game: Game, seat: int, media_id: int) -> None:
    """The clue's media, checked in the clue's transaction: this game's, uploaded by the storyteller, of a
    kind the house rules allow; raises ``GameError`` ``bad_media`` (nothing is changed then)."""
    media = ClueMedia.objects.filter(pk=media_id, game=game).select_related("seat").first()
    if media is None or media.seat.position != seat:
        raise _bad(_("That drawing or sound is not one you uploaded for this game."))
    if media.kind not in clue_modes_of(game):
        raise GameError("mode_not_allowed", _("This game's house rules do not allow a clue of this kind."), "invalid")


def clue_media_for_viewer(*, game_id, media_id, user) -> ClueMedia:
    """A clue's file, for a viewer who may see the game: once it is a clue given, or to its uploader.

    Anything else is ``Http404``-worthy: a ``GameError`` ``not_found``.
    """
    missing = GameError("not_found", _("There is no such drawing or sound."), "not_found")
    media = ClueMedia.objects.filter(pk=media_id, game_id=game_id).select_related("game", "seat").first()
    if media is None or user is None or not user.is_authenticated:
        raise missing
    game = media.game
    seats = list(game.seats.all())
    if not game_visible_to(game=game, user=user, seats=seats):
        raise missing
    if media.seat.user_id == user.pk:
        return media
    given = (game.state or {}).get("clue_media") == media.pk or StorytellerRound.objects.filter(
        game=game, clue_media=media
    ).exists()
    if not given:  # an upload not (yet) a clue: nobody else's business
        raise missing
    return media


def clue_media_delete(*, queryset) -> int:
    """Remove clue media, rows and files (an admin's decision): the clues that named them lose their drawing
    or sound and keep their words. The files go once the rows are gone for good."""
    media = list(queryset)
    names = [item.file.name for item in media if item.file]
    storage = ClueMedia._meta.get_field("file").storage
    with transaction.atomic():
        ClueMedia.objects.filter(pk__in=[item.pk for item in media]).delete()
        transaction.on_commit(lambda: [storage.delete(name) for name in names])
    return len(media)
