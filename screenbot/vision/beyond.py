"""Does the board go on past a side of the lattice the structure found? The skin reads the line of cells
just past each side: a board's surroundings read as its skin's "outside", never surely as a cell.

The structure finds cells by their faces and separators, and some pictures leave parts of a board
without either: covered cells drawn as a fine stipple (xbomb), rows of small cells whose digits cut
every face (minegauler's 17 px buttons), a lost board full of mines. What it finds is then a piece of
the board, and its lattice, right inside that piece, is wrong for the board. Here the piece is grown a
line at a time while the line past a side reads surely as the skin's cells, and a side past which even
one cell still reads surely as a cell is reported: the board is refused rather than returned short.

On the labelled screenshots of every client (over 1,100 lines of cells just past a correctly found
board) not one cell read surely as a board cell: the surroundings of a board look like none of them.
"""

from __future__ import annotations

import numpy as np

from ..geometry import Lattice
from .cells import match_cells
from .skins import CANONICAL, OUTSIDE, Skin

SURE = 0.8  # match confidence at which a cell past a side counts as a board cell
# A line is added to the board when at least this many of its cells, and this share, read surely as
# cells: a line of the board always does (numbers, covered cells, flags, mines all read surely).
GROW_MIN = 2
GROW_SHARE = 0.25
SIDES = ("top", "bottom", "left", "right")


def grown(lattice: Lattice, side: str) -> Lattice:
    """The lattice with one more line of cells on ``side``, as wide as the line next to it."""
    xs, ys = list(lattice.col_edges()), list(lattice.row_edges())
    if side == "top":
        ys.insert(0, 2 * ys[0] - ys[1])
    elif side == "bottom":
        ys.append(2 * ys[-1] - ys[-2])
    elif side == "left":
        xs.insert(0, 2 * xs[0] - xs[1])
    else:
        xs.append(2 * xs[-1] - xs[-2])
    if lattice.straight:
        return Lattice(lattice.skin, (xs[0], ys[0]), lattice.pitch, len(ys) - 1, len(xs) - 1)
    return Lattice.from_edges(lattice.skin, tuple(xs), tuple(ys))


def _line(lattice: Lattice, side: str) -> list[tuple[int, int]]:
    """The cells of the outermost line on ``side``."""
    if side in ("top", "bottom"):
        row = 0 if side == "top" else lattice.rows - 1
        return [(row, c) for c in range(lattice.cols)]
    col = 0 if side == "left" else lattice.cols - 1
    return [(r, col) for r in range(lattice.rows)]


def cells_beyond(frame: np.ndarray, lattice: Lattice, skin: Skin) -> dict[str, tuple[int, int]]:
    """Per side: (cells of the line past it that read surely as the skin's board cells, cells in that
    line). Cells off the frame are not read."""
    import cv2

    height, width = frame.shape[:2]
    bank = skin.bank(lattice.pitch)
    out = {}
    for side in SIDES:
        bigger = grown(lattice, side)
        line = _line(bigger, side)
        crops = []
        for row, col in line:
            rect = bigger.cell_rect(row, col)
            if rect.left < 0 or rect.top < 0 or rect.right > width or rect.bottom > height or rect.width < 2 or rect.height < 2:
                continue
            crops.append(cv2.resize(frame[rect.top : rect.bottom, rect.left : rect.right], (CANONICAL, CANONICAL),
                                    interpolation=cv2.INTER_AREA))
        if not crops:
            out[side] = (0, len(line))
            continue
        matches = match_cells(np.stack(crops), bank)
        sure = (matches.chars != OUTSIDE) & (matches.confidence >= SURE)
        out[side] = (int(sure.sum()), len(line))
    return out


