"""Charts drawn on the server as SVG: line charts (a line a series) and bar charts.

Readable without colour: each line has its own marker shape and dash pattern and
its name written at its end, the axes have ticks and labels, and the pages give the
same numbers as a table. The geometry is worked out here; the markup comes from
``stats/partials/chart.html``, so every text is escaped by the template engine.
Coordinates are strings made here, never floats left to the template, which would
write them in the page's number format ("12,5" is no SVG coordinate).
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.utils.formats import number_format
from django.utils.safestring import SafeString

WIDTH, HEIGHT = 420, 260
TOP, BOTTOM, LEFT = 30, 40, 44  # room for the y axis' label, the x ticks and label, the y ticks
LABELS = 100  # room on the right of a line chart for the names at the lines' ends
LABEL_GAP = 14  # the least distance between two names' baselines
LABEL_CHARS = 12  # a longer name is cut, with an ellipsis (the table has it whole)
MARKER = 4.5
DODGE_SPAN = 36  # the widest row of tied markers

MARKERS = ("circle", "square", "triangle", "diamond", "triangle-down", "plus", "cross", "star", "hexagon", "hourglass")
DASHES = ("", "7 4", "2 3", "10 3 2 3", "1 5", "14 5", "5 2 1 2", "9 2", "3 7", "6 2 2 2 2 2")


@dataclass(frozen=True)
class Series:
    """One line: a name, a value at each of the chart's x positions, and a colour (a seat colour's name)."""

    name: str
    values: Sequence[float]
    colour: str = ""


@dataclass(frozen=True)
class Tick:
    at: str  # the coordinate along its axis
    label: str


@dataclass(frozen=True)
class Point:
    x: str
    y: str
    marker: str  # the path of the marker drawn there


@dataclass(frozen=True)
class Line:
    name: str
    label: str  # the name as written at the line's end (cut when long)
    colour: str
    shape: str
    dash: str
    path: str
    points: list[Point]
    label_x: str
    label_y: str


@dataclass(frozen=True)
class Bar:
    x: str
    y: str
    width: str
    height: str


@dataclass(frozen=True)
class Chart:
    id: str
    title: str
    summary: str
    x_label: str
    y_label: str
    left: str
    right: str
    top: str
    bottom: str
    baseline: str  # where the value 0 is (bars grow from it)
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    lines: list[Line] = field(default_factory=list)
    bars: list[Bar] = field(default_factory=list)
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def middle(self) -> str:
        """The middle of the plot, across: the x axis' label."""
        return coordinate((float(self.left) + float(self.right)) / 2)

    @property
    def tick_end(self) -> str:
        return coordinate(float(self.bottom) + 4)

    @property
    def x_tick_y(self) -> str:
        return coordinate(float(self.bottom) + 16)

    @property
    def y_tick_x(self) -> str:
        return coordinate(float(self.left) - 6)

    def svg(self) -> SafeString:
        return render_to_string("stats/partials/chart.html", {"chart": self})


