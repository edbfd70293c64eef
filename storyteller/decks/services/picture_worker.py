"""Decoding an uploaded picture into a card, in a process of its own (``picture_decoding`` starts it).

This file is also a program: ``python -I -S picture_worker.py '<parameters as JSON>'`` (the command of
``picture_decoding.worker_command``; where Pillow is installed comes with the parameters) reads the picture's
bytes on its standard input and writes one line of JSON (the picture's own descriptions, for the alt text it
suggests) then the card, a 480 x 720 WebP with no metadata, on its standard output; on failure it writes
``{"error": "damaged"}`` (or ``"memory"``) and exits 1. It imports nothing but the standard library and
Pillow (pillow-heif for HEIC), never Django: it starts in tens of milliseconds, and when it exits every byte
the decoding took goes back to the system, whatever the allocator would have kept in the web process.

The memory a decoding takes is bounded two ways: ``decode_memory`` estimates it from the header alone (the web
process refuses a picture whose estimate is over its budget before any pixel is decoded), and the program caps
its own address space a margin above that estimate, so a picture that lies about itself fails here rather
than taking the machine. Within it, the picture is decoded at reduced size where the format allows (JPEG's
draft mode: 1/2, 1/4 or 1/8), then at once cut to the card's 2:3 middle and reduced by whole factors (box
averaging, in strips where a mode needs converting), so every later step (turning it, flattening
transparency, colour profile, resizing) works on at most about 2 x the card both ways, never on the whole
decoded picture. WebP and PNG cannot be decoded at reduced size: their budget is the whole picture.
"""

import contextlib
import html
import io
import json
import re
import sys

if __name__ == "__main__":  # started with -S (no site: faster): where Pillow is comes with the parameters
    sys.path[:0] = json.loads(sys.argv[1])["path"]

from PIL import Image, ImageOps  # noqa: E402

# Bytes a decoded pixel costs at the peak, by format, measured (Pillow 13, pillow-heif 1.9, ru_maxrss of this
# program): WebP holds libwebp's canvas, its copy as Python bytes and Pillow's picture (about 15.4 for a
# 7000 x 7000 lossless WebP); HEIC libheif's planes and RGB and Pillow's (7.0 at 8 bits, 7.7 at 10); a JPEG
# its drafted size's buffers (8.5); other formats (PNG) decode straight into Pillow's picture: its mode's
# bytes a pixel, and one for the strips and the rest.
BYTES_PER_PIXEL = {"WEBP": 16, "HEIF": 8, "JPEG": 9}
MODE_BYTES = {"1": 1, "L": 1, "P": 1, "I;16": 2, "I;16L": 2, "I;16B": 2, "I;16N": 2}  # Pillow stores the rest in 4
# What the program itself takes before any picture (the interpreter and Pillow: about 22 MB measured), rounded up.
PROGRAM_BYTES = 40 * 1024 * 1024
# Address space allowed above the estimate (threads' stacks, the allocator's arenas, libraries): the cap
# is a backstop for a picture whose header lies, not the budget itself.
ADDRESS_MARGIN_BYTES = 768 * 1024 * 1024
STRIP_ROWS = 128  # rows of the reduced picture made at a time where a mode must be converted first
XMP_DESCRIPTION = re.compile(rb"<dc:description>.*?<rdf:li[^>]*>(.*?)</rdf:li>", re.DOTALL)
TURNED = (5, 6, 7, 8)  # EXIF orientations that swap width and height


def decode_memory(image: Image.Image, *, data_bytes: int, draft_side: int) -> int:
    """Bytes decoding ``image`` (opened, not loaded: only its header read) into a card would take at the peak.

    A JPEG is put in draft mode here (its size becomes the reduced one it will be decoded at), as the
    decoding will: call it on a picture opened for the estimate only."""
    kind = "JPEG" if image.format == "MPO" else image.format or ""  # MPO: a JPEG with more pictures after it
    if kind == "JPEG":
        image.draft(None, (draft_side, draft_side))
    width, height = image.size
    per_pixel = BYTES_PER_PIXEL.get(kind, MODE_BYTES.get(image.mode, 4) + 1)
    return PROGRAM_BYTES + 2 * data_bytes + width * height * per_pixel


def card_from(
    data: bytes, *, card_size: tuple[int, int], draft_side: int, formats: list[str], quality: int, describe: bool
):
    """The card (WebP bytes) and the picture's own descriptions (raw, for the caller to clean)."""
    with Image.open(io.BytesIO(data), formats=formats) as image:
        image.draft(None, (draft_side, draft_side))  # JPEG only; others ignore it
        image.load()
        descriptions = _descriptions(image) if describe else []
        orientation = image.getexif().get(0x0112)
        card = _to_card(_cut_and_reduced(image, card_size=card_size, turned=orientation in TURNED), card_size)
    out = io.BytesIO()
    from PIL import WebPImagePlugin  # noqa: F401  (registers WebP's writer: Pillow would import every plugin)

    # No exif=, icc_profile= nor xmp=: the WebP holds the pixels and nothing else.
    card.save(out, format="WEBP", quality=quality)
    return out.getvalue(), descriptions


