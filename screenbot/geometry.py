"""Where things are, in pixels: ``Rect`` (a screen or image rectangle) and ``Lattice`` (where a board's
cells are). One lattice type serves vision (reading a frame), the mouse (a cell's click point on the
screen) and the hint overlay (where each cell's mark goes): each expresses it in its own frame with
``Lattice.translated``."""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle in screen (or image) pixels; ``right``/``bottom`` are exclusive."""

    left: int
    top: int
    width: int
    height: int

    @property
    def right(self) -> int:
        return self.left + self.width

    @property
    def bottom(self) -> int:
        return self.top + self.height

    @property
    def center(self) -> tuple[int, int]:
        return self.left + self.width // 2, self.top + self.height // 2

    def as_region(self) -> tuple[int, int, int, int]:
        """(left, top, width, height), the form ``Screen.grab(region=...)`` takes."""
        return self.left, self.top, self.width, self.height

    def contains(self, x: float, y: float) -> bool:
        return self.left <= x < self.right and self.top <= y < self.bottom

    def contains_rect(self, other: Rect) -> bool:
        return (
            self.left <= other.left
            and self.top <= other.top
            and other.right <= self.right
            and other.bottom <= self.bottom
        )

    def intersects(self, other: Rect) -> bool:
        return self.left < other.right and other.left < self.right and self.top < other.bottom and other.top < self.bottom

    def translated(self, dx: int, dy: int) -> Rect:
        return Rect(self.left + dx, self.top + dy, self.width, self.height)

    def expanded(self, margin: int, margin_y: int | None = None) -> Rect:
        """``margin`` more pixels on every side (``margin_y`` above and below, when given)."""
        my = margin if margin_y is None else margin_y
        return Rect(self.left - margin, self.top - my, self.width + 2 * margin, self.height + 2 * my)

    def clipped(self, bounds: Rect) -> Rect:
        left, top = max(self.left, bounds.left), max(self.top, bounds.top)
        right, bottom = min(self.right, bounds.right), min(self.bottom, bounds.bottom)
        return Rect(left, top, max(0, right - left), max(0, bottom - top))


EDGE_DIGITS = 6  # decimals of a pixel an edge is known to (float noise lies far below)


def whole_pixel(edge: float) -> int:
    """The whole pixel a box edge at ``edge`` is cut at: the nearest, half a pixel rounded down on both
    axes alike. Python rounds halves to even, so edges at x.5 a pitch of an odd number of pixels apart
    are cut at x, then x+1, box by box: boxes alternate by a pixel, and a box a pixel off holds a line
    of its neighbour. Edges computed from fitted centres carry float noise (52.50000000000001): they
    are taken to the nearest millionth of a pixel first, or the noise alone moves a box by a pixel."""
    return math.ceil(round(edge, EDGE_DIGITS) - 0.5)


@dataclass(frozen=True, slots=True)
class Lattice:
    """Cell (r, c) covers x in [origin_x + c*pitch_x, origin_x + (c+1)*pitch_x), likewise y.

    Coordinates are in the pixels of the frame the lattice was found on (floats: a 1.25 device scale
    factor gives a 37.5 px pitch). ``origin`` is the top-left corner of cell (0, 0)'s pitch box.

    ``xs`` / ``ys``, when given, are where each column's (row's) box starts, plus where the last one
    ends (cols + 1 / rows + 1 values): toolkits that give some cells a pixel more than others (GTK)
    drift up to a fifth of a cell from any straight lattice. ``origin`` and ``pitch`` are then the
    first start and the mean pitch.

    ``face`` is the visible cell square when a client leaves a gap between its cells (the hint overlay
    draws on it); None means the whole pitch box, which is what vision finds.

    ``scale`` is the desktop's scale the client drew the board at: at 200% a GTK program draws its
    gaps, the round of its tiles and its glyphs twice as large, so a board of 51 px cells looks as one
    of 25.5 px cells does at 100%, enlarged. A skin's pictures are compared at ``drawn_pitch``.
    """

    skin: str
    origin: tuple[float, float]
    pitch: tuple[float, float]
    rows: int
    cols: int
    xs: tuple[float, ...] | None = None
    ys: tuple[float, ...] | None = None
    face: tuple[float, float] | None = None
    scale: float = 1.0

    def __post_init__(self) -> None:
        if self.xs is not None and len(self.xs) != self.cols + 1:
            raise ValueError(f"xs has {len(self.xs)} values for {self.cols} columns (needs {self.cols + 1})")
        if self.ys is not None and len(self.ys) != self.rows + 1:
            raise ValueError(f"ys has {len(self.ys)} values for {self.rows} rows (needs {self.rows + 1})")

    @classmethod
    def from_edges(cls, skin: str, xs: tuple[float, ...], ys: tuple[float, ...], scale: float = 1.0) -> Lattice:
        """The lattice whose boxes start at ``xs`` / ``ys`` (each with the last box's end appended)."""
        cols, rows = len(xs) - 1, len(ys) - 1
        pitch = ((xs[-1] - xs[0]) / cols, (ys[-1] - ys[0]) / rows)
        return cls(skin, (xs[0], ys[0]), pitch, rows, cols, tuple(xs), tuple(ys), scale=scale)

    @property
    def drawn_pitch(self) -> tuple[float, float]:
        """The pitch the client drew the cells at before the desktop's ``scale``: what pictures are
        compared at."""
        return (self.pitch[0] / self.scale, self.pitch[1] / self.scale)

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

    @classmethod
    def from_json(cls, data: dict) -> Lattice:
        """The lattice ``to_json`` wrote."""
        xs, ys = data.get("xs"), data.get("ys")
        return cls(data["skin"], tuple(data["origin"]), tuple(data["pitch"]), data["rows"], data["cols"],
                   None if xs is None else tuple(xs), None if ys is None else tuple(ys), scale=float(data.get("scale", 1.0)))

    @property
    def straight(self) -> bool:
        """True when every cell has the same pitch (no ``xs`` / ``ys``)."""
        return self.xs is None and self.ys is None

    def contains_cell(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols

    def cell_box(self, row: int, col: int) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of cell (row, col)'s pitch box, unrounded."""
        if not self.contains_cell(row, col):
            raise IndexError(f"cell ({row}, {col}) is outside the {self.rows}x{self.cols} board")
        if self.straight:
            ox, oy = self.origin
            px, py = self.pitch
            return ox + col * px, oy + row * py, ox + (col + 1) * px, oy + (row + 1) * py
        xs, ys = self.col_edges(), self.row_edges()
        return xs[col], ys[row], xs[col + 1], ys[row + 1]

    def cell_rect(self, row: int, col: int) -> Rect:
        """The pixels of cell (row, col)'s pitch box, rounded to whole pixels."""
        x0, y0, x1, y1 = self.cell_box(row, col)
        left, top = round(x0), round(y0)
        return Rect(left, top, round(x1) - left, round(y1) - top)

    def cell_inner_rect(self, row: int, col: int) -> Rect:
        """The whole pixels of cell (row, col), one pixel in from its pitch box: clear of grid lines and of
        the neighbours' anti-aliased edges (what a click's effect is watched on)."""
        x0, y0, x1, y1 = self.cell_box(row, col)
        left, top = math.ceil(x0) + 1, math.ceil(y0) + 1
        right, bottom = math.floor(x1) - 1, math.floor(y1) - 1
        return Rect(left, top, max(1, right - left), max(1, bottom - top))

    def cell_center(self, row: int, col: int) -> tuple[float, float]:
        x0, y0, x1, y1 = self.cell_box(row, col)
        return (x0 + x1) / 2, (y0 + y1) / 2

    def board_rect(self) -> Rect:
        """All cells' pitch boxes together, rounded to whole pixels."""
        xs, ys = self.col_edges(), self.row_edges()
        left, top = round(xs[0]), round(ys[0])
        return Rect(left, top, round(xs[-1]) - left, round(ys[-1]) - top)

    def inner_rect(self) -> Rect:
        """The pixels of whole cells only (the board's edges rounded inwards): a click point inside it is
        on a cell for certain."""
        xs, ys = self.col_edges(), self.row_edges()
        left, top = math.ceil(xs[0]), math.ceil(ys[0])
        return Rect(left, top, math.floor(xs[-1]) - left, math.floor(ys[-1]) - top)

    @property
    def face_size(self) -> tuple[float, float]:
        return self.face if self.face is not None else self.pitch

    def face_box(self, row: int, col: int) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the visible cell square: the pitch box's top-left corner and ``face``; the
        pitch box itself when ``face`` is None."""
        box = self.cell_box(row, col)
        if self.face is None:
            return box
        x0, y0 = box[0], box[1]
        return x0, y0, x0 + self.face[0], y0 + self.face[1]

    def face_center(self, row: int, col: int) -> tuple[float, float]:
        x0, y0, x1, y1 = self.face_box(row, col)
        return (x0 + x1) / 2, (y0 + y1) / 2

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        if self.straight:
            col = math.floor((x - self.origin[0]) / self.pitch[0])
            row = math.floor((y - self.origin[1]) / self.pitch[1])
        else:
            col = bisect.bisect_right(self.col_edges(), x) - 1
            row = bisect.bisect_right(self.row_edges(), y) - 1
        return (row, col) if 0 <= row < self.rows and 0 <= col < self.cols else None

    def cells_touching(self, left: float, top: float, right: float, bottom: float) -> tuple[int, int, int, int] | None:
        """Rows r0:r1 and columns c0:c1 of the cells whose pitch boxes meet the pixels x in [left, right],
        y in [top, bottom] (clipped to the board), or None when no cell does."""
        xs, ys = self.col_edges(), self.row_edges()
        c0, c1 = max(0, bisect.bisect_right(xs, left) - 1), min(self.cols, bisect.bisect_right(xs, right))
        r0, r1 = max(0, bisect.bisect_right(ys, top) - 1), min(self.rows, bisect.bisect_right(ys, bottom))
        return (r0, r1, c0, c1) if r0 < r1 and c0 < c1 else None

    def on_whole_pixels(self) -> Lattice:
        """The lattice with every box edge on a whole pixel (``whole_pixel``)."""
        def whole(edges: tuple[float, ...]) -> tuple[float, ...]:
            return tuple(float(whole_pixel(edge)) for edge in edges)

        return Lattice.from_edges(self.skin, whole(self.col_edges()), whole(self.row_edges()), self.scale)

    def translated(self, dx: float, dy: float) -> Lattice:
        """The lattice shifted by (dx, dy); ``translated(-left, -top)`` expresses it in a crop of the
        frame whose top-left pixel is (left, top)."""
        return Lattice(self.skin, (self.origin[0] + dx, self.origin[1] + dy), self.pitch, self.rows, self.cols,
                       None if self.xs is None else tuple(x + dx for x in self.xs),
                       None if self.ys is None else tuple(y + dy for y in self.ys), self.face, self.scale)

    def block(self, row: int, col: int, rows: int, cols: int) -> Lattice:
        """The lattice of the cells in rows row..row+rows-1 and columns col..col+cols-1."""
        if self.straight:
            origin = (self.origin[0] + col * self.pitch[0], self.origin[1] + row * self.pitch[1])
            return Lattice(self.skin, origin, self.pitch, rows, cols, scale=self.scale)
        return Lattice.from_edges(self.skin, self.col_edges()[col : col + cols + 1], self.row_edges()[row : row + rows + 1],
                                  self.scale)

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
        if self.scale != 1.0:
            out["scale"] = self.scale
        return out
