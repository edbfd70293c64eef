"""Generated avatars: a small SVG per player, made from their name and colour, nothing uploaded.

An avatar is a shape filled with the player's colour and their initials on it. The shape
comes from the player (a hash of a stable key: the username) or is given (a seat's position,
so the players of one table never share one): the avatars tell people apart without colour.
At a table the letters differ too (``table_letters``): "Bot Ada" and "Bot Alan" are not
both "BA", for a reader who tells the avatars apart by their letters alone.
"""

from __future__ import annotations

import functools
import hashlib
import math
import re
from collections import Counter

from django.conf import settings
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from .models import COLOUR_HEX

# Colours a seat may have beyond the people's own (games.services.games.SEAT_COLOURS).
EXTRA_HEX = {"teal": "#2a9d8f", "brown": "#8a5a3c"}
UNKNOWN_HEX = "#888888"
DARK = "#231f1a"
LIGHT = "#ffffff"


def _polygon(corners: int, radius: float, *, turn: float = -90.0) -> str:
    points = []
    for k in range(corners):
        angle = math.radians(turn + 360.0 * k / corners)
        points.append(f"{radius * math.cos(angle):.2f},{radius * math.sin(angle):.2f}")
    return "M" + " L".join(points) + " Z"


def _star(points: int, outer: float, inner: float) -> str:
    corners = []
    for k in range(points * 2):
        radius = outer if k % 2 == 0 else inner
        angle = math.radians(-90.0 + 180.0 * k / points)
        corners.append(f"{radius * math.cos(angle):.2f},{radius * math.sin(angle):.2f}")
    return "M" + " L".join(corners) + " Z"


# Outlines centred on (0, 0) within a radius of 16: different enough to tell apart in grey.
SHAPES: tuple[str, ...] = (
    "M16,0 A16,16 0 1 1 -16,0 A16,16 0 1 1 16,0 Z",  # circle
    "M-11,-14 H11 Q14,-14 14,-11 V11 Q14,14 11,14 H-11 Q-14,14 -14,11 V-11 Q-14,-14 -11,-14 Z",  # square
    _polygon(6, 16),  # hexagon
    _polygon(4, 16),  # diamond
    _polygon(3, 17.5, turn=-90.0),  # triangle
    _star(5, 16.5, 9.5),  # star
    _polygon(8, 16, turn=-67.5),  # octagon
    _star(8, 16, 12),  # flower: a sun with eight rays
    _polygon(5, 16),  # pentagon
    "M0,-16 C9,-16 16,-9 16,0 C16,9 9,16 0,16 C-4,16 -16,12 -16,0 C-16,-12 -4,-16 0,-16 Z",  # pebble
)
# Where the initials sit in each shape (a triangle's middle is low).
TEXT_Y = {4: 5.0}


HEX: dict[str, str] = {str(name): value for name, value in COLOUR_HEX.items()} | EXTRA_HEX


def colour_hex(colour: str) -> str:
    return HEX.get(colour, UNKNOWN_HEX)


def _luminance(hex_colour: str) -> float:
    channels = []
    for i in (1, 3, 5):
        c = int(hex_colour[i : i + 2], 16) / 255
        channels.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
    red, green, blue = channels
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def ink_for(hex_colour: str) -> str:
    """Dark or light letters, whichever reads better on ``hex_colour``."""
    lum = _luminance(hex_colour)
    on_dark = (1.05) / (lum + 0.05)
    on_light = (lum + 0.05) / (_luminance(DARK) + 0.05)
    return LIGHT if on_dark >= on_light else DARK


def initials(name: str) -> str:
    """Up to three characters of a name: its first letter, then the number it ends with (up to two
    digits: "Player 12" is P12, not P1 like "Player 11"), or else the first letter of its second word."""
    text = str(name).strip()
    words = [word for word in re.split(r"[\s_.\-]+", text) if word]
    if not words:
        return "?"
    number = re.search(r"(\d{1,2})$", text)
    if number and not words[0].isdigit():
        return (words[0][0] + number[1]).upper()
    return (words[0][0] + (words[1][0] if len(words) > 1 else "")).upper()


# The most letters an avatar holds: beyond three they no longer fit the shape.
MAX_LETTERS = 3


def _letter_options(name: str) -> list[str]:
    """The letters ``name`` may show, shortest first: its initials, then more of its last word ("Ad", "BAd")."""
    text = str(name).strip()
    words = [word for word in re.split(r"[\s_.\-]+", text) if word]
    options = [initials(name)]
    if not words:
        return options
    last = words[-1]
    for length in range(2, len(last) + 1):
        options.append(last[0].upper() + last[1:length].lower())
        if len(words) > 1 and length + 1 <= MAX_LETTERS:
            options.append(words[0][0].upper() + last[0].upper() + last[1:length].lower())
    return [option for option in dict.fromkeys(options) if len(option) <= MAX_LETTERS]


