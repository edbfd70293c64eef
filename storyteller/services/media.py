"""Drawn and sung clues: an upload checked from its bytes and stored, the clue's media checked, a file to serve.

A file's type is read from its first bytes (magic numbers), never from its name or
the client's header, and what it holds is measured, never taken from what it says of
itself:

- a drawing is a still PNG or WebP (Pillow) up to 512 KB, at most 4096 pixels a side
  and ``MAX_DECODED_BYTES`` once decoded (width x height x bytes per pixel, from the
  PNG's own bit depth: a 16-bit PNG costs twice an 8-bit one), decoded whole here;
  an animation (APNG, animated WebP) is refused;
- a sound is Opus in Ogg or WebM (as browsers record it), AAC in MP4 (Safari's
  recorder) or Opus in a fragmented MP4 (Chromium's ``audio/mp4``), up to 1 MB and 20
  seconds. Its length is counted from its packets: each Opus packet's own frame count
  and size (RFC 6716, 3.1), an MP4's AAC frames (1024 samples each, at the lower of
  the sample entry's rate and its decoder configuration's, the one a decoder plays it
  at); where the container also stamps times (Ogg's granule positions, WebM's block
  times, MP4's sample table ``stts`` and fragments' ``trun``) the longer of the two
  counts. A header's declared duration (WebM's ``Duration``, MP4's ``mvhd``/``mdhd``)
  is never read: it can say anything, NaN included. mutagen, a dependency for this
  once, gives exactly those: an Ogg stream's length from its last granule position, an
  MP4's from its header.

Anything else is ``bad_media``. All of it runs before the game's lock is taken
(``clue_media_upload``): a slow file holds up nobody else's move.
"""

import functools
import io
import math
import struct
from dataclasses import dataclass

from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from games.models import Game, Seat
from games.selectors.games import game_visible_to
from games.services.errors import GameError
from games.services.locking import game_lock
from storyteller.engine import rules as engine
from storyteller.models import ClueMedia, ClueMediaTally, StorytellerRound

from .game import DEFAULT_CLUE_MODES

MAX_IMAGE_BYTES = 512 * 1024
MAX_SOUND_BYTES = 1024 * 1024
MAX_SOUND_SECONDS = 20
# A recorder stopped at 20 s writes a few milliseconds more.
SOUND_SECONDS_GRACE = 0.5
MAX_IMAGE_SIDE = 4096
# A drawing decoded: width x height x bytes per pixel (2048 x 2048 in 8-bit RGBA; the canvas is far smaller).
MAX_DECODED_BYTES = 16 * 1024 * 1024
# Uploads a seat may try in one game, taken or refused: enough to redraw a clue many times, not to fill the
# storage nor to keep the server checking files.
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


def _png_bytes_per_pixel(data: bytes) -> float:
    """Bytes a PNG's pixel takes decoded, from its own header (IHDR: bit depth and colour type)."""
    if len(data) < 33 or data[12:16] != b"IHDR":
        raise ValueError("no IHDR")
    depth, colour = data[24], data[25]
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(colour)
    if channels is None or depth not in (1, 2, 4, 8, 16):
        raise ValueError("bad IHDR")
    return channels * depth / 8


def _image(data: bytes) -> Sniffed:
    from PIL import Image, UnidentifiedImageError

    if len(data) > MAX_IMAGE_BYTES:
        raise _bad(_("A drawing is at most 512 KB."))
    unreadable = _bad(_("That picture cannot be read."))
    try:
        with Image.open(io.BytesIO(data), formats=["PNG", "WEBP"]) as image:
            fmt = image.format
            width, height = image.size
            if not (0 < width <= MAX_IMAGE_SIDE and 0 < height <= MAX_IMAGE_SIDE):
                raise _bad(_("A drawing is at most 4096 pixels wide and high."))
            if getattr(image, "is_animated", False) or getattr(image, "n_frames", 1) != 1:
                raise _bad(_("A drawing is one still picture, not an animation."))
            per_pixel = _png_bytes_per_pixel(data) if fmt == "PNG" else len(image.getbands())
            if width * height * per_pixel > MAX_DECODED_BYTES:
                raise _bad(_("That picture is too big once unpacked: at most 2048 × 2048 pixels in full colour."))
            image.load()  # decoded whole: a truncated or corrupt file is refused here, not in a browser
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombError):
        raise unreadable from None
    if fmt not in ("PNG", "WEBP"):
        raise _bad(_("A drawing is a PNG or WebP picture."))
    return Sniffed("drawing", "image/png" if fmt == "PNG" else "image/webp")