def coordinate(value: float) -> str:
    """A coordinate as SVG takes it: a dot, one decimal at most, no "-0"."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def nice_scale(low: float, high: float, *, most: int = 5, integer: bool = False) -> tuple[float, float, float]:
    """(start, stop, step) covering ``low``..``high`` in about ``most`` steps of 1, 2 or 5 times a power of 10."""
    if high < low:
        low, high = high, low
    if high == low:
        high = low + 1
    raw = (high - low) / most
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw * (1 - 1e-9))
    if integer:
        step = max(1, round(step))
    start = math.floor(low / step + 1e-9) * step
    stop = math.ceil(high / step - 1e-9) * step
    return start, stop, step


def _decimals(step: float) -> int:
    return 0 if step >= 1 and float(step).is_integer() else max(0, -math.floor(math.log10(step)))


def _tick_values(start: float, stop: float, step: float) -> list[float]:
    count = round((stop - start) / step)
    return [round(start + i * step, 10) for i in range(count + 1)]


def marker_path(shape: str, x: float, y: float, r: float = MARKER) -> str:
    """The outline of a marker of ``shape`` centred on (x, y)."""
    if shape == "circle":
        return f"M{coordinate(x - r)},{coordinate(y)}a{r},{r} 0 1,0 {2 * r},0a{r},{r} 0 1,0 {-2 * r},0Z"
    return "M" + "L".join(f"{coordinate(x + dx * r)},{coordinate(y + dy * r)}" for dx, dy in _SHAPES[shape]) + "Z"


def _star(points: int, outer: float, inner: float, turn: float = 0) -> list[tuple[float, float]]:
    corners = []
    for i in range(points * 2):
        radius = outer if i % 2 == 0 else inner
        angle = math.pi * i / points - math.pi / 2 + turn
        corners.append((radius * math.cos(angle), radius * math.sin(angle)))
    return corners


def _polygon(corners: int, radius: float, turn: float = 0) -> list[tuple[float, float]]:
    return [
        (radius * math.cos(2 * math.pi * i / corners + turn), radius * math.sin(2 * math.pi * i / corners + turn))
        for i in range(corners)
    ]


_PLUS = [(-0.4, -1.1), (0.4, -1.1), (0.4, -0.4), (1.1, -0.4), (1.1, 0.4), (0.4, 0.4)]
_PLUS += [(0.4, 1.1), (-0.4, 1.1), (-0.4, 0.4), (-1.1, 0.4), (-1.1, -0.4), (-0.4, -0.4)]
_SHAPES: dict[str, list[tuple[float, float]]] = {
    "square": [(-0.9, -0.9), (0.9, -0.9), (0.9, 0.9), (-0.9, 0.9)],
    "triangle": [(0, -1.2), (1.15, 0.85), (-1.15, 0.85)],
    "diamond": [(0, -1.3), (1.3, 0), (0, 1.3), (-1.3, 0)],
    "triangle-down": [(0, 1.2), (1.15, -0.85), (-1.15, -0.85)],
    "plus": _PLUS,
    "cross": [(dx * 0.7071 - dy * 0.7071, dx * 0.7071 + dy * 0.7071) for dx, dy in _PLUS],
    "star": _star(5, 1.35, 0.6),
    "hexagon": _polygon(6, 1.1),
    "hourglass": [(-1, -1), (1, -1), (-1, 1), (1, 1)],
}


def _cut(name: str) -> str:
    return name if len(name) <= LABEL_CHARS else name[: LABEL_CHARS - 1].rstrip() + "…"


def spread_labels(wanted: Sequence[float], *, top: float, bottom: float, gap: float = LABEL_GAP) -> list[float]:
    """Label positions as near ``wanted`` as may be, each ``gap`` or more from the next, within top..bottom.

    The result is in the order of ``wanted``. Where they cannot all fit, they keep the gap and run past ``bottom``.
    """
    order = sorted(range(len(wanted)), key=lambda i: (wanted[i], i))
    placed = [min(max(wanted[i], top), bottom) for i in order]
    for k in range(1, len(placed)):
        placed[k] = max(placed[k], placed[k - 1] + gap)
    if placed and placed[-1] > bottom:
        placed[-1] = max(bottom, top + gap * (len(placed) - 1))
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - gap)
    result = [0.0] * len(wanted)
    for k, i in enumerate(order):
        result[i] = placed[k]
    return result


def _dodges(series: Sequence[Series]) -> list[list[float]]:
    """How far across to move each marker so that tied values show every marker, side by side, not one on another."""
    dodges = [[0.0] * len(one.values) for one in series]
    last = len(series[0].values) - 1
    for at in range(last + 1):
        tied: dict[float, list[int]] = {}
        for index, one in enumerate(series):
            tied.setdefault(one.values[at], []).append(index)
        for indexes in tied.values():
            # a marker's width apart, closer where many tie (they may overlap a little, never all in one);
            # into the plot at its ends, clear of the y axis' numbers and of the names
            apart = min(MARKER * 2.2, DODGE_SPAN / max(1, len(indexes) - 1))
            middle = 0 if at == 0 < last else len(indexes) - 1 if at == last > 0 else (len(indexes) - 1) / 2
            for k, index in enumerate(indexes):
                dodges[index][at] = (k - middle) * apart
    return dodges


def _y_axis(values: Sequence[float], integer: bool, top: float, bottom: float, *, from_zero: bool):
    low, high = min(values), max(values)
    if from_zero:
        low, high = min(low, 0), max(high, 0)
    start, stop, step = nice_scale(low, high, integer=integer)
    decimals = _decimals(step)

    def y_of(value: float) -> float:
        return bottom - (value - start) / (stop - start) * (bottom - top)

    ticks = [
        Tick(at=coordinate(y_of(v)), label=number_format(v, decimal_pos=decimals))
        for v in _tick_values(start, stop, step)
    ]
    return y_of, ticks, (y_of(0) if start <= 0 <= stop else bottom)


def line_chart(
    *,
    id: str,
    title: str,
    summary: str,
    x_label: str,
    y_label: str,
    x: Sequence[int],
    series: Sequence[Series],
    integer: bool = True,
) -> Chart | None:
    """A line for each of ``series`` (at most ``len(MARKERS)``), its values at the positions ``x`` (ascending).

    None when there is nothing to draw (no position or no series).
    """
    if not x or not series:
        return None
    if len(series) > len(MARKERS):
        raise ValueError(f"at most {len(MARKERS)} series")
    if any(len(s.values) != len(x) for s in series):
        raise ValueError("each series needs a value at each position")
    left, right, top, bottom = LEFT, WIDTH - LABELS, TOP, HEIGHT - BOTTOM
    first, last = x[0], x[-1]

    def x_of(position: float) -> float:
        return left + (position - first) / (last - first) * (right - left) if last != first else (left + right) / 2

    y_of, y_ticks, baseline = _y_axis([v for s in series for v in s.values], integer, top, bottom, from_zero=False)
    start, stop, step = nice_scale(first, last, most=8, integer=True) if last != first else (first, first, 1)
    x_ticks = [
        Tick(at=coordinate(x_of(v)), label=number_format(int(v)))
        for v in _tick_values(start, stop, step)
        if first <= v <= last
    ]
    ends = spread_labels([y_of(s.values[-1]) for s in series], top=top, bottom=bottom)
    dodges = _dodges(series)
    lines = []
    for index, (one, end) in enumerate(zip(series, ends)):
        shape, dash = MARKERS[index], DASHES[index]
        spots = [(x_of(position), y_of(value)) for position, value in zip(x, one.values)]
        lines.append(
            Line(
                name=one.name,
                label=_cut(one.name),
                colour=one.colour,
                shape=shape,
                dash=dash,
                path="M" + "L".join(f"{coordinate(px)},{coordinate(py)}" for px, py in spots),
                points=[
                    Point(x=coordinate(px), y=coordinate(py), marker=marker_path(shape, px + dodge, py))
                    for (px, py), dodge in zip(spots, dodges[index])
                ],
                label_x=coordinate(right + 8),
                label_y=coordinate(end),
            )
        )
    return Chart(
        id=id,
        title=title,
        summary=summary,
        x_label=x_label,
        y_label=y_label,
        left=coordinate(left),
        right=coordinate(right),
        top=coordinate(top),
        bottom=coordinate(bottom),
        baseline=coordinate(baseline),
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        lines=lines,
    )


def bar_chart(
    *,
    id: str,
    title: str,
    summary: str,
    x_label: str,
    y_label: str,
    x: Sequence[int],
    values: Sequence[float],
    integer: bool = False,
) -> Chart | None:
    """A bar for each of ``values``, growing from 0, above the numbers ``x`` (some of them written as ticks)."""
    if not values:
        return None
    if len(x) != len(values):
        raise ValueError("a position for each value")
    left, right, top, bottom = LEFT, WIDTH - 12, TOP, HEIGHT - BOTTOM
    y_of, y_ticks, baseline = _y_axis(values, integer, top, bottom, from_zero=True)
    slot = (right - left) / len(values)
    width = max(1.0, slot * 0.7)
    bars, centres = [], []
    for index, value in enumerate(values):
        centre = left + slot * (index + 0.5)
        centres.append(centre)
        edge = y_of(value)
        bars.append(
            Bar(
                x=coordinate(centre - width / 2),
                y=coordinate(min(edge, baseline)),
                width=coordinate(width),
                height=coordinate(abs(baseline - edge)),
            )
        )
    every = max(1, math.ceil(len(values) / 8))  # some ticks only, where they would crowd
    x_ticks = [
        Tick(at=coordinate(centres[i]), label=number_format(x[i]))
        for i in range(len(values))
        if i % every == 0 or i == len(values) - 1 and (len(values) - 1) % every >= every / 2
    ]
    return Chart(
        id=id,
        title=title,
        summary=summary,
        x_label=x_label,
        y_label=y_label,
        left=coordinate(left),
        right=coordinate(right),
        top=coordinate(top),
        bottom=coordinate(bottom),
        baseline=coordinate(baseline),
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        bars=bars,
    )