def _cut_and_reduced(image: Image.Image, *, card_size: tuple[int, int], turned: bool) -> Image.Image:
    """The middle of ``image`` in the card's shape (as it will stand once turned), reduced by the largest whole
    factor that leaves it at least twice the card's size both ways; in RGB, RGBA or L; with ``image``'s info
    (its EXIF orientation and colour profile)."""
    card_width, card_height = card_size
    if turned:  # stored sideways: the card's shape lies across
        card_width, card_height = card_height, card_width
    width, height = image.size
    if width * card_height > height * card_width:  # wider than the card: keep the middle columns
        cut_width, cut_height = height * card_width // card_height, height
    else:
        cut_width, cut_height = width, width * card_height // card_width
    left, top = (width - cut_width) // 2, (height - cut_height) // 2
    box = (left, top, left + cut_width, top + cut_height)
    factor = max(1, min(cut_width // (2 * card_width), cut_height // (2 * card_height)))
    if image.mode in ("RGB", "L"):
        reduced = image.reduce(factor, box) if factor > 1 else image.crop(box)
    else:
        has_alpha = image.mode in ("RGBA", "LA", "PA", "La", "RGBa") or "transparency" in image.info
        mode = "RGBA" if has_alpha else "RGB"
        reduced = Image.new(mode, (-(-cut_width // factor), -(-cut_height // factor)))
        step = STRIP_ROWS * factor
        for strip_top in range(top, top + cut_height, step):
            strip = image.crop((left, strip_top, left + cut_width, min(strip_top + step, top + cut_height)))
            strip = strip.convert(mode)
            reduced.paste(strip.reduce(factor) if factor > 1 else strip, (0, (strip_top - top) // factor))
    reduced.info = {key: value for key, value in image.info.items() if key != "transparency"}
    return reduced


def _to_card(image: Image.Image, card_size: tuple[int, int]) -> Image.Image:
    image = ImageOps.exif_transpose(image)  # phones store photos sideways with a note to turn them
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        image = image.convert("RGBA")
        opaque = Image.new("RGBA", image.size, "white")
        image = Image.alpha_composite(opaque, image)
    icc = image.info.get("icc_profile")
    image = image.convert("RGB")
    if icc:  # a phone's wide-gamut photo (Display P3): its colours in sRGB, as browsers take an untagged picture
        from PIL import ImageCms

        # A profile that cannot be read: the pixels as they are.
        with contextlib.suppress(ImageCms.PyCMSError, OSError, ValueError, TypeError):
            converted = ImageCms.profileToProfile(
                image, ImageCms.ImageCmsProfile(io.BytesIO(icc)), ImageCms.createProfile("sRGB"), outputMode="RGB"
            )
            if converted is not None:  # None only for a conversion in place (inPlace=True), which this is not
                image = converted
    image.info.clear()  # nothing of the original's metadata travels with the pixels
    # The middle is already in the card's shape (give or take a pixel of rounding): scale it to the card.
    return ImageOps.fit(image, card_size, method=Image.Resampling.LANCZOS)


def _descriptions(image: Image.Image) -> list[str]:
    """What the picture says of itself: EXIF ImageDescription, XPComment (Windows), XMP dc:description."""
    found: list[str] = []
    exif = image.getexif()
    description = exif.get(0x010E)  # ImageDescription
    if isinstance(description, bytes):
        description = description.decode("utf-8", "replace")
    if isinstance(description, str):
        found.append(description)
    comment = exif.get(0x9C9C)  # XPComment: UTF-16LE bytes, or a tuple of them
    if isinstance(comment, tuple):
        comment = bytes(comment)
    if isinstance(comment, bytes):
        found.append(comment.decode("utf-16-le", "replace"))
    xmp = image.info.get("xmp") or image.info.get("XML:com.adobe.xmp")
    if isinstance(xmp, str):
        xmp = xmp.encode("utf-8", "replace")
    if isinstance(xmp, bytes):
        match = XMP_DESCRIPTION.search(xmp)
        if match:
            found.append(html.unescape(match.group(1).decode("utf-8", "replace")))
    return found


def main(argv: list[str]) -> int:
    params = json.loads(argv[1])
    out = sys.stdout.buffer
    try:
        _cap_memory(params["address_limit"])
        if "HEIF" in params["formats"]:
            import pillow_heif

            pillow_heif.register_heif_opener(thumbnails=False)
        card, descriptions = card_from(
            sys.stdin.buffer.read(),
            card_size=tuple(params["card_size"]),
            draft_side=params["draft_side"],
            formats=params["formats"],
            quality=params["quality"],
            describe=params["describe"],
        )
    except MemoryError:
        out.write(b'{"error": "memory"}\n')
        return 1
    except Exception:  # Pillow reports damaged data with many exception types
        out.write(b'{"error": "damaged"}\n')
        return 1
    out.write(json.dumps({"descriptions": descriptions}).encode() + b"\n")
    out.write(card)
    return 0


def _cap_memory(limit: int) -> None:
    if limit:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
