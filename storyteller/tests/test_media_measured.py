"""``storyteller.services.media``'s checks of a file: sounds measured from their packets, never from what a
header says; animations and pixel bombs refused; each refusal a ``bad_media`` with words for the person."""

import io
import math
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from games.services.errors import GameError
from storyteller.services.media import (
    MAX_DECODED_BYTES,
    media_sniff,
    mp4_duration,
    ogg_opus_duration,
    opus_packet_samples,
    webm_duration,
)
from storyteller.tests import media_files

RECORDINGS = Path(__file__).parent / "recordings"


def refused(data: bytes) -> str:
    with pytest.raises(GameError) as caught:
        media_sniff(data)
    assert caught.value.code == "bad_media" and caught.value.kind == "invalid"
    return str(caught.value.message)


# --- sounds: counted from their packets --------------------------------------------------------


@pytest.mark.parametrize(
    ("toc", "extra", "samples"),
    [
        (0xFC, b"", 960),  # CELT 20 ms, one frame
        (0x00, b"", 480),  # SILK 10 ms
        (0x18, b"", 2880),  # SILK 60 ms
        (0x01, b"", 960),  # two frames of 10 ms
        (0xEB, bytes([6]), 6 * 240),  # code 3: six frames of CELT 5 ms
        (0x6B, b"\x01", 960),  # hybrid 20 ms, code 3, one frame
    ],
)
def test_an_opus_packet_says_its_own_length(toc, extra, samples):
    assert opus_packet_samples(bytes([toc]) + extra + b"\x00") == samples


@pytest.mark.parametrize("packet", [b"", bytes([0x03, 0x00]), bytes([0x1B, 0x03])], ids=["empty", "0 frames", "180ms"])
def test_an_opus_packet_that_cannot_be_is_refused(packet):
    with pytest.raises(ValueError):
        opus_packet_samples(packet)


@pytest.mark.parametrize(
    ("data", "seconds", "content_type"),
    [
        (media_files.ogg_opus(12), 12.0, "audio/ogg"),
        (media_files.webm_audio(19), 19.0, "audio/webm"),
        (media_files.mp4_audio(15), 15.0, "audio/mp4"),
        (media_files.mp4_audio(15, fragmented=True), 15.0, "audio/mp4"),
        (media_files.mp4_audio(12, fragmented=True, sample_format=b"Opus"), 12.0, "audio/mp4"),
    ],
    ids=["ogg", "webm", "mp4", "fragmented-mp4", "fragmented-mp4-opus"],
)
def test_a_sound_is_taken_with_its_counted_length(data, seconds, content_type):
    sniffed = media_sniff(data)
    assert sniffed.kind == "sound" and sniffed.content_type == content_type
    assert sniffed.duration == pytest.approx(seconds, abs=0.05)


@pytest.mark.parametrize(
    "data",
    [
        media_files.ogg_opus(30, stamped=5),  # the last page says 5 s; 30 s of packets
        media_files.webm_audio(30, stamped=False),  # every block says "at 0"
        media_files.webm_audio(30, duration=1.0),  # the header's Duration says 1 s
        media_files.mp4_audio(30, header_seconds=5),  # mvhd and mdhd say 5 s
        media_files.mp4_audio(30, header_seconds=5, fragmented=True),
        media_files.mp4_audio(30, timescale=480_000),  # its ticks say 3 s; 1,406 AAC frames at 48 kHz
        # 18 s as its ticks and its sample entry say; a decoder plays its frames at 24 kHz: 36 s
        media_files.mp4_audio(18, decoder_rate=24000),
        # its runs say each packet lasts 2 ms; each is 20 ms: 30 s
        media_files.mp4_audio(30, fragmented=True, sample_format=b"Opus", opus_ticks=96),
    ],
    ids=[
        "ogg-granule",
        "webm-times",
        "webm-duration",
        "mp4-header",
        "mp4-fragments",
        "mp4-timescale",
        "mp4-decoder-rate",
        "mp4-opus-runs",
    ],
)
def test_a_long_sound_whose_header_says_short_is_refused(data):
    assert "20 seconds" in refused(data)


@pytest.mark.parametrize("said", [float("nan"), float("inf"), -5.0, 0.0])
def test_a_webm_duration_header_of_nan_inf_or_less_is_not_read(said):
    assert webm_duration(media_files.webm_audio(4, duration=said)) == pytest.approx(4.0)
    assert media_sniff(media_files.webm_audio(4, duration=said)).duration == pytest.approx(4.0)
    assert "20 seconds" in refused(media_files.webm_audio(25, duration=said))


