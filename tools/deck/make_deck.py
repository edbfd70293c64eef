#!/usr/bin/env python3
"""Generate Fabula's default "Dreams" picture-card deck.

Each of the 84 cards is a small dream scene composed in SVG from hand-written
recipes: gradients and simple shapes (skies, hills, water, fog, stairs,
ladders, doors, stars) plus a few icons from Microsoft's Fluent Emoji Flat
set (MIT licence, see LICENSE-fluent-emoji.txt beside this script). The
icons used are committed in icons-subset.json, so no npm is needed.

Usage::

    python tools/deck/make_deck.py --seed 7 --out DIR
        writes DIR/001.svg .. DIR/084.svg, DIR/001.webp .. DIR/084.webp
        (480x720, WebP quality 85) and DIR/dream.json (the manifest).

    python tools/deck/make_deck.py --seed 7 --out DIR --publish
        also copies the WebP files to storyteller/static/cards/dream/ and the
        manifest to storyteller/decks/builtin/dream.json.

    --contact PNG    also writes a contact sheet of all cards (for review).
    --svg-only       skips rendering (no rendering dependency needed).
    --icons PATH     reads icons from a full Iconify icons.json (from
                     ``npm install @iconify-json/fluent-emoji-flat``) instead
                     of the committed subset; with --write-subset, rewrites
                     icons-subset.json from it with just the icons used.

The translations of the alt texts (the manifest's "alt_texts") are written by
hand in storyteller/decks/builtin/dream.json; a new manifest keeps them for every card
whose English alt text has not changed (a changed one must be translated again).

Output is deterministic: the same seed gives the same SVG bytes. The seed
only moves details (stars, clouds, ripples, jitter); the motifs and layout of
each card are fixed so that the alt texts in the manifest stay true.

Rendering dependencies (only for the WebP step; see requirements.txt):
``resvg-py`` (preferred) or ``cairosvg``, or Debian's ``rsvg-convert``
(librsvg2-bin) on PATH; plus Pillow to write WebP. The composition step
(``compose_svg``) needs only the standard library, and the web site itself
never runs this script.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import random
import re
import shutil
import subprocess
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SUBSET = HERE / "icons-subset.json"

W, H = 480, 720
INSET = 14  # the art area sits inside a dark frame with a gold line
RADIUS = 18
FRAME = "#1c1828"
FRAME_LINE = "#d8c48e"

DECK_META = {
    "slug": "dream",
    "name": "Dreams",
    "description": (
        "84 dreamlike pictures: impossible skies, doors and stairs to "
        "nowhere, whales over houses, moons in teacups. Made for the "
        "Storyteller game: each picture can mean many things."
    ),
}


def fmt(v: float) -> str:
    """Short, stable number formatting for SVG attributes."""
    if isinstance(v, int):
        return str(v)
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _attrs(kw: dict) -> str:
    out = []
    for k, v in kw.items():
        if v is None:
            continue
        name = k.rstrip("_").replace("_", "-")
        if isinstance(v, float):
            v = fmt(v)
        out.append(f'{name}="{v}"')
    return " ".join(out)


# ---------------------------------------------------------------------------
# Icons


def load_icons(path: Path | None = None) -> dict:
    """Return {name: body} from an Iconify JSON file (subset or full set)."""
    data = json.loads(Path(path or SUBSET).read_text(encoding="utf-8"))
    icons = {k: v["body"] for k, v in data["icons"].items()}
    for alias, spec in data.get("aliases", {}).items():
        if spec.get("parent") in icons and alias not in icons:
            icons[alias] = icons[spec["parent"]]
    return icons


_ID_RE = re.compile(r'\bid="([^"]+)"')
_URL_RE = re.compile(r"url\(#([^)]+)\)")
_HREF_RE = re.compile(r'href="#([^"]+)"')


def prefix_ids(body: str, prefix: str) -> str:
    """Prefix every id (and every reference to one) in an icon body."""
    body = _ID_RE.sub(lambda m: f'id="{prefix}{m.group(1)}"', body)
    body = _URL_RE.sub(lambda m: f"url(#{prefix}{m.group(1)})", body)
    return _HREF_RE.sub(lambda m: f'href="#{prefix}{m.group(1)}"', body)


# ---------------------------------------------------------------------------
# The drawing kit


TONES = {
    # feColorMatrix values: RGB rows then alpha row
    "night": "0.45 0 0 0 0.02  0 0.5 0 0 0.04  0 0 0.7 0 0.1  0 0 0 1 0",
    "dusk": "0.85 0.1 0 0 0.06  0 0.72 0 0 0.02  0 0 0.6 0 0.04  0 0 0 1 0",
    "fog": "0.45 0.1 0.1 0 0.35  0.1 0.45 0.1 0 0.36  0.1 0.1 0.45 0 0.38  0 0 0 1 0",
    "deep": "0.35 0 0 0 0  0 0.6 0 0 0.08  0 0 0.75 0 0.16  0 0 0 1 0",
    "pale": "0.6 0.1 0.1 0 0.25  0.1 0.6 0.1 0 0.25  0.1 0.1 0.6 0 0.28  0 0 0 1 0",
    "gray": "0.3 0.5 0.1 0 0.05  0.3 0.5 0.1 0 0.05  0.3 0.5 0.1 0 0.07  0 0 0 1 0",
    "shade": "0.2 0 0 0 0.06  0.2 0 0 0 0.06  0.21 0 0 0 0.07  0 0 0 1 0",
    "warm": "1 0.08 0 0 0.04  0 0.9 0 0 0.01  0 0 0.75 0 0  0 0 0 1 0",
}


def _hex_rgb(color: str) -> tuple[float, float, float]:
    c = color.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    return tuple(int(c[i : i + 2], 16) / 255 for i in (0, 2, 4))


class Card:
    """One card being composed: collects defs and body parts."""

    def __init__(self, number: int, seed: int, icons: dict):
        self.n = number
        self.rng = random.Random(f"fabula-dream:{seed}:{number}")
        self.icons = icons
        self.used: set[str] = set()
        self.defs: list[str] = []
        self.parts: list[str] = []
        self._ids = 0
        self._filters: dict[str, str] = {}

    # -- basics -----------------------------------------------------------
    def uid(self, kind: str = "x") -> str:
        self._ids += 1
        return f"c{self.n}{kind}{self._ids}"

    def add(self, s: str) -> None:
        self.parts.append(s)

    def el(self, tag: str, **kw) -> None:
        self.add(f"<{tag} {_attrs(kw)}/>")

    def rect(self, x, y, w, h, fill, **kw):
        self.el("rect", x=x, y=y, width=w, height=h, fill=fill, **kw)

    def circle(self, x, y, r, fill, **kw):
        self.el("circle", cx=x, cy=y, r=r, fill=fill, **kw)

    def ellipse(self, x, y, rx, ry, fill, **kw):
        self.el("ellipse", cx=x, cy=y, rx=rx, ry=ry, fill=fill, **kw)

    def path(self, d, fill="none", **kw):
        self.el("path", d=d, fill=fill, **kw)

    def poly(self, pts, fill, **kw):
        self.el("polygon", points=" ".join(f"{fmt(x)},{fmt(y)}" for x, y in pts), fill=fill, **kw)

    def line(self, x1, y1, x2, y2, stroke, width=2, **kw):
        self.el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=width, stroke_linecap="round", **kw)

    def jit(self, v: float, amount: float) -> float:
        return v + self.rng.uniform(-amount, amount)

    # -- paint servers and filters -----------------------------------------
    @staticmethod
    def _stops(stops) -> str:
        out = []
        n = len(stops)
        for i, s in enumerate(stops):
            if isinstance(s, str):
                off, col, op = (i / (n - 1) if n > 1 else 0), s, 1
            elif len(s) == 2:
                off, col, op = s[0], s[1], 1
            else:
                off, col, op = s
            extra = f' stop-opacity="{fmt(op)}"' if op != 1 else ""
            out.append(f'<stop offset="{fmt(off)}" stop-color="{col}"{extra}/>')
        return "".join(out)

    def lin(self, stops, x1=0, y1=0, x2=0, y2=1, user=False) -> str:
        gid = self.uid("l")
        units = ' gradientUnits="userSpaceOnUse"' if user else ""
        self.defs.append(
            f'<linearGradient id="{gid}" x1="{fmt(x1)}" y1="{fmt(y1)}" x2="{fmt(x2)}" '
            f'y2="{fmt(y2)}"{units}>{self._stops(stops)}</linearGradient>'
        )
        return f"url(#{gid})"

    def rad(self, stops, cx=0.5, cy=0.5, r=0.5, fx=None, fy=None) -> str:
        gid = self.uid("r")
        focus = ""
        if fx is not None:
            focus = f' fx="{fmt(fx)}" fy="{fmt(fy)}"'
        self.defs.append(
            f'<radialGradient id="{gid}" cx="{fmt(cx)}" cy="{fmt(cy)}" r="{fmt(r)}"{focus}>'
            f"{self._stops(stops)}</radialGradient>"
        )
        return f"url(#{gid})"

    def blur(self, std: float) -> str:
        key = f"blur{std}"
        if key not in self._filters:
            fid = self.uid("f")
            self.defs.append(
                f'<filter id="{fid}" x="-50%" y="-50%" width="200%" height="200%">'
                f'<feGaussianBlur stdDeviation="{fmt(std)}"/></filter>'
            )
            self._filters[key] = f"url(#{fid})"
        return self._filters[key]

    def tone(self, name: str) -> str:
        """A colour filter for icons: a named tone or 'sil:#rrggbb'."""
        if name not in self._filters:
            fid = self.uid("t")
            if name.startswith("hue:"):
                self.defs.append(
                    f'<filter id="{fid}" x="-5%" y="-5%" width="110%" height="110%" '
                    f'color-interpolation-filters="sRGB">'
                    f'<feColorMatrix type="hueRotate" values="{name[4:]}"/></filter>'
                )
                self._filters[name] = f"url(#{fid})"
                return self._filters[name]
            if name.startswith("sil:"):
                r, g, b = _hex_rgb(name[4:])
                values = f"0 0 0 0 {fmt(r)}  0 0 0 0 {fmt(g)}  0 0 0 0 {fmt(b)}  0 0 0 1 0"
            else:
                values = TONES[name]
            self.defs.append(
                f'<filter id="{fid}" x="-5%" y="-5%" width="110%" height="110%" '
                f'color-interpolation-filters="sRGB">'
                f'<feColorMatrix type="matrix" values="{values}"/></filter>'
            )
            self._filters[name] = f"url(#{fid})"
        return self._filters[name]

    # -- grouping ------------------------------------------------------------
    @contextmanager
    def group(self, **kw):
        saved, self.parts = self.parts, []
        yield
        inner, self.parts = self.parts, saved
        self.add(f"<g {_attrs(kw)}>" + "".join(inner) + "</g>")

    @contextmanager
    def clip(self, d: str):
        cid = self.uid("k")
        self.defs.append(f'<clipPath id="{cid}"><path d="{d}"/></clipPath>')
        with self.group(clip_path=f"url(#{cid})"):
            yield

    @contextmanager
    def fade_mask(self, stops, x1=0, y1=0, x2=0, y2=1):
        """Mask the group by a white/black gradient (stops are opacities)."""
        mid = self.uid("m")
        gid = self.uid("l")
        st = "".join(f'<stop offset="{fmt(o)}" stop-color="#fff" stop-opacity="{fmt(a)}"/>' for o, a in stops)
        self.defs.append(
            f'<linearGradient id="{gid}" x1="{fmt(x1)}" y1="{fmt(y1)}" x2="{fmt(x2)}" y2="{fmt(y2)}">'
            f"{st}</linearGradient>"
            f'<mask id="{mid}" maskUnits="userSpaceOnUse" x="0" y="0" width="{W}" height="{H}">'
            f'<rect width="{W}" height="{H}" fill="url(#{gid})"/></mask>'
        )
        with self.group(mask=f"url(#{mid})"):
            yield

    # -- icons ---------------------------------------------------------------
    def icon(self, name, x, y, size, rot=0, flip=False, vflip=False, op=1, tone=None, blur=None):
        """Place icon `name` centred on (x, y), `size` px wide."""
        body = self.icons[name]
        self.used.add(name)
        k = size / 32
        tr = f"translate({fmt(x)} {fmt(y)})"
        if rot:
            tr += f" rotate({fmt(rot)})"
        tr += f" scale({fmt(-k if flip else k)} {fmt(-k if vflip else k)}) translate(-16 -16)"
        inner = prefix_ids(body, self.uid("i") + "-")
        g = f'<g transform="{tr}">{inner}</g>'
        if tone:
            g = f'<g filter="{self.tone(tone)}">{g}</g>'
        if blur or op != 1:
            extra = {"opacity": op if op != 1 else None, "filter": self.blur(blur) if blur else None}
            g = f"<g {_attrs(extra)}>{g}</g>"
        self.add(g)

    def reflect(self, name, x, y, size, water_y, op=0.35, tone=None, flip=False, rot=0):
        """The icon's mirror image below the water line `water_y`."""
        ry = 2 * water_y - y
        self.icon(name, x, ry, size, vflip=True, flip=flip, op=op, tone=tone, rot=-rot)

    # -- scenery -------------------------------------------------------------
    def sky(self, stops, y0=0, y1=H):
        self.rect(0, y0, W, y1 - y0, self.lin(stops))

    def glow(self, x, y, r, color, op=0.8):
        self.circle(x, y, r, self.rad([(0, color, op), (0.4, color, op * 0.45), (1, color, 0)]))

    def sparkle(self, x, y, r, fill="#fff", op=1):
        self.path(
            f"M{fmt(x)} {fmt(y - r)}Q{fmt(x)} {fmt(y)} {fmt(x + r)} {fmt(y)}"
            f"Q{fmt(x)} {fmt(y)} {fmt(x)} {fmt(y + r)}Q{fmt(x)} {fmt(y)} {fmt(x - r)} {fmt(y)}"
            f"Q{fmt(x)} {fmt(y)} {fmt(x)} {fmt(y - r)}Z",
            fill=fill,
            opacity=op,
        )

    def stars(self, n, x0=0, y0=0, x1=W, y1=H * 0.6, color="#fff", rmax=1.8, sparkles=3, avoid=None):
        rng = self.rng
        for i in range(n):
            x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
            if avoid and math.hypot(x - avoid[0], y - avoid[1]) < avoid[2]:
                continue
            self.circle(x, y, rng.uniform(0.5, rmax), color, opacity=fmt(rng.uniform(0.35, 1)))
        for i in range(sparkles):
            x, y = rng.uniform(x0 + 20, x1 - 20), rng.uniform(y0 + 10, y1 - 10)
            if avoid and math.hypot(x - avoid[0], y - avoid[1]) < avoid[2]:
                continue
            self.sparkle(x, y, rng.uniform(4, 8), color, op=0.9)

    def moon(self, x, y, r, color="#fdf3c4", glow="#fff6d0", phase=None, sky=None):
        """A drawn moon; phase='crescent' cuts a bite out with the sky colour."""
        if glow:
            self.glow(x, y, r * 3, glow, 0.45)
        self.circle(x, y, r, color)
        self.circle(x - r * 0.3, y - r * 0.2, r * 0.18, "#000", opacity=0.06)
        self.circle(x + r * 0.35, y + r * 0.3, r * 0.12, "#000", opacity=0.06)
        if phase == "crescent":
            self.circle(x + r * 0.45, y - r * 0.25, r * 0.92, sky or "#000")

    def smooth(self, pts, closed_to=None) -> str:
        """Catmull-Rom through pts; optionally closed down to y=closed_to."""
        d = f"M{fmt(pts[0][0])} {fmt(pts[0][1])}"
        for i in range(len(pts) - 1):
            p0 = pts[i - 1] if i else pts[i]
            p1, p2 = pts[i], pts[i + 1]
            p3 = pts[i + 2] if i + 2 < len(pts) else p2
            c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
            c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
            d += f"C{fmt(c1[0])} {fmt(c1[1])} {fmt(c2[0])} {fmt(c2[1])} {fmt(p2[0])} {fmt(p2[1])}"
        if closed_to is not None:
            d += f"L{fmt(pts[-1][0])} {fmt(closed_to)}L{fmt(pts[0][0])} {fmt(closed_to)}Z"
        return d

    def hills(self, y, amp, fill, n=5, x0=-40, x1=W + 40, peaks=None, **kw):
        """A soft ridge around height y; `peaks` gives explicit (x, y) points."""
        if peaks is None:
            pts = []
            for i in range(n + 1):
                x = x0 + (x1 - x0) * i / n
                pts.append((x, y + self.rng.uniform(-amp, amp)))
        else:
            pts = [(x0, y)] + [(px, self.jit(py, 4)) for px, py in peaks] + [(x1, y)]
        self.path(self.smooth(pts, closed_to=H + 10), fill=fill, **kw)

    def water(self, y, top, bottom, ripples=24, ripple_color="#fff", ripple_op=0.25, y1=H):
        self.rect(0, y, W, y1 - y, self.lin([top, bottom]))
        rng = self.rng
        for i in range(ripples):
            t = rng.random()
            yy = y + 6 + t * t * (y1 - y - 10)
            w = 10 + 60 * t
            x = rng.uniform(0, W)
            self.line(x, yy, x + w, yy, ripple_color, width=1 + t * 1.5, opacity=ripple_op)

    def cloud(self, x, y, w, color="#fff", op=0.9, blur=None):
        """A puffy cloud about `w` px wide, flat-bottomed at y."""
        h = w * 0.22
        with self.group(fill=color, opacity=op, filter=self.blur(blur) if blur else None):
            self.add(
                f'<rect x="{fmt(x - w / 2)}" y="{fmt(y - h)}" width="{fmt(w)}" height="{fmt(h)}" rx="{fmt(h / 2)}"/>'
            )
            rng = self.rng
            for cx, cr in ((-0.22, 0.2), (0.02, 0.3), (0.25, 0.19)):
                rr = w * cr * rng.uniform(0.85, 1.1)
                self.add(f'<circle cx="{fmt(x + w * cx)}" cy="{fmt(y - h * 0.9)}" r="{fmt(rr * 0.8)}"/>')

    def fog(self, y, h, color="#fff", op=0.6):
        self.rect(0, y - h / 2, W, h, self.lin([(0, color, 0), (0.5, color, op), (1, color, 0)]))

    def shadow(self, x, y, rx, ry, op=0.3, color="#000"):
        self.ellipse(x, y, rx, ry, color, opacity=op, filter=self.blur(max(2, ry * 0.4)))

    def rays(self, x, y, angles, length, color="#fff", op=0.25, spread=4):
        for a in angles:
            a1, a2 = math.radians(a - spread), math.radians(a + spread)
            pts = [
                (x, y),
                (x + length * math.sin(a1), y + length * math.cos(a1)),
                (x + length * math.sin(a2), y + length * math.cos(a2)),
            ]
            grad = self.lin(
                [(0, color, op), (1, color, 0)],
                x1=x,
                y1=y,
                x2=x + length * math.sin(math.radians(a)),
                y2=y + length * math.cos(math.radians(a)),
                user=True,
            )
            self.poly(pts, grad)

    def stairs(self, x, y, n, dx, dy, fill, stroke=None, depth=10, op=1, gap=0, **kw):
        """A flight of n steps rising from (x, y); dx<0 rises leftwards.

        gap > 0 draws separate floating slabs instead of a solid flight."""
        with self.group(opacity=op if op != 1 else None):
            for i in range(n):
                sx, sy = x + i * dx, y - i * dy
                xa, xb = (sx, sx + dx) if dx > 0 else (sx + dx, sx)
                hh = (dy + depth) if not gap else max(4, depth)
                yy = sy - dy
                self.rect(
                    xa - (gap if gap else 0),
                    yy,
                    xb - xa + 2 * gap,
                    hh,
                    fill,
                    stroke=stroke,
                    stroke_width=1.5 if stroke else None,
                    **kw,
                )

    def flight(self, x, y, n, dx, dy, fill, stroke=None, thick=16, fill_op=1, width=2):
        """A solid staircase seen from the side, rising from (x, y) by n steps."""
        top = [(x, y)]
        for i in range(n):
            top += [(x + i * dx, y - (i + 1) * dy), (x + (i + 1) * dx, y - (i + 1) * dy)]
        under = [(x + n * dx, y - n * dy + thick), (x + thick * dx / max(dy, 1) * 0.0, y + thick)]
        self.poly(top + under, fill, fill_opacity=fill_op if fill_op != 1 else None)
        if stroke:
            self.el(
                "polyline",
                points=" ".join(f"{fmt(a)},{fmt(b)}" for a, b in top),
                fill="none",
                stroke=stroke,
                stroke_width=width,
                stroke_linejoin="round",
            )

    def nest(self, x, y, w, inner=None):
        """A twig nest centred at (x, y); `inner` draws what sits in it."""
        rng = self.rng
        self.ellipse(x, y - w * 0.05, w / 2, w * 0.13, "#5a3b22")
        self.ellipse(x, y - w * 0.04, w * 0.43, w * 0.09, "#2d1c10")
        if inner:
            inner()
        d = (
            f"M{fmt(x - w / 2)} {fmt(y - w * 0.05)}Q{fmt(x - w * 0.45)} {fmt(y + w * 0.33)} {fmt(x)} "
            f"{fmt(y + w * 0.33)}Q{fmt(x + w * 0.45)} {fmt(y + w * 0.33)} {fmt(x + w / 2)} {fmt(y - w * 0.05)}"
            f"Q{fmt(x + w * 0.25)} {fmt(y + w * 0.06)} {fmt(x)} {fmt(y + w * 0.06)}"
            f"Q{fmt(x - w * 0.25)} {fmt(y + w * 0.06)} {fmt(x - w / 2)} {fmt(y - w * 0.05)}Z"
        )
        self.path(d, fill="#7a5230")
        for i in range(26):
            yy = y + rng.uniform(0.0, 0.28) * w
            half = w * 0.5 * (1 - ((yy - y) / (w * 0.36)) ** 2) ** 0.5
            x1 = x + rng.uniform(-half, half * 0.2)
            x2 = x1 + rng.uniform(0.25, 0.6) * w
            x2 = min(x2, x + half)
            col = rng.choice(["#4e3119", "#9a6b3e", "#5f3d20", "#b0804c"])
            self.path(
                f"M{fmt(x1)} {fmt(yy)}Q{fmt((x1 + x2) / 2)} {fmt(yy + rng.uniform(-8, 8))} {fmt(x2)} "
                f"{fmt(yy + rng.uniform(-6, 6))}",
                stroke=col,
                stroke_width=rng.uniform(1.5, 3),
                stroke_linecap="round",
            )

    def boat(self, x, y, w, hull="#6b3f2a", sail="#f4efe6", vflip=False, mast=True, op=1):
        """A little sailing boat whose keel touches (x, y)."""
        h = w * 0.2
        tr = f"translate(0 {fmt(2 * y)}) scale(1 -1)" if vflip else None
        with self.group(transform=tr, opacity=op if op != 1 else None):
            if mast:
                top = y - h - w * 0.95
                self.line(x, y - h, x, top, "#3b2a20", max(1.5, w * 0.025))
                self.poly([(x + 3, top + 4), (x + 3, y - h - 6), (x + w * 0.42, y - h - 6)], sail)
                self.poly([(x - 3, top + w * 0.18), (x - 3, y - h - 6), (x - w * 0.3, y - h - 6)], sail, opacity=0.85)
            self.path(
                f"M{fmt(x - w / 2)} {fmt(y - h)}L{fmt(x + w / 2)} {fmt(y - h)}"
                f"Q{fmt(x + w * 0.4)} {fmt(y)} {fmt(x + w * 0.25)} {fmt(y)}"
                f"L{fmt(x - w * 0.3)} {fmt(y)}Q{fmt(x - w * 0.44)} {fmt(y)} {fmt(x - w / 2)} {fmt(y - h)}Z",
                fill=hull,
            )
            self.rect(x - w / 2, y - h - 2, w, 4, "#000", opacity=0.18)

    def ladder(self, x1, y1, x2, y2, width, color, rungs=8, rail=4, rung=3):
        ang = math.atan2(y2 - y1, x2 - x1)
        px, py = -math.sin(ang) * width / 2, math.cos(ang) * width / 2
        for s in (1, -1):
            self.line(x1 + s * px, y1 + s * py, x2 + s * px, y2 + s * py, color, rail)
        for i in range(rungs):
            t = (i + 0.5) / rungs
            cx, cy = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
            self.line(cx + px, cy + py, cx - px, cy - py, color, rung)

    def rope(self, x1, y1, x2, y2, sag, color, width=1.5, **kw):
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2 + sag
        self.path(
            f"M{fmt(x1)} {fmt(y1)}Q{fmt(mx)} {fmt(my)} {fmt(x2)} {fmt(y2)}",
            stroke=color,
            stroke_width=width,
            stroke_linecap="round",
            **kw,
        )

    def arch_d(self, x, y, w, h) -> str:
        """Path of an arch-topped doorway whose bottom-left corner is (x, y)."""
        r = w / 2
        return f"M{fmt(x)} {fmt(y)}V{fmt(y - h + r)}A{fmt(r)} {fmt(r)} 0 0 1 {fmt(x + w)} {fmt(y - h + r)}V{fmt(y)}Z"

    def rect_d(self, x, y, w, h) -> str:
        return f"M{fmt(x)} {fmt(y)}h{fmt(w)}v{fmt(h)}h{fmt(-w)}Z"

    def figure(self, x, y, h, color="#1a1426", op=1, coat=True):
        """A small standing person in silhouette, feet at (x, y)."""
        u = h / 100
        with self.group(fill=color, opacity=op if op != 1 else None):
            self.add(f'<circle cx="{fmt(x)}" cy="{fmt(y - 90 * u)}" r="{fmt(9 * u)}"/>')
            wide = 20 if coat else 13
            self.add(
                f'<path d="M{fmt(x - 11 * u)} {fmt(y - 78 * u)}Q{fmt(x)} {fmt(y - 82 * u)} '
                f"{fmt(x + 11 * u)} {fmt(y - 78 * u)}L{fmt(x + wide * u)} {fmt(y - 28 * u)}"
                f"L{fmt(x + 6 * u)} {fmt(y - 28 * u)}L{fmt(x + 6 * u)} {fmt(y)}L{fmt(x + 1 * u)} {fmt(y)}"
                f"L{fmt(x)} {fmt(y - 24 * u)}L{fmt(x - 1 * u)} {fmt(y)}L{fmt(x - 6 * u)} {fmt(y)}"
                f'L{fmt(x - 6 * u)} {fmt(y - 28 * u)}L{fmt(x - wide * u)} {fmt(y - 28 * u)}Z"/>'
            )

    def skyline(self, y, color, lit="#ffd77a", x0=-10, x1=W + 10, hmin=40, hmax=150, lit_p=0.3, up=False):
        """A row of silhouetted buildings standing on y (hanging from y if up)."""
        rng = self.rng
        x = x0
        sign = 1 if up else -1
        while x < x1:
            w = rng.uniform(28, 60)
            h = rng.uniform(hmin, hmax)
            top = y + sign * h
            self.rect(x, min(y, top), w, abs(h), color)
            if rng.random() < 0.3:
                self.poly([(x, top), (x + w / 2, top + sign * w * 0.4), (x + w, top)], color)
            for wy in range(int(min(y, top)) + 10, int(max(y, top)) - 10, 16):
                for wx in range(int(x) + 6, int(x + w) - 8, 12):
                    if rng.random() < lit_p:
                        self.rect(wx, wy, 5, 7, lit, opacity=0.85)
            x += w + rng.uniform(-4, 3)

    def bare_tree(self, x, y, h, color, width=None, depth=5, spread=28, lean=0):
        """A leafless branching tree rooted at (x, y); returns the branch tips."""
        tips = []
        rng = self.rng

        def branch(x0, y0, ang, length, w, d):
            x1 = x0 + length * math.sin(math.radians(ang))
            y1 = y0 - length * math.cos(math.radians(ang))
            self.path(
                f"M{fmt(x0)} {fmt(y0)}Q{fmt((x0 + x1) / 2 + rng.uniform(-6, 6))} "
                f"{fmt((y0 + y1) / 2)} {fmt(x1)} {fmt(y1)}",
                stroke=color,
                stroke_width=max(1, w),
                stroke_linecap="round",
            )
            if d == 0:
                tips.append((x1, y1))
                return
            for s in (-1, 1):
                branch(
                    x1,
                    y1,
                    ang + s * rng.uniform(spread * 0.6, spread * 1.2),
                    length * rng.uniform(0.62, 0.8),
                    w * 0.62,
                    d - 1,
                )

        branch(x, y, lean, h * 0.38, width or h * 0.07, depth)
        return tips

    def birds(self, pts, color="#1d1a2b", size=10, op=0.85, width=2):
        for x, y in pts:
            s = size * self.rng.uniform(0.7, 1.2)
            self.path(
                f"M{fmt(x - s)} {fmt(y - s * 0.3)}Q{fmt(x - s * 0.5)} {fmt(y - s * 0.55)} {fmt(x)} {fmt(y)}"
                f"Q{fmt(x + s * 0.5)} {fmt(y - s * 0.55)} {fmt(x + s)} {fmt(y - s * 0.3)}",
                stroke=color,
                stroke_width=width,
                opacity=op,
                stroke_linecap="round",
            )

    def scatter(self, n, x0, y0, x1, y1, min_d=30, avoid=()):
        """Well spread random points (simple dart throwing)."""
        pts = []
        tries = 0
        while len(pts) < n and tries < n * 60:
            tries += 1
            p = (self.rng.uniform(x0, x1), self.rng.uniform(y0, y1))
            if all(math.hypot(p[0] - q[0], p[1] - q[1]) >= min_d for q in pts) and all(
                math.hypot(p[0] - a[0], p[1] - a[1]) >= a[2] for a in avoid
            ):
                pts.append(p)
        return pts

    # -- output ----------------------------------------------------------------
    def svg(self) -> str:
        art = f"c{self.n}art"
        vig = self.rad([(0, "#000", 0), (0.62, "#000", 0), (1, "#000", 0.38)], r=0.75)
        inner_w, inner_h = W - 2 * INSET, H - 2 * INSET
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="{W}" height="{H}" viewBox="0 0 {W} {H}">'
            f"<defs>"
            f'<clipPath id="{art}"><rect x="{INSET}" y="{INSET}" width="{inner_w}" '
            f'height="{inner_h}" rx="{RADIUS}"/></clipPath>' + "".join(self.defs) + "</defs>"
            f'<rect width="{W}" height="{H}" fill="{FRAME}"/>'
            f'<g clip-path="url(#{art})">' + "".join(self.parts) + f'<rect width="{W}" height="{H}" fill="{vig}"/></g>'
            f'<rect x="{INSET}" y="{INSET}" width="{inner_w}" height="{inner_h}" rx="{RADIUS}" '
            f'fill="none" stroke="{FRAME_LINE}" stroke-width="2.5"/>'
            f'<rect x="6.5" y="6.5" width="{W - 13}" height="{H - 13}" rx="{RADIUS + 7}" '
            f'fill="none" stroke="{FRAME_LINE}" stroke-opacity="0.3" stroke-width="1"/>'
            "</svg>\n"
        )


