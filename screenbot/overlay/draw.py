"""Pure drawing of the solver's hints over a board's cells (NumPy + OpenCV, no display); the marks
themselves (colours, grid, hints, styles) are defined in ``marks``, the surface in ``canvas``.

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
from typing import Iterable

import cv2
import numpy as np

from ..geometry import Lattice
from .canvas import Canvas, Tile
from .marks import (
    FILL,
    FILL_STYLE,
    FRAME,
    INK,
    MINE_RGB,
    MOVE_RGB,
    SAFE_RGB,
    WHITE,
    Cell,
    Hints,
    Layer,
    OverlayStyle,
    clear_rects,
    label_value,
    percent_label,
    probability_rgb,
)


Box = tuple[int, int, int, int]  # (x0, y0, x1, y1) in layer pixels, x1/y1 exclusive


def render_layer(
    size: tuple[int, int], grid: Lattice, hints: Hints, style: OverlayStyle = FILL_STYLE, *, boxes: Iterable[Box] | None = None
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
    canvas = Canvas(*size, solid=style.mode == FRAME)
    for r, c, p in hints.covered_cells():
        kind, label = _cell_kind(hints, r, c, p)
        x0, y0, _, _ = grid.face_box(r, c)
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
                for rect in clear_rects(grid, style, r, c):
                    canvas.clear(rect)
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


def dirty_boxes(grid: Lattice, style: OverlayStyle, cells: Iterable[Cell], size: tuple[int, int]) -> list[Box]:
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
            x0, y0, _, _ = grid.face_box(r, start)
            _, _, x1, y1 = grid.face_box(r, prev)
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


def _tile_box(tile: Tile, x: int, y: int) -> Box:
    h, w = tile.alpha.shape
    return x + tile.dx, y + tile.dy, x + tile.dx + w, y + tile.dy + h


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@functools.lru_cache(maxsize=512)
def _cell_tile(style: OverlayStyle, kind: str, label: str, face: tuple[float, float], pitch: tuple[float, float]) -> Tile:
    pad = int(math.ceil(max(pitch[0] - face[0], pitch[1] - face[1]))) + 3
    canvas = Canvas(int(math.ceil(pitch[1])) + 2 * pad, int(math.ceil(pitch[0])) + 2 * pad, solid=style.mode == FRAME)
    local = Lattice("", (float(pad), float(pad)), pitch, 1, 1, face=face)
    if kind == "mine":
        _draw_cell(canvas, local, style, 0, 0, MINE_RGB, glyph="mine")
    elif kind == "check":
        _draw_cell(canvas, local, style, 0, 0, SAFE_RGB, glyph="check")
    else:
        _draw_cell(canvas, local, style, 0, 0, probability_rgb(label_value(label)), label=label)
    if style.mode == FRAME:
        for rect in clear_rects(local, style, 0, 0):
            canvas.clear(rect)
    # Cropped to what it paints: blitting a board's tiles is most of the cost of a full drawing.
    rows = np.flatnonzero(canvas.alpha.any(axis=1))
    if rows.size == 0:
        return Tile(canvas.bgr[:0, :0], canvas.alpha[:0, :0], -pad, -pad)
    cols = np.flatnonzero(canvas.alpha.any(axis=0))
    y0, y1, x0, x1 = int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1
    return Tile(canvas.bgr[y0:y1, x0:x1].copy(), canvas.alpha[y0:y1, x0:x1].copy(), x0 - pad, y0 - pad)


def _draw_cell(canvas: Canvas, grid: Lattice, style: OverlayStyle, r: int, c: int, rgb, *, glyph: str = "", label: str = "") -> None:
    x0, y0, x1, y1 = grid.face_box(r, c)
    fw, fh = x1 - x0, y1 - y0
    size = min(fw, fh)
    if style.mode == FILL:
        inset = max(1.0, size * 0.06)
        tile = (x0 + inset, y0 + inset, x1 - inset, y1 - inset)
        canvas.rounded_rect(tile, size * 0.16, rgb, round(255 * style.opacity))
        cx, cy = grid.face_center(r, c)
        if glyph == "mine":
            _mine_glyph(canvas, (cx, cy), size * 0.30)
        elif glyph == "check":
            _check_glyph(canvas, (cx, cy), size * 0.30)
        elif style.show_percent and label and size >= style.text_min_px:
            text = label + "%" if size >= 2.2 * style.text_min_px else label
            height = _fit_text_height(text, size * 0.82, size * 0.34)
            canvas.text(text, (cx, cy), height, WHITE, INK, 235)
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
        _corner_ticks(canvas, ring, band * 0.9, INK if glyph == "mine" else WHITE)
    if label_h < style.text_min_px or not style.show_percent:
        return
    if glyph == "mine":
        _mine_glyph(canvas, (cx, label_cy), label_h * 0.36)
    elif glyph == "check":
        _check_glyph(canvas, (cx, label_cy), label_h * 0.4)
    elif label:
        height = _fit_text_height(label + "%", fw * 0.6, label_h * 0.8)
        canvas.text(label + "%", (cx, label_cy), height, WHITE, INK, 255)


def _frame_geometry(grid: Lattice, style: OverlayStyle) -> tuple[float, float, float, float]:
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


def _mine_glyph(canvas: Canvas, center, radius: float) -> None:
    cx, cy = center
    for k in range(4):
        angle = k * math.pi / 4.0
        dx, dy = math.cos(angle) * radius * 1.25, math.sin(angle) * radius * 1.25
        canvas.polyline([(cx - dx, cy - dy), (cx + dx, cy + dy)], INK, 255, max(1.0, radius * 0.22))
    canvas.disc(center, radius * 0.82, INK, 255)
    canvas.disc((cx - radius * 0.28, cy - radius * 0.28), radius * 0.2, WHITE, 230)


def _check_glyph(canvas: Canvas, center, radius: float) -> None:
    cx, cy = center
    pts = [(cx - radius * 0.95, cy + radius * 0.05), (cx - radius * 0.3, cy + radius * 0.7), (cx + radius, cy - radius * 0.7)]
    canvas.polyline(pts, INK, 200, max(2.0, radius * 0.55))
    canvas.polyline(pts, WHITE, 255, max(1.0, radius * 0.33))


def _corner_ticks(canvas: Canvas, ring, length: float, rgb) -> None:
    x0, y0, x1, y1 = ring
    t = max(1.0, length * 0.45)
    inset = t / 2.0
    for (ax, ay), (sx, sy) in (((x0, y0), (1, 1)), ((x1, y0), (-1, 1)), ((x0, y1), (1, -1)), ((x1, y1), (-1, -1))):
        ax, ay = ax + sx * inset, ay + sy * inset
        canvas.polyline([(ax + sx * length, ay), (ax, ay), (ax, ay + sy * length)], rgb, 255, t)


def _draw_move(canvas: Canvas, grid: Lattice, style: OverlayStyle, r: int, c: int, action: str) -> None:
    x0, y0, x1, y1 = grid.face_box(r, c)
    size = min(x1 - x0, y1 - y0)
    gap = min(grid.pitch[0] - (x1 - x0), grid.pitch[1] - (y1 - y0))
    thick = max(2.0, size * 0.12)
    if style.mode == FILL:
        # On the tile's rim and the half-gap around it, never over a neighbour; a dark rim keeps it
        # legible on any client's colours.
        rim = thick + 2.0
        out = gap / 2.0 - rim / 2.0
        rect = (x0 - out, y0 - out, x1 + out, y1 + out)
        canvas.rounded_rect(rect, size * 0.2, INK, 150, thickness=rim)
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


def draw_hints(image: np.ndarray, grid: Lattice, hints: Hints, style: OverlayStyle = FILL_STYLE) -> np.ndarray:
    """The offline picture: ``image`` with the hints blended on (a new array; the input is untouched)."""
    layer = render_layer(image.shape[:2], grid, hints, style)
    return compose(image, layer)
