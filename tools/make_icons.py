"""Draw the installable app's PNG icons from the site's SVG icon (games/static/img/icon.svg).

    .venv/bin/python tools/make_icons.py

Writes notifications/static/notifications/icons/: icon-192.png and icon-512.png (the rounded
square, transparent corners), icon-maskable-512.png (full bleed, the drawing inside the
central safe circle, for launchers that cut their own shape) and apple-touch-icon.png (180,
opaque: iOS rounds it itself). Pillow only; drawn 4 times larger and scaled down for smooth edges.
"""

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "notifications" / "static" / "notifications" / "icons"
BLUE = "#3b4fa8"
YELLOW = "#f4d35e"
WHITE = "#ffffff"
RED = "#ee6c4d"
SUPERSAMPLE = 4


def _card(size: int, box, angle: float, centre, fill: str, scale: float, offset: float) -> Image.Image:
    """One card of the 64-unit SVG, rotated by ``angle`` degrees clockwise (SVG's sense) about ``centre``."""
    layer = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    x, y, w, h = box
    ImageDraw.Draw(layer).rounded_rectangle(
        [offset + x * scale, offset + y * scale, offset + (x + w) * scale, offset + (y + h) * scale],
        radius=4 * scale,
        fill=fill,
    )
    # Pillow turns counter-clockwise for a positive angle.
    return layer.rotate(-angle, resample=Image.BICUBIC, center=(offset + centre[0] * scale, offset + centre[1] * scale))


def draw(size: int, *, maskable: bool = False, opaque: bool = False) -> Image.Image:
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    if maskable or opaque:
        ImageDraw.Draw(image).rectangle([0, 0, big, big], fill=BLUE)
    else:
        ImageDraw.Draw(image).rounded_rectangle([0, 0, big - 1, big - 1], radius=14 * big / 64, fill=BLUE)
    # The maskable icon keeps its drawing within the central 80 % circle (the safe zone).
    drawing = big * (0.72 if maskable else 1.0)
    scale = drawing / 64
    offset = (big - drawing) / 2
    image.alpha_composite(_card(big, (14, 12, 26, 38), -10, (27, 31), YELLOW, scale, offset))
    image.alpha_composite(_card(big, (24, 14, 26, 38), 8, (37, 33), WHITE, scale, offset))
    ImageDraw.Draw(image).ellipse(
        [offset + 31 * scale, offset + 27 * scale, offset + 43 * scale, offset + 39 * scale], fill=RED
    )
    small = image.resize((size, size), Image.LANCZOS)
    return small.convert("RGB") if opaque else small


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    draw(192).save(OUT / "icon-192.png", optimize=True)
    draw(512).save(OUT / "icon-512.png", optimize=True)
    draw(512, maskable=True).save(OUT / "icon-maskable-512.png", optimize=True)
    draw(180, opaque=True).save(OUT / "apple-touch-icon.png", optimize=True)
    print(f"Wrote the icons to {OUT}")


if __name__ == "__main__":
    main()