# ---------------------------------------------------------------------------
# The scenes. Each recipe draws one card; its alt text and tags describe it.

SCENES: list = []


def scene(alt: str, tags: list[str]):
    def register(fn):
        SCENES.append((fn, alt, tags))
        return fn

    return register


# SCENES-BEGIN
@scene(
    "A staircase of glass climbs out of a dark violet sea toward a huge full moon; "
    "above it a small sailing boat sails upside down on the sky as if on water.",
    ["stairs", "moon", "boat", "night", "sea", "glass", "upside down"],
)
def glass_stairs(c):
    c.sky(["#100a2b", "#32206a", "#7c55ad", "#d79bc4"], 0, 560)
    c.stars(70, 14, 14, 466, 420, avoid=(330, 150, 80))
    c.moon(330, 150, 58, color="#fbf1d0")
    c.water(540, "#3a2a6e", "#0d0826", ripples=30, ripple_color="#e8d8ff", ripple_op=0.3)
    c.ellipse(330, 620, 26, 90, "#fff3c8", opacity=0.25, filter=c.blur(10))
    c.flight(40, 610, 14, 20, 26, "#e9e0ff", stroke="#ffffff", thick=26, fill_op=0.22)
    c.glow(320, 250, 50, "#fff", 0.25)
    for dx, w in ((-70, 40), (40, 30), (-20, 70)):
        c.line(
            150 + dx, 232 - (8 if w < 50 else 0), 150 + dx + w, 232 - (8 if w < 50 else 0), "#e8d8ff", 1.5, opacity=0.5
        )
    c.boat(150, 236, 110, hull="#3a2755", sail="#fff3e0", vflip=True)


@scene(
    "A huge dark whale swims through a burning sunset sky above a small lit house on a hill.",
    ["whale", "house", "sunset", "sky", "scale", "home"],
)
def whale_house(c):
    c.sky(["#1e2753", "#5b467f", "#c0607a", "#f39a62", "#fbd17b"])
    c.glow(240, 560, 220, "#ffe3a0", 0.5)
    c.cloud(110, 170, 160, "#f6b6a0", 0.35, blur=6)
    c.cloud(380, 120, 130, "#f6b6a0", 0.3, blur=6)
    c.icon("whale", 250, 300, 330, tone="sil:#251c40", op=0.95)
    c.birds([(390, 430), (410, 450), (372, 455)], "#251c40", 9)
    c.hills(610, 10, "#2b2045", peaks=[(120, 600), (240, 585), (360, 605)])
    c.hills(650, 14, "#1b1430")
    c.glow(240, 560, 40, "#ffd27a", 0.5)
    c.icon("house", 240, 560, 70, tone="dusk")


@scene(
    "A giant white teacup stands half-sunk in a calm pale sea; a tiny sailboat floats on the tea inside it.",
    ["teacup", "boat", "sea", "scale", "morning", "tea"],
)
def teacup_sea(c):
    c.sky(["#f4cdbf", "#f9e4cf", "#d4e6ea"], 0, 470)
    c.cloud(100, 150, 150, "#fff", 0.6, blur=4)
    c.cloud(370, 230, 120, "#fff", 0.5, blur=4)
    c.circle(340, 120, 30, "#fff6e4", opacity=0.9)
    c.water(470, "#a9cdd6", "#4f8ea6", ripples=30, ripple_op=0.35)
    # the cup
    c.ellipse(240, 470, 190, 26, "#3e7b92", opacity=0.35)
    c.path("M345 380 C420 380 420 470 335 470", stroke="#f4f1ea", stroke_width=22)
    c.path(
        "M80 380 L400 380 C395 470 340 520 240 520 C140 520 85 470 80 380 Z",
        fill=c.lin(["#ffffff", "#dcd9d2"], 0, 0, 1, 0),
    )
    c.path("M110 400 C160 410 330 410 380 400", stroke="#8fb8c8", stroke_width=3, opacity=0.6)
    c.ellipse(240, 380, 160, 24, "#f7f4ee")
    c.ellipse(240, 382, 146, 18, "#a0612d")
    c.ellipse(240, 382, 120, 12, "#b87a40", opacity=0.6)
    c.boat(236, 386, 44, hull="#3d2b5a", sail="#fffaf0")
    c.water(515, "#6aa5b9", "#3d7f99", ripples=20, ripple_op=0.3)


@scene(
    "A lone open door stands on golden sand dunes under a hot afternoon sky; "
    "through the doorway shines a starry night with a crescent moon.",
    ["door", "desert", "night", "day", "portal", "stars"],
)
def desert_door(c):
    c.sky(["#f3a65f", "#f7c77e", "#fbe3b0"], 0, 520)
    c.circle(100, 130, 36, "#fff4d6", opacity=0.9)
    c.glow(100, 130, 110, "#fff1c7", 0.5)
    c.hills(470, 30, "#e6b06e", peaks=[(90, 450), (260, 500), (400, 440)])
    c.hills(540, 20, "#d39352", peaks=[(60, 560), (220, 520), (420, 560)])
    c.hills(620, 12, "#b97436")
    # long shadow of the door
    c.poly([(190, 560), (290, 560), (110, 620), (20, 620)], "#7a4a22", opacity=0.35)
    c.rect(178, 318, 124, 250, "#6d4226")
    with c.clip(c.rect_d(190, 330, 100, 230)):
        c.sky(["#06081e", "#1c1f55", "#3d3684"], 330, 560)
        c.stars(40, 190, 330, 290, 560, rmax=1.4, sparkles=2)
        c.moon(250, 380, 16, phase="crescent", sky="#0f1236", glow="#aab8ff")
    c.poly([(290, 330), (350, 345), (350, 550), (290, 560)], "#8b5a34")
    c.poly([(296, 338), (344, 350), (344, 546), (296, 553)], "#9a6a40")
    c.circle(300, 450, 4, "#f4d27a")
    c.icon("cactus", 410, 560, 50, tone="warm")
    c.glow(240, 450, 120, "#8c8cff", 0.12)


@scene(
    "A wooden ladder rises out of a dark sea into the clouds, reaching for a crescent moon; "
    "a white dove rests on one of its rungs.",
    ["ladder", "moon", "sea", "night", "bird", "clouds"],
)
def sea_ladder(c):
    c.sky(["#04101c", "#0b3346", "#276a7a"], 0, 540)
    c.stars(60, 14, 14, 466, 480, avoid=(330, 110, 60))
    c.glow(330, 110, 120, "#fff8d6", 0.35)
    c.icon("crescent-moon", 330, 110, 100)
    c.water(520, "#1f5a6c", "#03111c", ripples=30, ripple_color="#bfe8f0", ripple_op=0.25)
    c.ladder(190, 650, 300, 170, 36, "#d4a878", rungs=15)
    c.ellipse(192, 650, 36, 7, "#bfe8f0", opacity=0.25)
    c.cloud(310, 200, 200, "#e9f2f5", 0.9, blur=2)
    c.cloud(120, 300, 120, "#cfe3ea", 0.35, blur=5)
    c.icon("dove", 245, 402, 44, flip=True)


@scene(
    "A small island floats in a pastel sky with a tree and a straw hut on top, "
    "roots dangling beneath it and a waterfall pouring off its edge into the clouds.",
    ["island", "floating", "tree", "waterfall", "pastel", "home"],
)
def floating_island(c):
    c.sky(["#ffd3df", "#f7e1e9", "#bfe0f2"])
    c.cloud(380, 130, 120, "#fff", 0.7, blur=3)
    c.cloud(90, 560, 200, "#fff", 0.8, blur=4)
    c.cloud(390, 640, 220, "#fff", 0.9, blur=4)
    # small distant islands
    c.ellipse(90, 200, 34, 7, "#8fcf93")
    c.path("M56 200 Q90 250 124 200 Z", fill="#a88c84")
    c.ellipse(410, 480, 22, 5, "#8fcf93")
    c.path("M388 480 Q410 515 432 480 Z", fill="#a88c84")
    # waterfall
    c.rect(322, 366, 30, 320, c.lin([(0, "#f2fbff", 1), (0.7, "#d9f0ff", 0.6), (1, "#e6f6ff", 0)]))
    c.rect(330, 366, 6, 300, c.lin([(0, "#ffffff", 1), (1, "#ffffff", 0)]))
    c.path("M110 360 C130 440 190 520 240 560 C290 520 350 440 370 360 Z", fill=c.lin(["#b48c7e", "#7d5f60"]))
    for x, l in ((170, 60), (205, 90), (250, 70), (290, 50)):
        c.path(f"M{x} 420 q-6 {l / 2} 4 {l}", stroke="#6b4d4b", stroke_width=2)
    c.ellipse(240, 360, 132, 24, "#79c27c")
    c.ellipse(240, 356, 120, 17, "#92d68f")
    c.icon("deciduous-tree", 200, 290, 140)
    c.icon("hut", 310, 335, 56)
    c.birds([(300, 200), (322, 190)], "#a0728a", 8)


