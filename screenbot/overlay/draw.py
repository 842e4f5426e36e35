"""Pure drawing of the solver's hints over a board's cells (NumPy + OpenCV, no display).

What is drawn, per cell of the located lattice:

- every covered cell whose fate is unknown: a colour from a green -> yellow -> red scale of its mine
  probability, and the percentage when the cell is large enough to hold readable text;
- a certain-safe cell: a green tile with a white check mark;
- a certain mine: a dark red tile with a mine glyph;
- the recommended move: a thick blue frame around the cell (with a small flag for a "flag" move).

Two styles share that vocabulary:

- ``FILL`` (offline pictures, ``screenbot hint --image``): translucent tiles over the whole cell face with
  the text in the middle, blended onto the screenshot.
- ``FRAME`` (the live window): opaque marks confined to a band around each cell, outside a central
  "keep-out" square. Without a compositor an X11 window cannot be translucent, so the live overlay hides
  whatever it covers; keeping the middle of every cell untouched lets the person see the cell and lets
  every screen reader (ours included, while the overlay is up) read it. See ``OverlayStyle.keep_out``.

The result is a ``Layer``: a BGR picture and an alpha mask in image coordinates. ``compose`` blends it onto
a frame; the X11 overlay uses the same layer as its window content and ``alpha > 0`` as its shape.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Iterable

import cv2
import numpy as np

Cell = tuple[int, int]

FILL = "fill"
FRAME = "frame"

# Colour scale stops (probability, RGB). Green for safe-looking cells, amber near one half, red towards a
# certain mine; a perceptual order a person reads without a legend.
_SCALE_STOPS = (
    (0.00, (38, 166, 91)),
    (0.12, (142, 196, 64)),
    (0.25, (240, 200, 40)),
    (0.45, (245, 140, 35)),
    (0.70, (222, 62, 48)),
    (1.00, (150, 20, 40)),
)
SAFE_RGB = (20, 190, 90)
MINE_RGB = (130, 10, 30)
MOVE_RGB = (20, 110, 255)
_WHITE = (255, 255, 255)
_INK = (25, 25, 30)  # near-black for outlines and the mine glyph


def _bgr(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return rgb[2], rgb[1], rgb[0]


def probability_rgb(p: float) -> tuple[int, int, int]:
    """The scale colour of a mine probability in [0, 1] (clamped), as RGB."""
    p = min(1.0, max(0.0, float(p)))
    for (p0, c0), (p1, c1) in zip(_SCALE_STOPS, _SCALE_STOPS[1:]):
        if p <= p1:
            t = (p - p0) / (p1 - p0)
            return tuple(round(a + (b - a) * t) for a, b in zip(c0, c1))  # type: ignore[return-value]
    return _SCALE_STOPS[-1][1]


def percent_label(p: float) -> str:
    """Rounded percentage that never claims certainty the solver did not give ("<1", ">99")."""
    value = p * 100.0
    if 0.0 < value < 1.0:
        return "<1"
    if 99.0 < value < 100.0:
        return ">99"
    return str(round(value))


# --- geometry ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CellGrid:
    """Where the cells are in an image: the top-left cell's corner, the pitch, the face size, the count.

    ``face`` is the visible cell square (pitch minus the client's gap between cells); it defaults to the
    pitch when the lattice does not know it.
    """

    origin: tuple[float, float]
    pitch: tuple[float, float]
    rows: int
    cols: int
    face: tuple[float, float] | None = None

    @classmethod
    def from_lattice(cls, lattice: object) -> CellGrid:
        """Accept the recognizer's lattice (or anything with origin, pitch, rows, cols)."""
        pitch = _pair(getattr(lattice, "pitch"))
        face = getattr(lattice, "cell_size", None) or getattr(lattice, "face", None)
        return cls(
            origin=_pair(getattr(lattice, "origin")),
            pitch=pitch,
            rows=int(getattr(lattice, "rows")),
            cols=int(getattr(lattice, "cols")),
            face=_pair(face) if face is not None else None,
        )

    @property
    def face_size(self) -> tuple[float, float]:
        return self.face if self.face is not None else self.pitch

    def face_rect(self, row: int, col: int) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the visible cell square, in image pixels, floats."""
        x0 = self.origin[0] + col * self.pitch[0]
        y0 = self.origin[1] + row * self.pitch[1]
        fw, fh = self.face_size
        return x0, y0, x0 + fw, y0 + fh

    def center(self, row: int, col: int) -> tuple[float, float]:
        x0, y0, x1, y1 = self.face_rect(row, col)
        return (x0 + x1) / 2.0, (y0 + y1) / 2.0

    def bounds(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) around all cells including half a gap of margin."""
        gx = (self.pitch[0] - self.face_size[0]) / 2.0
        gy = (self.pitch[1] - self.face_size[1]) / 2.0
        x0, y0 = self.origin[0] - gx, self.origin[1] - gy
        return x0, y0, x0 + self.cols * self.pitch[0], y0 + self.rows * self.pitch[1]

    def shifted(self, dx: float, dy: float) -> CellGrid:
        return CellGrid((self.origin[0] + dx, self.origin[1] + dy), self.pitch, self.rows, self.cols, self.face)


def _pair(value: object) -> tuple[float, float]:
    if isinstance(value, (int, float)):
        return float(value), float(value)
    a, b = value  # type: ignore[misc]
    return float(a), float(b)


# --- what to draw --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hints:
    """The solver's view of the board, reduced to what the overlay shows.

    ``probabilities`` is one row per board row, a float for each covered cell and None elsewhere (as in
    ``solver.probability.Analysis``). ``move`` is the recommended (action, row, col) or None.
    """

    probabilities: tuple[tuple[float | None, ...], ...]
    safe: frozenset[Cell] = frozenset()
    mines: frozenset[Cell] = frozenset()
    move: tuple[str, int, int] | None = None

    @classmethod
    def from_analysis(cls, analysis: object, move: object | None = None) -> Hints:
        """From an ``Analysis`` and optionally a ``Move`` (anything with action, row, col)."""
        chosen = None
        if move is not None:
            chosen = (str(getattr(move, "action")), int(getattr(move, "row")), int(getattr(move, "col")))
        return cls(
            probabilities=tuple(tuple(row) for row in getattr(analysis, "probabilities")),
            safe=frozenset(getattr(analysis, "safe")),
            mines=frozenset(getattr(analysis, "mines")),
            move=chosen,
        )

    @classmethod
    def from_decision(cls, decision: object) -> Hints:
        """From a ``Decision``: its analysis and its first move (the one the bot would play next)."""
        moves = getattr(decision, "moves")
        return cls.from_analysis(getattr(decision, "analysis"), moves[0] if moves else None)

    def without(self, cells: Iterable[Cell]) -> Hints:
        """The same hints with no mark at ``cells`` (and no move there)."""
        drop = set(cells)
        if not drop:
            return self
        probabilities = tuple(
            tuple(None if (r, c) in drop else p for c, p in enumerate(row)) for r, row in enumerate(self.probabilities)
        )
        move = None if self.move is not None and self.move[1:] in drop else self.move
        return Hints(probabilities, self.safe - drop, self.mines - drop, move)

    def mark_rgb(self, row: int, col: int) -> tuple[int, int, int] | None:
        """The colour a cell is marked with (RGB), or None for a cell that gets no mark."""
        p = self.probabilities[row][col]
        if p is None:
            return None
        if (row, col) in self.mines:
            return MINE_RGB
        if (row, col) in self.safe:
            return SAFE_RGB
        # Drawn from the rounded label, so that equal labels share one cached tile.
        return probability_rgb(_label_value(percent_label(p)))

    def covered_cells(self) -> Iterable[tuple[int, int, float]]:
        for r, row in enumerate(self.probabilities):
            for c, p in enumerate(row):
                if p is not None:
                    yield r, c, p


@dataclass(frozen=True, slots=True)
class OverlayStyle:
    """How to draw.

    ``keep_out`` (FRAME only) is the fraction of the cell pitch, centred on the cell, that is never drawn
    on: the part of each cell the recognizer compares (a skin's ``vision.interior``). The band outside it,
    gap between cells included, carries the marks. ``text_min_px`` is the smallest cell (FILL)
    or band (FRAME) height that gets a percentage.
    """

    mode: str = FILL
    opacity: float = 0.62
    keep_out: float = 0.6
    text_min_px: float = 17.0
    show_percent: bool = True

    def __post_init__(self) -> None:
        if self.mode not in (FILL, FRAME):
            raise ValueError(f"unknown overlay style mode {self.mode!r}")
        if not 0.0 <= self.keep_out < 1.0:
            raise ValueError(f"keep_out must be in [0, 1), got {self.keep_out}")


FILL_STYLE = OverlayStyle(mode=FILL)
FRAME_STYLE = OverlayStyle(mode=FRAME, opacity=1.0, text_min_px=11.0)


@dataclass(frozen=True, slots=True)
class Layer:
    """A drawing in image coordinates: BGR colours plus an alpha mask (0 = untouched, 255 = opaque)."""

    bgr: np.ndarray
    alpha: np.ndarray

    @property
    def shape_mask(self) -> np.ndarray:
        """Boolean mask of the pixels the drawing covers (the live window's shape)."""
        return self.alpha > 0


# --- rendering -----------------------------------------------------------------------------------

_SHIFT = 4  # OpenCV fixed-point bits: sub-pixel positions keep small cells symmetric
_ONE = 1 << _SHIFT


def _fx(v: float) -> int:
    return int(round(v * _ONE))


class _Canvas:
    """BGR + alpha drawing surface; every primitive paints colour and coverage together.

    Primitives rasterise into a small mask around their own bounding box, not the whole canvas, so a
    480-cell board draws in milliseconds.
    """

    def __init__(self, height: int, width: int, *, solid: bool = False) -> None:
        self.bgr = np.zeros((height, width, 3), np.uint8)
        self.alpha = np.zeros((height, width), np.uint8)
        # Solid: every pixel is either fully painted or untouched (the live window has no translucency),
        # so edges are thresholded instead of blended and marks keep their exact colours.
        self.solid = solid

    def _scratch(self, x0: float, y0: float, x1: float, y1: float, pad: float = 2.0):
        """A zeroed mask covering the box (clipped to the canvas) and its top-left offset."""
        h, w = self.alpha.shape
        left = max(0, int(math.floor(x0 - pad)))
        top = max(0, int(math.floor(y0 - pad)))
        right = min(w, int(math.ceil(x1 + pad)) + 1)
        bottom = min(h, int(math.ceil(y1 + pad)) + 1)
        return np.zeros((max(0, bottom - top), max(0, right - left)), np.uint8), left, top

    def rounded_rect(self, rect, radius: float, rgb, alpha: int, thickness: float = -1.0) -> None:
        """Filled (thickness < 0) or outlined rounded rectangle; an outline is centred on the rect edge."""
        x0, y0, x1, y1 = rect
        radius = max(0.0, min(radius, (x1 - x0) / 2.0, (y1 - y0) / 2.0))
        half = max(0.0, thickness / 2.0)
        mask, ox, oy = self._scratch(x0 - half, y0 - half, x1 + half, y1 + half)
        if mask.size == 0:
            return
        if thickness < 0:
            _fill_rounded(mask, x0 - ox, y0 - oy, x1 - ox, y1 - oy, radius)
        else:
            _fill_rounded(mask, x0 - half - ox, y0 - half - oy, x1 + half - ox, y1 + half - oy, radius + half)
            inner = np.zeros_like(mask)
            _fill_rounded(inner, x0 + half - ox, y0 + half - oy, x1 - half - ox, y1 - half - oy, max(0.0, radius - half))
            mask = cv2.subtract(mask, inner)
        self.paint(mask, ox, oy, rgb, alpha)

    def polyline(self, points, rgb, alpha: int, thickness: float, closed: bool = False) -> None:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        mask, ox, oy = self._scratch(min(xs), min(ys), max(xs), max(ys), pad=thickness + 2.0)
        if mask.size == 0:
            return
        pts = np.array([[_fx(x - ox), _fx(y - oy)] for x, y in points], np.int32).reshape(-1, 1, 2)
        cv2.polylines(mask, [pts], closed, 255, max(1, round(thickness)), cv2.LINE_AA, _SHIFT)
        self.paint(mask, ox, oy, rgb, alpha)

    def disc(self, center, radius: float, rgb, alpha: int) -> None:
        cx, cy = center
        mask, ox, oy = self._scratch(cx - radius, cy - radius, cx + radius, cy + radius)
        if mask.size == 0:
            return
        cv2.circle(mask, (_fx(cx - ox), _fx(cy - oy)), _fx(radius), 255, -1, cv2.LINE_AA, _SHIFT)
        self.paint(mask, ox, oy, rgb, alpha)

    def polygon(self, points, rgb, alpha: int) -> None:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        mask, ox, oy = self._scratch(min(xs), min(ys), max(xs), max(ys))
        if mask.size == 0:
            return
        pts = np.array([[_fx(x - ox), _fx(y - oy)] for x, y in points], np.int32)
        cv2.fillPoly(mask, [pts], 255, cv2.LINE_AA, _SHIFT)
        self.paint(mask, ox, oy, rgb, alpha)

    def text(self, label: str, center, height: float, rgb, outline_rgb, alpha: int) -> None:
        """Centred text ``height`` px tall (digits' cap height), with a contrasting outline."""
        font = cv2.FONT_HERSHEY_DUPLEX
        base_h = cv2.getTextSize("0", font, 1.0, 1)[0][1]
        scale = height / base_h
        weight = max(1, round(height / 9.0))
        halo_weight = weight + 2 * max(1, round(height / 10.0))
        (w, h), _ = cv2.getTextSize(label, font, scale, weight)
        x, y = center[0] - w / 2.0, center[1] + h / 2.0
        mask, ox, oy = self._scratch(x, y - h, x + w, y, pad=halo_weight + 2.0)
        if mask.size == 0:
            return
        org = (int(round(x - ox)), int(round(y - oy)))
        cv2.putText(mask, label, org, font, scale, 255, halo_weight, cv2.LINE_AA)
        self.paint(mask, ox, oy, outline_rgb, alpha)
        mask[:] = 0
        cv2.putText(mask, label, org, font, scale, 255, weight, cv2.LINE_AA)
        self.paint(mask, ox, oy, rgb, 255)

    def paint(self, coverage: np.ndarray, ox: int, oy: int, rgb, alpha: int) -> None:
        """Paint ``rgb`` where ``coverage`` > 0 (placed at ox, oy), at ``alpha`` scaled by the coverage."""
        h, w = coverage.shape
        if self.solid:
            covered = coverage >= 128
            self.bgr[oy : oy + h, ox : ox + w][covered] = _bgr(rgb)
            self.alpha[oy : oy + h, ox : ox + w][covered] = 255
            return
        a = coverage.astype(np.float32) * (alpha / 255.0 / 255.0)
        dst_a = self.alpha[oy : oy + h, ox : ox + w]
        dst_c = self.bgr[oy : oy + h, ox : ox + w]
        old_a = dst_a.astype(np.float32) / 255.0
        new_a = a + old_a * (1.0 - a)
        colour = np.array(_bgr(rgb), np.float32)
        mixed = (colour * a[:, :, None] + dst_c.astype(np.float32) * (old_a * (1.0 - a))[:, :, None]) / np.maximum(
            new_a, 1e-6
        )[:, :, None]
        touched = coverage > 0
        dst_c[touched] = np.clip(mixed[touched] + 0.5, 0, 255).astype(np.uint8)
        dst_a[touched] = np.clip(new_a[touched] * 255.0 + 0.5, 0, 255).astype(np.uint8)

    def blit(self, tile: _Tile, x: int, y: int) -> None:
        """Copy a pre-drawn tile whose face corner goes at (x, y); its covered pixels replace ours."""
        th, tw = tile.alpha.shape
        h, w = self.alpha.shape
        left, top = x + tile.dx, y + tile.dy
        if left >= 0 and top >= 0 and left + tw <= w and top + th <= h:
            # The usual case, the whole tile on the canvas: masks made once per tile.
            mask, mask3 = tile.covered
            np.copyto(self.alpha[top : top + th, left : left + tw], tile.alpha, where=mask)
            np.copyto(self.bgr[top : top + th, left : left + tw], tile.bgr, where=mask3)
            return
        sx0, sy0 = max(0, -left), max(0, -top)
        sx1, sy1 = min(tw, w - left), min(th, h - top)
        if sx1 <= sx0 or sy1 <= sy0:
            return
        src_a = tile.alpha[sy0:sy1, sx0:sx1]
        covered = src_a > 0
        dst = (slice(top + sy0, top + sy1), slice(left + sx0, left + sx1))
        np.copyto(self.alpha[dst], src_a, where=covered)
        np.copyto(self.bgr[dst], tile.bgr[sy0:sy1, sx0:sx1], where=covered[:, :, None])

    def clear(self, rect) -> None:
        """Erase a rectangle (the FRAME keep-out zone)."""
        h, w = self.alpha.shape
        x0, y0 = max(0, int(math.floor(rect[0]))), max(0, int(math.floor(rect[1])))
        x1, y1 = min(w, int(math.ceil(rect[2]))), min(h, int(math.ceil(rect[3])))
        if x1 > x0 and y1 > y0:
            self.alpha[y0:y1, x0:x1] = 0
            self.bgr[y0:y1, x0:x1] = 0


def _fill_rounded(mask: np.ndarray, x0: float, y0: float, x1: float, y1: float, radius: float) -> None:
    if x1 <= x0 or y1 <= y0:
        return
    r = max(0.0, min(radius, (x1 - x0) / 2.0, (y1 - y0) / 2.0))
    # A rounded rectangle is the union of two rectangles and four corner discs.
    for a, b, c, d in ((x0 + r, y0, x1 - r, y1), (x0, y0 + r, x1, y1 - r)):
        pts = np.array([[_fx(a), _fx(b)], [_fx(c), _fx(b)], [_fx(c), _fx(d)], [_fx(a), _fx(d)]], np.int32)
        cv2.fillPoly(mask, [pts], 255, cv2.LINE_AA, _SHIFT)
    if r > 0.5:
        for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
            cv2.circle(mask, (_fx(cx), _fx(cy)), _fx(r), 255, -1, cv2.LINE_AA, _SHIFT)


Box = tuple[int, int, int, int]  # (x0, y0, x1, y1) in layer pixels, x1/y1 exclusive


def render_layer(
    size: tuple[int, int], grid: CellGrid, hints: Hints, style: OverlayStyle = FILL_STYLE, *, boxes: Iterable[Box] | None = None
) -> Layer:
    """Draw ``hints`` over ``grid`` on an empty layer of ``size`` = (height, width).

    With ``boxes``, only the pixels inside those boxes are drawn (exactly as a full drawing has them:
    every cell whose tile reaches into a box is drawn, in the same order); the rest stays empty. The
    live overlay redraws only the boxes of cells whose mark changed (``dirty_boxes``)."""
    if len(hints.probabilities) != grid.rows or any(len(row) != grid.cols for row in hints.probabilities):
        raise ValueError(
            f"hints are for a {len(hints.probabilities)}-row board, the lattice has {grid.rows}x{grid.cols} cells"
        )
    wanted = None if boxes is None else list(boxes)
    canvas = _Canvas(*size, solid=style.mode == FRAME)
    for r, c, p in hints.covered_cells():
        kind, label = _cell_kind(hints, r, c, p)
        x0, y0, _, _ = grid.face_rect(r, c)
        # Cells land on whole pixels so that equal cells share one cached tile (and look identical).
        tile = _cell_tile(style, kind, label, grid.face_size, grid.pitch)
        x, y = round(x0), round(y0)
        if wanted is not None and not any(_overlaps(_tile_box(tile, x, y), box) for box in wanted):
            continue
        canvas.blit(tile, x, y)
    if hints.move is not None:
        action, r, c = hints.move
        if 0 <= r < grid.rows and 0 <= c < grid.cols:
            _draw_move(canvas, grid, style, r, c, action)
            if style.mode == FRAME:
                canvas.clear(keep_out_rect(grid, style, r, c))
    return Layer(canvas.bgr, canvas.alpha)


def _cell_kind(hints: Hints, r: int, c: int, p: float) -> tuple[str, str]:
    if (r, c) in hints.mines:
        return "mine", ""
    if (r, c) in hints.safe:
        return "check", ""
    return "p", percent_label(p)


def cell_marks(hints: Hints) -> tuple[tuple[object, ...], ...]:
    """Per cell, everything its drawing depends on (None for a cell without a mark): two hints draw a
    cell identically exactly when its entries are equal."""
    move = hints.move
    rows = []
    for r, row in enumerate(hints.probabilities):
        marks = []
        for c, p in enumerate(row):
            key = None if p is None else _cell_kind(hints, r, c, p)
            if move is not None and move[1:] == (r, c):
                key = (key, move[0])
            marks.append(key)
        rows.append(tuple(marks))
    return tuple(rows)


def dirty_boxes(grid: CellGrid, style: OverlayStyle, cells: Iterable[Cell], size: tuple[int, int]) -> list[Box]:
    """Boxes (clipped to ``size`` = (height, width)) that hold everything drawn for ``cells`` (any
    mark, the move highlight included), one per run of neighbouring cells in a row."""
    height, width = size
    by_row: dict[int, list[int]] = {}
    for r, c in cells:
        by_row.setdefault(r, []).append(c)
    # The largest tile and the move frame stay within a cell's tile box: the pitch plus the tile pad.
    pad = int(math.ceil(max(grid.pitch[0] - grid.face_size[0], grid.pitch[1] - grid.face_size[1]))) + 4
    boxes = []
    for r in sorted(by_row):
        cols = sorted(set(by_row[r]))
        start = prev = cols[0]
        for c in cols[1:] + [None]:
            if c is not None and c == prev + 1:
                prev = c
                continue
            x0, y0, _, _ = grid.face_rect(r, start)
            _, _, x1, y1 = grid.face_rect(r, prev)
            box = (
                max(0, int(math.floor(x0)) - pad),
                max(0, int(math.floor(y0)) - pad),
                min(width, int(math.ceil(x1)) + pad),
                min(height, int(math.ceil(y1)) + pad),
            )
            if box[2] > box[0] and box[3] > box[1]:
                boxes.append(box)
            if c is not None:
                start = prev = c
    return boxes


def _tile_box(tile: _Tile, x: int, y: int) -> Box:
    h, w = tile.alpha.shape
    return x + tile.dx, y + tile.dy, x + tile.dx + w, y + tile.dy + h


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@dataclass(frozen=True)  # no slots: ``covered`` is cached on the instance
class _Tile:
    bgr: np.ndarray
    alpha: np.ndarray
    dx: int  # offset of the tile's top-left from the face's top-left corner
    dy: int

    @functools.cached_property
    def covered(self) -> tuple[np.ndarray, np.ndarray]:
        """Where the tile paints, as masks for ``alpha`` and for ``bgr`` (made once per tile)."""
        mask = self.alpha > 0
        return mask, np.ascontiguousarray(np.broadcast_to(mask[:, :, None], self.bgr.shape))


@functools.lru_cache(maxsize=512)
def _cell_tile(style: OverlayStyle, kind: str, label: str, face: tuple[float, float], pitch: tuple[float, float]) -> _Tile:
    pad = int(math.ceil(max(pitch[0] - face[0], pitch[1] - face[1]))) + 3
    canvas = _Canvas(int(math.ceil(pitch[1])) + 2 * pad, int(math.ceil(pitch[0])) + 2 * pad, solid=style.mode == FRAME)
    local = CellGrid((float(pad), float(pad)), pitch, 1, 1, face)
    if kind == "mine":
        _draw_cell(canvas, local, style, 0, 0, MINE_RGB, glyph="mine")
    elif kind == "check":
        _draw_cell(canvas, local, style, 0, 0, SAFE_RGB, glyph="check")
    else:
        _draw_cell(canvas, local, style, 0, 0, probability_rgb(_label_value(label)), label=label)
    if style.mode == FRAME:
        canvas.clear(keep_out_rect(local, style, 0, 0))
    # Cropped to what it paints: blitting a board's tiles is most of the cost of a full drawing.
    rows = np.flatnonzero(canvas.alpha.any(axis=1))
    if rows.size == 0:
        return _Tile(canvas.bgr[:0, :0], canvas.alpha[:0, :0], -pad, -pad)
    cols = np.flatnonzero(canvas.alpha.any(axis=0))
    y0, y1, x0, x1 = int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1
    return _Tile(canvas.bgr[y0:y1, x0:x1].copy(), canvas.alpha[y0:y1, x0:x1].copy(), x0 - pad, y0 - pad)


def _label_value(label: str) -> float:
    """The probability a percent label stands for (the colour is quantised to whole percents)."""
    if label == "<1":
        return 0.005
    if label == ">99":
        return 0.995
    return int(label) / 100.0


def keep_out_rect(grid: CellGrid, style: OverlayStyle, r: int, c: int) -> tuple[float, float, float, float]:
    """The square in the middle of cell (r, c) that the FRAME style never draws on: ``keep_out`` of the
    pitch on each axis, centred on the cell (the part of the cell box the recognizer compares)."""
    cx, cy = grid.center(r, c)
    hw, hh = grid.pitch[0] * style.keep_out / 2.0, grid.pitch[1] * style.keep_out / 2.0
    return cx - hw, cy - hh, cx + hw, cy + hh


def _draw_cell(canvas: _Canvas, grid: CellGrid, style: OverlayStyle, r: int, c: int, rgb, *, glyph: str = "", label: str = "") -> None:
    x0, y0, x1, y1 = grid.face_rect(r, c)
    fw, fh = x1 - x0, y1 - y0
    size = min(fw, fh)
    if style.mode == FILL:
        inset = max(1.0, size * 0.06)
        tile = (x0 + inset, y0 + inset, x1 - inset, y1 - inset)
        canvas.rounded_rect(tile, size * 0.16, rgb, round(255 * style.opacity))
        cx, cy = grid.center(r, c)
        if glyph == "mine":
            _mine_glyph(canvas, (cx, cy), size * 0.30)
        elif glyph == "check":
            _check_glyph(canvas, (cx, cy), size * 0.30)
        elif style.show_percent and label and size >= style.text_min_px:
            text = label + "%" if size >= 2.2 * style.text_min_px else label
            height = _fit_text_height(text, size * 0.82, size * 0.34)
            canvas.text(text, (cx, cy), height, _WHITE, _INK, 235)
        return
    # FRAME: a ring from half-way into the gap to the keep-out square (cleared afterwards), and in the top
    # band a label: the percentage, a check mark or a mine, when the band is tall enough to read it.
    gap_x, gap_y, band, move_t = _frame_geometry(grid, style)
    # A pixel in from the cell's box: anti-aliased edges and rounding never reach the neighbour's box.
    ring = (x0 - gap_x + 1.0, y0 - gap_y + 1.0, x1 + gap_x - 1.0, y1 + gap_y - 1.0)
    canvas.rounded_rect(ring, size * 0.18, rgb, 255)
    cx = (x0 + x1) / 2.0
    # Below the strip the move highlight may take, so a highlighted cell keeps its label.
    label_h = band - 1.0  # the band inside the ring's 1 px inset; a move frame may overlap its top
    label_cy = ring[1] + label_h / 2.0 + 0.5
    if glyph:
        # Corner ticks tell certain cells apart from "very likely" without relying on hue alone.
        _corner_ticks(canvas, ring, band * 0.9, _INK if glyph == "mine" else _WHITE)
    if label_h < style.text_min_px or not style.show_percent:
        return
    if glyph == "mine":
        _mine_glyph(canvas, (cx, label_cy), label_h * 0.36)
    elif glyph == "check":
        _check_glyph(canvas, (cx, label_cy), label_h * 0.4)
    elif label:
        height = _fit_text_height(label + "%", fw * 0.6, label_h * 0.8)
        canvas.text(label + "%", (cx, label_cy), height, _WHITE, _INK, 255)


def _frame_geometry(grid: CellGrid, style: OverlayStyle) -> tuple[float, float, float, float]:
    """FRAME layout: half-gaps (x, y), the band height from the ring's top to the keep-out square, and
    the thickness of the move highlight along the ring's outer edge."""
    fw, fh = grid.face_size
    gap_x, gap_y = (grid.pitch[0] - fw) / 2.0, (grid.pitch[1] - fh) / 2.0
    band = min((1.0 - style.keep_out) * grid.pitch[0] / 2.0, (1.0 - style.keep_out) * grid.pitch[1] / 2.0)
    # On small cells the band is a few pixels: the move takes all of it so that it stands out.
    move_t = band - 1.0 if band < 8.0 else max(2.0, band * 0.3)
    return gap_x, gap_y, band, move_t


def _fit_text_height(text: str, max_width: float, max_height: float) -> float:
    font = cv2.FONT_HERSHEY_DUPLEX
    (w, h), _ = cv2.getTextSize(text, font, 1.0, 2)
    return max(4.0, min(max_height, max_height * max_width / max(w * max_height / h, 1e-6)))


def _mine_glyph(canvas: _Canvas, center, radius: float) -> None:
    cx, cy = center
    for k in range(4):
        angle = k * math.pi / 4.0
        dx, dy = math.cos(angle) * radius * 1.25, math.sin(angle) * radius * 1.25
        canvas.polyline([(cx - dx, cy - dy), (cx + dx, cy + dy)], _INK, 255, max(1.0, radius * 0.22))
    canvas.disc(center, radius * 0.82, _INK, 255)
    canvas.disc((cx - radius * 0.28, cy - radius * 0.28), radius * 0.2, _WHITE, 230)


def _check_glyph(canvas: _Canvas, center, radius: float) -> None:
    cx, cy = center
    pts = [(cx - radius * 0.95, cy + radius * 0.05), (cx - radius * 0.3, cy + radius * 0.7), (cx + radius, cy - radius * 0.7)]
    canvas.polyline(pts, _INK, 200, max(2.0, radius * 0.55))
    canvas.polyline(pts, _WHITE, 255, max(1.0, radius * 0.33))


def _corner_ticks(canvas: _Canvas, ring, length: float, rgb) -> None:
    x0, y0, x1, y1 = ring
    t = max(1.0, length * 0.45)
    inset = t / 2.0
    for (ax, ay), (sx, sy) in (((x0, y0), (1, 1)), ((x1, y0), (-1, 1)), ((x0, y1), (1, -1)), ((x1, y1), (-1, -1))):
        ax, ay = ax + sx * inset, ay + sy * inset
        canvas.polyline([(ax + sx * length, ay), (ax, ay), (ax, ay + sy * length)], rgb, 255, t)


def _draw_move(canvas: _Canvas, grid: CellGrid, style: OverlayStyle, r: int, c: int, action: str) -> None:
    x0, y0, x1, y1 = grid.face_rect(r, c)
    size = min(x1 - x0, y1 - y0)
    gap = min(grid.pitch[0] - (x1 - x0), grid.pitch[1] - (y1 - y0))
    thick = max(2.0, size * 0.12)
    if style.mode == FILL:
        # On the tile's rim and the half-gap around it, never over a neighbour; a dark rim keeps it
        # legible on any client's colours.
        rim = thick + 2.0
        out = gap / 2.0 - rim / 2.0
        rect = (x0 - out, y0 - out, x1 + out, y1 + out)
        canvas.rounded_rect(rect, size * 0.2, _INK, 150, thickness=rim)
        canvas.rounded_rect(rect, size * 0.2, MOVE_RGB, 255, thickness=thick)
    else:
        gap_x, gap_y, _, t = _frame_geometry(grid, style)
        inset = 1.0 + t / 2.0
        rect = (x0 - gap_x + inset, y0 - gap_y + inset, x1 + gap_x - inset, y1 + gap_y - inset)
        canvas.rounded_rect(rect, size * 0.18, MOVE_RGB, 255, thickness=t)
    if action == "flag":
        # A small pennant on the top-right corner says "flag this", not "open this".
        fx, fy = x1 - size * 0.05, y0 + size * 0.05
        s = size * 0.28
        canvas.polygon([(fx - s, fy), (fx, fy + s * 0.45), (fx - s, fy + s * 0.9)], MOVE_RGB, 255)


def compose(image: np.ndarray, layer: Layer) -> np.ndarray:
    """Blend ``layer`` onto a BGR (or BGRA) image of the same size; returns a new BGR image."""
    if image.shape[:2] != layer.alpha.shape:
        raise ValueError(f"layer is {layer.alpha.shape[::-1]} pixels, the image {image.shape[1::-1]}")
    out = np.ascontiguousarray(image[:, :, :3]).copy()
    rows = np.flatnonzero(layer.alpha.any(axis=1))
    if rows.size == 0:
        return out
    cols = np.flatnonzero(layer.alpha.any(axis=0))
    box = (slice(rows[0], rows[-1] + 1), slice(cols[0], cols[-1] + 1))  # blend only where something is drawn
    a = layer.alpha[box].astype(np.float32)[:, :, None] / 255.0
    mixed = out[box].astype(np.float32) * (1.0 - a) + layer.bgr[box].astype(np.float32) * a
    out[box] = np.clip(mixed + 0.5, 0, 255).astype(np.uint8)
    return out


def draw_hints(image: np.ndarray, grid: CellGrid, hints: Hints, style: OverlayStyle = FILL_STYLE) -> np.ndarray:
    """The offline picture: ``image`` with the hints blended on (a new array; the input is untouched)."""
    layer = render_layer(image.shape[:2], grid, hints, style)
    return compose(image, layer)
