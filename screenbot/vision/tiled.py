"""A fresh board whose covered cells are a picture (minegauler's "Butterfly", a texture of leaves in its
"Textured" style) has no faces for ``structure`` to find: every cell is cut by the picture's own lines.
But a fresh board is one picture repeated: here it is found as the area where the frame equals itself
one pitch to the right and one pitch down, and does not equal itself half a pitch along (so a flat area,
which equals itself at every shift, is never taken for it).

Pure NumPy and OpenCV filters; used by ``structure.find_grids`` when no faces link into a grid.
"""

from __future__ import annotations

import numpy as np

from .grid import Faces, Grid

MIN_PITCH, MAX_PITCH = 8, 80  # px: the cells looked for
SAME = 10  # grey levels: a pixel "equals" another this close (compression, dithering)
REPEATS = 0.9  # share of a pitch-square window that must equal itself one pitch along
HALF_REPEATS = 0.75  # ... and at most this share half a pitch along (else the area is flat or striped)
EDGE_SHARE = 0.8  # share of a board edge's line of pixels that repeats one pitch in
MIN_CELLS = 4


def tiled_grid(frame: np.ndarray) -> Grid | None:
    """The largest board of identical cells on ``frame`` (None if there is none)."""
    import cv2

    grey = (cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame).astype(np.int16)
    if min(grey.shape) < MIN_CELLS * MIN_PITCH:
        return None
    heights = _with_divisors(_pitches(grey, axis=0))
    found = [board for px in (_with_divisors(_pitches(grey, axis=1)) if heights else []) for py in heights
             if 0.7 <= px / py <= 1.4 and (board := _board(grey, px, py)) is not None]
    if not found:
        return None
    # A picture that repeats every cell also repeats every two or three cells, and a board of such
    # blocks covers about the same area: of the boards that cover nearly the most, the one of most cells.
    def area(board: tuple[int, int, int, int, int, int]) -> int:
        _, _, cols, rows, px, py = board
        return cols * px * rows * py

    largest = max(map(area, found))
    left, top, cols, rows, px, py = max((b for b in found if area(b) >= 0.9 * largest), key=lambda b: b[2] * b[3])
    return _grid(left, top, cols, rows, px, py)