@scene(
    "A giant golden key lies across a misty chasm between two cliffs like a bridge, and a tiny figure walks over it.",
    ["key", "bridge", "fog", "cliff", "journey", "gold"],
)
def key_bridge(c):
    c.sky(["#27324d", "#66799a", "#c9d2df"], 0, 480)
    c.glow(240, 430, 220, "#fff8e6", 0.45)
    c.cloud(100, 170, 170, "#e8edf3", 0.35, blur=6)
    c.cloud(390, 240, 150, "#e8edf3", 0.3, blur=6)
    c.hills(470, 10, "#8a97ad", peaks=[(150, 440), (300, 470)])
    with c.clip("M150 470 L330 470 L300 730 L190 730 Z"):
        c.rect(0, 440, W, 300, c.lin(["#dfe6ef", "#aab6c8", "#7d8aa0"]))
        c.fog(560, 120, "#ffffff", 0.6)
    c.path("M-10 460 L150 460 L165 490 L150 540 L172 620 L160 730 L-10 730 Z", fill=c.lin(["#3d4660", "#1d2233"]))
    c.path("M330 455 L490 455 L490 730 L316 730 L330 650 L310 560 L326 500 Z", fill=c.lin(["#384059", "#1a1e2e"]))
    c.path("M-10 460 L150 460 L165 490", stroke="#8e9bb6", stroke_width=2)
    c.path("M326 500 L330 455 L490 455", stroke="#8e9bb6", stroke_width=2)
    c.shadow(240, 468, 110, 5, 0.3)
    c.icon("old-key", 245, 436, 290, rot=45)
    c.figure(204, 440, 42, "#171a28")
    c.birds([(100, 300), (122, 290)], "#2a3146", 9)


@scene(
    "A flock of alarm clocks flies like birds across a pink dawn sky above dark fields and a single tree.",
    ["clocks", "time", "flock", "dawn", "sky", "tree"],
)
def clock_flock(c):
    c.sky(["#353a77", "#9d5f8e", "#ef9f92", "#fde1c2"])
    c.glow(360, 600, 200, "#ffe7c2", 0.45)
    pts = [
        (100, 170, 120, -12),
        (250, 220, 92, 8),
        (380, 150, 74, -5),
        (390, 320, 62, 14),
        (130, 340, 60, -18),
        (260, 380, 50, 10),
        (350, 440, 42, -8),
        (430, 470, 32, 20),
        (190, 470, 36, 6),
        (290, 500, 28, -14),
        (60, 470, 26, 12),
    ]
    for x, y, s, r in pts:
        c.icon("alarm-clock", c.jit(x, 6), c.jit(y, 6), s, rot=r, tone="dusk")
    c.birds([(400, 180), (60, 300)], "#3a2c52", 8)
    c.hills(590, 8, "#4a3558")
    c.hills(640, 10, "#2e2140")
    c.icon("deciduous-tree", 110, 565, 64, tone="sil:#2a1f3d")


@scene(
    "Theatre masks hang by a thread from a bare branch in a dark forest, glowing softly, "
    "while pairs of eyes watch from the shadows.",
    ["masks", "forest", "night", "eyes", "theatre", "secret"],
)
def forest_masks(c):
    c.sky(["#03080b", "#0b2620", "#17473a"])
    c.glow(260, 420, 160, "#8fe0b0", 0.18)
    for x, y, s in ((40, 420, 260), (150, 470, 200), (420, 430, 300), (330, 520, 180)):
        c.icon("evergreen-tree", x, y, s, tone="sil:#071712")
    c.path("M-10 250 C80 260 150 250 230 290 C250 300 290 300 330 292", stroke="#040b08", stroke_width=12)
    c.path("M150 256 C170 230 180 210 200 200", stroke="#040b08", stroke_width=5)
    c.path("M260 298 C280 320 300 326 320 324", stroke="#040b08", stroke_width=4)
    c.line(262, 296, 262, 350, "#cdbfa0", 1.2, opacity=0.7)
    c.glow(262, 410, 90, "#ffe6a8", 0.35)
    c.icon("performing-arts", 262, 410, 120, rot=-6)
    for x, y, s in ((80, 560, 34), (410, 600, 26), (370, 330, 22), (60, 370, 20)):
        c.icon("eyes", x, y, s, tone="night", op=0.9)
    for x, y in c.scatter(14, 30, 300, 450, 690, 30):
        c.circle(x, y, 1.6, "#eaff9a", opacity=0.8)
        c.glow(x, y, 8, "#eaff9a", 0.4)
    for x, y, s in ((60, 640, 240), (430, 660, 220)):
        c.icon("evergreen-tree", x, y, s, tone="sil:#020705")


@scene(
    "On a branch at night, a bird's nest holds a speckled egg and the glowing full moon; "
    "the starry sky above has no moon of its own, and an owl watches from further along.",
    ["nest", "moon", "egg", "night", "bird", "home", "owl"],
)
def moon_nest(c):
    c.sky(["#07142e", "#173567", "#3a67a3"])
    c.stars(90, 14, 14, 466, 430)
    c.path("M-10 600 C120 580 200 600 300 560 C360 540 420 500 500 500", stroke="#2a1b18", stroke_width=22)
    c.path("M300 560 C330 600 350 640 380 660", stroke="#2a1b18", stroke_width=10)
    c.path("M90 590 C80 640 60 660 40 680", stroke="#2a1b18", stroke_width=8)
    c.icon("leaf-fluttering-in-wind", 440, 470, 60, tone="night")
    c.icon("leaf-fluttering-in-wind", 60, 560, 50, tone="night", flip=True)
    c.glow(240, 500, 170, "#fff3c0", 0.5)

    def inside():
        c.icon("egg", 190, 500, 62, rot=-14, tone="pale")
        c.icon("full-moon", 266, 488, 96)

    c.nest(236, 540, 240, inner=inside)
    c.icon("owl", 420, 440, 64, tone="night")


@scene(
    "A little sailboat glides on a sea of pink clouds as an enormous sun rises behind it.",
    ["boat", "clouds", "sunrise", "sky", "voyage", "pink"],
)
def cloud_sea(c):
    c.sky(["#ff8f87", "#ffb29a", "#ffd9b8", "#fff0da"])
    c.glow(240, 440, 260, "#fff7d6", 0.7)
    c.circle(240, 440, 110, "#fff1c4", opacity=0.95)
    c.poly([(20, 460), (80, 380), (130, 460)], "#d98a8e", opacity=0.6)
    c.poly([(340, 460), (400, 360), (470, 460)], "#d98a8e", opacity=0.6)
    rows = [
        (450, "#ffd1c4", 0.9),
        (500, "#ffc2b7", 0.95),
        (560, "#fbb0a9", 1),
        (630, "#f49c9c", 1),
        (700, "#ec8a94", 1),
    ]
    for y, col, op in rows:
        x = c.rng.uniform(-60, 0)
        while x < W + 60:
            w = c.rng.uniform(110, 170)
            c.cloud(x + w / 2, y, w, col, op)
            x += w * 0.72
    c.boat(180, 496, 96, hull="#6b3f5a", sail="#fffaf2")
    c.birds([(330, 300), (352, 290), (345, 318)], "#8a4b5e", 8)


@scene(
    "An empty wooden chair drifts high above the open sea, lifted by a bunch of colourful balloons.",
    ["chair", "balloons", "sea", "flight", "day", "empty"],
)
def balloon_chair(c):
    c.sky(["#3d8fc6", "#8fc9ea", "#dff3fb"], 0, 560)
    c.cloud(120, 500, 200, "#fff", 0.8, blur=3)
    c.cloud(390, 150, 150, "#fff", 0.7, blur=3)
    c.water(550, "#2a78a8", "#0c3656", ripples=30)
    c.shadow(280, 630, 50, 8, 0.35)
    cx, cy = 260, 420
    balloons = [(190, 170, 0), (250, 150, 140), (310, 180, 220), (220, 230, 60), (290, 240, 290), (340, 250, 180)]
    for bx, by, hue in balloons:
        c.rope(bx - 6, by + 28, cx + (bx - cx) * 0.05, cy - 40, 10, "#f7f7f7", 1.2)
    for bx, by, hue in balloons:
        c.icon("balloon", bx, by, 78, tone=f"hue:{hue}" if hue else None)
    c.icon("chair", cx, cy, 110, rot=-8)
    c.birds([(90, 330), (112, 318)], "#2d4c66", 9)


@scene(
    "On a snowy field at night stands an oval mirror in a golden frame; instead of the snow, "
    "it shows a sunny summer meadow full of flowers.",
    ["mirror", "snow", "summer", "night", "season", "portal"],
)
def mirror_snow(c):
    c.sky(["#0a1630", "#1f3a66", "#4d6ea3"], 0, 500)
    c.stars(50, 14, 14, 466, 300)
    c.hills(470, 14, "#b7c7df")
    c.hills(540, 10, "#dfe8f5", peaks=[(120, 530), (300, 545)])
    c.ellipse(240, 580, 130, 26, "#ffe7a0", opacity=0.25, filter=c.blur(8))
    c.shadow(290, 560, 90, 10, 0.25, color="#1f3a66")
    c.line(200, 470, 170, 565, "#8a6a2a", 7)
    c.line(280, 470, 310, 565, "#8a6a2a", 7)
    c.line(240, 500, 240, 560, "#8a6a2a", 6)
    with c.clip("M162 360 A78 120 0 1 0 318 360 A78 120 0 1 0 162 360 Z"):
        c.sky(["#74c4f2", "#d9f1ff"], 230, 480)
        c.circle(280, 280, 22, "#fff3b0")
        c.glow(280, 280, 60, "#fff8d0", 0.6)
        c.hills(410, 10, "#8ed17f")
        c.hills(450, 8, "#62b35a")
        for x, y, n, s in (
            (190, 420, "tulip", 34),
            (230, 440, "sunflower", 40),
            (280, 430, "tulip", 30),
            (260, 465, "blossom", 26),
            (200, 462, "cherry-blossom", 24),
        ):
            c.icon(n, x, y, s)
        c.icon("butterfly", 215, 330, 30, rot=-15)
    c.ellipse(240, 360, 78, 120, "none", stroke="#c9a24a", stroke_width=12)
    c.ellipse(240, 360, 84, 126, "none", stroke="#7a5a1c", stroke_width=2)
    for i in range(90):
        x, y = c.rng.uniform(14, 466), c.rng.uniform(14, 706)
        c.circle(x, y, c.rng.uniform(1, 2.6), "#fff", opacity=fmt(c.rng.uniform(0.4, 0.9)))
    for i in range(6):
        x, y = 90 + i * 22, 690 - i * 22
        c.ellipse(x - 5, y, 4, 6, "#9fb3cf")
        c.ellipse(x + 6, y - 10, 4, 6, "#9fb3cf")


@scene(
    "A castle stands on a tiny island in a still lake at dusk, but its reflection in the water "
    "is a small ordinary house.",
    ["castle", "reflection", "lake", "dusk", "house", "home"],
)
def castle_reflection(c):
    c.sky(["#0f2c3f", "#2f6d7a", "#e4a86a", "#f7d59c"], 0, 440)
    c.glow(240, 430, 200, "#ffe0a0", 0.4)
    c.hills(430, 14, "#24464f", peaks=[(60, 400), (170, 425), (400, 395)])
    c.water(430, "#8a9e93", "#0e2433", ripples=0)
    c.icon("house", 240, 500, 130, vflip=True, op=0.6, tone="dusk")
    c.ellipse(240, 433, 110, 10, "#1a2a2e")
    c.icon("castle", 240, 362, 150, tone="dusk")
    for i in range(30):
        t = c.rng.random()
        yy = 445 + t * t * 260
        x = c.rng.uniform(0, W)
        c.line(x, yy, x + 15 + 60 * t, yy, "#f7e0b0", 1 + t, opacity=0.22)
    c.birds([(120, 160), (140, 150)], "#1d3540", 9)


@scene(
    "A single tree on a hill stands where day meets night: the left half of the sky is sunny blue "
    "with a bird, the right half is dark and starry with a moon and a bat.",
    ["tree", "day", "night", "sun", "moon", "split"],
)
def day_night(c):
    left, right = c.rect_d(0, 0, 240, H), c.rect_d(240, 0, 240, H)
    with c.clip(left):
        c.sky(["#3d9be0", "#a6dcf7", "#e6f6ff"])
        c.circle(110, 150, 36, "#fff2a6")
        c.glow(110, 150, 100, "#fff6c8", 0.6)
        c.cloud(120, 330, 110, "#fff", 0.9)
        c.hills(560, 0, "#7cc66c", peaks=[(240, 470)])
        c.icon("bird", 150, 250, 36, flip=True)
        c.icon("deciduous-tree", 240, 400, 230)
    with c.clip(right):
        c.sky(["#05071f", "#1b1f52", "#353b7e"])
        c.stars(45, 240, 14, 466, 460)
        c.moon(370, 150, 34, color="#f7f1d4", phase="crescent", sky="#0d1033", glow="#c9d4ff")
        c.hills(560, 0, "#1c3b3a", peaks=[(240, 470)])
        c.icon("bat", 380, 290, 46)
        c.icon("deciduous-tree", 240, 400, 230, tone="night")
    c.line(240, 14, 240, 300, "#fff", 1, opacity=0.25)


@scene(
    "Inside a quiet room, a small grey rain cloud hovers under the ceiling and rains on a potted plant, "
    "while the window shows a clear blue sky.",
    ["cloud", "rain", "room", "plant", "indoors", "window"],
)
def room_cloud(c):
    c.rect(0, 0, W, 520, c.lin(["#efe3cf", "#d9c7ab"]))
    c.rect(0, 520, W, 200, c.lin(["#a8795a", "#6d4a33"]))
    for y in (560, 610, 670):
        c.line(0, y, W, y, "#5a3a26", 1.5, opacity=0.4)
    c.rect(0, 510, W, 12, "#c2a684")
    c.rect(52, 140, 150, 210, "#fdf8ef")
    with c.clip(c.rect_d(62, 150, 130, 190)):
        c.sky(["#4aa8e8", "#bde6fb"], 150, 340)
        c.circle(150, 190, 18, "#fff2a6")
        c.glow(150, 190, 50, "#fff6c8", 0.6)
        c.cloud(100, 300, 70, "#fff", 0.9)
    c.rect(124, 150, 6, 190, "#fdf8ef")
    c.rect(62, 242, 130, 6, "#fdf8ef")
    c.rect(44, 348, 166, 10, "#e8dcc8")
    c.poly([(62, 360), (192, 360), (230, 520), (40, 520)], "#fff8d8", opacity=0.25)
    c.icon("framed-picture", 390, 200, 70)
    c.shadow(310, 600, 60, 10, 0.35)
    c.ellipse(310, 612, 80, 12, "#a9d4ee", opacity=0.55)
    c.icon("potted-plant", 310, 540, 130)
    for i in range(22):
        x = c.rng.uniform(240, 380)
        y = c.rng.uniform(290, 470)
        c.line(x, y, x - 4, y + 18, "#6f9fc6", 2, opacity=0.7)
    c.cloud(310, 285, 190, "#8d96a6", 1)
    c.cloud(300, 270, 120, "#a4acba", 1)


@scene(
    "Fish of many colours swim through the evening sky above the rooftops of a sleeping town, trailing bubbles.",
    ["fish", "sky", "city", "evening", "swimming", "bubbles"],
)
def sky_fish(c):
    c.sky(["#2b1b4d", "#6b3a78", "#d9667a", "#f6b26b"])
    c.moon(380, 110, 24, color="#fde9c4", glow="#ffd9b0", phase="crescent", sky="#2f1d50")
    c.skyline(720, "#1a1230", hmin=80, hmax=190, lit_p=0.25)
    for x, y, n, s, fl in (
        (150, 260, "tropical-fish", 110, False),
        (330, 200, "fish", 84, True),
        (350, 390, "blowfish", 70, True),
        (110, 430, "fish", 44, False),
        (150, 460, "fish", 36, False),
        (80, 470, "fish", 30, False),
    ):
        c.icon(n, x, y, s, flip=fl, tone="dusk")
        for i in range(3):
            bx = x + (s * 0.6 if not fl else -s * 0.6) * (1 if i % 2 else 0.9)
            c.circle(
                bx + c.rng.uniform(-8, 8),
                y - s * 0.4 - i * 14,
                3 + i * 1.5,
                "none",
                stroke="#ffe6f0",
                stroke_width=1.2,
                opacity=0.7,
            )


@scene(
    "A bicycle rests on the sandy sea floor while jellyfish drift above it through beams of light.",
    ["bicycle", "underwater", "jellyfish", "sea", "lost", "light"],
)
def sea_bicycle(c):
    c.sky(["#1a7a99", "#0b4566", "#05203a"])
    c.rays(240, -60, [-28, -16, -6, 6, 18, 30], 760, "#c8f4ff", 0.22, spread=3)
    c.hills(610, 14, c.lin(["#b9a47c", "#6f6450"]))
    for x in (60, 95, 400, 430):
        h = c.rng.uniform(80, 150)
        c.path(
            f"M{x} 640 q-14 -{h / 3} 0 -{h / 1.8} q14 -{h / 4} 0 -{h / 2.2}",
            stroke="#2f8a5c",
            stroke_width=5,
            opacity=0.8,
        )
    c.shadow(230, 622, 90, 8, 0.3)
    c.icon("bicycle", 230, 570, 170, rot=-6, tone="deep")
    c.icon("coral", 420, 610, 80, tone="deep")
    for x, y, s in ((130, 240, 90), (340, 170, 66), (380, 380, 52), (90, 420, 40)):
        c.icon("jellyfish", x, y, s, op=0.85)
    for i in range(12):
        c.circle(
            c.jit(250, 30), 520 - i * 30, c.rng.uniform(2, 5), "none", stroke="#dff7ff", stroke_width=1, opacity=0.6
        )


@scene(
    "Stone steps lead down through green water to an arched door on the sea floor with warm light "
    "behind it, while small fish swim past.",
    ["door", "underwater", "stairs", "light", "fish", "secret"],
)
def sunken_door(c):
    c.sky(["#2aa198", "#0d5e63", "#032a30"])
    c.rays(150, -40, [-10, 4, 16, 30], 700, "#d8fff2", 0.2, spread=3)
    c.hills(640, 8, "#3d5e4f")
    c.flight(262, 650, 10, -22, 30, "#78958a", stroke="#a9c4b8", thick=40)
    c.rect(270, 445, 130, 205, "#4f6a62")
    with c.clip(c.arch_d(290, 640, 90, 175)):
        c.rect(280, 440, 120, 210, c.rad(["#fff6c8", "#ffc46b", "#d9782b"], cy=0.7))
    c.path(c.arch_d(290, 640, 90, 175), stroke="#9fb9ad", stroke_width=4)
    c.poly([(380, 500), (420, 480), (420, 660), (380, 640)], "#5a3b26")
    c.glow(335, 600, 130, "#ffd37a", 0.3)
    for x, y, s, fl in (
        (120, 200, 44, False),
        (160, 230, 36, False),
        (100, 250, 30, False),
        (380, 240, 50, True),
        (350, 330, 30, True),
    ):
        c.icon("fish", x, y, s, flip=fl, tone="deep")
    for x in (40, 440):
        c.path(f"M{x} 650 q-12 -40 0 -80 q12 -40 0 -80", stroke="#1f7a55", stroke_width=6, opacity=0.8)


