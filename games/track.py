"""The score track of a game's table: where each player's token stands (pure layout, no queries).

The track runs from 0 to its length in rows of ``COLUMNS`` cells, winding like the one in the
box (left to right, then right to left). A token stands on its player's score; a score past
the end stands on the last cell. Players on one cell share it side by side, in seat order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

COLUMNS = 10
CELL = 40  # the side of a cell, in the SVG's units
MAX_LENGTH = 100  # a longer track (a house rule's high target) is drawn to 100


@dataclass(frozen=True)
class Token:
    player: dict
    cell: int  # where it stands: its score within 0..length
    column: int
    row: int
    dx: int  # its place beside the others on its cell (SVG units)
    dy: int
    size: int
    beyond: bool  # the score is past the end of the track

    @property
    def left(self) -> int:
        """Where its face starts, from the middle of its cell."""
        return self.dx - self.size // 2

    @property
    def top(self) -> int:
        return self.dy - self.size // 2


@dataclass(frozen=True)
class Cell:
    number: int
    column: int
    row: int

    @property
    def x(self) -> int:
        return self.column * CELL

    @property
    def y(self) -> int:
        return self.row * CELL


@dataclass
class Track:
    length: int
    cells: list[Cell]
    tokens: list[Token] = field(default_factory=list)

    @property
    def rows(self) -> int:
        return self.length // COLUMNS + 1

    @property
    def width(self) -> int:
        return COLUMNS * CELL

    @property
    def height(self) -> int:
        return self.rows * CELL

    @property
    def ranking(self) -> list[dict]:
        """The players, best score first (seat order among equals)."""
        return sorted((token.player for token in self.tokens), key=lambda p: (-p["score"], p["seat"]))


def place(number: int) -> tuple[int, int]:
    """(column, row) of cell ``number`` on the winding track."""
    row, step = divmod(number, COLUMNS)
    return (step if row % 2 == 0 else COLUMNS - 1 - step), row


def spread(count: int) -> list[tuple[int, int]]:
    """Offsets of ``count`` tokens sharing a cell, in seat order: side by side, in two rows past two."""
    if count <= 1:
        return [(0, 0)]
    rows = [count] if count == 2 else [(count + 1) // 2, count // 2]
    columns = rows[0]
    spacing = min(18.0, 28.0 / (columns - 1))
    offsets = []
    for r, in_row in enumerate(rows):
        dy = 0 if len(rows) == 1 else (-8 if r == 0 else 8)
        for k in range(in_row):
            offsets.append((round((k - (in_row - 1) / 2) * spacing), dy))
    return offsets


def token_size(count: int) -> int:
    """How big a token is (SVG units) when ``count`` share its cell: smaller, the more there are."""
    return {1: 28, 2: 22}.get(count, 20 if count <= 4 else 16)


def score_track(players: list[dict], length: int) -> Track:
    """The track of ``length`` (clamped to ``MAX_LENGTH``) with a token per player (``score``, ``seat``)."""
    length = max(1, min(int(length), MAX_LENGTH))
    cells = [Cell(number, *place(number)) for number in range(length + 1)]
    by_cell: dict[int, list[dict]] = {}
    for player in sorted(players, key=lambda p: p["seat"]):
        by_cell.setdefault(min(max(int(player["score"]), 0), length), []).append(player)
    tokens = []
    for number, here in by_cell.items():
        column, row = place(number)
        size = token_size(len(here))
        for player, (dx, dy) in zip(here, spread(len(here))):
            tokens.append(Token(player, number, column, row, dx, dy, size, beyond=player["score"] > length))
    tokens.sort(key=lambda token: token.player["seat"])  # a stable order: morphing keeps each token
    return Track(length=length, cells=cells, tokens=tokens)