def test_the_longer_of_packets_and_stamps_counts():
    assert ogg_opus_duration(media_files.ogg_opus(2, stamped=25)) == pytest.approx(25.0, abs=0.01)
    assert "20 seconds" in refused(media_files.ogg_opus(2, stamped=25))


@pytest.mark.parametrize(
    "data",
    [
        media_files.webm_audio(5, video=True),
        media_files.webm_audio(5, codec="A_VORBIS"),
        media_files.mp4_audio(5, handler=b"vide"),
        media_files.mp4_audio(5, sample_format=b"avc1"),
        media_files.mp4_audio(5, sample_format=b"Opus"),
        media_files.mp4_audio(5, decoder_rate=None),
        media_files.ogg_opus(5)[:-40],  # truncated
        b"OggS" + b"\x00" * 100,
        media_files.mp4_audio(5)[:60],
    ],
    ids=[
        "webm-video",
        "webm-vorbis",
        "mp4-video",
        "mp4-avc",
        "mp4-opus",
        "mp4-no-decoder-config",
        "ogg-truncated",
        "ogg-junk",
        "mp4-truncated",
    ],
)
def test_what_is_not_a_recorded_sound_is_refused(data):
    assert "cannot be read" in refused(data)


@pytest.mark.parametrize("name", ["chromium-3s.webm", "chromium-3s.mp4"])
def test_a_browsers_own_recording_is_measured(name):
    """Recorded by Chromium's MediaRecorder (audio/webm;codecs=opus and audio/mp4, which is Opus in fragments)
    from its fake audio device, stopped after 3 s."""
    sniffed = media_sniff((RECORDINGS / name).read_bytes())
    assert sniffed.kind == "sound" and sniffed.duration == pytest.approx(3.0, abs=0.1)


def test_a_sound_of_no_packets_is_refused():
    assert mp4_duration(media_files.mp4_audio(5)) == pytest.approx(5.0, abs=0.03)
    empty = media_files.webm_audio(1)
    cut = empty[: empty.index(b"\x1f\x43\xb6\x75")]  # the header without a single cluster
    assert webm_duration(cut) is None
    assert "cannot be read" in refused(cut)


def test_a_laced_webm_block_is_refused():
    data = media_files.webm_audio(1).replace(b"\x81\x00\x00\x80\xfc", b"\x81\x00\x00\x82\xfc", 1)
    assert webm_duration(data) is None


# --- pictures: one frame, bounded once decoded -------------------------------------------------


def _saved(image: Image.Image, fmt: str, **options) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


@pytest.mark.parametrize("fmt", ["PNG", "WEBP"])
def test_an_animation_is_refused(fmt):
    frames = [Image.new("RGB", (64, 64), colour) for colour in ("red", "blue", "green")]
    data = _saved(frames[0], fmt, save_all=True, append_images=frames[1:])
    assert "animation" in refused(data)
    assert media_sniff(_saved(frames[0], fmt)).kind == "drawing"  # the same picture, still


def test_a_gif_is_refused():
    assert "PNG or WebP" in refused(_saved(Image.new("RGB", (8, 8)), "GIF"))


@pytest.mark.parametrize(
    ("mode", "side"),
    [("I;16", 4096), ("RGBA", 2100)],
    ids=["4096-16-bit", "2100-rgba"],
)
def test_a_pixel_bomb_is_refused_before_it_is_decoded(mode, side, monkeypatch):
    data = _saved(Image.new(mode, (side, side)), "PNG")
    assert len(data) < 512 * 1024  # small as a file: big only once unpacked
    decoded = []
    monkeypatch.setattr(Image.Image, "load", lambda self: decoded.append(self) or None)
    assert "too big once unpacked" in refused(data)
    assert not decoded


def test_a_16_bit_png_counts_twice_its_8_bit_twin():
    side = int(math.sqrt(MAX_DECODED_BYTES / 4))  # 8-bit RGBA at the limit: taken
    assert media_sniff(_saved(Image.new("RGBA", (side, side)), "PNG")).kind == "drawing"
    rgba16 = bytearray(_saved(Image.new("RGBA", (side, side)), "PNG"))
    rgba16[24] = 16  # the same header, saying 16 bits a channel
    rgba16[29:33] = struct.pack(">I", zlib.crc32(bytes(rgba16[12:29])))
    assert "too big once unpacked" in refused(bytes(rgba16))


def test_a_truncated_picture_is_refused():
    data = _saved(Image.new("RGB", (300, 200), "teal"), "PNG")
    assert "cannot be read" in refused(data[: len(data) - 40])
    header_only = data[:33] + struct.pack(">I", 0) + b"IEND" + b"\xae\x42\x60\x82"
    assert "cannot be read" in refused(header_only)