@functools.lru_cache(maxsize=settings.FABULA_AVATAR_ENTRIES)
def table_letters(names: tuple[str, ...]) -> tuple[str, ...]:
    """The letters of each of a table's players, no two the same: each player's initials, made longer only
    for players whose letters clash (the shortest that tell them apart), numbered as a last resort."""
    options = [_letter_options(name) for name in names]
    level = [0] * len(names)
    while True:
        letters = [option[min(at, len(option) - 1)] for option, at in zip(options, level)]
        counts = Counter(letters)
        clashing = [index for index, text in enumerate(letters) if counts[text] > 1]
        if not clashing:
            return tuple(letters)
        if all(level[index] >= len(options[index]) - 1 for index in clashing):
            break
        for index in clashing:
            level[index] += 1
    # Names alike to the letter ("Bo" and "bo."): their first letter and their place among them.
    seen: Counter = Counter()
    for index in clashing:
        seen[letters[index]] += 1
        letters[index] = f"{letters[index][:1]}{seen[letters[index]]}"
    return tuple(letters)


def shape_of(key: str) -> int:
    """The shape a player has wherever no table gives one: the same key, the same shape."""
    digest = hashlib.sha256(str(key).encode()).digest()
    return int.from_bytes(digest[:4], "big") % len(SHAPES)


@functools.lru_cache(maxsize=settings.FABULA_AVATAR_ENTRIES)
def _drawing(
    *, key: str, name: str, colour: str, shape: int | None, letters: str | None = None
) -> tuple[int, SafeString, str]:
    """The avatar's shape index, what it draws (its path and initials, the name escaped), and an id
    for that drawing (the same drawing, the same id). ``letters``: the table's (``table_letters``)."""
    index = (shape_of(key) if shape is None else shape) % len(SHAPES)
    fill = colour_hex(colour)
    letters = letters or initials(name)
    font = {1: 15, 2: 12.5}.get(len(letters), 10)
    drawing = format_html(
        '<path d="{}" fill="{}" stroke="{}" stroke-width="1.5"></path>'
        '<text x="0" y="{}" text-anchor="middle" dominant-baseline="middle" font-size="{}" font-weight="700" fill="{}">'
        "{}</text>",
        SHAPES[index],
        fill,
        DARK,
        TEXT_Y.get(index, 0.5),
        font,
        ink_for(fill),
        letters,
    )
    return index, drawing, "av-" + hashlib.blake2s(f"{index}|{drawing}".encode(), digest_size=6).hexdigest()


@functools.lru_cache(maxsize=settings.FABULA_AVATAR_ENTRIES)
def avatar_svg(
    *,
    key: str,
    name: str,
    colour: str,
    shape: int | None = None,
    size: int = 32,
    label: bool = False,
    css_class: str = "avatar",
    letters: str | None = None,
) -> SafeString:
    """A player's avatar as inline SVG markup (the name escaped).

    ``label``: the avatar names the player to screen readers (an image named by the player's
    name); without it, it is decorative (``aria-hidden``) because the name is beside it.
    """
    index, drawing, _ident = _drawing(key=key, name=name, colour=colour, shape=shape, letters=letters)
    accessible = (
        format_html('role="img" aria-label="{}"', name) if label else mark_safe('aria-hidden="true" focusable="false"')
    )
    return format_html(
        '<svg class="{} shape-{}" viewBox="-18 -18 36 36" width="{}" height="{}" {}>{}</svg>',
        css_class,
        index,
        size,
        size,
        accessible,
        drawing,
    )


class AvatarSymbols:
    """Avatars drawn once per page and used wherever they repeat (SVG ``<symbol>`` and ``<use>``).

    A list that shows the same players row after row ("My games": 20 rows of up to eight players,
    mostly the same friends) carried each drawing again every time, 0.65 KB each. ``use()`` gives a
    decorative avatar that points at its drawing; ``symbols()`` gives the drawings used, once each,
    to be put in the same page (or fragment) after them.
    """

    def __init__(self):
        self._drawn: dict[str, SafeString] = {}

    def use(
        self,
        *,
        key: str,
        name: str,
        colour: str,
        shape: int | None,
        size: int,
        css_class: str,
        letters: str | None = None,
    ) -> SafeString:
        index, drawing, ident = _drawing(key=key, name=name, colour=colour, shape=shape, letters=letters)
        if ident not in self._drawn:
            self._drawn[ident] = format_html('<symbol id="{}" viewBox="-18 -18 36 36">{}</symbol>', ident, drawing)
        return format_html(
            '<svg class="{} shape-{}" width="{}" height="{}" aria-hidden="true" focusable="false">'
            '<use href="#{}"></use></svg>',
            css_class,
            index,
            size,
            size,
            ident,
        )

    def symbols(self) -> SafeString:
        if not self._drawn:
            return mark_safe("")
        return mark_safe(  # noqa: S308 (each symbol escaped by format_html)
            '<svg class="avatar-symbols" width="0" height="0" aria-hidden="true" focusable="false">'
            + "".join(self._drawn.values())
            + "</svg>"
        )