def grow(frame: np.ndarray, lattice: Lattice, skin: Skin, limit: int = 64) -> tuple[Lattice, list[str]]:
    """The lattice grown, a line at a time, over every line past its sides that reads as the skin's
    cells; and the sides past which some cell still reads surely as one (the board is then not all
    found: refuse it)."""
    for _ in range(limit):
        beyond = cells_beyond(frame, lattice, skin)
        side = max(SIDES, key=lambda s: beyond[s][0] / max(1, beyond[s][1]))
        count, length = beyond[side]
        if count < GROW_MIN or count < GROW_SHARE * length:
            break
        lattice = grown(lattice, side)
    else:
        beyond = cells_beyond(frame, lattice, skin)
    return lattice, [s for s in SIDES if beyond[s][0] > 0]


# A further line of cells that the frame's edge cuts (less than a pitch between a side and the edge):
# the lines of pixels past the side repeat the lines one pitch inwards, from the side outwards.
REPEAT_MEAN = 6.0  # mean difference (0-255) of a line of pixels and the line a pitch inwards
REPEAT_PEAK = 30.0  # its 95th percentile
REPEAT_LINES = 4  # lines that must repeat, the first two (the lattice may sit that far in) left out of...
REPEAT_SLIP = 2
REPEAT_DETAIL = 40.0  # ...the spread (0-255) they must show: a plain background repeats anywhere


def cut_at_frame(frame: np.ndarray, lattice: Lattice) -> list[str]:
    """The sides where the frame's edge cuts a further line of the board's cells. A board scrolled or
    pushed partly off screen ends in a piece of a line (a browser page: a few pixels, then the
    window's frame) that no cell reading looks at whole; read short, it would be a wrong board with
    no error. Past such a side the lines of pixels repeat the lines one pitch inwards (cells are drawn
    every pitch, to the pixel), and they are not plain. Cells drawn apart on a plain background
    (gnome-mines) repeat the background past a side too, but plain; the first ``REPEAT_SLIP`` lines,
    which a lattice a pixel or two inside the drawn cells still takes from the board, do not count."""
    height, width = frame.shape[:2]
    rect = lattice.board_rect()
    out = []
    # Per side: the pixels between it and the frame's edge, the pitch across it, the first line of
    # pixels past it, and the step (+1 / -1) that goes back into the board.
    for side, gap, pitch, start, inwards in (
        ("left", rect.left, lattice.pitch[0], rect.left - 1, 1),
        ("right", width - rect.right, lattice.pitch[0], rect.right, -1),
        ("top", rect.top, lattice.pitch[1], rect.top - 1, 1),
        ("bottom", height - rect.bottom, lattice.pitch[1], rect.bottom, -1),
    ):
        if gap >= pitch:
            continue
        shifts = sorted({int(np.floor(pitch)), int(np.ceil(pitch))})
        repeated = []
        for j in range(int(gap)):
            at = start - inwards * j
            here = _pixel_line(frame, rect, side, at)
            there = [_pixel_line(frame, rect, side, at + inwards * k) for k in shifts]
            if here is None or any(t is None for t in there):
                break
            diff = min((np.abs(here - t).mean(axis=1) for t in there), key=lambda d: float(d.mean()))
            if diff.mean() >= REPEAT_MEAN or np.percentile(diff, 95) >= REPEAT_PEAK:
                break
            repeated.append(here.mean(axis=1))
        counted = repeated[REPEAT_SLIP:]
        if len(repeated) >= REPEAT_LINES and np.ptp(np.concatenate(counted)) >= REPEAT_DETAIL:
            out.append(side)
    return out


def _pixel_line(frame: np.ndarray, rect, side: str, at: int) -> np.ndarray | None:
    """The line of pixels at ``at`` (a column for left/right, a row for top/bottom) along the board's
    extent, as float32, or None off the frame (only these lines are converted, not the frame)."""
    height, width = frame.shape[:2]
    if side in ("left", "right"):
        return frame[rect.top : rect.bottom, at].astype(np.float32) if 0 <= at < width else None
    return frame[at, rect.left : rect.right].astype(np.float32) if 0 <= at < height else None


__all__ = ["cells_beyond", "cut_at_frame", "grow", "grown"]