def _sound(data: bytes) -> Sniffed:
    if len(data) > MAX_SOUND_BYTES:
        raise _bad(_("A sound is at most 1 MB."))
    try:
        if data.startswith(b"OggS"):
            content_type, seconds = "audio/ogg", ogg_opus_duration(data)
        elif data.startswith(b"\x1a\x45\xdf\xa3"):
            content_type, seconds = "audio/webm", webm_duration(data)
        else:
            content_type, seconds = "audio/mp4", mp4_duration(data)
    except (ValueError, struct.error, IndexError):
        seconds = None
    if seconds is None or not math.isfinite(seconds) or seconds <= 0:
        raise _bad(_("That sound cannot be read: a sound is Opus audio in Ogg or WebM, or AAC audio in MP4."))
    if seconds > MAX_SOUND_SECONDS + SOUND_SECONDS_GRACE:
        raise _bad(_("A sound lasts at most 20 seconds."))
    return Sniffed("sound", content_type, round(seconds, 3))


# --- Opus: the length a packet holds ---------------------------------------------------------

OPUS_RATE = 48000


def opus_packet_samples(packet: bytes) -> int:
    """Samples (at 48 kHz) one Opus packet decodes to, from its table-of-contents byte (RFC 6716, 3.1)."""
    if not packet:
        raise ValueError("empty Opus packet")
    toc = packet[0]
    config = toc >> 3
    if config < 12:  # SILK: 10, 20, 40, 60 ms
        frame = (480, 960, 1920, 2880)[config % 4]
    elif config < 16:  # hybrid: 10, 20 ms
        frame = (480, 960)[config % 2]
    else:  # CELT: 2.5, 5, 10, 20 ms
        frame = (120, 240, 480, 960)[config % 4]
    code = toc & 3
    if code == 0:
        frames = 1
    elif code in (1, 2):
        frames = 2
    else:
        if len(packet) < 2 or not packet[1] & 0x3F:
            raise ValueError("bad Opus frame count")
        frames = packet[1] & 0x3F
    if frames * frame > 5760:  # 120 ms: no packet holds more
        raise ValueError("Opus packet too long")
    return frames * frame


# --- Ogg ---------------------------------------------------------------------------------------


def ogg_opus_duration(data: bytes) -> float | None:
    """Seconds of an Ogg file holding one Opus stream: its packets counted, or its last granule position if
    that says more; None where it is not such a file."""
    pos = 0
    serial = None
    packets: list[bytes] = []
    partial = b""
    granule = 0
    while pos < len(data):
        if data[pos : pos + 4] != b"OggS" or pos + 27 > len(data):
            raise ValueError("not an Ogg page")
        (page_granule,) = struct.unpack_from("<q", data, pos + 6)
        (page_serial,) = struct.unpack_from("<I", data, pos + 14)
        segments = data[pos + 26]
        lacing = data[pos + 27 : pos + 27 + segments]
        if len(lacing) < segments:
            raise ValueError("truncated page")
        if serial is None:
            serial = page_serial
        elif page_serial != serial:
            return None  # more than one stream: not a recorder's sound
        body = pos + 27 + segments
        for value in lacing:
            partial += data[body : body + value]
            body += value
            if value < 255:
                packets.append(partial)
                partial = b""
        if body > len(data):
            raise ValueError("truncated page")
        if page_granule != -1:
            granule = max(granule, page_granule)
        pos = body
    if len(packets) < 3 or not packets[0].startswith(b"OpusHead") or not packets[1].startswith(b"OpusTags"):
        return None
    (pre_skip,) = struct.unpack_from("<H", packets[0], 10)
    counted = sum(opus_packet_samples(packet) for packet in packets[2:])
    return (max(counted, granule) - pre_skip) / OPUS_RATE


