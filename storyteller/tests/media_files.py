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


def ogg_opus(seconds: float, *, padding: int = 0) -> bytes:
    """An Ogg Opus stream whose last page says it lasts ``seconds`` (its packets are not real audio)."""
    from mutagen.ogg import OggPage

    pre_skip = 312
    head = b"OpusHead" + bytes([1, 1]) + struct.pack("<HIhB", pre_skip, 48000, 0, 0)
    tags = b"OpusTags" + struct.pack("<I", 6) + b"fabula" + struct.pack("<I", 0)
    final = pre_skip + int(seconds * 48000)
    # Audio packets (not real ones): one page each, at most 60 KB, the last page's position the length.
    audio = [b"\xfc" + b"\x00" * 40] + [b"\xfc" + b"\x00" * 60_000] * (padding // 60_000 + (1 if padding else 0))
    plan = [([head], 0), ([tags], 0)] + [
        ([packet], final if n == len(audio) - 1 else 0) for n, packet in enumerate(audio)
    ]
    pages = []
    for sequence, (packets, position) in enumerate(plan):
        page = OggPage()
        page.serial = 7
        page.sequence = sequence
        page.position = position
        page.packets = packets
        page.first = sequence == 0
        page.last = sequence == len(plan) - 1
        pages.append(page.write())
    return b"".join(pages)


def _element(element_id: bytes, payload: bytes) -> bytes:
    return element_id + b"\x01" + len(payload).to_bytes(7, "big") + payload


UNKNOWN_SIZE = b"\x01\xff\xff\xff\xff\xff\xff\xff"


def webm_audio(seconds: float, *, video: bool = False) -> bytes:
    """A WebM as a browser's recorder writes it: no Duration, sizes unknown, the length in its blocks' times."""
    header = _element(b"\x1a\x45\xdf\xa3", _element(b"\x42\x82", b"webm"))
    info = _element(b"\x15\x49\xa9\x66", _element(b"\x2a\xd7\xb1", (1_000_000).to_bytes(3, "big")))
    track_types = [2] + ([1] if video else [])
    tracks = _element(
        b"\x16\x54\xae\x6b", b"".join(_element(b"\xae", _element(b"\x83", bytes([t]))) for t in track_types)
    )

    def cluster(at_ms: int) -> bytes:
        block = _element(b"\xa3", b"\x81" + struct.pack(">h", 0) + b"\x80" + b"\x00" * 20)
        return b"\x1f\x43\xb6\x75" + UNKNOWN_SIZE + _element(b"\xe7", at_ms.to_bytes(4, "big")) + block

    clusters = b"".join(cluster(int(ms)) for ms in range(0, int(seconds * 1000) + 1, 1000))
    return header + b"\x18\x53\x80\x67" + UNKNOWN_SIZE + info + tracks + clusters
