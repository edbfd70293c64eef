"""The score track's layout: each token on its player's score, ties side by side, scores past
the end on the last cell, and the board page draws it (or not) as the kind says."""

from django.template import Context, Template

from games.pages import ME_SLOT_PREFIX, mark_mine
from games.track import COLUMNS, MAX_LENGTH, place, score_track, spread


def players(*scores):
    return [
        {"seat": seat, "score": score, "name": f"P{seat}", "username": f"p{seat}", "colour": "red"}
        for seat, score in enumerate(scores)
    ]


def test_cells_wind_like_the_box():
    assert place(0) == (0, 0) and place(9) == (9, 0)
    assert place(10) == (9, 1) and place(19) == (0, 1)  # back from right to left
    assert place(20) == (0, 2) and place(30) == (9, 3)
    track = score_track([], 30)
    assert [cell.number for cell in track.cells] == list(range(31))
    assert (track.rows, track.width, track.height) == (4, 400, 160)


def test_tokens_stand_on_the_scores():
    track = score_track(players(0, 7, 13, 30), 30)
    assert [(t.cell, t.column, t.row) for t in track.tokens] == [(0, 0, 0), (7, 7, 0), (13, 6, 1), (30, 9, 3)]
    assert all((t.dx, t.dy) == (0, 0) for t in track.tokens)
    assert [p["seat"] for p in track.ranking] == [3, 2, 1, 0]


def test_ties_share_a_cell_side_by_side():
    track = score_track(players(5, 12, 5, 5), 30)
    on_five = [t for t in track.tokens if t.cell == 5]
    assert [t.player["seat"] for t in on_five] == [0, 2, 3]
    offsets = [(t.dx, t.dy) for t in on_five]
    assert len(set(offsets)) == 3  # none hides another entirely
    assert offsets == [(-9, -8), (9, -8), (0, 8)]  # in seat order: left to right, then the row below
    assert spread(2) == [(-9, 0), (9, 0)]
    assert spread(3) == [(-9, -8), (9, -8), (0, 8)]  # two rows past two
    assert [t.size for t in on_five] == [20, 20, 20] and track.tokens[1].size == 28  # smaller when they share
    assert len(set(spread(8))) == 8
    assert all(abs(dx) <= 14 for dx, _ in spread(8))  # eight still fit in a cell
    assert [p["seat"] for p in track.ranking] == [1, 0, 2, 3]  # equal scores in seat order


def test_scores_past_the_end_stand_on_the_last_cell():
    track = score_track(players(31, 45, 10, -2), 30)
    last = [t for t in track.tokens if t.cell == 30]
    assert [t.player["seat"] for t in last] == [0, 1] and all(t.beyond for t in last)
    assert [t.cell for t in track.tokens if t.player["seat"] in (2, 3)] == [10, 0]
    assert not any(t.beyond for t in track.tokens if t.player["seat"] in (2, 3))


def test_a_very_long_track_is_cut_to_a_hundred():
    track = score_track(players(150), 500)
    assert track.length == MAX_LENGTH and len(track.cells) == MAX_LENGTH + 1
    assert track.rows == MAX_LENGTH // COLUMNS + 1
    assert track.tokens[0].cell == MAX_LENGTH


class FakePresentation:
    def __init__(self, length):
        self.length = length

    def score_track(self, view):
        return self.length


class FakeKind:
    def __init__(self, length):
        self.presentation = FakePresentation(length)


class FakeGame:
    pk = 7
    status = "active"

    def __init__(self, length):
        self.game_kind = FakeKind(length)


def render(game, view):
    return Template('{% include "games/partials/score_track.html" %}').render(
        Context({"game": game, "view": view, "me_slot": ME_SLOT_PREFIX})
    )


def test_the_partial_draws_tokens_by_class_and_says_the_scores_in_words():
    view = {"players": players(3, 3, 12)}
    view["players"][1]["name"] = "<b>Bo</b>"
    html = mark_mine(render(FakeGame(30), view), {"seat": 2})  # drawn for anyone, then the viewer's seat marked
    assert "Score track, 0 to 30" in html
    assert 'id="track-7-seat-2" class="token tc-7 tr-1 me"' in html  # 12: the second row runs right to left
    assert 'class="token tc-3 tr-0"' in html
    assert "style=" not in html  # the CSP refuses style attributes
    assert html.count('<g class="track-cell') == 31 and html.count('<g class="track-cell fifth') == 7
    assert '<g class="track-cell fifth last"><rect x="361" y="121"' in html  # 30: the fourth row begins on the right
    assert "&lt;b&gt;Bo&lt;/b&gt;: 3 points" in html and "<b>Bo" not in html
    assert html.index("P2: 12 points") < html.index("P0: 3 points") < html.index("Bo&lt;/b&gt;: 3 points")


def test_no_track_where_the_kind_draws_none_or_before_the_start():
    assert render(FakeGame(None), {"players": players(1)}).strip() == ""
    game = FakeGame(30)
    game.status = "open"
    assert render(game, {"players": players(1)}).strip() == ""


def test_each_kind_says_how_long_its_track_is():
    from games import kinds

    storyteller, think_alike = kinds.get("storyteller").presentation, kinds.get("think_alike").presentation
    assert storyteller.score_track({"options": {}}) == 30  # the box's track
    assert storyteller.score_track({"options": {"target_score": 20}}) == 20  # the house rule's end
    assert think_alike.score_track({"stop": {"stop": "points", "target": 18}}) == 18
    assert think_alike.score_track({"stop": {"stop": "tasks", "target": None, "count": 10}}) is None
    assert kinds.KindPresentation().score_track({}) is None  # a kind that says nothing draws no track