# --- WebM (EBML): the length a recorder's file holds -----------------------------------

_EBML = 0x1A45DFA3
_DOC_TYPE = 0x4282
_SEGMENT = 0x18538067
_INFO = 0x1549A966
_TIMECODE_SCALE = 0x2AD7B1
_CLUSTER = 0x1F43B675
_TIMECODE = 0xE7
_BLOCK_GROUP = 0xA0
_BLOCK = 0xA1
_SIMPLE_BLOCK = 0xA3
_TRACKS = 0x1654AE6B
_TRACK_ENTRY = 0xAE
_TRACK_TYPE = 0x83
_CODEC_ID = 0x86
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
    """Seconds of a WebM file holding one Opus audio track and no video: its blocks' packets counted, or the
    last block's time and length if that says more (the header's Duration is not read); None where it is
    not such a file."""
    pos = 0
    scale = 1_000_000  # nanoseconds per timecode tick, WebM's default
    cluster_time = 0
    last_end = 0.0  # seconds
    counted = 0  # samples at 48 kHz
    doc_type = None
    track_types: list[int] = []
    codecs: list[str] = []
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
            elif element == _TIMECODE:
                cluster_time = int.from_bytes(body, "big")
            elif element == _TRACK_TYPE:
                track_types.append(int.from_bytes(body, "big"))
            elif element == _CODEC_ID:
                codecs.append(body.decode("ascii", "replace"))
            elif element in (_SIMPLE_BLOCK, _BLOCK):
                _, at, _ = _vint(body, 0, keep_marker=False)  # the track number
                (relative,) = struct.unpack(">h", body[at : at + 2])
                if body[at + 2] & 0x06:
                    raise ValueError("laced block")  # several packets in one block: no recorder writes it
                samples = opus_packet_samples(body[at + 3 :])
                counted += samples
                last_end = max(last_end, (cluster_time + relative) * scale / 1e9 + samples / OPUS_RATE)
    except (ValueError, struct.error, IndexError):
        return None
    # Track type 2 is audio, 1 video: a sound has one audio track, in Opus, and no video.
    if doc_type != "webm" or track_types != [2] or codecs != ["A_OPUS"] or not counted:
        return None
    return max(counted / OPUS_RATE, last_end)


def _doc_type(header: bytes) -> str | None:
    pos = 0
    while pos < len(header):
        element, pos, _ = _vint(header, pos, keep_marker=True)
        size, pos, _ = _vint(header, pos, keep_marker=False)
        if element == _DOC_TYPE:
            return header[pos : pos + size].decode("ascii", "replace")
        pos += size
    return None


# --- MP4 (ISO BMFF): the length its sample tables hold ---------------------------------------


def _boxes(data: bytes, start: int, end: int):
    """The boxes between ``start`` and ``end``: (type, payload start, payload end)."""
    pos = start
    while pos < end:
        if pos + 8 > end:
            raise ValueError("truncated box")
        size, kind = struct.unpack_from(">I4s", data, pos)
        header = 8
        if size == 1:
            (size,) = struct.unpack_from(">Q", data, pos + 8)
            header = 16
        elif size == 0:
            size = end - pos
        if size < header or pos + size > end:
            raise ValueError("bad box size")
        yield kind, pos + header, pos + size
        pos += size


def _child(data: bytes, start: int, end: int, kind: bytes) -> tuple[int, int] | None:
    for found, child_start, child_end in _boxes(data, start, end):
        if found == kind:
            return child_start, child_end
    return None


