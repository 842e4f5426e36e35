"""Where the cells are on a frame: the lattice (origin, pitch, rows, cols) and which skin drew it."""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass

from ..geometry import Rect


@dataclass(frozen=True, slots=True)
class Lattice:
    """Cell (r, c) covers x in [origin_x + c*pitch_x, origin_x + (c+1)*pitch_x), likewise y.

    Coordinates are in the pixels of the frame the lattice was found on (floats: a 1.25 device scale
    factor gives a 37.5 px pitch). ``origin`` is the top-left corner of cell (0, 0)'s pitch box.

    ``xs`` / ``ys``, when given, are where each column's (row's) box starts, plus where the last one
    ends (cols + 1 / rows + 1 values): toolkits that give some cells a pixel more than others (GTK)
    drift up to a fifth of a cell from any straight lattice. ``origin`` and ``pitch`` are then the
    first start and the mean pitch.
    """

    skin: str
    origin: tuple[float, float]
    pitch: tuple[float, float]
    rows: int
    cols: int
    xs: tuple[float, ...] | None = None
    ys: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        if self.xs is not None and len(self.xs) != self.cols + 1:
            raise ValueError(f"xs has {len(self.xs)} values for {self.cols} columns (needs {self.cols + 1})")
        if self.ys is not None and len(self.ys) != self.rows + 1:
            raise ValueError(f"ys has {len(self.ys)} values for {self.rows} rows (needs {self.rows + 1})")

    @classmethod
    def from_edges(cls, skin: str, xs: tuple[float, ...], ys: tuple[float, ...]) -> Lattice:
        """The lattice whose boxes start at ``xs`` / ``ys`` (each with the last box's end appended)."""
        cols, rows = len(xs) - 1, len(ys) - 1
        pitch = ((xs[-1] - xs[0]) / cols, (ys[-1] - ys[0]) / rows)
        return cls(skin, (xs[0], ys[0]), pitch, rows, cols, tuple(xs), tuple(ys))

    def col_edges(self) -> tuple[float, ...]:
        """Where each column's box starts, and where the last one ends."""
        if self.xs is not None:
            return self.xs
        return tuple(self.origin[0] + c * self.pitch[0] for c in range(self.cols + 1))

    def row_edges(self) -> tuple[float, ...]:
        """Where each row's box starts, and where the last one ends."""
        if self.ys is not None:
            return self.ys
        return tuple(self.origin[1] + r * self.pitch[1] for r in range(self.rows + 1))

    @property
    def straight(self) -> bool:
        """True when every cell has the same pitch (no ``xs`` / ``ys``)."""
        return self.xs is None and self.ys is None

    def cell_rect(self, row: int, col: int) -> Rect:
        """The pixels of cell (row, col)'s pitch box, rounded to whole pixels."""
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise IndexError(f"cell ({row}, {col}) is outside the {self.rows}x{self.cols} board")
        if self.straight:
            ox, oy = self.origin
            px, py = self.pitch
            x0, x1, y0, y1 = ox + col * px, ox + (col + 1) * px, oy + row * py, oy + (row + 1) * py
        else:
            xs, ys = self.col_edges(), self.row_edges()
            x0, x1, y0, y1 = xs[col], xs[col + 1], ys[row], ys[row + 1]
        left, top = round(x0), round(y0)
        return Rect(left, top, round(x1) - left, round(y1) - top)

    def cell_center(self, row: int, col: int) -> tuple[float, float]:
        if self.straight:
            return self.origin[0] + (col + 0.5) * self.pitch[0], self.origin[1] + (row + 0.5) * self.pitch[1]
        xs, ys = self.col_edges(), self.row_edges()
        return (xs[col] + xs[col + 1]) / 2, (ys[row] + ys[row + 1]) / 2

    def board_rect(self) -> Rect:
        """All cells' pitch boxes together, rounded to whole pixels."""
        xs, ys = self.col_edges(), self.row_edges()
        left, top = round(xs[0]), round(ys[0])
        return Rect(left, top, round(xs[-1]) - left, round(ys[-1]) - top)

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        if self.straight:
            col = math.floor((x - self.origin[0]) / self.pitch[0])
            row = math.floor((y - self.origin[1]) / self.pitch[1])
        else:
            col = bisect.bisect_right(self.col_edges(), x) - 1
            row = bisect.bisect_right(self.row_edges(), y) - 1
        return (row, col) if 0 <= row < self.rows and 0 <= col < self.cols else None

    def translated(self, dx: float, dy: float) -> Lattice:
        """The lattice shifted by (dx, dy); ``translated(-left, -top)`` expresses it in a crop of the
        frame whose top-left pixel is (left, top)."""
        return Lattice(self.skin, (self.origin[0] + dx, self.origin[1] + dy), self.pitch, self.rows, self.cols,
                       None if self.xs is None else tuple(x + dx for x in self.xs),
                       None if self.ys is None else tuple(y + dy for y in self.ys))

    def block(self, row: int, col: int, rows: int, cols: int) -> Lattice:
        """The lattice of the cells in rows row..row+rows-1 and columns col..col+cols-1."""
        if self.straight:
            origin = (self.origin[0] + col * self.pitch[0], self.origin[1] + row * self.pitch[1])
            return Lattice(self.skin, origin, self.pitch, rows, cols)
        return Lattice.from_edges(self.skin, self.col_edges()[col : col + cols + 1], self.row_edges()[row : row + rows + 1])

    def to_json(self) -> dict:
        out = {
            "skin": self.skin,
            "origin": [round(self.origin[0], 2), round(self.origin[1], 2)],
            "pitch": [round(self.pitch[0], 3), round(self.pitch[1], 3)],
            "rows": self.rows,
            "cols": self.cols,
        }
        if not self.straight:
            out["xs"] = [round(x, 2) for x in self.col_edges()]
            out["ys"] = [round(y, 2) for y in self.row_edges()]
        return out