def _with_divisors(pitches: list[int]) -> list[int]:
    """The pitches found and their whole fractions (a half, a third, a quarter) of MIN_PITCH or more:
    the frame can look most like itself every few cells rather than every one."""
    out = list(pitches)
    for pitch in pitches:
        out += [pitch // k for k in (2, 3, 4) if pitch % k == 0 and pitch // k >= MIN_PITCH and pitch // k not in out]
    return out


def _pitches(grey: np.ndarray, axis: int, keep: int = 3) -> list[int]:
    """Whole-pixel shifts along ``axis`` at which the frame looks most like itself, deepest dip first:
    the mean difference between the frame and itself moved by each shift (flat areas add the same at
    every shift, a board of identical cells far less at its pitch). The steps' autocorrelation, which
    ``pitch`` uses, misses a texture: its steps are everywhere alike, so their profile does not repeat."""
    n = grey.shape[axis]
    hi = min(MAX_PITCH, n // MIN_CELLS)
    if hi <= MIN_PITCH + 1:
        return []
    lags = np.arange(MIN_PITCH - 1, hi + 2)
    # Every other line across the axis is enough for a mean, and halves the work on a whole screen.
    sample = grey[::2] if axis == 1 else grey[:, ::2]
    diff = np.array([float(np.abs(sample[:, lag:] - sample[:, :-lag]).mean() if axis == 1 else
                           np.abs(sample[lag:] - sample[:-lag]).mean()) for lag in lags])
    dips = [i for i in range(1, len(lags) - 1) if diff[i] < diff[i - 1] and diff[i] <= diff[i + 1]]
    # Deepest first, measured against the shifts around it (a dip, not a low level overall).
    depth = {i: float(np.median(diff[max(0, i - 4) : i + 5]) - diff[i]) for i in dips}
    dips.sort(key=lambda i: -depth[i])
    return [int(lags[i]) for i in dips[:keep] if depth[i] > 0]


def _board(grey: np.ndarray, px: int, py: int) -> tuple[int, int, int, int, int, int] | None:
    """(left, top, cols, rows, px, py) of the largest area that repeats at (px, py), or None."""
    import cv2

    h, w = grey.shape
    if w <= 2 * px or h <= 2 * py:
        return None
    # Where each pixel equals the one a pitch right and the one a pitch down, and the one half a
    # pitch right / down: on the common (h - py) x (w - px) area.
    same = ((np.abs(grey[: h - py, px:] - grey[: h - py, : w - px]) <= SAME)
            & (np.abs(grey[py:, : w - px] - grey[: h - py, : w - px]) <= SAME)).astype(np.float32)
    hx, hy = px // 2, py // 2
    half = ((np.abs(grey[: h - py, hx : w - px + hx] - grey[: h - py, : w - px]) <= SAME)
            & (np.abs(grey[hy : h - py + hy, : w - px] - grey[: h - py, : w - px]) <= SAME)).astype(np.float32)
    window = (px, py)
    tiled = (cv2.blur(same, window) >= REPEATS) & (cv2.blur(half, window) <= HALF_REPEATS)
    count, _, stats, _ = cv2.connectedComponentsWithStats(tiled.astype(np.uint8), connectivity=4)
    if count < 2:
        return None
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, bw, bh = (int(v) for v in stats[k, :4])
    if bw < (MIN_CELLS - 1) * px or bh < (MIN_CELLS - 1) * py:
        return None
    # The window smears the area's edges by up to half a pitch: each edge is moved to the last line
    # of pixels that still repeats one pitch into the board (in or out).
    rows_in = slice(y, y + bh)
    cols_in = slice(x, x + bw)
    column_repeats = (np.abs(grey[rows_in, px:] - grey[rows_in, :-px]) <= SAME).mean(axis=0)
    row_repeats = (np.abs(grey[py:, cols_in] - grey[:-py, cols_in]) <= SAME).mean(axis=1)
    left, cols = _span(column_repeats, x, x + bw - 1, px, grey[rows_in].T)
    top, rows = _span(row_repeats, y, y + bh - 1, py, grey[:, cols_in])
    if cols < MIN_CELLS or rows < MIN_CELLS or not _all_alike(grey, left, top, cols, rows, px, py):
        return None
    return left, top, cols, rows, px, py


def _all_alike(grey: np.ndarray, left: int, top: int, cols: int, rows: int, px: int, py: int) -> bool:
    """Is every cell of the board found the same picture? A fresh board's are; a line of the window
    taken in with the board (its colour like the cells' ground) is not, and the board is refused."""
    if left < 0 or top < 0 or left + cols * px > grey.shape[1] or top + rows * py > grey.shape[0]:
        return False
    cells = grey[top : top + rows * py, left : left + cols * px].reshape(rows, py, cols, px).transpose(0, 2, 1, 3)
    typical = np.median(cells.reshape(rows * cols, py, px), axis=0)
    unlike = (np.abs(cells - typical) > SAME).mean(axis=(2, 3))
    return bool((unlike <= 1 - REPEATS).all())


def _span(repeats: np.ndarray, first: int, last: int, pitch: int, lines: np.ndarray) -> tuple[int, int]:
    """(first pixel, cells) of the board along one axis (``lines[i]``: the board's pixels on line i
    across it), from the lines that repeat one pitch on. The last repeating line is a pitch short of the
    board's end. Where the cells' outer lines look like the window beside them, a few lines past the
    board repeat too: the board is a whole number of cells, placed where its two outer lines stand out
    most from the lines just outside them (a cell's bevel or border against the window)."""
    start = _edge(repeats, first, -1)
    end = _edge(repeats, last, +1) + pitch
    cells = round((end - start + 1) / pitch)
    width = cells * pitch
    spare = max(0, (end - start + 1) - width)

    def contrast(at: int) -> float:
        if at < 1 or at + width >= len(lines):
            return -1.0
        outer = np.abs(lines[at].astype(np.int32) - lines[at - 1]).mean()
        return float(outer + np.abs(lines[at + width - 1].astype(np.int32) - lines[at + width]).mean())

    return max(range(start, start + spare + 1), key=contrast), cells


def _edge(repeats: np.ndarray, start: int, direction: int) -> int:
    """The board's last line from ``start`` in ``direction``: first back inside while the line does
    not repeat (the window smeared the area past the board), then out while the next one does."""
    at = min(max(start, 0), len(repeats) - 1)
    while repeats[at] < EDGE_SHARE and 0 <= at - direction < len(repeats):
        at -= direction
    while 0 <= at + direction < len(repeats) and repeats[at + direction] >= EDGE_SHARE:
        at += direction
    return at


def _grid(left: int, top: int, cols: int, rows: int, px: int, py: int) -> Grid:
    """A Grid whose faces are the cells' whole boxes (a picture cell has no face of its own)."""
    c, r = np.meshgrid(np.arange(cols), np.arange(rows))
    lefts = (left + c * px).ravel().astype(np.int32)
    tops = (top + r * py).ravel().astype(np.int32)
    n = lefts.size
    faces = Faces(lefts, tops, np.full(n, px, np.int32), np.full(n, py, np.int32), np.ones(n, bool))
    return Grid((left + px / 2.0, top + py / 2.0), (float(px), float(py)), rows, cols, faces, faces, boxes=True)


__all__ = ["tiled_grid"]