def mp4_duration(data: bytes) -> float | None:
    """Seconds of an MP4 holding one audio track and no other, AAC or (in fragments, as Chromium records it)
    Opus: its samples' durations added up from the sample table and from each fragment's runs, or its
    packets counted if that says more: AAC frames of 1024 samples at the lower of the sample entry's rate
    and the decoder configuration's, each Opus packet's own length. The headers' durations are not read.
    None where it is not such a file."""
    tracks = []
    trex_duration = trex_size = 0
    fragments = [0, 0, 0]  # ticks, samples, Opus samples
    box_start = 0
    for kind, start, end in _boxes(data, 0, len(data)):
        if kind == b"moov":
            for inner, inner_start, inner_end in _boxes(data, start, end):
                if inner == b"trak":
                    tracks.append(_mp4_track(data, inner_start, inner_end))
                elif inner == b"mvex":
                    trex = _child(data, inner_start, inner_end, b"trex")
                    if trex is not None:
                        trex_duration, trex_size = struct.unpack_from(">II", data, trex[0] + 12)
        elif kind == b"moof":
            if len(tracks) != 1:
                return None
            opus = tracks[0][1] == b"Opus"
            for inner, inner_start, inner_end in _boxes(data, start, end):
                if inner == b"traf":
                    counts = _mp4_fragment(data, box_start, inner_start, inner_end, trex_duration, trex_size, opus)
                    fragments = [total + more for total, more in zip(fragments, counts, strict=True)]
        box_start = end
    if len(tracks) != 1:
        return None
    handler, sample_format, timescale, rate, ticks, samples = tracks[0]
    if handler != b"soun" or not timescale:
        return None
    ticks += fragments[0]
    if sample_format == b"Opus":
        if samples:  # a sample table of its own: packets this reading does not reach
            return None
        counted = fragments[2] / OPUS_RATE
    elif sample_format == b"mp4a" and rate:
        counted = (samples + fragments[1]) * AAC_FRAME_SAMPLES / rate
    else:
        return None
    return max(ticks / timescale, counted) if counted else None


# An AAC frame decodes to 1024 samples (AAC-LC, as recorders write it).
AAC_FRAME_SAMPLES = 1024


def _mp4_track(data: bytes, start: int, end: int) -> tuple[bytes, bytes, int, int, int, int]:
    """(handler, sample format, timescale, sample rate, ticks and samples of its sample table)."""
    mdia = _child(data, start, end, b"mdia")
    if mdia is None:
        raise ValueError("no mdia")
    mdhd = _child(data, *mdia, b"mdhd")
    hdlr = _child(data, *mdia, b"hdlr")
    minf = _child(data, *mdia, b"minf")
    if mdhd is None or hdlr is None or minf is None:
        raise ValueError("incomplete track")
    version = data[mdhd[0]]
    (timescale,) = struct.unpack_from(">I", data, mdhd[0] + (20 if version == 1 else 12))
    handler = data[hdlr[0] + 8 : hdlr[0] + 12]
    stbl = _child(data, *minf, b"stbl")
    if stbl is None:
        raise ValueError("no stbl")
    stsd = _child(data, *stbl, b"stsd")
    if stsd is None:
        raise ValueError("no stsd")
    (entries,) = struct.unpack_from(">I", data, stsd[0] + 4)
    if entries != 1:
        raise ValueError("not one sample description")
    sample_format = data[stsd[0] + 12 : stsd[0] + 16]
    rate = _mp4a_rate(data, stsd[0] + 8, stsd[1]) if sample_format == b"mp4a" else 0
    ticks = samples = 0
    stts = _child(data, *stbl, b"stts")
    if stts is not None:
        (count,) = struct.unpack_from(">I", data, stts[0] + 4)
        if stts[0] + 8 + 8 * count > stts[1]:
            raise ValueError("truncated stts")
        for n in range(count):
            number, delta = struct.unpack_from(">II", data, stts[0] + 8 + 8 * n)
            ticks += number * delta
            samples += number
    return handler, sample_format, timescale, rate, ticks, samples


# AAC's sampling frequency index (ISO/IEC 14496-3, 1.6.3.3).
_AAC_RATES = (96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350)


