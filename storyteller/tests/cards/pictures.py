"""Pictures and zips for the card tests, made on the fly."""

import io
import struct
import zipfile
import zlib

from PIL import Image, ImageDraw


def picture(fmt: str = "PNG", size=(600, 800), colour="#3060a0", mode="RGB") -> bytes:
    """A small picture with a shape on it, so crops and scales are visible."""
    image = Image.new(mode, size, colour)
    draw = ImageDraw.Draw(image)
    width, height = size
    draw.ellipse((width // 4, height // 4, 3 * width // 4, 3 * height // 4), fill="#f0c040")
    out = io.BytesIO()
    image.save(out, format=fmt)
    return out.getvalue()


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims ``width`` × ``height`` pixels: what a decompression bomb looks like."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    data = zlib.compress(b"\x00" * 64)
    return b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + _png_chunk(b"IDAT", data) + _png_chunk(b"IEND", b"")


SVG = b"""<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" width="480" height="720"><script>alert(1)</script>
<rect width="480" height="720" fill="teal"/></svg>"""


def zip_of(files: dict[str, bytes], *, compression=zipfile.ZIP_DEFLATED) -> io.BytesIO:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=compression) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    out.seek(0)
    out.name = "pictures.zip"
    return out


def card_pixels(data: bytes):
    with Image.open(io.BytesIO(data)) as image:
        return image.format, image.size