@scene(
    "A giant snail crawls across a green meadow carrying a whole castle on its shell.",
    ["snail", "castle", "meadow", "slow", "home", "scale"],
)
def snail_castle(c):
    c.sky(["#9fd3ee", "#d6efee", "#f5f7e4"])
    c.cloud(110, 150, 150, "#fff", 0.9)
    c.cloud(380, 210, 110, "#fff", 0.8)
    c.hills(500, 20, "#a9d98b")
    c.hills(560, 16, "#83c468")
    for x, y in c.scatter(40, 20, 560, 460, 700, 18):
        c.circle(x, y, 3, c.rng.choice(["#fff", "#ffe066", "#ff9ecb"]), opacity=0.9)
    c.path("M330 612 C380 615 420 610 480 600", stroke="#e8f6ff", stroke_width=10, opacity=0.45)
    c.shadow(230, 618, 140, 12, 0.25)
    c.icon("snail", 230, 520, 280)
    c.icon("castle", 268, 368, 140)
    c.icon("bird", 400, 300, 34, flip=True)


@scene(
    "On a dark hilltop a small figure holds a long string and flies the full moon like a kite, "
    "its ribbon tail fluttering among the stars.",
    ["moon", "kite", "night", "figure", "hill", "string"],
)
def moon_kite(c):
    c.sky(["#020617", "#0b1d44", "#23466f"])
    c.stars(90, 14, 14, 466, 560, avoid=(330, 150, 60))
    c.moon(330, 150, 48, color="#fbf3d5")
    c.path("M156 548 Q300 420 326 196", stroke="#e9e2c8", stroke_width=1.4, opacity=0.85)
    pts = [(330, 198), (320, 240), (340, 290), (318, 340), (335, 385)]
    c.path(c.smooth(pts), stroke="#f2d8a6", stroke_width=1.5)
    for x, y in pts[1:]:
        c.poly([(x - 9, y - 5), (x, y), (x - 9, y + 5)], "#e6747c")
        c.poly([(x + 9, y - 5), (x, y), (x + 9, y + 5)], "#f0a35e")
    c.hills(620, 0, "#0b1326", peaks=[(90, 590), (170, 588), (300, 630)])
    c.figure(150, 606, 70, "#05070f")
    c.line(150, 565, 156, 548, "#05070f", 4)


@scene(
    "A red teapot tilts in the pale sky and pours out a river that winds away through green hills.",
    ["teapot", "river", "hills", "tea", "pouring", "pastel"],
)
def teapot_river(c):
    c.sky(["#c4e8dc", "#eef2d6", "#f7e9cf"])
    c.cloud(380, 120, 130, "#fff", 0.8)
    c.hills(430, 20, "#9dcf8d", peaks=[(100, 410), (300, 440), (420, 420)])
    c.hills(510, 14, "#7dbb6e")
    river = "M250 440 C240 470 300 480 290 520 C280 560 170 570 190 620 C200 660 300 680 320 740 L200 740 C160 690 110 650 130 610 C150 560 240 560 246 520 C250 490 232 470 240 440 Z"
    c.path(river, fill=c.lin(["#a8dcef", "#5cb3d8"]))
    c.path("M140 230 C190 260 240 330 246 440", stroke="#8fd0ec", stroke_width=16, opacity=0.95)
    c.path("M140 230 C190 260 240 330 246 440", stroke="#e9f8ff", stroke_width=3, opacity=0.8)
    c.icon("teapot", 110, 190, 150, rot=-35, flip=True)
    c.icon("house", 380, 560, 46)
    c.icon("deciduous-tree", 70, 520, 64)
    c.birds([(330, 260), (350, 250)], "#557766", 8)


@scene(
    "A giant black chess pawn stands on an endless checkerboard plain at dusk, "
    "casting a long shadow beside a tiny person dressed in red.",
    ["chess", "pawn", "checkerboard", "shadow", "dusk", "game"],
)
def pawn_checker(c):
    hz = 400
    c.sky(["#1f2438", "#5d5a7d", "#d4a7b4", "#f0d2bf"], 0, hz + 5)
    c.circle(120, 360, 34, "#ffe7c4", opacity=0.9)
    c.glow(120, 360, 120, "#ffd8b0", 0.5)
    # perspective checkerboard
    zs = [1 + i * 0.55 for i in range(22)]
    for i in range(len(zs) - 1):
        z0, z1 = zs[i], zs[i + 1]
        y0, y1 = hz + 320 / z0, hz + 320 / z1
        for col in range(-12, 13):
            xa0, xb0 = 240 + col * 90 / z0, 240 + (col + 1) * 90 / z0
            xa1, xb1 = 240 + col * 90 / z1, 240 + (col + 1) * 90 / z1
            fill = "#efe6dc" if (col + i) % 2 == 0 else "#2b2638"
            c.poly([(xa0, y0), (xb0, y0), (xb1, y1), (xa1, y1)], fill)
    c.fog(hz + 10, 60, "#f0d2bf", 0.9)
    c.poly([(300, 560), (340, 560), (480, 500), (480, 470)], "#000", opacity=0.35)
    c.icon("chess-pawn", 300, 440, 270)
    c.poly([(170, 600), (178, 600), (250, 585), (246, 582)], "#000", opacity=0.35)
    c.figure(174, 600, 44, "#b8323f")
    c.birds([(c.jit(390, 20), c.jit(220, 20)), (c.jit(412, 10), c.jit(235, 10))], "#2b2638", 8)


@scene(
    "Dozens of glowing red paper lanterns rise over a dark lake at night, their light trembling on the water.",
    ["lanterns", "lake", "night", "light", "many", "festival"],
)
def lanterns_lake(c):
    c.sky(["#07071d", "#1a1745", "#3b2c66"], 0, 480)
    c.stars(40, 14, 14, 466, 300, sparkles=1)
    c.hills(462, 8, "#120f2c", peaks=[(100, 450), (300, 466), (420, 445)])
    c.water(470, "#2a2255", "#07071d", ripples=26, ripple_color="#ffb07a", ripple_op=0.2)
    ls = [
        (130, 420, 110),
        (340, 370, 90),
        (230, 290, 68),
        (405, 250, 52),
        (70, 245, 48),
        (175, 180, 38),
        (300, 150, 32),
        (420, 115, 26),
        (115, 100, 22),
        (250, 75, 20),
        (360, 55, 18),
        (50, 360, 56),
    ]
    for x, y, s in ls:
        c.ellipse(x, 940 - y, s * 0.3, s * 0.7, "#ff8a4a", opacity=0.35 * s / 80, filter=c.blur(6))
    for x, y, s in ls:
        c.glow(x, y, s * 1.2, "#ff9a5a", 0.5)
        c.icon("red-paper-lantern", x, y, s)


@scene(
    "A huge seashell lies on an evening beach with a tiny lit door and a round window in its side, "
    "as if someone lives inside.",
    ["shell", "house", "beach", "evening", "door", "small"],
)
def shell_house(c):
    c.sky(["#34406e", "#9a74a6", "#f0b3a0"], 0, 440)
    c.circle(90, 400, 30, "#ffe2c0", opacity=0.9)
    c.glow(90, 400, 100, "#ffd2b0", 0.5)
    c.water(430, "#9a8bb8", "#5b6d9a", ripples=12, y1=520)
    c.hills(520, 6, "#f3dcc0")
    c.hills(540, 12, "#e3c29a")
    c.shadow(260, 640, 150, 16, 0.3)
    c.icon("spiral-shell", 250, 500, 310, rot=-8, flip=True)
    with c.clip(c.arch_d(222, 612, 40, 62)):
        c.rect(210, 540, 70, 80, c.lin(["#fff3b8", "#f5a742"]))
    c.path(c.arch_d(222, 612, 40, 62), stroke="#7a4d2e", stroke_width=3)
    c.glow(242, 600, 60, "#ffd27a", 0.4)
    c.circle(300, 520, 13, "#ffe59a", stroke="#7a4d2e", stroke_width=3)
    c.line(300, 507, 300, 533, "#7a4d2e", 2)
    c.icon("crab", 400, 650, 46)
    for i in range(5):
        c.ellipse(130 - i * 18, 660 + i * 10, 4, 6, "#c9a27a")


@scene(
    "A tall hourglass stands in the desert at dusk: its upper glass holds a blue sea with a tiny boat, "
    "trickling down into a pile of sand below.",
    ["hourglass", "time", "sea", "desert", "boat", "sand"],
)
def hourglass_sea(c):
    c.sky(["#2c1e3e", "#8d4f6b", "#e89b6a", "#f7c98c"], 0, 560)
    c.stars(25, 14, 14, 466, 200, sparkles=1)
    c.hills(560, 20, "#b8704a", peaks=[(80, 540), (380, 570)])
    c.hills(620, 14, "#8f5238")
    c.shadow(240, 600, 130, 12, 0.35)
    top = "M170 185 C170 300 230 330 236 370 L244 370 C250 330 310 300 310 185 Z"
    bottom = "M236 370 C230 410 170 440 170 565 L310 565 C310 440 250 410 244 370 Z"
    with c.clip(top):
        c.rect(160, 180, 160, 200, c.lin(["#cfeaf5", "#fbe9d0"]))
        c.rect(160, 252, 160, 140, c.lin(["#3f9fc8", "#1b4f7a"]))
        for y in (270, 290, 310):
            c.line(c.jit(200, 10), y, c.jit(240, 10), y, "#fff", 1.2, opacity=0.5)
        c.boat(232, 256, 36, hull="#7a3b2e")
    with c.clip(bottom):
        c.path("M160 570 L160 530 Q240 440 320 530 L320 570 Z", fill=c.lin(["#f3cf8a", "#d9a25e"]))
    c.rect(238, 368, 4, 120, c.lin(["#2d7fb0", "#e8c07a"]))
    c.path(top, fill="#fff", fill_opacity=0.1, stroke="#fff", stroke_width=2.5, stroke_opacity=0.7)
    c.path(bottom, fill="#fff", fill_opacity=0.1, stroke="#fff", stroke_width=2.5, stroke_opacity=0.7)
    c.path("M186 200 C186 260 205 290 222 310", stroke="#fff", stroke_width=4, opacity=0.5)
    for x in (152, 328):
        c.line(x, 185, x, 565, "#6a3b23", 7)
    c.rect(140, 166, 200, 22, "#7e4a2c", rx=5)
    c.rect(140, 562, 200, 22, "#7e4a2c", rx=5)


@scene(
    "A great eye hangs in the sky like the sun over a calm sea, watching a small rowing boat with one person in it.",
    ["eye", "sun", "sea", "boat", "watching", "alone"],
)
def eye_sun(c):
    c.sky(["#f5ead2", "#efcfae", "#b3c6d2"], 0, 480)
    c.rays(240, 260, list(range(0, 360, 24)), 300, "#fff6dc", 0.35, spread=5)
    c.glow(240, 260, 170, "#fff2c8", 0.8)
    c.icon("eye", 240, 260, 150)
    c.water(470, "#9db8c8", "#3d6580", ripples=30)
    c.ellipse(240, 560, 30, 90, "#fff4d8", opacity=0.35, filter=c.blur(10))
    c.boat(170, 572, 70, hull="#4a3a4e", mast=False)
    c.figure(172, 560, 30, "#2a2233")
    c.line(150, 555, 120, 575, "#4a3a4e", 2)


@scene(
    "A deer stands on a snowy hill under green and pink northern lights as a shooting star falls.",
    ["deer", "aurora", "snow", "night", "shooting star", "wild"],
)
def aurora_deer(c):
    c.sky(["#020b1a", "#07243a", "#0e3b4d"])
    c.stars(80, 14, 14, 466, 520)
    for top, col, op in ((140, "#6cf5b8", 0.55), (200, "#ff7fc8", 0.3), (250, "#6cf5b8", 0.4)):
        pts = [(x, top + c.rng.uniform(-40, 40)) for x in range(-40, 560, 80)]
        d = c.smooth(pts) + f"L520 {top + 220}L-40 {top + 220}Z"
        c.path(d, fill=c.lin([(0, col, 0), (0.15, col, op), (0.6, col, op * 0.3), (1, col, 0)]), filter=c.blur(5))
    c.line(150, 130, 60, 200, c.lin([(0, "#fff", 1), (1, "#fff", 0)], 150, 130, 60, 200, user=True), 2.5)
    c.sparkle(150, 130, 9)
    c.hills(560, 18, "#a9c2d3", peaks=[(90, 520), (300, 545), (420, 520)])
    c.hills(610, 12, "#d4e3ec", peaks=[(150, 600), (310, 585)])
    for x, s in ((30, 200), (450, 230), (400, 160)):
        c.icon("evergreen-tree", x, 560, s, tone="sil:#041420")
    c.icon("deer", 290, 545, 130, tone="night")


@scene(
    "A crescent moon hangs on threads like a cradle, with a cat curled up asleep inside it, "
    "among stars dangling on strings.",
    ["moon", "cat", "sleep", "cradle", "stars", "night"],
)
def cat_moon(c):
    c.sky(["#13103a", "#2c2a78", "#5552a8"])
    c.stars(50, 14, 14, 466, 600, sparkles=0)
    for x, y, s in ((80, 230, 40), (410, 170, 46), (160, 120, 30), (370, 330, 30)):
        c.line(x, 0, x, y - s * 0.4, "#d8d0ff", 1, opacity=0.6)
        c.glow(x, y, s, "#fff2b0", 0.35)
        c.icon("glowing-star", x, y, s)
    c.line(116, 0, 122, 370, "#d8d0ff", 1.2, opacity=0.7)
    c.line(364, 0, 358, 370, "#d8d0ff", 1.2, opacity=0.7)
    c.glow(240, 440, 200, "#fff3b0", 0.35)
    c.icon("cat", 236, 400, 120, rot=-4)
    c.icon("crescent-moon", 240, 450, 300, rot=45)
    c.icon("zzz", 320, 320, 44, op=0.9)
    for x, y, w in ((90, 660, 220), (330, 690, 260), (240, 720, 300)):
        c.cloud(x, y, w, "#7c78c8", 0.7)


@scene(
    "A red postbox stands on a small rock in the grey-blue sea, and letters fly toward it from every "
    "direction like a flock of gulls.",
    ["postbox", "letters", "sea", "rock", "message", "waiting"],
)
def sea_postbox(c):
    c.sky(["#4f6d8a", "#9fb4c7", "#e3e9ee"], 0, 480)
    c.cloud(120, 160, 180, "#fff", 0.5, blur=5)
    c.cloud(380, 260, 140, "#fff", 0.4, blur=5)
    c.water(470, "#5f7f98", "#1f3347", ripples=30)
    c.path("M150 540 C160 500 200 488 240 490 C290 488 330 505 335 545 Z", fill="#2d3038")
    c.path("M140 540 Q240 560 345 540", stroke="#e9f2f7", stroke_width=6, opacity=0.7)
    c.icon("postbox", 245, 440, 120)
    for x, y, s, r in (
        (80, 250, 50, -20),
        (150, 170, 40, 15),
        (370, 140, 46, 25),
        (420, 300, 40, -10),
        (300, 90, 30, 10),
        (60, 390, 36, 30),
        (200, 90, 26, -25),
        (430, 420, 30, 12),
    ):
        c.icon("envelope", x, y, s, rot=r)
    c.birds([(250, 200), (330, 230)], "#2a3d50", 9)


@scene(
    "A penguin stands on a small melting iceberg in a warm turquoise sea, under a blazing sun and beside a palm tree.",
    ["penguin", "iceberg", "palm tree", "sun", "misplaced", "sea"],
)
def penguin_palm(c):
    c.sky(["#ff9f43", "#ffd17a", "#fff1c9"], 0, 480)
    c.glow(370, 130, 160, "#fff6c8", 0.9)
    c.circle(370, 130, 50, "#fffbe6")
    c.water(480, "#3fc1c9", "#0a6f85", ripples=30)
    c.path("M140 520 L190 600 L260 640 L330 590 L360 520 Z", fill="#bfeaf2", opacity=0.45)
    c.path("M140 520 L170 440 L220 460 L250 410 L300 450 L340 440 L360 520 Z", fill=c.lin(["#ffffff", "#c9ecf6"]))
    c.path("M250 410 L270 520 L360 520 L340 440 L300 450 Z", fill="#a9dcec", opacity=0.6)
    c.path("M140 520 Q250 534 360 520", stroke="#fff", stroke_width=4, opacity=0.7)
    for x in (180, 260, 320):
        c.ellipse(x, 540, 3, 6, "#dff6ff", opacity=0.8)
    c.icon("palm-tree", 300, 370, 150)
    c.icon("penguin", 200, 420, 90)


@scene(
    "An old white bathtub stands in a meadow at sunset, filled not with water but with a starry night sky, "
    "and little stars float up out of it past a small crescent moon.",
    ["bathtub", "stars", "meadow", "sunset", "night", "strange"],
)
def bathtub_stars(c):
    c.sky(["#3b1a5a", "#9b3675", "#ea7f89", "#f7c5a8"], 0, 500)
    c.circle(380, 440, 40, "#ffe7c0", opacity=0.8)
    c.hills(480, 12, "#5b7d4a")
    c.hills(540, 14, "#3e5e38")
    for x, y in c.scatter(36, 20, 560, 460, 700, 16):
        c.circle(x, y, 2.6, c.rng.choice(["#ffd6e8", "#fff3a0", "#ffffff"]))
    c.shadow(240, 600, 130, 12, 0.35)
    for x in (160, 320):
        c.path(f"M{x} 560 q-6 20 -14 36", stroke="#c9b27a", stroke_width=7)
    c.path(
        "M120 460 L360 460 C360 550 320 575 240 575 C160 575 120 550 120 460 Z",
        fill=c.lin(["#ffffff", "#d7d4de"], 0, 0, 1, 0),
    )
    c.rect(110, 452, 260, 16, "#f4f2f7", rx=8)
    c.ellipse(240, 462, 116, 9, "#0d1140")
    with c.clip("M124 462 A116 9 0 1 0 356 462 A116 9 0 1 0 124 462 Z"):
        for i in range(20):
            c.circle(c.rng.uniform(130, 350), c.rng.uniform(455, 468), 1.2, "#fff")
    for i, (x, y) in enumerate(c.scatter(14, 140, 200, 340, 440, 26)):
        c.glow(x, y, 14, "#fff7c8", 0.5)
        c.sparkle(x, y, 5 + (i % 3) * 2, "#fffbe6")
    c.icon("crescent-moon", 250, 430, 46, rot=20)