def _mp4a_rate(data: bytes, start: int, end: int) -> int:
    """The rate an AAC sample entry's frames are decoded at: the lower of the entry's own and its decoder
    configuration's (``esds``, the one a decoder uses), so that neither can make a sound seem shorter."""
    size, kind = struct.unpack_from(">I4s", data, start)
    if kind != b"mp4a" or size < 36 or start + size > end:
        raise ValueError("bad mp4a entry")
    version = struct.unpack_from(">H", data, start + 16)[0]  # QuickTime's sound description version
    if version != 0:
        raise ValueError("not an ISO audio sample entry")
    (entry_rate,) = struct.unpack_from(">H", data, start + 32)
    esds = _child(data, start + 36, start + size, b"esds")
    if esds is None:
        raise ValueError("no decoder configuration")
    config = _descriptor(data, esds[0] + 4, esds[1], 0x03)
    flags = data[config[0] + 2]
    at = config[0] + 3 + (2 if flags & 0x80 else 0) + (2 if flags & 0x20 else 0)
    if flags & 0x40:
        at += 1 + data[at]
    decoder = _descriptor(data, at, config[1], 0x04)
    specific = _descriptor(data, decoder[0] + 13, decoder[1], 0x05)
    if specific[1] - specific[0] < 2:
        raise ValueError("short AudioSpecificConfig")
    first, second = data[specific[0]], data[specific[0] + 1]
    if first >> 3 in (0, 31):
        raise ValueError("no or an escaped audio object type")
    index = ((first & 0x07) << 1) | (second >> 7)
    if index >= len(_AAC_RATES):
        raise ValueError("unknown sampling frequency index")
    return min(entry_rate, _AAC_RATES[index]) if entry_rate else _AAC_RATES[index]


def _descriptor(data: bytes, start: int, end: int, tag: int) -> tuple[int, int]:
    """The body (start, end) of the MPEG-4 descriptor with ``tag`` at ``start``."""
    if start >= end or data[start] != tag:
        raise ValueError("descriptor expected")
    size, at = 0, start + 1
    for _byte in range(4):
        if at >= end:
            raise ValueError("truncated descriptor")
        size = (size << 7) | (data[at] & 0x7F)
        at += 1
        if not data[at - 1] & 0x80:
            break
    if at + size > end:
        raise ValueError("descriptor too long")
    return at, at + size


def _mp4_fragment(
    data: bytes, moof: int, start: int, end: int, duration: int, size: int, opus: bool
) -> tuple[int, int, int]:
    """(ticks, samples, Opus samples) of a track fragment's runs; ``moof`` is where its fragment's box
    begins (the base of its data offsets), ``duration`` and ``size`` the defaults (``trex``)."""
    ticks = samples = opus_samples = 0
    base = moof
    for kind, box_start, box_end in _boxes(data, start, end):
        if kind == b"tfhd":
            flags = int.from_bytes(data[box_start + 1 : box_start + 4], "big")
            at = box_start + 8
            if flags & 0x01:
                (base,) = struct.unpack_from(">Q", data, at)
                at += 8
            at += 4 if flags & 0x02 else 0
            if flags & 0x08:
                (duration,) = struct.unpack_from(">I", data, at)
                at += 4
            if flags & 0x10:
                (size,) = struct.unpack_from(">I", data, at)
        elif kind == b"trun":
            flags = int.from_bytes(data[box_start + 1 : box_start + 4], "big")
            (count,) = struct.unpack_from(">I", data, box_start + 4)
            at = box_start + 8
            position = base
            if flags & 0x01:
                position += struct.unpack_from(">i", data, at)[0]
                at += 4
            at += 4 if flags & 0x04 else 0
            fields = sum(4 for bit in (0x100, 0x200, 0x400, 0x800) if flags & bit)
            if at + fields * count > box_end:
                raise ValueError("truncated trun")
            for n in range(count):
                record = at + fields * n
                sample_duration, sample_size = duration, size
                if flags & 0x100:
                    (sample_duration,) = struct.unpack_from(">I", data, record)
                    record += 4
                if flags & 0x200:
                    (sample_size,) = struct.unpack_from(">I", data, record)
                ticks += sample_duration
                samples += 1
                if opus:
                    if not sample_size or position < 0 or position + sample_size > len(data):
                        raise ValueError("an Opus packet outside the file")
                    opus_samples += opus_packet_samples(data[position : position + min(sample_size, 2)])
                position += sample_size
    return ticks, samples, opus_samples


# --- the game's side -------------------------------------------------------------------


def clue_modes_of(game: Game) -> list[str]:
    return list((game.options or {}).get("clue_modes") or DEFAULT_CLUE_MODES)


