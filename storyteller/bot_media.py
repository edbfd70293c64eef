"""A bot's clue where the game's house rules leave out words: a drawing it makes, or a sound.

The drawing is a small PNG drawn with Pillow from what the card shows: the colours its
alt text names (in any of the site's languages) over a sky or a sea, a round shape for
a moon, a sun or a ball, a few simple shapes placed by the card (the same card, the
same picture). The sound is a short Ogg Opus stream (silent frames: a bot cannot sing,
but it takes its turn). Either goes through ``clue_media_upload``, the service a
person's upload goes through, checked the same way.
"""

from __future__ import annotations

import hashlib
import io
import random
import struct

# Colour words by their beginnings, in the site's languages, and the colour they paint.
COLOURS = {
    (200, 40, 40): ("red", "rød", "röd", "punai", "roug"),
    (40, 80, 200): ("blue", "blå", "sini", "bleu"),
    (40, 150, 70): ("green", "grøn", "grön", "vihre", "vert"),
    (235, 200, 40): ("yellow", "gul", "kelta", "jaun"),
    (130, 60, 170): ("violet", "purple", "fiolett", "violett", "lilla", "violet"),
    (240, 140, 30): ("orange", "oransj", "orans", "appelsin"),
    (210, 170, 50): ("gold", "guld", "gull", "kulta", "doré"),
    (245, 245, 240): ("white", "hvid", "vit", "hvit", "valkoi", "blanc", "blanch"),
    (25, 25, 30): ("black", "sort", "svart", "musta", "noir"),
    (240, 150, 180): ("pink", "rosa", "lyserød", "vaaleanpuna", "ros"),
    (130, 130, 135): ("grey", "gray", "grå", "harmaa", "gris"),
    (20, 20, 60): ("night", "nat", "natt", "yö", "nuit", "dark", "mørk", "mörk", "tumma", "sombre"),
}
ROUND = ("moon", "måne", "kuu", "lune", "sun", "sol", "aurinko", "soleil", "ball", "bold", "boll", "pallo", "balle")
SIDE = 256


def _rng(card: int, text: str) -> random.Random:
    return random.Random(int.from_bytes(hashlib.sha256(f"{card}:{text}".encode()).digest()[:8], "big"))


def colours_in(text: str) -> list[tuple[int, int, int]]:
    words = text.lower().replace("-", " ").split()
    found = []
    for word in words:
        for colour, starts in COLOURS.items():
            if word.startswith(starts) and colour not in found:
                found.append(colour)
    return found


def drawing(card: int, text: str) -> bytes:
    """A PNG of the card's colours and a few shapes (the same card and text, the same picture)."""
    from PIL import Image, ImageDraw

    rng = _rng(card, text)
    colours = colours_in(text) or [tuple(rng.randrange(40, 220) for _ in range(3))]
    background = colours[-1] if len(colours) > 1 else (235, 235, 245)
    image = Image.new("RGB", (SIDE, SIDE), background)
    draw = ImageDraw.Draw(image)
    lowered = text.lower()
    if any(word in lowered for word in ROUND):
        x, y, r = rng.randrange(60, 196), rng.randrange(40, 120), rng.randrange(20, 45)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=(245, 235, 170), outline=(60, 60, 60), width=2)
    for n in range(rng.randrange(2, 5)):
        colour = colours[n % len(colours)]
        x, y = rng.randrange(10, SIDE - 60), rng.randrange(100, SIDE - 40)
        w, h = rng.randrange(30, 90), rng.randrange(30, 90)
        shape = rng.choice(("rectangle", "ellipse", "triangle"))
        box = (x, y, min(SIDE - 1, x + w), min(SIDE - 1, y + h))
        if shape == "rectangle":
            draw.rectangle(box, fill=colour, outline=(40, 40, 40), width=2)
        elif shape == "ellipse":
            draw.ellipse(box, fill=colour, outline=(40, 40, 40), width=2)
        else:
            draw.polygon([(x, box[3]), (box[2], box[3]), ((x + box[2]) // 2, y)], fill=colour, outline=(40, 40, 40))
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


# An Opus packet of 20 ms (TOC 0xfc: CELT, fullband, 20 ms, one frame) of silence.
_OPUS_FRAME = b"\xfc" + b"\x00" * 7
_PRE_SKIP = 312


def sound(card: int, text: str) -> bytes:
    """A short Ogg Opus stream, 1 to 3 seconds (by the card), of silent frames."""
    seconds = 1 + _rng(card, text).random() * 2
    head = b"OpusHead" + bytes([1, 1]) + struct.pack("<HIhB", _PRE_SKIP, 48000, 0, 0)
    tags = b"OpusTags" + struct.pack("<I", 6) + b"fabula" + struct.pack("<I", 0)
    frames = max(1, round(seconds * 50))
    return ogg_stream([([head], 0), ([tags], 0), ([_OPUS_FRAME] * frames, _PRE_SKIP + frames * 960)], serial=0xFAB)


def ogg_stream(plan: list[tuple[list[bytes], int]], *, serial: int) -> bytes:
    """An Ogg stream of one logical bitstream: a page for each (packets, granule position) of ``plan``, in order,
    the first marked as the stream's beginning and the last as its end (mutagen's ``OggPage`` writes each)."""
    from mutagen.ogg import OggPage

    pages = []
    for sequence, (packets, position) in enumerate(plan):
        page = OggPage()
        page.serial = serial
        page.sequence = sequence
        page.position = position
        page.packets = packets
        page.first = sequence == 0
        page.last = sequence == len(plan) - 1
        pages.append(page.write())
    return b"".join(pages)


def bot_clue_media(*, game, seat, card: int, clue: str, modes):
    """The bot's drawing (where drawings are allowed) or sound for its clue, uploaded through the service a
    person's upload goes through (the same checks; refused, it raises the same ``GameError``)."""
    from storyteller.models import Card
    from storyteller.services.media import clue_media_upload

    row = Card.objects.filter(pk=card).values_list("alt_text", flat=True).first() or ""
    text = f"{row} {clue}"  # the picture's colours in English, and the clue's words in the game's language
    data = drawing(card, text) if "drawing" in modes else sound(card, text)
    return clue_media_upload(game_id=game.pk, user=seat.user, data=data)
