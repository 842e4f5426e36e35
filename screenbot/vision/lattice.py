"""Where the cells are on a frame: the lattice (origin, pitch, rows, cols) and which skin drew it."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..geometry import Rect


@dataclass(frozen=True, slots=True)
class Lattice:
    """Cell (r, c) covers x in [origin_x + c*pitch_x, origin_x + (c+1)*pitch_x), likewise y.

    Coordinates are in the pixels of the frame the lattice was found on (floats: a 1.25 device scale
    factor gives a 37.5 px pitch). ``origin`` is the top-left corner of cell (0, 0)'s pitch box.
    """

    skin: str
    origin: tuple[float, float]
    pitch: tuple[float, float]
    rows: int
    cols: int

    def cell_rect(self, row: int, col: int) -> Rect:
        """The pixels of cell (row, col)'s pitch box, rounded to whole pixels."""
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise IndexError(f"cell ({row}, {col}) is outside the {self.rows}x{self.cols} board")
        ox, oy = self.origin
        px, py = self.pitch
        left, top = round(ox + col * px), round(oy + row * py)
        return Rect(left, top, round(ox + (col + 1) * px) - left, round(oy + (row + 1) * py) - top)

    def cell_center(self, row: int, col: int) -> tuple[float, float]:
        return self.origin[0] + (col + 0.5) * self.pitch[0], self.origin[1] + (row + 0.5) * self.pitch[1]

    def board_rect(self) -> Rect:
        """All cells' pitch boxes together, rounded to whole pixels."""
        ox, oy = self.origin
        left, top = round(ox), round(oy)
        right = round(ox + self.cols * self.pitch[0])
        bottom = round(oy + self.rows * self.pitch[1])
        return Rect(left, top, right - left, bottom - top)

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        col = math.floor((x - self.origin[0]) / self.pitch[0])
        row = math.floor((y - self.origin[1]) / self.pitch[1])
        return (row, col) if 0 <= row < self.rows and 0 <= col < self.cols else None

    def translated(self, dx: float, dy: float) -> Lattice:
        """The lattice shifted by (dx, dy); ``translated(-left, -top)`` expresses it in a crop of the
        frame whose top-left pixel is (left, top)."""
        return Lattice(self.skin, (self.origin[0] + dx, self.origin[1] + dy), self.pitch, self.rows, self.cols)

    def to_json(self) -> dict:
        return {
            "skin": self.skin,
            "origin": [round(self.origin[0], 2), round(self.origin[1], 2)],
            "pitch": [round(self.pitch[0], 3), round(self.pitch[1], 3)],
            "rows": self.rows,
            "cols": self.cols,
        }