def clue_media_read(upload) -> bytes:
    """An uploaded drawing's or sound's bytes (a Django ``UploadedFile``, or None); a file larger than any allowed
    is refused unread."""
    if upload is None:
        raise _bad(_("Send the drawing or sound as the form field “file”."))
    if upload.size is not None and upload.size > MAX_SOUND_BYTES:
        raise _bad(_("A drawing is at most 512 KB, a sound at most 1 MB."))
    return upload.read(MAX_SOUND_BYTES + 1)


def clue_media_upload(*, game_id, user, data: bytes) -> ClueMedia:
    """Store a drawing or a sound for the clue the uploader is to give now (in round 1, anyone may).

    The bytes are checked and measured, and the file written to storage, before the game's lock is
    taken: only recording the result takes it, and a record refused there removes the file again.
    Every try past the first checks counts toward the seat's cap, taken or refused.

    Refused: bytes of no allowed type or too big (``bad_media``, 400), a mode the game's
    house rules do not allow (``mode_not_allowed``, 400), an outsider (403), not the time
    or not the uploader's clue (409), too many tries (``too_many_media``, 409).
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameError("not_found", _("There is no such game."), "not_found")
    seat = _uploader_seat(game=game, user=user)
    _upload_allowed(game=game, seat=seat)  # no file checked for a clue that cannot be given now
    _upload_counted(seat=seat)
    sniffed = media_sniff(data)
    _upload_allowed(game=game, seat=seat, kind=sniffed.kind)  # nothing stored that the lock would refuse
    media = ClueMedia(
        game_id=game.pk,
        seat=seat,
        kind=sniffed.kind,
        content_type=sniffed.content_type,
        size=len(data),
        duration=sniffed.duration,
    )
    media.file.save("clue", ContentFile(data), save=False)
    try:
        with transaction.atomic():
            game = game_lock(game_id=game.pk)
            _upload_allowed(game=game, seat=seat, kind=sniffed.kind)
            media.save()
    except BaseException:
        media.file.storage.delete(media.file.name)
        raise
    return media


def _uploader_seat(*, game: Game | None, user) -> Seat:
    if game is None or game.kind != "storyteller":
        raise GameError("not_found", _("There is no such game."), "not_found")
    seat = game.seats.filter(user=user).first() if user is not None and user.is_authenticated else None
    if seat is None:
        if game_visible_to(game=game, user=user):
            raise GameError("not_a_player", _("You do not play in this game."), "forbidden")
        raise GameError("not_found", _("There is no such game."), "not_found")
    return seat


def _upload_allowed(*, game: Game, seat: Seat, kind: str | None = None) -> None:
    """Whether ``seat`` may upload for a clue now (and a file of ``kind``, once known); raises ``GameError``."""
    if kind is not None and kind not in clue_modes_of(game):
        raise GameError(
            "mode_not_allowed",
            _("This game's house rules do not allow a clue of this kind (%(kind)s).")
            % {"kind": ClueMedia.Kind(kind).label},
            "invalid",
        )
    if game.status != Game.Status.ACTIVE or game.state is None:
        raise GameError("wrong_phase", _("That is not what the game is waiting for now."))
    state = engine.from_dict(game.state)
    if state.phase != engine.Phase.CLUE:
        raise GameError("wrong_phase", _("That is not what the game is waiting for now."))
    if seat.position not in engine.to_act(state):
        raise GameError("not_your_turn", _("It is not your turn to do that."))


def _upload_counted(*, seat: Seat) -> None:
    """Count one more try of ``seat``'s, or raise ``too_many_media`` when it has had its share (one
    conditional update: two tries at once cannot both take the last one)."""
    ClueMediaTally.objects.get_or_create(seat=seat)
    counted = ClueMediaTally.objects.filter(seat=seat, uploads__lt=MAX_UPLOADS_PER_SEAT).update(
        uploads=F("uploads") + 1
    )
    if not counted:
        raise GameError("too_many_media", _("You have uploaded too many drawings and sounds in this game."))


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
        for name in names:  # one file that cannot be deleted now does not keep the others
            transaction.on_commit(functools.partial(storage.delete, name), robust=True)
    return len(media)