@scene(
    "On a misty forest path sits a glass ball; inside it a small sun shines over green hills, "
    "though the forest around it is grey with fog.",
    ["crystal ball", "fog", "forest", "path", "sun", "vision"],
)
def crystal_path(c):
    c.sky(["#aeb8b5", "#d5dbd6", "#eceee6"])
    for layer, (y, s, op) in enumerate(((330, 180, 0.35), (400, 220, 0.55), (470, 260, 0.8))):
        for x in range(-20, 520, 70 + layer * 20):
            c.icon(
                "evergreen-tree", x + c.rng.uniform(-20, 20), y, s * c.rng.uniform(0.8, 1.1), tone="sil:#4d5a55", op=op
            )
        c.fog(y + 60, 120, "#e6e9e2", 0.7)
    c.path("M200 500 L280 500 L420 730 L60 730 Z", fill=c.lin(["#c4bda8", "#8e8570"]))
    c.rect(215, 500, 50, 60, "#5b4a3a", rx=6)
    c.ellipse(240, 500, 26, 7, "#7b6650")
    c.glow(240, 430, 120, "#fff2a0", 0.45)
    with c.clip("M170 430 A70 70 0 1 0 310 430 A70 70 0 1 0 170 430 Z"):
        c.sky(["#49a9e8", "#bfe7fb"], 360, 500)
        c.circle(262, 405, 15, "#fff3a0")
        c.glow(262, 405, 40, "#fff8d0", 0.8)
        c.hills(460, 8, "#79c46b")
        c.hills(480, 6, "#57a64f")
    c.circle(240, 430, 70, c.rad([(0, "#fff", 0), (0.8, "#fff", 0.1), (1, "#fff", 0.45)]))
    c.ellipse(215, 400, 20, 12, "#fff", opacity=0.5, transform="rotate(-30 215 400)")
    c.icon("blackbird", 390, 560, 54, flip=True, tone="fog")


@scene(
    "A tall brick wall has a giant keyhole in it; through the keyhole glows a bright garden with flowers "
    "and a tree, and a small figure stands before it.",
    ["keyhole", "wall", "garden", "light", "secret", "figure"],
)
def keyhole_wall(c):
    c.rect(0, 0, W, 620, c.lin(["#3a1e22", "#5a2e2a", "#4a2522"]))
    for row, y in enumerate(range(10, 620, 28)):
        c.line(0, y, W, y, "#2a1518", 2, opacity=0.6)
        off = 0 if row % 2 else 30
        for x in range(off, W, 60):
            c.line(x, y, x, y + 28, "#2a1518", 2, opacity=0.6)
    hole = "M240 200 m-70 0 a70 70 0 1 1 140 0 a70 70 0 0 1 -30 58 L195 470 L285 470 L270 258 a70 70 0 0 1 -100 -58 Z"
    hole = "M205 262 A72 72 0 1 1 275 262 L300 480 L180 480 Z"
    with c.clip(hole):
        c.sky(["#8fd3f4", "#e8f7ff"], 120, 480)
        c.circle(270, 180, 20, "#fff5b0")
        c.glow(270, 180, 60, "#fffbd8", 0.7)
        c.hills(400, 10, "#8fd47f")
        c.hills(440, 8, "#5fb25a")
        c.icon("deciduous-tree", 215, 340, 100)
        for x, y, n in ((200, 450, "tulip"), (240, 460, "sunflower"), (275, 445, "rose"), (255, 420, "tulip")):
            c.icon(n, x, y, 30)
        c.icon("butterfly", 270, 290, 26)
    c.path(hole, stroke="#2a1518", stroke_width=6)
    c.rect(0, 610, W, 110, c.lin(["#2f3a24", "#1c2416"]))
    c.poly([(180, 480), (300, 480), (380, 720), (100, 720)], "#fff6c0", opacity=0.18)
    c.figure(240, 650, 80, "#120a0c")
    for x, y in ((60, 120), (90, 300), (420, 200), (400, 420)):
        c.icon("herb", x, y, 50, rot=c.rng.uniform(-30, 30), tone="night")


@scene(
    "Open books fly like a flock of birds over a wide golden field at dusk, watched by a lone figure.",
    ["books", "flying", "field", "dusk", "flock", "stories"],
)
def flying_books(c):
    c.sky(["#2d4a53", "#6a8f7e", "#e3c290", "#f6e4b8"], 0, 600)
    c.glow(240, 600, 200, "#fff0c8", 0.5)
    c.hills(590, 4, "#6e7a45")
    c.rect(0, 600, W, 120, c.lin(["#8a8450", "#4d5e3a"]))
    for i in range(40):
        x = c.rng.uniform(0, W)
        y = c.rng.uniform(610, 710)
        c.line(x, y, x + c.rng.uniform(-3, 3), y - 10, "#c4b16a", 1.5, opacity=0.6)
    for x, y, s, r in (
        (120, 170, 130, -14),
        (290, 110, 96, 10),
        (380, 250, 84, -6),
        (210, 290, 74, 18),
        (330, 380, 58, -12),
        (110, 400, 52, 8),
        (420, 430, 42, 16),
        (240, 460, 36, -8),
        (80, 510, 30, 12),
    ):
        c.icon("open-book", c.jit(x, 5), c.jit(y, 5), s, rot=r)
    c.icon("closed-book", 420, 90, 50, rot=30)
    c.figure(300, 602, 32, "#2d2a22")


@scene(
    "A round glass fishbowl on a windowsill at night holds a whole little ocean, with a whale swimming inside "
    "and a tiny boat on its surface, while a black cat watches.",
    ["fishbowl", "whale", "cat", "window", "night", "scale"],
)
def fishbowl_whale(c):
    c.rect(0, 0, W, 540, c.lin(["#1e2844", "#2d3a5c"]))
    c.rect(60, 70, 360, 300, "#151d33")
    with c.clip(c.rect_d(72, 82, 336, 276)):
        c.sky(["#0a1230", "#1d3466"], 80, 360)
        c.stars(30, 72, 82, 408, 358, sparkles=1)
        c.moon(340, 150, 26, color="#f8f0d0")
    c.rect(236, 82, 8, 276, "#151d33")
    c.rect(72, 216, 336, 8, "#151d33")
    c.rect(0, 520, W, 200, c.lin(["#6b4a33", "#3a2819"]))
    c.rect(0, 512, W, 16, "#8a6445")
    c.glow(240, 430, 170, "#7fd6ff", 0.25)
    c.shadow(240, 526, 90, 8, 0.45)
    with c.clip("M152 340 A110 110 0 1 0 328 340 Z"):
        c.rect(120, 340, 240, 200, c.lin(["#3aa6d9", "#0e4f86"]))
        c.icon("whale", 235, 440, 120, flip=True)
        for i in range(6):
            c.circle(c.jit(280, 20), 420 - i * 14, 3, "none", stroke="#dff7ff", stroke_width=1)
    c.boat(240, 342, 30, hull="#e9d9b0")
    c.circle(
        240,
        420,
        112,
        c.rad([(0, "#fff", 0.02), (0.85, "#fff", 0.08), (1, "#e8f6ff", 0.4)]),
        stroke="#e8f6ff",
        stroke_width=2,
        stroke_opacity=0.6,
    )
    c.ellipse(240, 322, 62, 9, "none", stroke="#e8f6ff", stroke_width=3, opacity=0.7)
    c.ellipse(195, 370, 14, 30, "#fff", opacity=0.3, transform="rotate(25 195 370)")
    c.icon("black-cat", 410, 470, 100, flip=True)


@scene(
    "A butterfly as big as a mountain rests on a snowy peak at dawn, its wings spread above the valleys.",
    ["butterfly", "mountain", "dawn", "scale", "snow", "wings"],
)
def butterfly_mountain(c):
    c.sky(["#8fb8e3", "#d5e4f2", "#ffd9c2"], 0, 560)
    c.glow(240, 520, 220, "#fff0d8", 0.5)
    c.poly(
        [(-10, 520), (90, 380), (170, 470), (240, 320), (330, 450), (400, 360), (490, 500), (490, 720), (-10, 720)],
        "#a7b8d6",
    )
    c.poly([(240, 320), (220, 355), (235, 350), (245, 365), (262, 345)], "#fff")
    c.poly(
        [(-10, 600), (70, 500), (150, 560), (250, 470), (340, 560), (420, 480), (490, 560), (490, 720), (-10, 720)],
        "#7d92b8",
    )
    c.poly([(-10, 680), (110, 600), (230, 660), (360, 590), (490, 650), (490, 720), (-10, 720)], "#5a6f96")
    c.fog(560, 80, "#ffe8e0", 0.5)
    c.icon("butterfly", 240, 250, 250, rot=6)
    c.birds([(90, 300), (110, 290), (400, 260)], "#4a5a7a", 7)


@scene(
    "Glowing jellyfish drift like lanterns through the night sky above the dark towers of a city.",
    ["jellyfish", "city", "night", "sky", "glow", "floating"],
)
def jelly_city(c):
    c.sky(["#050b1e", "#122447", "#2c3f6e"])
    c.stars(60, 14, 14, 466, 400, sparkles=2)
    for x, y, s, h in (
        (140, 200, 110, 0),
        (330, 130, 80, 60),
        (370, 320, 70, -40),
        (90, 380, 54, 40),
        (250, 300, 44, 100),
    ):
        c.glow(x, y - s * 0.1, s * 1.1, "#8fd0ff", 0.35)
        c.icon("jellyfish", x, y, s, tone=f"hue:{h}" if h else None, op=0.92)
    c.skyline(720, "#0c1226", hmin=120, hmax=260, lit_p=0.18, lit="#ffe28a")


@scene(
    "A snail slowly crawls over the top of a rainbow that arches like a bridge across green hills after the rain.",
    ["rainbow", "snail", "bridge", "rain", "hills", "slow"],
)
def rainbow_snail(c):
    c.sky(["#6d8fb0", "#b8cde0", "#f0e6d8"])
    c.cloud(90, 140, 160, "#e4ebf2", 0.9)
    c.cloud(390, 110, 140, "#e4ebf2", 0.8)
    c.hills(560, 16, "#8dc878")
    for i, col in enumerate(["#ef5350", "#ffa726", "#ffee58", "#66bb6a", "#42a5f5", "#7e57c2"]):
        r = 200 - i * 12
        c.path(f"M{240 - r} 580 A{r} {r} 0 0 1 {240 + r} 580", stroke=col, stroke_width=12.5, opacity=0.9)
    c.hills(610, 14, "#6bb35c")
    c.ellipse(120, 640, 40, 7, "#b8d8ee", opacity=0.8)
    c.ellipse(340, 670, 30, 6, "#b8d8ee", opacity=0.8)
    c.icon("snail", 250, 352, 70)
    c.icon("house", 400, 600, 40)


@scene(
    "A leafy tree grows straight out of the pages of an open book, with small birds perched in its branches "
    "and golden dust in the air.",
    ["book", "tree", "birds", "growth", "stories", "dark"],
)
def book_tree(c):
    c.sky(["#0e1d17", "#1f3a2c", "#2e4a34"])
    c.glow(240, 380, 240, "#ffe6a0", 0.3)
    c.rect(0, 600, W, 120, c.lin(["#4a3322", "#2a1c12"]))
    for x, y in c.scatter(40, 30, 40, 450, 560, 20):
        c.circle(x, y, c.rng.uniform(1, 2.4), "#ffe08a", opacity=fmt(c.rng.uniform(0.4, 0.9)))
    c.shadow(240, 620, 150, 12, 0.5)
    c.icon("deciduous-tree", 240, 370, 300)
    c.icon("open-book", 240, 575, 250)
    c.icon("bird", 160, 300, 40, flip=True)
    c.icon("dove", 320, 260, 38)
    c.icon("leaf-fluttering-in-wind", 400, 480, 40)


@scene(
    "A giant silver ring with a blue gem stands upright on a morning beach; through its circle the sea "
    "is seen at night, under stars and a moon.",
    ["ring", "portal", "beach", "night", "day", "promise"],
)
def ring_portal(c):
    c.sky(["#9cc9e6", "#d6ebf5", "#fbeede"], 0, 430)
    c.cloud(100, 140, 150, "#fff", 0.8)
    c.water(430, "#7fb7d0", "#4f8fb0", ripples=14, y1=520)
    c.hills(520, 5, "#f1dcb8")
    c.rect(0, 540, W, 180, c.lin(["#ead1a8", "#d2b082"]))
    c.shadow(250, 600, 130, 12, 0.3)
    with c.clip("M240 460 m-92 0 a92 92 0 1 0 184 0 a92 92 0 1 0 -184 0 Z"):
        c.sky(["#040a24", "#14225a"], 360, 430)
        c.stars(30, 150, 360, 330, 430, sparkles=1)
        c.moon(280, 395, 13, color="#f6eec8", glow="#9fb0ff")
        c.water(430, "#1a2f66", "#071330", ripples=8, ripple_color="#c8d4ff", y1=560)
        c.ellipse(280, 470, 8, 30, "#f6eec8", opacity=0.3)
    c.icon("ring", 240, 420, 330)
    c.icon("crab", 380, 640, 40)


@scene(
    "In a golden wheat field, a coat and a top hat hang on a pole with nobody inside them, "
    "while black crows gather around.",
    ["scarecrow", "coat", "hat", "crows", "field", "empty"],
)
def scarecrow(c):
    c.sky(["#6fa8dc", "#cfe3f0", "#f6e7c1"], 0, 480)
    c.cloud(370, 140, 160, "#fff", 0.85)
    c.rect(0, 470, W, 250, c.lin(["#e8b84e", "#b77d2a"]))
    for i in range(160):
        x = c.rng.uniform(0, W)
        y = 470 + c.rng.random() ** 1.5 * 250
        l = 6 + (y - 470) / 12
        c.line(
            x, y, x + c.rng.uniform(-2, 2), y - l, c.rng.choice(["#f5cf6a", "#c98f2e", "#a86f1f"]), 1 + (y - 470) / 120
        )
    c.line(240, 300, 240, 640, "#6b4a2a", 8)
    c.line(150, 370, 330, 370, "#6b4a2a", 7)
    c.icon("coat", 240, 420, 170)
    c.icon("top-hat", 240, 290, 86, rot=-6)
    c.icon("blackbird", 320, 340, 50)
    c.icon("blackbird", 110, 230, 56, flip=True, rot=-10)
    c.icon("blackbird", 380, 560, 46, flip=True)
    c.birds([(420, 230), (80, 340)], "#222", 10)


@scene(
    "A sailboat with full white sails travels down a winding country road through the hills, far from any water.",
    ["boat", "road", "hills", "journey", "misplaced", "afternoon"],
)
def road_boat(c):
    c.sky(["#8e7cc3", "#e8b4b8", "#f7dfc2"], 0, 420)
    c.cloud(110, 130, 140, "#fff", 0.6)
    c.hills(400, 20, "#c8a26b", peaks=[(100, 380), (300, 410), (420, 370)])
    c.hills(470, 24, "#a7804f", peaks=[(80, 470), (260, 440), (420, 480)])
    c.hills(560, 20, "#8a6a42")
    road = (
        "M230 420 C270 430 270 450 240 470 C190 500 170 520 210 560 C260 610 340 640 330 740 "
        "L150 740 C170 660 120 620 150 570 C170 530 170 500 215 470 C240 450 240 432 230 420 Z"
    )
    c.path(road, fill=c.lin(["#b8ada0", "#7d7368"]))
    c.path(
        "M232 430 C250 450 200 490 180 520 C160 560 240 620 245 740",
        stroke="#f4efe6",
        stroke_width=3,
        stroke_dasharray="10 12",
        opacity=0.7,
    )
    c.shadow(250, 640, 80, 10, 0.35)
    c.boat(245, 632, 150, hull="#2f4a6b", sail="#fffaf2")
    for x, y in ((60, 520), (420, 560), (400, 460)):
        c.icon("deciduous-tree", x, y, 56, tone="dusk")


@scene(
    "From a rooftop at night, a small telescope points at an enormous ringed planet that fills half the sky.",
    ["telescope", "planet", "rooftop", "night", "space", "wonder"],
)
def telescope_planet(c):
    c.sky(["#070722", "#1b1748", "#3e2f6e"])
    c.stars(90, 14, 14, 466, 600, sparkles=3)
    c.glow(330, 230, 260, "#ffb27a", 0.35)
    c.icon("ringed-planet", 330, 230, 380, rot=-10)
    c.poly([(-10, 560), (120, 470), (250, 560)], "#1b1530")
    c.poly([(200, 600), (340, 500), (490, 600)], "#241c3d")
    c.rect(-10, 555, 260, 200, "#1b1530")
    c.rect(200, 595, 290, 200, "#241c3d")
    c.rect(380, 520, 30, 70, "#241c3d")
    c.rect(370, 510, 50, 14, "#2f2650")
    c.circle(150, 610, 12, "#ffd27a")
    c.line(150, 598, 150, 622, "#1b1530", 2)
    c.rect(290, 650, 26, 30, "#ffd27a", opacity=0.9)
    c.icon("telescope", 120, 440, 110)


@scene(
    "A small rocket lifts off from the middle of a sunflower field on a bright summer day, "
    "leaving a trail of white smoke.",
    ["rocket", "sunflowers", "summer", "launch", "field", "journey"],
)
def rocket_sunflowers(c):
    c.sky(["#2f80ed", "#8ec5fc", "#e0f2ff"], 0, 500)
    c.hills(470, 10, "#6da34d")
    c.path("M250 300 C240 380 250 420 230 480", stroke="#fff", stroke_width=26, opacity=0.8, filter=c.blur(4))
    for x, y, w in ((200, 500, 160), (290, 505, 130), (150, 520, 100), (340, 520, 110)):
        c.cloud(x, y, w, "#fdfdfd", 0.95)
    c.icon("rocket", 262, 220, 150, rot=-45)
    for row, (y, s, n) in enumerate(((520, 34, 12), (560, 50, 9), (610, 70, 7), (680, 100, 5))):
        for i in range(n):
            x = (i + 0.5 + (row % 2) * 0.4) * (W / n) + c.rng.uniform(-6, 6)
            c.icon("sunflower", x, y + c.rng.uniform(-5, 5), s)


@scene(
    "A spider's web stretched between dark branches has caught several glowing stars, "
    "while the spider waits at its edge.",
    ["web", "stars", "spider", "night", "trap", "branches"],
)
def star_web(c):
    c.sky(["#0b0b1a", "#1d1b3a", "#34305a"])
    c.stars(50, 14, 14, 466, 706, sparkles=0)
    cx, cy, R = 240, 340, 190
    spokes = 14
    angs = [i * 360 / spokes + c.rng.uniform(-6, 6) for i in range(spokes)]
    for a in angs:
        x = cx + R * math.cos(math.radians(a))
        y = cy + R * math.sin(math.radians(a))
        c.line(cx, cy, x, y, "#d8dcf0", 1.1, opacity=0.6)
    r = 18
    while r < R - 10:
        pts = [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))) for a in angs]
        d = f"M{fmt(pts[0][0])} {fmt(pts[0][1])}"
        for p, q in zip(pts, pts[1:] + pts[:1]):
            mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
            mx += (cx - mx) * 0.08
            my += (cy - my) * 0.08
            d += f"Q{fmt(mx)} {fmt(my)} {fmt(q[0])} {fmt(q[1])}"
        c.path(d, stroke="#d8dcf0", stroke_width=1, opacity=0.55)
        r += 15
    c.path("M-10 120 C80 140 100 130 160 150 C200 160 260 140 300 150", stroke="#0a0812", stroke_width=14)
    c.path("M490 460 C420 470 380 520 340 560", stroke="#0a0812", stroke_width=14)
    c.path("M-10 600 C60 560 100 540 130 500", stroke="#0a0812", stroke_width=12)
    for x, y, s in ((180, 280, 40), (300, 330, 32), (250, 420, 46), (150, 390, 26), (330, 240, 28), (220, 200, 22)):
        c.glow(x, y, s, "#fff4b0", 0.5)
        c.icon("star", x, y, s, rot=c.rng.uniform(-20, 20))
    c.line(390, 150, 390, 200, "#d8dcf0", 1, opacity=0.7)
    c.icon("spider", 390, 210, 50, tone="night")


