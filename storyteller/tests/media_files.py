"""Small media files made in the tests: pictures by Pillow, sounds written container by container."""

import io
import struct

from PIL import Image


def png(width: int = 64, height: int = 48, colour=(200, 40, 40)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, "PNG")
    return out.getvalue()


def webp() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (32, 32), (0, 90, 200)).save(out, "WEBP")
    return out.getvalue()


def noisy_png(side: int = 600) -> bytes:
    """A PNG that does not compress: well over 512 KB."""
    import os

    out = io.BytesIO()
    Image.frombytes("RGB", (side, side), os.urandom(side * side * 3)).save(out, "PNG")
    return out.getvalue()


# An Opus packet of 20 ms (TOC byte 0xfc: CELT, fullband, 20 ms, one frame); the rest is not real audio.
OPUS_20_MS = b"\xfc" + b"\x00" * 7


def ogg_opus(seconds: float, *, padding: int = 0, stamped: float | None = None) -> bytes:
    """An Ogg Opus stream of ``seconds`` in 20 ms packets; its last page says it lasts ``stamped`` (default:
    as long as it does); ``padding`` bytes more in packets of 60 KB."""
    from storyteller.bot_media import ogg_stream

    pre_skip = 312
    head = b"OpusHead" + bytes([1, 1]) + struct.pack("<HIhB", pre_skip, 48000, 0, 0)
    tags = b"OpusTags" + struct.pack("<I", 6) + b"fabula" + struct.pack("<I", 0)
    big = [OPUS_20_MS + b"\x00" * 60_000] * (padding // 60_000 + (1 if padding else 0))
    audio = big + [OPUS_20_MS] * max(1, round(seconds * 50) - len(big))
    final = pre_skip + int((seconds if stamped is None else stamped) * 48000)
    pages_of_audio = [[packet] for packet in big] + [audio[n : n + 200] for n in range(len(big), len(audio), 200)]
    plan = [([head], 0), ([tags], 0)] + [
        (packets, final if n == len(pages_of_audio) - 1 else 0) for n, packets in enumerate(pages_of_audio)
    ]
    return ogg_stream(plan, serial=7)


def _element(element_id: bytes, payload: bytes) -> bytes:
    return element_id + b"\x01" + len(payload).to_bytes(7, "big") + payload


UNKNOWN_SIZE = b"\x01\xff\xff\xff\xff\xff\xff\xff"


def webm_audio(
    seconds: float, *, video: bool = False, codec: str = "A_OPUS", stamped: bool = True, duration: float | None = None
) -> bytes:
    """A WebM as a browser's recorder writes it: sizes unknown, ``seconds`` of 20 ms Opus blocks in clusters
    of a second. ``stamped=False``: every block says it is at time 0; ``duration``: a header Duration (a float,
    NaN if you like) that says anything."""
    header = _element(b"\x1a\x45\xdf\xa3", _element(b"\x42\x82", b"webm"))
    info_body = _element(b"\x2a\xd7\xb1", (1_000_000).to_bytes(3, "big"))
    if duration is not None:
        info_body += _element(b"\x44\x89", struct.pack(">d", duration))
    info = _element(b"\x15\x49\xa9\x66", info_body)
    entries = [_element(b"\x83", bytes([2])) + _element(b"\x86", codec.encode())]
    if video:
        entries.append(_element(b"\x83", bytes([1])) + _element(b"\x86", b"V_VP8"))
    tracks = _element(b"\x16\x54\xae\x6b", b"".join(_element(b"\xae", entry) for entry in entries))
    blocks = max(1, round(seconds * 50))

    def cluster(second: int) -> bytes:
        at = second * 1000 if stamped else 0
        out = b"\x1f\x43\xb6\x75" + UNKNOWN_SIZE + _element(b"\xe7", at.to_bytes(4, "big"))
        for n in range(min(50, blocks - second * 50)):
            relative = n * 20 if stamped else 0
            out += _element(b"\xa3", b"\x81" + struct.pack(">h", relative) + b"\x80" + OPUS_20_MS)
        return out

    clusters = b"".join(cluster(second) for second in range((blocks + 49) // 50))
    return header + b"\x18\x53\x80\x67" + UNKNOWN_SIZE + info + tracks + clusters


def _box(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def _full(kind: bytes, payload: bytes, flags: int = 0) -> bytes:
    return _box(kind, bytes([0]) + flags.to_bytes(3, "big") + payload)


def mp4_audio(
    seconds: float,
    *,
    header_seconds: float | None = None,
    fragmented: bool = False,
    handler: bytes = b"soun",
    sample_format: bytes = b"mp4a",
    timescale: int = 48000,
    sample_rate: int = 48000,
    decoder_rate: int | None = 48000,
    opus_ticks: int = 960,
) -> bytes:
    """An MP4 (AAC as Safari records it: 1024 samples a frame at 48 kHz) of ``seconds``; its headers
    (``mvhd``, ``mdhd``) say ``header_seconds`` (default: the truth), in ``timescale`` ticks a second (a
    sample is 1024 of them whatever it says); the sample entry says ``sample_rate``, its decoder
    configuration (``esds``, none if None) ``decoder_rate``. ``fragmented``: the samples in fragments
    (``moof``/``trun``), as a recorder streams them; with ``sample_format=b"Opus"``, 20 ms Opus packets in
    the fragments' data, as Chromium records, each run saying a packet lasts ``opus_ticks``. The samples are
    not real audio."""
    rate = 48000
    frames = max(1, round(seconds * rate / 1024))
    said = int((seconds if header_seconds is None else header_seconds) * timescale)
    mvhd = _full(b"mvhd", struct.pack(">IIII", 0, 0, timescale, said) + b"\x00" * 80)
    mdhd = _full(b"mdhd", struct.pack(">IIIIHH", 0, 0, timescale, said, 0, 0))
    hdlr = _full(b"hdlr", struct.pack(">I4s", 0, handler) + b"\x00" * 12 + b"sound\x00")
    esds = b""
    if decoder_rate is not None:
        index = (96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000).index(decoder_rate)
        config = bytes([(2 << 3) | (index >> 1), ((index & 1) << 7) | (1 << 3)])  # AAC-LC, mono
        decoder = b"\x04" + bytes([13 + 2 + len(config)]) + b"\x40\x15" + b"\x00" * 11
        decoder += b"\x05" + bytes([len(config)]) + config
        esds = _full(b"esds", b"\x03" + bytes([3 + len(decoder)]) + b"\x00\x01\x00" + decoder)
    entry = _box(sample_format, b"\x00" * 24 + struct.pack(">HH", sample_rate, 0) + esds)
    stsd = _full(b"stsd", struct.pack(">I", 1) + entry)
    stts = _full(b"stts", struct.pack(">I", 0) if fragmented else struct.pack(">III", 1, frames, 1024))
    stbl = _box(b"stbl", stsd + stts)
    trak = _box(b"trak", _box(b"mdia", mdhd + hdlr + _box(b"minf", stbl)))
    moov_body = mvhd + trak
    if fragmented:
        moov_body += _box(b"mvex", _full(b"trex", struct.pack(">IIIII", 1, 1, 1024, 0, 0)))
    out = _box(b"ftyp", b"M4A \x00\x00\x00\x00M4A isom") + _box(b"moov", moov_body)
    if fragmented and sample_format == b"Opus":  # 20 ms packets; each run says each lasts ``opus_ticks``
        packets = max(1, round(seconds * 50))
        for start in range(0, packets, 50):
            count = min(50, packets - start)
            tfhd = _full(b"tfhd", struct.pack(">I", 1), flags=0x020000)
            runs = struct.pack(">II", opus_ticks, len(OPUS_20_MS)) * count
            trun_size = 12 + 4 + 4 + len(runs)
            moof_size = 8 + 8 + len(tfhd) + trun_size
            trun = _full(b"trun", struct.pack(">Ii", count, moof_size + 8) + runs, flags=0x000301)
            out += _box(b"moof", _box(b"traf", tfhd + trun)) + _box(b"mdat", OPUS_20_MS * count)
    elif fragmented:
        for start in range(0, frames, 50):
            count = min(50, frames - start)
            tfhd = _full(b"tfhd", struct.pack(">I", 1), flags=0x020000)
            trun = _full(b"trun", struct.pack(">I", count) + struct.pack(">I", 1024) * count, flags=0x000100)
            out += _box(b"moof", _box(b"traf", tfhd + trun)) + _box(b"mdat", b"\x00" * count)
    else:
        out += _box(b"mdat", b"\x00" * frames)
    return out
