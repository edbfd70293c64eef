"""The SVG charts: where things are drawn, how the scales are chosen, and that every text is escaped."""

import re

import pytest
from django.utils import translation

from stats import charts
from stats.charts import DASHES, LABEL_GAP, MARKERS, Series, bar_chart, line_chart, marker_path, nice_scale

LEFT, RIGHT = charts.LEFT, charts.WIDTH - charts.LABELS
TOP, BOTTOM = charts.TOP, charts.HEIGHT - charts.BOTTOM


def chart(series, x=None, **kwargs):
    x = list(range(len(series[0].values))) if x is None else x
    return line_chart(id="c", title="T", summary="S", x_label="Round", y_label="Score", x=x, series=series, **kwargs)


def xy(point) -> tuple[float, float]:
    return float(point.x), float(point.y)


class TestScale:
    @pytest.mark.parametrize(
        "low, high, integer, expected",
        [
            (0, 8, True, (0, 8, 2)),
            (0, 23, True, (0, 25, 5)),
            (0, 0, True, (0, 1, 1)),  # nothing scored yet: still a scale
            (3, 3, False, (3, 4, 0.2)),
            (-4.2, 7.9, False, (-5, 10, 5)),
            (0, 3, True, (0, 3, 1)),  # integers: never a step of 0.5
            (0, 0.37, False, (0, 0.4, 0.1)),
        ],
    )
    def test_nice_steps(self, low, high, integer, expected):
        start, stop, step = nice_scale(low, high, integer=integer)
        assert (start, stop) == pytest.approx(expected[:2]) and step == pytest.approx(expected[2])

    def test_coordinates_are_svg_numbers(self):
        assert charts.coordinate(12.345) == "12.3"
        assert charts.coordinate(40.0) == "40"
        assert charts.coordinate(-0.01) == "0"


class TestLineChart:
    def test_points_are_placed_on_the_scales(self):
        drawn = chart([Series("Ann", [0, 4, 8]), Series("Bo", [0, 2, 8])])
        ann, bo = drawn.lines
        assert xy(ann.points[0]) == (LEFT, BOTTOM)
        assert xy(ann.points[1]) == pytest.approx(((LEFT + RIGHT) / 2, (TOP + BOTTOM) / 2), abs=0.05)
        assert xy(ann.points[2]) == (RIGHT, TOP)
        assert xy(bo.points[1]) == pytest.approx(((LEFT + RIGHT) / 2, BOTTOM - (BOTTOM - TOP) / 4), abs=0.05)
        assert ann.path.startswith(f"M{LEFT},{BOTTOM}L")
        assert [t.label for t in drawn.y_ticks] == ["0", "2", "4", "6", "8"]
        assert [t.label for t in drawn.x_ticks] == ["0", "1", "2"]

    def test_tied_lines_keep_their_names_apart(self):
        drawn = chart([Series("Ann", [0, 3, 6]), Series("Bo", [0, 6, 6]), Series("Cy", [0, 1, 6])])
        ends = sorted(float(line.label_y) for line in drawn.lines)
        assert all(b - a >= LABEL_GAP - 0.05 for a, b in zip(ends, ends[1:]))
        assert all(TOP <= end <= BOTTOM for end in ends)
        assert len({line.label_x for line in drawn.lines}) == 1  # all at the end of the plot

    def test_tied_markers_stand_side_by_side(self):
        drawn = chart([Series("Ann", [0, 2, 5]), Series("Bo", [0, 2, 4]), Series("Cy", [0, 1, 4])])
        ann, bo, cy = drawn.lines

        def centre(point) -> float:
            xs = [float(n) for n in re.findall(r"[ML](-?[\d.]+),", point.marker)]
            return (min(xs) + max(xs)) / 2 if len(xs) > 1 else xs[0] + charts.MARKER  # a circle: from its left

        assert (ann.points[1].x, ann.points[1].y) == (bo.points[1].x, bo.points[1].y)  # the lines meet there
        assert centre(ann.points[1]) < float(ann.points[1].x) < centre(bo.points[1])
        starts = sorted(centre(line.points[0]) for line in drawn.lines)
        assert starts[0] < starts[1] < starts[2]  # three tied at 0: three markers in a row
        assert centre(ann.points[2]) == pytest.approx(float(ann.points[2].x), abs=0.1)  # alone: where it is
        assert centre(bo.points[2]) != centre(cy.points[2])
        # at the ends, into the plot: clear of the y axis' numbers and of the names
        assert starts[0] == pytest.approx(LEFT, abs=0.1)
        assert max(centre(bo.points[2]), centre(cy.points[2])) == pytest.approx(RIGHT, abs=0.1)

    def test_names_follow_their_line_ends_where_there_is_room(self):
        drawn = chart([Series("Low", [0, 1]), Series("High", [0, 10])])
        low, high = drawn.lines
        assert float(high.label_y) == pytest.approx(float(high.points[-1].y), abs=0.05)
        assert float(low.label_y) == pytest.approx(float(low.points[-1].y), abs=0.05)

    def test_one_round(self):
        drawn = chart([Series("Ann", [0, 3])], x=[0, 1])
        assert [xy(p) for p in drawn.lines[0].points] == [(LEFT, BOTTOM), (RIGHT, TOP)]

    def test_one_position_is_drawn_in_the_middle(self):
        drawn = chart([Series("Ann", [5])], x=[7])
        assert float(drawn.lines[0].points[0].x) == (LEFT + RIGHT) / 2
        assert [t.label for t in drawn.x_ticks] == ["7"]

    def test_nothing_to_draw(self):
        assert chart([Series("Ann", [])], x=[]) is None
        assert line_chart(id="c", title="T", summary="S", x_label="", y_label="", x=[0, 1], series=[]) is None

    def test_bad_series_are_refused(self):
        with pytest.raises(ValueError):
            chart([Series("Ann", [0, 1, 2])], x=[0, 1])
        with pytest.raises(ValueError):
            chart([Series(f"P{n}", [0, n]) for n in range(len(MARKERS) + 1)])

    def test_each_line_has_its_own_marker_and_dash(self):
        drawn = chart([Series(f"Player {n}", [0, n]) for n in range(len(MARKERS))])
        assert len({line.shape for line in drawn.lines}) == len(MARKERS)
        assert len({line.dash for line in drawn.lines}) == len(DASHES) == len(MARKERS)
        assert len({marker_path(shape, 50, 50) for shape in MARKERS}) == len(MARKERS)
        svg = drawn.svg()
        assert len(set(re.findall(r'data-shape="([^"]+)"', svg))) == len(MARKERS)
        assert svg.count("stroke-dasharray=") == len(MARKERS) - 1  # the first line is solid

    def test_long_names_are_cut_at_the_line_end_only(self):
        drawn = chart([Series("Maximiliana Fitzgerald", [0, 1])])
        assert drawn.lines[0].label == "Maximiliana…"
        assert drawn.lines[0].name == "Maximiliana Fitzgerald"

    def test_hostile_names_and_titles_are_escaped(self):
        hostile = '<script>alert(1)</script>"&\' onload="x'
        svg = line_chart(
            id="c",
            title=hostile,
            summary=hostile,
            x_label=hostile,
            y_label=hostile,
            x=[0, 1],
            series=[Series(hostile, [0, 1], colour='red" onclick="x')],
        ).svg()
        assert "<script" not in svg and 'onload="x' not in svg and 'onclick="x' not in svg
        assert "&lt;script&gt;" in svg

    def test_the_markup_is_an_image_with_a_name_and_no_style_attribute(self):
        svg = chart([Series("Ann", [0, 4]), Series("Bo", [0, 2])]).svg()
        assert re.search(r'<svg [^>]*role="img"', svg)
        assert 'aria-labelledby="c-title"' in svg and '<title id="c-title">T</title>' in svg
        assert 'aria-describedby="c-desc"' in svg and '<desc id="c-desc">S</desc>' in svg
        assert 'viewBox="0 0 420 260"' in svg and 'width="100%"' in svg
        assert "style=" not in svg
        assert ">Ann</text>" in svg and ">Round</text>" in svg and ">Score</text>" in svg

    def test_numbers_in_the_page_language_coordinates_in_svg(self):
        with translation.override("fr"):
            svg = chart([Series("Ann", [0, 0.5, 1.5])], integer=False).svg()
        assert ">0,5</text>" in svg  # a tick in French
        for value in re.findall(r' (?:x|y|x1|x2|y1|y2)="([^"]*)"', svg):
            assert re.fullmatch(r"-?\d+(\.\d)?", value), value