@scene(
    "A lost compass lies in a wide snowy plain; a trail of footprints passes it and ends suddenly "
    "in the middle of nowhere.",
    ["compass", "snow", "footprints", "lost", "white", "journey"],
)
def compass_snow(c):
    c.sky(["#6f7399", "#c3a6bf", "#f2d2c4"], 0, 420)
    c.circle(330, 330, 40, "#fff0e0", opacity=0.85)
    c.glow(330, 330, 140, "#ffe6d0", 0.5)
    c.hills(420, 6, "#d9d3e4")
    c.rect(0, 425, W, 300, c.lin(["#e3dcea", "#f6f3f8"]))
    for x in range(40, 480, 70):
        c.line(x, 432, x, 412, "#8a839c", 2.5)
    c.line(20, 418, 470, 420, "#8a839c", 1, opacity=0.6)
    for i in range(14):
        t = i / 13
        y = 700 - t * 200
        x = 100 + t * 150 + math.sin(t * 6) * 16
        s = 1.3 - t * 0.8
        side = 10 * s if i % 2 else -10 * s
        c.ellipse(x + side, y, 6 * s, 10 * s, "#9f95b4")
    c.shadow(330, 640, 70, 10, 0.3, color="#4a4060")
    c.icon("compass", 330, 605, 130, rot=-20)
    for i in range(60):
        c.circle(c.rng.uniform(14, 466), c.rng.uniform(14, 706), c.rng.uniform(0.8, 2), "#fff", opacity=0.8)


@scene(
    "The dark silhouette of a giraffe so tall that its head disappears into pink clouds stands against "
    "a sunset, with little birds flying around its long neck.",
    ["giraffe", "clouds", "tall", "savanna", "scale", "birds"],
)
def giraffe_clouds(c):
    c.sky(["#3a3d7a", "#b0628a", "#f09a6e", "#fcd9a0"], 0, 580)
    c.glow(330, 560, 200, "#ffe6b0", 0.5)
    c.circle(330, 560, 46, "#fff0c8", opacity=0.9)
    c.hills(570, 6, "#5a3a4a")
    c.rect(0, 580, W, 140, c.lin(["#4a2f3e", "#2a1a26"]))
    for x, s in ((60, 60), (420, 50)):
        c.icon("deciduous-tree", x, 560, s, tone="sil:#3a2434")
    c.icon("giraffe", 226, 380, 540, tone="sil:#2e1f30")
    for x, y, w in (
        (60, 180, 240),
        (260, 150, 300),
        (420, 190, 220),
        (160, 230, 200),
        (360, 240, 180),
        (60, 150, 260),
        (40, 246, 200),
    ):
        c.cloud(x, y, w, c.rng.choice(["#f6c2b0", "#f2b4a8", "#f8d0bc"]), 0.97)
    c.birds([(330, 330), (352, 318), (380, 400), (120, 390)], "#2e1f30", 12)


@scene(
    "An elephant holding a small umbrella balances on a tightrope stretched between two tall towers, "
    "high above the clouds under a full moon.",
    ["elephant", "tightrope", "balance", "moon", "towers", "danger"],
)
def elephant_rope(c):
    c.sky(["#0e1430", "#2c2f5e", "#5a5a8c"])
    c.stars(50, 14, 14, 466, 400)
    c.moon(240, 190, 80, color="#f4ecd0")
    for x in (24, 404):
        c.rect(x, 300, 52, 460, "#151a33")
        c.poly([(x - 6, 300), (x + 26, 250), (x + 58, 300)], "#151a33")
        c.rect(x + 18, 320, 14, 20, "#ffd27a")
    c.rope(76, 340, 404, 340, 36, "#e8e0c8", 2)
    c.icon("elephant", 240, 318, 110)
    c.icon("umbrella", 286, 250, 60, rot=18)
    for x, y, w in ((100, 600, 260), (360, 620, 280), (240, 680, 340), (60, 700, 200), (420, 700, 200)):
        c.cloud(x, y, w, "#8d8fc0", 0.9)


@scene(
    "Deep under the sea, an octopus lifts a glowing full moon in its arms, lighting up the water "
    "and the fish around it.",
    ["octopus", "moon", "underwater", "light", "fish", "stolen"],
)
def octopus_moon(c):
    c.sky(["#0c3256", "#061a30", "#020b18"])
    c.path("M-10 70 Q60 60 120 72 T240 70 T360 72 T490 68", stroke="#5fa8d3", stroke_width=2, opacity=0.5)
    c.glow(240, 330, 220, "#fff3c0", 0.45)
    c.hills(640, 10, "#13263a")
    c.path("M200 470 C170 420 190 380 210 360", stroke="#f29a6b", stroke_width=12, stroke_linecap="round")
    c.path("M280 470 C310 420 290 380 270 360", stroke="#f29a6b", stroke_width=12, stroke_linecap="round")
    c.icon("octopus", 240, 540, 200)
    c.icon("full-moon", 240, 330, 120)
    for x, y, s, fl in ((90, 220, 40, False), (400, 260, 46, True), (110, 460, 30, False), (380, 470, 34, True)):
        c.icon("tropical-fish", x, y, s, flip=fl, tone="deep")
    for i in range(10):
        c.circle(
            c.jit(240, 80),
            c.rng.uniform(120, 250),
            c.rng.uniform(2, 4),
            "none",
            stroke="#dff7ff",
            stroke_width=1,
            opacity=0.5,
        )


@scene(
    "A black cat sits in the only lit window of a tall stone tower, framed by a huge full moon, "
    "while bats circle in the violet night.",
    ["cat", "tower", "moon", "window", "bats", "night"],
)
def tower_cat(c):
    c.sky(["#1b1b3a", "#4b3f72", "#8c6fa0"])
    c.stars(40, 14, 14, 466, 300)
    c.moon(300, 230, 120, color="#f7efd6")
    c.rect(240, 180, 120, 560, c.lin(["#3a3450", "#1c1828"], 0, 0, 1, 0))
    c.poly([(228, 185), (300, 90), (372, 185)], "#2a2440")
    for y in range(210, 720, 26):
        c.line(240, y, 360, y, "#14111e", 1.5, opacity=0.5)
    with c.clip(c.arch_d(276, 300, 48, 72)):
        c.rect(270, 220, 60, 90, c.lin(["#ffe9a0", "#f5a742"]))
        c.icon("black-cat", 300, 280, 46, tone="sil:#120e1a")
    c.glow(300, 270, 70, "#ffd27a", 0.3)
    c.hills(660, 12, "#14111e")
    tips = c.bare_tree(110, 680, 260, "#14111e", depth=5, spread=26, lean=-6)
    for x, y, s in ((120, 160, 44), (410, 110, 36), (180, 330, 30)):
        c.icon("bat", x, y, s, tone="night")


@scene(
    "A golden bell hangs from a bare tree on a lonely hill as a storm sweeps over, with slanting rain "
    "and flying leaves.",
    ["bell", "tree", "storm", "hill", "rain", "wind"],
)
def bell_tree(c):
    c.sky(["#20281f", "#4a5a3a", "#a8a268"])
    c.path("M360 60 L340 140 L365 140 L330 240", stroke="#fffbe0", stroke_width=3, opacity=0.9)
    c.glow(345, 150, 90, "#fffbe0", 0.25)
    for x, w in ((90, 260), (330, 300), (220, 220)):
        c.cloud(x, c.rng.uniform(120, 200), w, "#2a3226", 0.8, blur=4)
    c.hills(560, 0, "#1d2418", peaks=[(120, 520), (240, 500), (400, 560)])
    c.bare_tree(230, 520, 380, "#141a10", depth=6, spread=24, lean=8)
    c.line(300, 250, 300, 320, "#c9b27a", 1.5)
    c.glow(300, 356, 80, "#ffe08a", 0.45)
    c.icon("bell", 300, 356, 84, rot=12)
    for i in range(70):
        x, y = c.rng.uniform(-40, 500), c.rng.uniform(0, 700)
        c.line(x, y, x - 10, y + 26, "#cfd8c0", 1.2, opacity=0.35)
    for x, y in ((380, 420), (420, 300), (120, 360)):
        c.icon("fallen-leaf", x, y, 30, rot=c.rng.uniform(0, 180), tone="dusk")


@scene(
    "An anchor on a long chain hangs down out of the clouds, dangling just above a calm sea at dawn.",
    ["anchor", "chain", "clouds", "sea", "dawn", "upside down"],
)
def sky_anchor(c):
    c.sky(["#f6c9a8", "#f3e2c8", "#b9dbe0"], 0, 500)
    c.glow(240, 500, 200, "#fff1d6", 0.5)
    c.water(500, "#8cc3ce", "#2f6f84", ripples=26)
    for i in range(26):
        y = 110 + i * 11
        if i % 2:
            c.ellipse(240, y, 2.5, 6, "none", stroke="#6a6f7a", stroke_width=2.5)
        else:
            c.ellipse(240, y, 5, 6.5, "none", stroke="#7d828e", stroke_width=2.5)
    c.icon("anchor", 240, 440, 130)
    c.icon("anchor", 240, 600, 110, vflip=True, op=0.25)
    for x, y, w in ((120, 110, 260), (330, 90, 280), (240, 130, 220), (40, 150, 160), (440, 140, 160)):
        c.cloud(x, y, w, "#fff7ee", 0.97)
    c.birds([(90, 330), (110, 320), (380, 360)], "#5a6070", 8)


@scene(
    "An upside-down city hangs from a bank of clouds in a pastel sky, its towers pointing down toward a calm "
    "lake and a small rowing boat.",
    ["city", "upside down", "clouds", "lake", "pastel", "boat"],
)
def upside_city(c):
    c.sky(["#cdb4db", "#ffc8dd", "#bde0fe"], 0, 560)
    c.skyline(150, "#7d6b9c", lit="#ffe6f0", hmin=60, hmax=240, lit_p=0.25, up=True)
    for x in range(-20, 520, 70):
        c.cloud(x, 160, 130, "#fff", 0.98)
    c.water(560, "#a8c8ec", "#6f8fc0", ripples=24)
    c.boat(150, 600, 60, hull="#5a4a7a", mast=False)
    c.figure(150, 590, 24, "#3a2f55")
    c.birds([(350, 470), (370, 460)], "#6a5a8a", 8)


@scene(
    "A white swan floats on a misty lake, but its reflection in the still water beneath it is pitch black.",
    ["swan", "black", "reflection", "lake", "mist", "double"],
)
def swan_crow(c):
    c.sky(["#c4ced6", "#e4e6e2"], 0, 420)
    c.hills(400, 10, "#9ba8ae", peaks=[(100, 380), (330, 395)])
    for x, s in ((40, 70), (80, 50), (380, 64), (420, 84), (455, 56)):
        c.icon("evergreen-tree", x, 400 - s * 0.35, s, tone="sil:#8d9aa2", op=0.8)
    c.water(420, "#aab7bd", "#5e7078", ripples=0)
    c.fog(420, 80, "#eef0ec", 0.8)
    c.icon("swan", 240, 490, 130, vflip=True, op=0.9, tone="sil:#111217")
    c.icon("swan", 240, 370, 130)
    for i in range(30):
        t = c.rng.random()
        yy = 440 + t * t * 260
        x = c.rng.uniform(0, W)
        c.line(x, yy, x + 15 + 50 * t, yy, "#e8eef0", 1 + t, opacity=0.3)
    for x in (20, 50, 440, 460):
        c.path(f"M{x} 720 q-5 -80 4 -{c.rng.uniform(140, 220)}", stroke="#3f4a40", stroke_width=3)


@scene(
    "A deer stands on the snowy roof of a small house in a sleeping village, outlined against a huge pale moon.",
    ["deer", "roof", "village", "snow", "moon", "night"],
)
def roof_deer(c):
    c.sky(["#10183a", "#263a6b", "#5a78a8"])
    c.stars(40, 14, 14, 466, 300)
    c.moon(250, 330, 140, color="#eef0f6", glow="#c8d6ff")
    c.hills(560, 8, "#d7e2ee")
    for x, y, s in ((70, 560, 80), (400, 556, 90), (330, 580, 60)):
        c.icon("house", x, y, s, tone="night")
    c.icon("house", 220, 510, 200, tone="night")
    c.path("M128 455 L220 372 L312 455", stroke="#f2f6fb", stroke_width=8, opacity=0.85)
    c.icon("deer", 222, 330, 110, tone="sil:#101630")
    c.rect(0, 600, W, 120, c.lin(["#e1e9f2", "#b8c7da"]))
    for i in range(70):
        c.circle(c.rng.uniform(14, 466), c.rng.uniform(14, 706), c.rng.uniform(0.8, 2.2), "#fff", opacity=0.8)


@scene(
    "Giant glowing mushrooms light up a dark forest floor at night, where a tiny snail and drifting "
    "fireflies are the only visitors.",
    ["mushrooms", "forest", "glow", "night", "snail", "small"],
)
def mushrooms_glow(c):
    c.sky(["#04100e", "#0b2621", "#12352c"])
    for x, s in ((60, 300), (200, 260), (330, 320), (450, 280)):
        c.rect(x - 16, 0, 32 + s / 20, 720, "#061511")
    c.hills(600, 14, "#0a1f18")
    for x, y, s, h in ((130, 520, 200, 180), (320, 470, 260, 140), (420, 580, 110, 200), (60, 610, 90, 160)):
        c.glow(x, y - s * 0.15, s * 0.9, "#6cf2d0", 0.35)
        c.icon("mushroom", x, y, s, tone=f"hue:{h}")
    c.hills(650, 8, "#06140f")
    c.icon("snail", 230, 640, 44)
    for x, y in c.scatter(18, 30, 100, 450, 560, 40):
        c.glow(x, y, 9, "#eaff9a", 0.5)
        c.circle(x, y, 1.8, "#f4ffc0")


@scene(
    "A volcano erupts, but instead of smoke and fire it throws a fountain of butterflies and flowers into the sky.",
    ["volcano", "butterflies", "flowers", "eruption", "joy", "mountain"],
)
def volcano_butterflies(c):
    c.sky(["#1d3557", "#457b9d", "#a8dadc", "#f1faee"], 0, 600)
    c.glow(240, 400, 200, "#ffd6e8", 0.5)
    c.path(
        "M200 420 C160 300 120 220 100 120 L380 120 C360 220 320 300 280 420 Z",
        fill="#ffe4f0",
        opacity=0.35,
        filter=c.blur(12),
    )
    c.poly([(-10, 640), (170, 420), (310, 420), (490, 640), (490, 720), (-10, 720)], "#4a3a52")
    c.poly([(170, 420), (310, 420), (290, 440), (190, 440)], "#ff8fb8")
    c.poly([(60, 560), (170, 420), (200, 440)], "#5e4a66", opacity=0.6)
    c.hills(660, 10, "#2e4a3a")
    items = [
        ("butterfly", 0),
        ("cherry-blossom", 0),
        ("butterfly", 120),
        ("tulip", 0),
        ("butterfly", 240),
        ("blossom", 0),
        ("butterfly", 60),
        ("hibiscus", 0),
        ("butterfly", 180),
        ("cherry-blossom", 0),
        ("butterfly", 300),
        ("rosette", 0),
        ("butterfly", 90),
        ("tulip", 0),
        ("butterfly", 30),
        ("blossom", 0),
        ("butterfly", 200),
        ("cherry-blossom", 0),
    ]
    for i, (n, h) in enumerate(items):
        ang = -70 + 140 * i / (len(items) - 1) + c.rng.uniform(-6, 6)
        dist = c.rng.uniform(90, 360)
        x = 240 + dist * math.sin(math.radians(ang)) * 0.8
        y = 420 - dist * math.cos(math.radians(ang)) * 0.95
        s = 84 - dist / 7
        c.icon(n, x, y, s, rot=c.rng.uniform(-30, 30), tone=f"hue:{h}" if h else None)


@scene(
    "A striped lighthouse on a rock shines its beam across a dark sea at night, and white birds fly "
    "only inside the beam of light.",
    ["lighthouse", "beam", "birds", "sea", "night", "light"],
)
def lighthouse_birds(c):
    c.sky(["#06141c", "#12323f", "#22505e"], 0, 520)
    c.stars(40, 14, 14, 466, 400, sparkles=1)
    c.water(510, "#1b4552", "#04121a", ripples=30, ripple_color="#bfe8f0")
    c.poly([(360, 210), (-20, 80), (-20, 400)], c.lin([(0, "#fff6c8", 0.65), (1, "#fff6c8", 0.05)], 1, 0, 0, 0))
    for x, y, s in ((220, 210, 40), (140, 170, 34), (90, 260, 36), (170, 280, 28), (40, 200, 30)):
        c.icon("dove", x, y, s, flip=True, rot=c.rng.uniform(-12, 12))
    c.path("M300 540 C300 500 330 490 370 488 C420 486 450 500 460 540 Z", fill="#0c1c22")
    c.poly([(340, 500), (400, 500), (388, 240), (352, 240)], "#f2efe8")
    for y in (290, 360, 430):
        c.poly(
            [
                (352 - (y - 240) * 0.045, y),
                (388 + (y - 240) * 0.045, y),
                (388 + (y + 30 - 240) * 0.045, y + 30),
                (352 - (y + 30 - 240) * 0.045, y + 30),
            ],
            "#c8343f",
        )
    c.rect(346, 226, 48, 16, "#2a2a35")
    c.rect(352, 196, 36, 30, "#fff6c8")
    c.glow(370, 210, 60, "#fff6c8", 0.7)
    c.poly([(344, 196), (396, 196), (370, 172)], "#c8343f")
    c.path("M290 540 Q380 530 470 545", stroke="#e9f6f8", stroke_width=4, opacity=0.6)


@scene(
    "On an old balance scale, a single white feather weighs down one pan, lifting a heavy grey rock high on the other.",
    ["scale", "feather", "rock", "balance", "weight", "justice"],
)
def feather_scale(c):
    c.sky(["#1f1812", "#3d2d1e", "#6b4f33"])
    c.glow(240, 300, 260, "#ffd89a", 0.35)
    c.rect(0, 600, W, 120, c.lin(["#4a3526", "#2a1d13"]))
    c.shadow(240, 610, 120, 10, 0.5)
    gold = "#c9a24a"
    c.rect(180, 585, 120, 22, "#8a6a2a", rx=6)
    c.line(240, 590, 240, 230, gold, 10)
    c.circle(240, 222, 12, gold)
    ang = math.radians(-18)
    lx, ly = 240 - 150 * math.cos(ang), 230 - 150 * math.sin(ang)
    rx, ry = 240 + 150 * math.cos(ang), 230 + 150 * math.sin(ang)
    c.line(lx, ly, rx, ry, gold, 7)
    for px, py, drop in ((lx, ly, 190), (rx, ry, 190)):
        c.line(px, py, px - 55, py + drop, gold, 1.5)
        c.line(px, py, px + 55, py + drop, gold, 1.5)
        c.path(
            f"M{fmt(px - 66)} {fmt(py + drop)}Q{fmt(px)} {fmt(py + drop + 40)} {fmt(px + 66)} {fmt(py + drop)}Z",
            fill="#b08a3a",
        )
    c.icon("feather", lx, ly + 170, 70, rot=-30)
    c.icon("rock", rx, ry + 152, 100)
    for x, y in c.scatter(30, 40, 60, 440, 560, 22):
        c.circle(x, y, 1.4, "#ffe6b0", opacity=0.5)


