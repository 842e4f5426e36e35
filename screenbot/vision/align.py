"""The last pixel of the lattice: nudge its origin to where the skin's templates fit best.

The structure (``structure``) gives the pitch, from the least squares over every face centre, and
where the faces are; a skin's templates only say how its pitch boxes sit around its faces, to a pixel
or two. So only the origin moves here: stretching the pitch to the templates' liking was worse than
the faces' own pitch on boards where nearly every cell has the same picture.

Each nudge is judged by how far the cells are from their nearest template, on a sample of cells
so that a cold locate can afford a few dozen nudges: nudges along x are judged on a few whole rows of
cells, nudges along y on a few whole columns. A row of cells is one resize of one strip of the frame,
and its x mapping is exactly the whole board's, so comparing x nudges on it compares what a full read
would see along x.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from .cells import board_inside, cell_images, distinct, squared_distances
from .background import as_skin_background
from ..geometry import Lattice
from .skins import CANONICAL, Skin, TemplateBank, soften

SAMPLE_CELLS = 64  # about this many cells judge each nudge (whole rows or columns of them)
MIN_LINES = 3  # never fewer rows/columns than this (the first, the last and one between)
MAX_CLIMB = 4  # rounds of the joint look at the eight neighbouring origins


def refine(frame: np.ndarray, skin: Skin, board: Lattice, reach: tuple[float, float] = (1.0, 1.0)) -> Lattice:
    """Nudge the origin (one axis at a time, up to ``reach`` frame pixels, then both at once, then by
    half a pixel) to the best template fit."""
    frame = as_skin_background(frame, board, skin)
    rows = sample_lines(board.rows, board.cols)
    bank = skin.bank(board.drawn_pitch)
    cols = sample_lines(board.cols, board.rows)
    # Remembered per lattice: each pass starts from the lattice the one before ended on.
    along_x = functools.cache(functools.partial(_row_error, frame, bank, rows))
    along_y = functools.cache(functools.partial(_column_error, frame, bank, cols))
    best = _walk(frame, board, along_x, (1, 0), int(np.ceil(reach[0])))
    best = _walk(frame, best, along_y, (0, 1), int(np.ceil(reach[1])))
    # Then the eight neighbours at once, until none is better: with both axes a pixel or more off,
    # the best x for the wrong y can be the wrong x (and the other way round), a valley that moves
    # along one axis at a time cannot leave. The rows sample judges these: each row of cells is cut
    # at its own y, so it sees both axes.
    for _ in range(MAX_CLIMB):
        moved = _best(frame, best, along_x, [best.translated(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy])
        if moved is best:
            break
        best = moved
    # Then half a pixel each way: whole-pixel nudges can leave the origin 0.5 px off, which moves
    # about every other line of cells a pixel off its box. A small mark decides some states (the
    # "?" on gnome-mines' flag): a 21 px board lightened 3 levels was placed 0.6 px low, a whole
    # pixel from where it was placed unchanged, and three "?" read as flags.
    best = _best(frame, best, along_x, [best.translated(d, 0) for d in (-0.5, 0.5)])
    best = _best(frame, best, along_y, [best.translated(0, d) for d in (-0.5, 0.5)])
    return best


def sample_lines(count: int, length: int, cells: int = SAMPLE_CELLS) -> list[int]:
    """Indices of the lines (rows or columns, ``count`` of them, each ``length`` cells long) that make
    the sample: evenly spread, the first and the last always in, about ``cells`` cells in all."""
    wanted = min(count, max(MIN_LINES, -(-cells // max(1, length))))
    return sorted({int(round(i)) for i in np.linspace(0, count - 1, wanted)})


def _best(frame: np.ndarray, start: Lattice, error: Callable[[Lattice], float],
          trials: list[Lattice]) -> Lattice:
    """The lattice among ``start`` and ``trials`` (those fully on the frame) with the least error;
    ``start`` unless a trial is clearly better."""
    best, best_err = start, error(start)
    for lattice in trials:
        if not board_inside(frame, lattice):
            continue
        err = error(lattice)
        if err < best_err - 1e-6:
            best, best_err = lattice, err
    return best


def _walk(frame: np.ndarray, start: Lattice, error: Callable[[Lattice], float], step: tuple[int, int],
          reach: int) -> Lattice:
    """From ``start``, a pixel at a time along ``step`` (either way) while the error falls, up to
    ``reach`` pixels. The error is taken to grow with a nudge's distance from the best one (one valley
    within reach), so nudges past the first that is worse are not judged: half the nudges of judging
    every one, and of the 295 labelled shots 294 placed as judging every one places them, the other
    (a fresh board, every cell alike) 2 px nearer its true origin."""
    if reach < 1:
        return start
    dx, dy = step
    plus = start.translated(dx, dy)
    best = _best(frame, start, error, [start.translated(-dx, -dy), plus])
    if best is start:
        return start
    sign = 1 if best is plus else -1
    for _ in range(reach - 1):
        moved = _best(frame, best, error, [best.translated(sign * dx, sign * dy)])
        if moved is best:
            break
        best = moved
    return best


def _row_cells(frame: np.ndarray, board: Lattice, rows: list[int]) -> np.ndarray:
    """The cells of ``rows``: each row's strip cut at its own y, the strips stacked into one picture
    and cut into cells at once (one resize per run of boxes of one size, not per row; each pixel the
    same as a row at a time)."""
    xs, ys = _whole(board.col_edges()), _whole(board.row_edges())
    strips = [frame[ys[r] : ys[r + 1], xs[0] : xs[-1]] for r in rows]
    stacked = Lattice.from_edges(board.skin, tuple(x - xs[0] for x in xs), _starts(s.shape[0] for s in strips))
    return cell_images(np.vstack(strips), stacked).reshape(-1, CANONICAL, CANONICAL, 3)


def _column_cells(frame: np.ndarray, board: Lattice, cols: list[int]) -> np.ndarray:
    """The cells of ``cols``, as ``_row_cells`` cuts rows."""
    xs, ys = _whole(board.col_edges()), _whole(board.row_edges())
    strips = [frame[ys[0] : ys[-1], xs[c] : xs[c + 1]] for c in cols]
    stacked = Lattice.from_edges(board.skin, _starts(s.shape[1] for s in strips), tuple(y - ys[0] for y in ys))
    return cell_images(np.hstack(strips), stacked).reshape(-1, CANONICAL, CANONICAL, 3)


def _whole(edges: tuple[float, ...]) -> list[int]:
    """Box edges on whole pixels, rounded as ``cell_images`` rounds them."""
    return [round(e) for e in edges]


def _starts(sizes) -> tuple[float, ...]:
    """The edges of boxes of these sizes laid end to end from 0."""
    return tuple(float(v) for v in np.cumsum([0, *sizes]))


def _row_error(frame: np.ndarray, bank: TemplateBank, rows: list[int], lattice: Lattice) -> float:
    return _mean_nearest_rms(_row_cells(frame, lattice, rows), bank)


def _column_error(frame: np.ndarray, bank: TemplateBank, cols: list[int], lattice: Lattice) -> float:
    return _mean_nearest_rms(_column_cells(frame, lattice, cols), bank)


def _mean_nearest_rms(cells: np.ndarray, bank: TemplateBank) -> float:
    """Mean over cells of the RMS difference to the nearest template (what ``match_cells`` calls
    ``best_rms``, without the per-state bookkeeping a nudge does not need)."""
    pictures, inverse = distinct(cells)
    vectors = soften(pictures).reshape(len(pictures), -1)
    nearest = np.sqrt(squared_distances(vectors, bank.vectors).min(axis=1) / vectors.shape[1])
    return float(nearest[inverse].mean())