class TestBarChart:
    def draw(self, values, x=None):
        x = list(range(1, len(values) + 1)) if x is None else x
        return bar_chart(id="b", title="T", summary="S", x_label="Game", y_label="Points", x=x, values=values)

    def test_bars_grow_from_zero_in_proportion(self):
        drawn = self.draw([1, 2, 0])
        heights = [float(bar.height) for bar in drawn.bars]
        assert heights[1] == pytest.approx(2 * heights[0], abs=0.1) and heights[2] == 0
        assert float(drawn.bars[1].y) == TOP  # the scale ends at 2
        assert all(float(bar.y) + float(bar.height) == pytest.approx(BOTTOM, abs=0.1) for bar in drawn.bars)
        lefts = [float(bar.x) for bar in drawn.bars]
        assert lefts == sorted(lefts) and lefts[0] > LEFT

    def test_below_zero_bars_hang_from_the_baseline(self):
        drawn = self.draw([-1, 1])
        baseline = float(drawn.baseline)
        assert TOP < baseline < BOTTOM
        assert float(drawn.bars[0].y) == pytest.approx(baseline, abs=0.05)
        assert float(drawn.bars[1].y) + float(drawn.bars[1].height) == pytest.approx(baseline, abs=0.05)

    def test_ticks_thin_out_when_bars_crowd(self):
        drawn = self.draw([1] * 30)
        assert len(drawn.bars) == 30
        assert 4 <= len(drawn.x_ticks) <= 9
        assert drawn.x_ticks[0].label == "1"

    def test_nothing_to_draw_and_mismatches(self):
        assert self.draw([]) is None
        with pytest.raises(ValueError):
            self.draw([1, 2], x=[1])

    def test_markup(self):
        svg = self.draw([0.5, 1.25]).svg()
        assert svg.count('class="chart-bar"') == 2 and "style=" not in svg and 'role="img"' in svg


def test_labels_are_spread_in_order_and_kept_inside():
    assert charts.spread_labels([50, 50, 50], top=30, bottom=220) == [50, 64, 78]
    assert charts.spread_labels([220, 219], top=30, bottom=220) == [220, 206]
    assert charts.spread_labels([10], top=30, bottom=220) == [30]