@scene(
    "Three great stone heads stand on a grassy shore at night, facing a huge moon that rises out of the sea.",
    ["statues", "moon", "sea", "night", "stone", "waiting"],
)
def moai_moon(c):
    c.sky(["#0b1026", "#22305c", "#5a5f8f"], 0, 460)
    c.stars(60, 14, 14, 466, 300)
    c.moon(240, 440, 130, color="#f3e9cc", glow="#d8d0ff")
    c.water(450, "#3a4a7a", "#0b1026", ripples=26, ripple_color="#f3e9cc", ripple_op=0.3)
    c.ellipse(240, 520, 30, 70, "#f3e9cc", opacity=0.25, filter=c.blur(8))
    c.hills(600, 10, "#122018", peaks=[(100, 580), (300, 600)])
    for x, y, s in ((80, 560, 150), (220, 600, 180), (390, 570, 160)):
        c.icon("moai", x, y, s, tone="night")
    c.rect(0, 660, W, 60, "#0a140f")


@scene(
    "A Ferris wheel stands half-sunk in a calm sea at sunset, its lower cabins under the water "
    "and gulls circling its top.",
    ["ferris wheel", "sea", "sunset", "flood", "fair", "memory"],
)
def ferris_sea(c):
    c.sky(["#2e1f47", "#b14b6b", "#f28b50", "#fcd581"], 0, 470)
    c.circle(110, 440, 46, "#ffe7a8", opacity=0.9)
    c.glow(110, 440, 150, "#ffd88a", 0.5)
    c.icon("ferris-wheel", 260, 420, 330, tone="dusk")
    c.rect(0, 470, W, 250, c.lin([(0, "#b65f6e", 0.88), (1, "#2a1d40", 1)]))
    with c.clip(c.rect_d(0, 470, W, 250)):
        c.icon("ferris-wheel", 260, 520, 330, vflip=True, tone="dusk", op=0.18)
    for i in range(30):
        t = c.rng.random()
        yy = 478 + t * t * 230
        x = c.rng.uniform(0, W)
        c.line(x, yy, x + 15 + 60 * t, yy, "#ffd3a8", 1 + t, opacity=0.3)
    c.path("M95 470 Q260 462 425 470", stroke="#ffe0c0", stroke_width=2, opacity=0.6)
    c.birds([(250, 190), (280, 205), (320, 180), (215, 215)], "#3a2340", 9)


@scene(
    "A carousel horse on its golden pole gallops alone across the open sea at dawn, splashing through the waves.",
    ["carousel", "horse", "sea", "dawn", "freedom", "alone"],
)
def carousel_sea(c):
    c.sky(["#3a2f5b", "#7d6aa8", "#d9a7c7", "#fbe2d0"], 0, 470)
    c.glow(360, 470, 160, "#fff0e0", 0.6)
    c.water(470, "#9f8fc0", "#2c2550", ripples=34, ripple_color="#ffe8f0")
    c.line(240, 14, 240, 600, c.lin(["#f7d774", "#c9982e"], 0, 0, 1, 0), 7)
    c.icon("carousel-horse", 240, 430, 230)
    for dx, w in ((-80, 40), (60, 50), (-30, 70), (100, 26)):
        c.ellipse(240 + dx, 548, w, 6, "#fff", opacity=0.6)
    for i in range(14):
        c.circle(c.jit(200, 70), c.jit(525, 20), c.rng.uniform(1.5, 4), "#fff", opacity=0.8)
    c.birds([(110, 190), (130, 180)], "#3a2f5b", 9)


@scene(
    "An upright piano lies half-buried in moonlit sand dunes, and musical notes drift up from it into the night.",
    ["piano", "desert", "music", "night", "moon", "buried"],
)
def desert_piano(c):
    c.sky(["#060b24", "#1a2550", "#40507f"], 0, 520)
    c.stars(80, 14, 14, 466, 430, avoid=(110, 130, 50))
    c.moon(110, 130, 34, color="#f2ecd8", phase="crescent", sky="#0a1130")
    c.hills(470, 20, "#5a6388", peaks=[(100, 450), (300, 480), (430, 440)])
    c.rect(150, 370, 200, 200, c.lin(["#5a2e22", "#3a1c14"]), rx=8)
    c.rect(140, 360, 220, 24, "#6b3a2a", rx=6)
    c.rect(165, 470, 170, 30, "#f4efe2")
    for i in range(14):
        c.line(165 + i * 12.2, 470, 165 + i * 12.2, 500, "#9a9288", 1)
    for i in (1, 2, 4, 5, 6, 8, 9, 11, 12, 13):
        c.rect(161 + i * 12.2, 470, 7, 18, "#1a1410")
    c.rect(160, 395, 180, 60, "#4a2419", rx=4)
    c.hills(530, 14, "#8a8fb0", peaks=[(120, 500), (240, 510), (380, 535)])
    c.hills(600, 12, "#6b7096")
    for x, y, s, r in ((230, 320, 50, -10), (290, 260, 42, 12), (210, 200, 36, -18), (300, 150, 30, 8)):
        c.icon("musical-note" if r < 0 else "musical-notes", x, y, s, rot=r, tone="pale", op=0.85)


@scene(
    "On a stage between heavy red curtains, an upturned top hat spills out stars while white doves fly up "
    "through the spotlight.",
    ["hat", "magic", "doves", "stage", "stars", "theatre"],
)
def hat_doves(c):
    c.sky(["#12060a", "#2b0a14", "#3d0f1c"])
    c.poly([(200, 14), (280, 14), (400, 620), (80, 620)], c.lin([(0, "#fff3d0", 0.35), (1, "#fff3d0", 0.08)]))
    c.rect(0, 600, W, 120, c.lin(["#5a3a22", "#2a1a10"]))
    c.ellipse(240, 630, 150, 24, "#fff3d0", opacity=0.2)
    for side in (0, 1):
        for i in range(6):
            x = (i * 22) if side == 0 else (W - i * 22 - 22)
            c.rect(x, 0, 24, 720, c.lin(["#6e0f22", "#b3243c", "#6e0f22"], 0, 0, 1, 0))
    c.path("M0 0 H480 V70 Q360 110 240 80 Q120 110 0 70 Z", fill=c.lin(["#8c1c3a", "#5a0f22"]))
    c.shadow(240, 628, 80, 10, 0.5)
    c.icon("top-hat", 240, 580, 130, vflip=True)
    for x, y in c.scatter(12, 170, 330, 310, 520, 26):
        c.glow(x, y, 14, "#fff2b0", 0.5)
        c.sparkle(x, y, c.rng.uniform(5, 10), "#fff7d0")
    for x, y, s, r in ((180, 300, 66, -10), (300, 230, 56, 12), (220, 150, 44, -4), (330, 380, 40, 20)):
        c.icon("dove", x, y, s, rot=r, flip=x < 240)


@scene(
    "A green dragon coils around the top of a slender white tower that rises out of a sea of clouds at sunrise.",
    ["dragon", "tower", "clouds", "sunrise", "guardian", "height"],
)
def dragon_tower(c):
    c.sky(["#2a4a6b", "#6e8fb0", "#f0c8a0", "#f8e6c8"])
    c.glow(360, 600, 220, "#fff0c8", 0.6)
    c.rect(205, 150, 70, 600, c.lin(["#f4efe6", "#c8c0b8"], 0, 0, 1, 0))
    c.poly([(195, 160), (240, 70), (285, 160)], "#7a5a8a")
    c.rect(195, 150, 90, 14, "#e0d8d0")
    with c.clip(c.arch_d(228, 220, 24, 40)):
        c.rect(220, 170, 40, 60, "#ffd27a")
    c.icon("dragon", 250, 280, 240)
    for y, col in ((560, "#fbe4d6"), (610, "#f5d2c4"), (670, "#eec0b6")):
        x = c.rng.uniform(-60, 0)
        while x < W + 60:
            w = c.rng.uniform(120, 180)
            c.cloud(x + w / 2, y, w, col, 0.97)
            x += w * 0.7
    c.birds([(90, 380), (110, 392)], "#3a4a66", 8)


@scene(
    "A ghost made of a white sheet stands alone in a sunny red poppy meadow at noon, with empty dark eyes.",
    ["ghost", "meadow", "poppies", "noon", "uncanny", "alone"],
)
def ghost_meadow(c):
    c.sky(["#4fa3e0", "#a6d6f2", "#e6f5fb"], 0, 440)
    c.cloud(110, 140, 160, "#fff", 0.9)
    c.cloud(380, 220, 120, "#fff", 0.8)
    c.hills(440, 10, "#8cc06a")
    c.rect(0, 450, W, 270, c.lin(["#7ab55a", "#4e8a3a"]))
    for i in range(90):
        y = 450 + c.rng.random() ** 1.4 * 260
        x = c.rng.uniform(0, W)
        r = 2 + (y - 450) / 30
        c.line(x, y, x, y + r * 2, "#3f7a2e", 1.2)
        c.circle(x, y, r, c.rng.choice(["#e63946", "#d62839", "#f25c54"]))
    c.shadow(250, 612, 70, 10, 0.3)
    c.path(
        "M240 360 C200 360 190 400 190 450 L184 600 Q200 590 212 606 Q226 590 240 606 "
        "Q254 590 268 606 Q282 590 296 600 L290 450 C290 400 280 360 240 360 Z",
        fill=c.lin(["#ffffff", "#dfe3ea"], 0, 0, 1, 0),
    )
    c.ellipse(224, 420, 9, 13, "#1a1a22")
    c.ellipse(256, 420, 9, 13, "#1a1a22")


@scene(
    "A little train crosses the sea at sunset on rails laid just under the water, its lit windows "
    "reflected in the waves.",
    ["train", "sea", "sunset", "journey", "rails", "travel"],
)
def train_sea(c):
    c.sky(["#3b3f7a", "#b06a9a", "#f5a97f", "#fde1b5"], 0, 430)
    c.circle(330, 420, 54, "#fff0c8")
    c.glow(330, 420, 170, "#ffe0b0", 0.5)
    c.water(430, "#d89aa8", "#3a3f7a", ripples=30, ripple_color="#fff0e0")
    c.line(0, 472, W, 472, "#5a4070", 2, opacity=0.6)
    c.line(0, 482, W, 482, "#5a4070", 2, opacity=0.6)
    for x, n, s in (
        (110, "locomotive", 110),
        (215, "railway-car", 100),
        (315, "railway-car", 100),
        (415, "railway-car", 100),
    ):
        c.icon(n, x, 440, s, tone="dusk")
        c.icon(n, x, 520, s, vflip=True, op=0.25, tone="dusk")
    c.birds([(150, 250), (170, 240)], "#3b3f7a", 8)


@scene(
    "In a cracked, sun-bleached desert, an open umbrella hovers in the air to shade a single pink flower.",
    ["umbrella", "flower", "desert", "shade", "care", "heat"],
)
def umbrella_flower(c):
    c.sky(["#f6d8a8", "#fbeed6", "#fff8ec"], 0, 430)
    c.glow(240, 110, 180, "#fffbe6", 0.9)
    c.circle(240, 110, 50, "#fffdf4")
    c.hills(430, 4, "#e6c492")
    c.rect(0, 435, W, 290, c.lin(["#e9c38a", "#c99a5e"]))
    for i in range(22):
        x, y = c.rng.uniform(0, W), c.rng.uniform(450, 700)
        c.path(
            f"M{fmt(x)} {fmt(y)} l{fmt(c.rng.uniform(10, 30))} {fmt(c.rng.uniform(-6, 6))} "
            f"l{fmt(c.rng.uniform(5, 20))} {fmt(c.rng.uniform(-8, 8))}",
            stroke="#a8784a",
            stroke_width=1.5,
            opacity=0.6,
        )
    c.ellipse(240, 560, 90, 16, "#7a5330", opacity=0.35)
    c.icon("tulip", 240, 530, 70)
    c.icon("umbrella", 240, 370, 190, rot=-6)


@scene(
    "An autumn tree is wrapped in heavy chains closed with a padlock, while the key hangs from a high "
    "branch out of reach.",
    ["tree", "chains", "lock", "key", "autumn", "trapped"],
)
def locked_tree(c):
    c.sky(["#f0a35e", "#f6c98a", "#fbe6c4"], 0, 560)
    c.hills(560, 10, "#8a5a34")
    c.rect(0, 570, W, 150, c.lin(["#7a4a2a", "#4a2a18"]))
    tips = c.bare_tree(240, 600, 440, "#3a2418", depth=6, spread=24)
    for x, y in tips:
        c.circle(x, y, c.rng.uniform(10, 18), c.rng.choice(["#e85d2a", "#f29e38", "#c8402a", "#f6c049"]), opacity=0.9)
    for x, y in c.scatter(10, 30, 560, 450, 700, 30):
        c.icon("fallen-leaf", x, y, 24, rot=c.rng.uniform(0, 360))
    for y in range(470, 590, 16):
        c.ellipse(240, y, 26, 7, "none", stroke="#8d8f98", stroke_width=5)
    c.icon("locked", 240, 540, 56)
    c.line(356, 220, 356, 268, "#e0d0b0", 1.5)
    c.icon("old-key", 356, 290, 50, rot=-45)


@scene(
    "A glass jar stands in a sunny meadow with a small thunderstorm trapped inside it: a dark cloud, "
    "rain and a flash of lightning.",
    ["jar", "storm", "lightning", "meadow", "trapped", "weather"],
)
def storm_jar(c):
    c.sky(["#7ec8f0", "#c8ebfb", "#f2fbff"], 0, 470)
    c.cloud(100, 150, 150, "#fff", 0.95)
    c.circle(380, 110, 34, "#fff6b8")
    c.glow(380, 110, 100, "#fffbe0", 0.7)
    c.hills(470, 14, "#9fd67f")
    c.rect(0, 500, W, 220, c.lin(["#8ccc6e", "#5ea84a"]))
    for x, y in c.scatter(30, 20, 520, 460, 700, 20):
        c.icon(c.rng.choice(["blossom", "tulip"]), x, y, 20)
    c.shadow(240, 600, 110, 12, 0.3)
    jar = "M150 330 L330 330 L335 560 Q335 600 295 600 L185 600 Q145 600 145 560 Z"
    with c.clip(jar):
        c.rect(140, 320, 200, 290, c.lin(["#4a5068", "#6b7390"]))
        for i in range(30):
            x, y = c.rng.uniform(155, 325), c.rng.uniform(420, 590)
            c.line(x, y, x - 4, y + 14, "#b8c8e0", 1.5, opacity=0.8)
        c.path("M250 400 L230 460 L250 460 L225 530", stroke="#fffbd0", stroke_width=4)
        c.glow(240, 460, 70, "#fffbd0", 0.4)
        c.cloud(240, 410, 160, "#3a3f52", 1)
        c.ellipse(240, 598, 85, 8, "#8aa8c8", opacity=0.7)
    c.path(jar, fill="#fff", fill_opacity=0.08, stroke="#ffffff", stroke_width=3, stroke_opacity=0.8)
    c.path("M168 350 L168 560", stroke="#fff", stroke_width=6, opacity=0.35)
    c.rect(140, 300, 200, 34, "#a8743a", rx=6)
    c.rect(140, 322, 200, 6, "#7a5228")


@scene(
    "An astronaut sits on the edge of a full moon and fishes with a long line down into a sea of clouds, "
    "where a fish is leaping.",
    ["astronaut", "moon", "fishing", "clouds", "fish", "patience"],
)
def moon_fisher(c):
    c.sky(["#0f2027", "#203a43", "#2c5364", "#7a8fa0"])
    c.stars(70, 14, 14, 466, 400, avoid=(310, 200, 130))
    c.glow(310, 200, 200, "#fff6d8", 0.35)
    c.icon("full-moon", 310, 200, 240)
    c.icon("astronaut", 226, 96, 80, rot=-20)
    c.line(196, 96, 120, 40, "#c8c0a8", 3)
    c.path("M120 40 Q90 250 150 500", stroke="#e8e8f0", stroke_width=1.2, opacity=0.8)
    for y, col in ((520, "#c8b8d8"), (580, "#b8a8cc"), (650, "#a898c0"), (720, "#9888b4")):
        x = c.rng.uniform(-60, 0)
        while x < W + 60:
            w = c.rng.uniform(110, 170)
            c.cloud(x + w / 2, y, w, col, 0.97)
            x += w * 0.7
    c.icon("fish", 160, 470, 56, rot=-30)
    for dx in (-20, 0, 20):
        c.circle(150 + dx, 500, 3, "#dfe8f0", opacity=0.7)


@scene(
    "A trail of footprints walks across the surface of a calm silver sea toward a single door standing "
    "on the water, slightly open.",
    ["footprints", "door", "sea", "morning", "walking on water", "threshold"],
)
def footprints_door(c):
    c.sky(["#a7b4c6", "#d8dde4", "#eeeae2"], 0, 400)
    c.circle(110, 180, 28, "#fffaf0", opacity=0.85)
    c.water(400, "#c2cbd6", "#6d7d93", ripples=26)
    c.rect(262, 222, 92, 182, "#3b3f4f")
    c.rect(270, 230, 76, 174, c.lin(["#fff8dc", "#ffd98a"]))
    c.glow(308, 320, 110, "#ffe8a0", 0.35)
    c.poly([(270, 230), (306, 244), (306, 392), (270, 404)], "#5a4a3a")
    c.circle(300, 322, 3, "#e8c070")
    c.rect(270, 406, 76, 60, c.lin([(0, "#ffe8a0", 0.45), (1, "#ffe8a0", 0)]))
    for i in range(14):
        t = i / 13
        y = 700 - t * 285
        x = 150 + t * 145
        s = 1.5 - t * 1.0
        side = 12 * s if i % 2 else -12 * s
        c.ellipse(x + side, y, 18 * s, 6 * s, "none", stroke="#f4f4f4", stroke_width=1.2, opacity=0.6)
        c.ellipse(x + side, y, 6 * s, 10 * s, "#3e4a5c", opacity=0.7)
    c.birds([(390, 170), (408, 160)], "#5a6478", 8)


@scene(
    "A stone bridge over a quiet river stops halfway, ending in mid-air, with a lit lamp post standing "
    "at its broken edge at dusk.",
    ["bridge", "unfinished", "river", "dusk", "lamp", "gap"],
)
def broken_bridge(c):
    c.sky(["#1d2b53", "#4a5d8f", "#e08a6d", "#f6c28b"], 0, 450)
    c.hills(440, 14, "#3a3a5a", peaks=[(120, 420), (360, 430)])
    c.water(450, "#e9a583", "#1d2b53", ripples=26, ripple_color="#ffe2c8")
    c.path("M100 520 C150 610 240 610 290 520", stroke="#7a6e78", stroke_width=4, opacity=0.3)
    c.path(
        "M-10 400 L320 400 L308 416 L326 430 L304 446 L318 462 L294 470 "
        "C270 390 150 380 100 480 L60 480 C50 455 20 445 -10 450 Z",
        fill="#7a6e78",
    )
    c.path("M-10 400 L320 400", stroke="#a8999f", stroke_width=8)
    for x in range(10, 320, 22):
        c.line(x, 392, x, 400, "#5a505a", 3)
    c.path("M100 480 C150 380 270 390 294 470", stroke="#5a505a", stroke_width=3)
    c.line(300, 400, 300, 290, "#2a2530", 5)
    c.rect(287, 266, 26, 28, "#ffd27a", rx=3)
    c.poly([(283, 268), (317, 268), (300, 254)], "#2a2530")
    c.glow(300, 280, 90, "#ffd27a", 0.55)
    c.ellipse(300, 610, 10, 80, "#ffd27a", opacity=0.25, filter=c.blur(6))
    c.figure(160, 400, 48, "#2a2530")
    c.birds([(380, 250), (400, 240)], "#1d2b53", 8)


@scene(
    "A round hole has opened in the bright blue daytime sky, showing the starry night behind it, "
    "and a ladder leans up against it from a green hill where a cat sits.",
    ["sky", "hole", "ladder", "night", "day", "escape"],
)
def sky_hole(c):
    c.sky(["#2f8ad8", "#7fc3f0", "#d6f0fb"])
    c.cloud(100, 300, 170, "#fff", 0.95)
    c.cloud(390, 420, 140, "#fff", 0.9)
    hole = "M300 190 m-95 0 a95 95 0 1 0 190 0 a95 95 0 1 0 -190 0 Z"
    with c.clip(hole):
        c.rect(200, 90, 200, 200, c.rad(["#1b1e4a", "#05061a"]))
        c.stars(40, 205, 95, 395, 285, sparkles=2)
        c.moon(330, 160, 16, color="#f4eed4", glow="#aab0ff")
    c.path(hole, stroke="#ffffff", stroke_width=3, opacity=0.6)
    c.hills(600, 0, "#6fbf5a", peaks=[(120, 560), (260, 590), (420, 620)])
    c.hills(660, 10, "#4c9a44")
    c.ladder(150, 590, 252, 250, 40, "#8a5a32", rungs=13)
    c.icon("cat", 90, 566, 50)


@scene(
    "Sheep leap one after another over a wooden fence and keep rising into the starry night sky toward the moon.",
    ["sheep", "sleep", "fence", "night", "counting", "moon"],
)
def sheep_fence(c):
    c.sky(["#0e1a3d", "#22407a", "#4f78b0"], 0, 560)
    c.stars(70, 14, 14, 466, 420, avoid=(380, 110, 50))
    c.moon(380, 110, 36, color="#f6f0d8", phase="crescent", sky="#132248")
    c.hills(560, 10, "#2e5a4a", peaks=[(120, 545), (330, 560)])
    c.rect(0, 590, W, 130, c.lin(["#2a5242", "#16302a"]))
    for x in (60, 160, 260, 360):
        c.rect(x - 5, 530, 10, 80, "#8a6a46")
    c.rect(20, 548, 440, 10, "#a07c52")
    c.rect(20, 575, 440, 10, "#a07c52")
    for x, y, s, r in (
        (90, 610, 80, 0),
        (200, 500, 72, -20),
        (290, 400, 60, -26),
        (340, 300, 48, -30),
        (370, 220, 36, -34),
        (385, 165, 26, -36),
    ):
        c.icon("ewe", x, y, s, rot=r, tone="night" if y > 560 else "pale", flip=True)


@scene(
    "A bed with white sheets floats on a calm sea under a starry sky, a reading lamp still lit beside it.",
    ["bed", "sea", "night", "sleep", "drifting", "lamp"],
)
def bed_sea(c):
    c.sky(["#150f3a", "#3b2a7a", "#a65e9a", "#f0a0a0"], 0, 470)
    c.stars(80, 14, 14, 466, 330)
    c.water(470, "#6c4f9a", "#120c30", ripples=30, ripple_color="#ffd0e0")
    c.icon("bed", 250, 450, 200)
    c.icon("bed", 250, 520, 200, vflip=True, op=0.25)
    c.line(370, 470, 370, 380, "#c9a24a", 3)
    c.path("M352 392 L388 392 L380 366 L360 366 Z", fill="#ffe3a0")
    c.glow(370, 390, 70, "#ffe3a0", 0.55)
    c.ellipse(250, 492, 120, 8, "#fff", opacity=0.25)


@scene(
    "A giant turtle swims through a bright sky above the clouds, carrying a small town of houses on its shell.",
    ["turtle", "town", "sky", "clouds", "journey", "home"],
)
def turtle_town(c):
    c.sky(["#3aa0e0", "#8fd0f5", "#e4f6ff"])
    c.cloud(380, 120, 140, "#fff", 0.9)
    c.cloud(80, 240, 110, "#fff", 0.8)
    c.icon("houses", 220, 265, 120)
    c.icon("house", 305, 280, 70)
    c.icon("deciduous-tree", 150, 290, 60)
    c.icon("turtle", 240, 380, 300)
    for y, col in ((560, "#ffffff"), (620, "#f2f6fa"), (690, "#e2ebf3")):
        x = c.rng.uniform(-60, 0)
        while x < W + 60:
            w = c.rng.uniform(120, 180)
            c.cloud(x + w / 2, y, w, col, 1)
            x += w * 0.7
    c.birds([(420, 300), (440, 290)], "#3a6a8a", 8)


@scene(
    "A glass bottle tossed on a stormy grey sea holds a tiny sailing ship on calm, sunny water inside it.",
    ["bottle", "ship", "storm", "sea", "calm", "inside"],
)
def ship_bottle(c):
    c.sky(["#2a3238", "#4f5d66", "#7d8a90"], 0, 440)
    for x, w in ((100, 260), (360, 300), (240, 200)):
        c.cloud(x, c.rng.uniform(120, 220), w, "#3a444c", 0.9, blur=4)
    for i in range(50):
        x, y = c.rng.uniform(-20, 500), c.rng.uniform(0, 440)
        c.line(x, y, x - 8, y + 22, "#c8d0d4", 1, opacity=0.3)
    c.water(440, "#4a5e66", "#1a262c", ripples=0)
    for y in range(450, 720, 34):
        pts = [(x, y + c.rng.uniform(-14, 14)) for x in range(-40, 560, 60)]
        c.path(c.smooth(pts), stroke="#c8d8dc", stroke_width=2, opacity=0.35)
    with c.group(transform="rotate(-14 240 470)"):
        body = "M110 430 Q110 400 140 400 L300 400 Q330 400 350 420 L390 430 L390 470 L350 480 Q330 500 300 500 L140 500 Q110 500 110 470 Z"
        with c.clip(body):
            c.rect(100, 390, 300, 120, c.lin(["#9fe0ff", "#fff6d0"]))
            c.rect(100, 462, 300, 50, c.lin(["#3fa6d8", "#1b6a9a"]))
            c.boat(220, 470, 80, hull="#7a3b2e")
            c.circle(300, 420, 10, "#fff3a0")
        c.path(body, fill="#fff", fill_opacity=0.1, stroke="#e8fbff", stroke_width=3, stroke_opacity=0.8)
        c.rect(388, 434, 24, 32, "#a8743a", rx=4)
        c.path("M130 412 L300 412", stroke="#fff", stroke_width=4, opacity=0.4)
    c.path("M60 540 Q240 520 420 560", stroke="#e8f0f2", stroke_width=5, opacity=0.5)


@scene(
    "A window frame floats in a clear sunny sky above a wheat field; behind its glass a grey rain is falling.",
    ["window", "rain", "sun", "field", "sadness", "frame"],
)
def window_rain(c):
    c.sky(["#4aa8e8", "#a8dcf5", "#f4f8ee"], 0, 520)
    c.circle(90, 110, 34, "#fff6b8")
    c.glow(90, 110, 100, "#fffbe0", 0.7)
    c.rect(0, 520, W, 200, c.lin(["#e8c66a", "#c59a3e"]))
    for i in range(80):
        x = c.rng.uniform(0, W)
        y = 520 + c.rng.random() * 200
        c.line(x, y, x + 1, y - 8 - (y - 520) / 20, "#f5d880", 1.2)
    c.shadow(250, 560, 100, 10, 0.25)
    with c.clip(c.rect_d(160, 200, 180, 240)):
        c.rect(160, 200, 180, 240, c.lin(["#6a7280", "#9aa2ae"]))
        for i in range(40):
            x, y = c.rng.uniform(160, 340), c.rng.uniform(200, 440)
            c.line(x, y, x - 4, y + 16, "#dfe6ee", 1.4, opacity=0.8)
        c.cloud(250, 250, 200, "#5a606c", 1)
    c.rect(160, 200, 180, 240, "none", stroke="#f6f2ea", stroke_width=14)
    c.line(250, 200, 250, 440, "#f6f2ea", 8)
    c.line(160, 320, 340, 320, "#f6f2ea", 8)
    c.rect(146, 440, 208, 12, "#e6ded0")


@scene(
    "A wobbly tower of houses stacked one on top of another rises from a small hill into the evening sky.",
    ["houses", "tower", "balance", "stack", "evening", "home"],
)
def house_tower(c):
    c.sky(["#2d3561", "#c05c7e", "#f3826f", "#ffb961"])
    c.glow(240, 600, 200, "#ffe0b0", 0.45)
    c.hills(640, 0, "#3a2a4a", peaks=[(240, 600)])
    y = 590
    for i, (s, r, dx) in enumerate(
        (
            (110, 0, 0),
            (96, 4, 8),
            (90, -3, 2),
            (80, 6, 12),
            (76, -4, 4),
            (70, 5, 14),
            (64, -6, 6),
            (58, 4, 16),
            (50, -5, 10),
            (44, 7, 18),
        )
    ):
        c.icon("house", 240 + dx, y - s * 0.42, s, rot=r, tone="dusk")
        y -= s * 0.78
    c.birds([(350, 160), (372, 150), (100, 240)], "#2d3561", 9)
    c.stars(20, 14, 14, 466, 180, sparkles=1)


@scene(
    "An open birdcage hangs from a thread in a soft peach sky, and colourful birds fly out of it in every direction.",
    ["birdcage", "birds", "freedom", "open", "sky", "escape"],
)
def birdcage(c):
    c.sky(["#f7c8b0", "#fbe2d0", "#e2eef0"])
    c.cloud(100, 560, 200, "#fff", 0.8)
    c.cloud(380, 620, 220, "#fff", 0.85)
    c.line(240, 0, 240, 220, "#7a5a3a", 1.5)
    cage = "M170 460 L170 310 Q170 230 240 230 Q310 230 310 310 L310 460 Z"
    for i in range(9):
        x = 170 + i * 17.5
        if 4 <= i <= 6:
            continue
        top = 310 - 80 * (1 - ((x - 240) / 70) ** 2) ** 0.5
        c.line(x, top, x, 460, "#b8903a", 3)
    c.path("M170 460 L170 310 Q170 230 240 230 Q310 230 310 310 L310 460", stroke="#c9a24a", stroke_width=4)
    c.rect(160, 455, 160, 14, "#c9a24a", rx=4)
    c.circle(240, 224, 8, "none", stroke="#c9a24a", stroke_width=3)
    c.line(170, 380, 310, 380, "#b8903a", 3)
    c.path("M222 440 L222 340 L258 340 L258 440", stroke="#c9a24a", stroke_width=3, opacity=0.6)
    c.poly([(258, 340), (300, 350), (300, 450), (258, 440)], "none", stroke="#c9a24a", stroke_width=3)
    c.icon("feather", 220, 440, 30, rot=40)
    for x, y, n, s, fl in (
        (340, 330, "parrot", 60, False),
        (380, 230, "bird", 46, False),
        (120, 250, "bird", 50, True),
        (90, 380, "dove", 52, True),
        (400, 420, "blackbird", 40, False),
        (300, 140, "bird", 36, False),
        (160, 130, "dove", 34, True),
    ):
        c.icon(n, x, y, s, flip=fl, tone="hue:200" if n == "bird" and fl else None)


@scene(
    "Umbrellas of many colours fall like rain over a grey city street, where a single figure looks up at them.",
    ["umbrellas", "rain", "city", "falling", "colour", "figure"],
)
def falling_umbrellas(c):
    c.sky(["#5a6478", "#8a93a4", "#b8bfca"], 0, 560)
    c.skyline(560, "#6a7284", hmin=140, hmax=320, lit_p=0.08, lit="#e8e0b0")
    c.rect(0, 555, W, 170, c.lin(["#4a505c", "#2e323a"]))
    c.ellipse(240, 640, 150, 14, "#8a93a4", opacity=0.35)
    for x, y in c.scatter(16, 30, 30, 450, 520, 70):
        kind = c.rng.choice(["umbrella", "umbrella", "closed-umbrella"])
        s = c.rng.uniform(40, 80)
        c.icon(
            kind,
            x,
            y,
            s,
            rot=c.rng.uniform(150, 210) if kind == "umbrella" and c.rng.random() < 0.4 else c.rng.uniform(-40, 40),
            tone=f"hue:{c.rng.choice([0, 60, 120, 180, 240, 300])}",
        )
    c.figure(240, 640, 70, "#1e2128")


@scene(
    "A small cat sits under a streetlamp in the fog, but the shadow it casts on the wall behind it is a tiger.",
    ["cat", "tiger", "shadow", "fog", "streetlamp", "night"],
)
def cat_tiger(c):
    c.sky(["#20242c", "#3a404a", "#59606a"])
    c.rect(0, 0, W, 600, c.lin(["#3a3c42", "#6a6a6e"]))
    for y in range(140, 600, 30):
        c.line(0, y, W, y, "#3c3e44", 1.5, opacity=0.5)
    c.rect(0, 590, W, 130, c.lin(["#2e3036", "#18191d"]))
    c.glow(130, 190, 260, "#ffe2a0", 0.4)
    c.icon("tiger", 310, 440, 300, tone="shade", op=0.8, flip=True, blur=1.2)
    c.line(130, 600, 130, 200, "#1a1b20", 8)
    c.path("M130 200 Q130 170 160 170", stroke="#1a1b20", stroke_width=6)
    c.poly([(146, 172), (176, 172), (170, 196), (152, 196)], "#ffe7a8")
    c.poly([(152, 196), (170, 196), (300, 600), (20, 600)], "#ffe7a8", opacity=0.12)
    c.fog(560, 140, "#9aa0a8", 0.35)
    c.shadow(200, 600, 40, 6, 0.5)
    c.icon("cat", 200, 570, 64, flip=True)
    for i in range(24):
        t = c.rng.random()
        y = 200 + t * 380
        half = 10 + t * 130
        c.circle(
            161 + c.rng.uniform(-half, half) * 0.9 + t * 20,
            y,
            c.rng.uniform(0.8, 1.8),
            "#fff3c8",
            opacity=fmt(c.rng.uniform(0.3, 0.7)),
        )


# SCENES-END


# ---------------------------------------------------------------------------
# Composition, rendering, output


def compose_svg(number: int, seed: int, icons: dict | None = None) -> str:
    """The SVG text of card `number` (1-based) for `seed`."""
    card, _ = _compose(number, seed, icons if icons is not None else load_icons())
    return card


def _compose(number: int, seed: int, icons: dict) -> tuple[str, set]:
    fn, _, _ = SCENES[number - 1]
    c = Card(number, seed, icons)
    fn(c)
    return c.svg(), c.used


PUBLISHED = REPO / "storyteller" / "decks" / "builtin" / "dream.json"


def manifest() -> dict:
    """The deck's manifest: each card's file, alt text and tags, and the translations of its alt
    text ("alt_texts", {language: text}), which are written by hand in the published manifest and
    kept from it for as long as the card's English alt text is the same."""
    translated = _published_translations()
    cards = []
    for i, (_, alt, tags) in enumerate(SCENES, start=1):
        card = {"file": f"{i:03d}.webp", "alt": alt}
        if translated.get(card["file"], (None,))[0] == alt:
            card["alt_texts"] = translated[card["file"]][1]
        cards.append(card | {"tags": list(tags)})
    return {**DECK_META, "cards": cards}


def _published_translations() -> dict[str, tuple[str, dict]]:
    if not PUBLISHED.exists():
        return {}
    published = json.loads(PUBLISHED.read_text(encoding="utf-8"))
    return {card["file"]: (card["alt"], card["alt_texts"]) for card in published["cards"] if card.get("alt_texts")}


def render_png(svg: str, width: int = W, height: int = H) -> bytes:
    """SVG -> PNG bytes with whichever renderer is installed (imported lazily)."""
    try:
        import resvg_py  # noqa: PLC0415

        return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width, height=height))
    except ImportError:
        pass
    try:
        import cairosvg  # noqa: PLC0415

        return cairosvg.svg2png(bytestring=svg.encode(), output_width=width, output_height=height)
    except ImportError:
        pass
    exe = shutil.which("rsvg-convert")
    if exe:
        return subprocess.run(
            [exe, "-w", str(width), "-h", str(height), "-f", "png"],
            input=svg.encode(),
            capture_output=True,
            check=True,
        ).stdout
    raise SystemExit("No SVG renderer: pip install resvg-py (or cairosvg), or apt-get install librsvg2-bin")


def render_webp(svg: str, quality: int = 85) -> bytes:
    from PIL import Image  # noqa: PLC0415

    img = Image.open(io.BytesIO(render_png(svg))).convert("RGB")
    if img.size != (W, H):
        img = img.resize((W, H), Image.LANCZOS)
    out = io.BytesIO()
    img.save(out, "WEBP", quality=quality, method=6)
    return out.getvalue()


def contact_sheet(paths: list[Path], dest: Path, cols: int = 12, thumb: int = 160) -> None:
    from PIL import Image  # noqa: PLC0415

    th = thumb * H // W
    rows = (len(paths) + cols - 1) // cols
    sheet = Image.new("RGB", (cols * (thumb + 6) + 6, rows * (th + 6) + 6), "#444")
    for i, p in enumerate(paths):
        im = Image.open(p).convert("RGB").resize((thumb, th), Image.LANCZOS)
        sheet.paste(im, (6 + (i % cols) * (thumb + 6), 6 + (i // cols) * (th + 6)))
    sheet.save(dest)


def write_subset(icons: dict, used: set, dest: Path) -> None:
    data = {
        "prefix": "fluent-emoji-flat",
        "info": {
            "name": "Fluent Emoji Flat",
            "author": {"name": "Microsoft Corporation", "url": "https://github.com/microsoft/fluentui-emoji"},
            "license": {"title": "MIT", "spdx": "MIT"},
            "note": "Subset of @iconify-json/fluent-emoji-flat used by make_deck.py",
        },
        "width": 32,
        "height": 32,
        "icons": {name: {"body": icons[name]} for name in sorted(used)},
    }
    dest.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--icons", type=Path, default=None)
    ap.add_argument("--write-subset", action="store_true")
    ap.add_argument("--svg-only", action="store_true")
    ap.add_argument("--only", type=str, default=None, help="comma-separated card numbers")
    ap.add_argument("--quality", type=int, default=85)
    ap.add_argument("--contact", type=Path, default=None)
    ap.add_argument("--publish", action="store_true")
    args = ap.parse_args(argv)

    icons = load_icons(args.icons)
    args.out.mkdir(parents=True, exist_ok=True)
    numbers = range(1, len(SCENES) + 1)
    if args.only:
        numbers = [int(x) for x in args.only.split(",")]
    used: set[str] = set()
    webps = []
    for i in numbers:
        svg, u = _compose(i, args.seed, icons)
        used |= u
        (args.out / f"{i:03d}.svg").write_text(svg, encoding="utf-8")
        if not args.svg_only:
            p = args.out / f"{i:03d}.webp"
            p.write_bytes(render_webp(svg, args.quality))
            webps.append(p)
    (args.out / "dream.json").write_text(json.dumps(manifest(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.write_subset:
        if args.only:
            raise SystemExit("--write-subset needs all cards (drop --only)")
        write_subset(icons, used, SUBSET)
    if args.contact and webps:
        contact_sheet(webps, args.contact)
    if args.publish:
        if args.only or args.svg_only:
            raise SystemExit("--publish needs all cards rendered")
        dest = REPO / "storyteller" / "static" / "cards" / "dream"
        dest.mkdir(parents=True, exist_ok=True)
        for p in webps:
            shutil.copyfile(p, dest / p.name)
        (REPO / "storyteller" / "decks" / "builtin").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(args.out / "dream.json", REPO / "storyteller" / "decks" / "builtin" / "dream.json")
    total = sum(p.stat().st_size for p in webps)
    print(f"{len(list(numbers))} cards -> {args.out} ({total / 1024:.0f} KiB of WebP)")


if __name__ == "__main__":
    main()
