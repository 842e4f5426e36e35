"""Fit the lattice of a screenshot whose true board is known (``new-skin``'s first step), with no
templates: the true board says which cells should look alike.

1. the pitch is where the image's edge profiles repeat (autocorrelation), and at most width/cols;
2. a comb of cols+1 lines at that pitch slid along each axis finds where the cell borders are densest;
3. around that, the origin is moved pixel by pixel (and by whole cells) to where cells with the same
   true state look most alike: a box that is off by a few pixels takes in parts of its neighbours,
   which differ from cell to cell, so the right alignment is the one with the least spread;
4. the board's edges are then snapped to whole pixels the same way (its left/top pixel and its width/
   height in pixels, which fix the pitch to 1/cols of a pixel). The autocorrelation's pitch is a few
   hundredths of a pixel off (19.96 for 20 px cells); templates cut at that pitch take in a sliver
   of the next cell at the far end of the board, and the reader then doubts cells it should be sure of.

``mislabelled`` compares every cell with the average picture of each true state: a cell that looks
like another state's cells rather than its own is most likely a typing slip in the board text.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.board import Board

from ..errors import BoardNotFoundError
from ..geometry import Lattice
from .cells import board_inside, box_sizes, cell_images
from .pitch import EDGE_STEP, autocorrelation, refine_period
from .skins import CANONICAL

MIN_PITCH = 8
# The least spread (mean square, 0-255 levels) of a board's state pictures about their mean: 4 levels.
# A flat area's, under any labels, is about 1 (gnome-mines' window in its "default" tile theme: 1.1,
# where an 8 px lattice of it was fitted before the true 96 px one); the least of the 274 labelled
# screenshots with two states or more, at their true lattices, is 58 (a fresh board, flags and "?").
FLAT_STATES = 16.0
MAX_PITCH_PAIRS = 16  # (x, y) pitch pairs tried, strongest first
EXACT_SPREAD = 1.0  # a grid this tight (cells of one state alike to the pixel) is not second-guessed
TIE_RATIO, TIE_SLACK = 1.05, 0.05
# A cell is taken for a typing slip when it is this much closer (mean squared distance ratio) to the
# average picture of another state than to its own state's.
MISLABEL_RATIO = 0.5


@dataclass(frozen=True, slots=True)
class Fit:
    lattice: Lattice
    spread: float  # mean squared distance of cells to their state's mean picture (lower is better)
    # Whole-pixel shifts of the lattice (dx, dy) that fit as well: where a 1 px grid line between
    # cells belongs to neither cell, boxes that start on it and boxes that end on it are equally good.
    ties: tuple[tuple[int, int], ...] = ()


def fit_lattice(image: np.ndarray, board: Board, skin: str) -> Fit:
    """The lattice of ``board`` (its true text) on ``image``. Raises BoardNotFoundError if none fits."""
    import cv2

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.int16)
    height, width = gray.shape
    prof_x = (np.abs(np.diff(gray, axis=1)) > EDGE_STEP).sum(axis=0).astype(np.float64)
    prof_y = (np.abs(np.diff(gray, axis=0)) > EDGE_STEP).sum(axis=1).astype(np.float64)
    labels = _label_ids(board)
    spreads = _Spreads(image, labels)
    best: Fit | None = None
    max_px, max_py = (width - 1) / board.cols, (height - 1) / board.rows
    own_x, own_y = _periods(prof_x, MIN_PITCH, max_px), _periods(prof_y, MIN_PITCH, max_py)
    # Cells are square or nearly so on every client seen, and on a whole screen the window's
    # toolbars and backgrounds can hide the cells' period along one axis among the top few: each
    # axis also tries the other's periods, square pairs first.
    px_list = own_x + [p for p in own_y if p <= max_px and all(abs(p - q) > 0.5 for q in own_x)]
    py_list = own_y + [p for p in own_x if p <= max_py and all(abs(p - q) > 0.5 for q in own_y)]
    # Strongest periods first on both axes; a whole screen has window frames, menus and text whose
    # rhythm can outrank the cells', so several are tried, but a grid where every cell is exactly
    # like the other cells of its state ends the search.
    pairs = sorted(((i, j) for i in range(len(px_list)) for j in range(len(py_list))),
                   key=lambda ij: (abs(px_list[ij[0]] / py_list[ij[1]] - 1) > 0.05, max(ij), sum(ij)))
    for i, j in pairs[:MAX_PITCH_PAIRS]:
        px, py = px_list[i], py_list[j]
        if not 0.5 <= px / py <= 2.0:
            continue
        x0 = _comb_start(prof_x, px, board.cols)
        y0 = _comb_start(prof_y, py, board.rows)
        if x0 is None or y0 is None:
            continue
        fit = _align(spreads, skin, (x0, y0), (px, py), board)
        if fit is not None and (best is None or fit.spread < best.spread):
            best = fit
            if best.spread < EXACT_SPREAD:
                break
    if best is None:
        raise BoardNotFoundError(
            f"no {board.rows}x{board.cols} grid of cells found on the image (pitches tried: "
            f"x {', '.join(f'{p:.1f}' for p in px_list) or 'none'}; y {', '.join(f'{p:.1f}' for p in py_list) or 'none'})",
            skin=skin,
            reason="no grid matching the board size",
        )
    return _snap(spreads, best)


def fit_known(image: np.ndarray, board: Board, lattice: Lattice) -> Fit:
    """The lattice of ``board`` on ``image`` when where its cells are is known (found by structure,
    each box starting at its cell's face): kept as it is when its edges are on whole pixels, else
    snapped to them where cells of one state look most alike; a lattice whose boxes have several
    widths or heights keeps its lines, each edge on its nearest whole pixel. BoardNotFoundError when the lattice
    runs off the image.

    Not moved by the spread when it is whole already: a gap that is the same colour around every
    cell leaves several placements equally alike, and the face-first one is the one the locator and
    the shipped skins use (a gnome-mines skin cut two pixels up and left read its flag and its
    question mark as too alike)."""
    spreads = _Spreads(image, _label_ids(board))
    # Lines of several widths (GTK gives a window's spare pixels to the first lines): each box is cut
    # where it is, as the reader cuts it. Boxes of a straight lattice of their mean pitch drift up to
    # half a pixel off their cells, and cut so, one state of gnome-mines at 700x520 made 14 pictures,
    # too many to keep, and the skin learnt misread its own frames.
    several = _lines_of_several_sizes(lattice)
    kept = lattice.on_whole_pixels() if several else Lattice(lattice.skin, lattice.origin, lattice.pitch,
                                                             lattice.rows, lattice.cols)
    spread = spreads(kept)
    if spread is None:
        raise BoardNotFoundError(f"the {board.rows}x{board.cols} grid given runs off the image", skin=lattice.skin,
                                 reason="no grid matching the board size")
    whole = several or all(abs(v - round(v)) < 0.01 for v in (*kept.origin, kept.pitch[0] * kept.cols,
                                                                 kept.pitch[1] * kept.rows))
    return Fit(kept, spread) if whole else _snap(spreads, Fit(kept, spread))


def fit_lines(image: np.ndarray, board: Board, fit: Fit) -> Fit:
    """``fit`` (``fit_lattice``'s straight lattice), or the lattice whose boxes follow each line of
    cells where the structure sees the board's lines in several widths (GTK gives a window's spare
    pixels to the first lines), whichever has its cells of one state the more alike. A straight
    lattice of the mean pitch drifts up to half a pixel off such lines, and its boxes take in a sliver
    of the next cell: a gnome-mines board at 843x593 (lines of 21 and 22 px) read a "3" as more like
    the "2" cells, and ``new-skin`` blamed the board text. The boxes that follow are placed as the
    locator places them (``grid.line_edges``), at the face's place in the straight lattice's boxes."""
    from .grid import line_edges
    from .structure import find_grids

    straight = fit.lattice
    (px, py), xs, ys = straight.pitch, np.array(straight.col_edges()), np.array(straight.row_edges())
    for grid in find_grids(image):
        cx, cy = grid.centres
        if (grid.rows, grid.cols) != (board.rows, board.cols) or not (
                (xs[:-1] < cx).all() and (cx < xs[1:]).all() and (ys[:-1] < cy).all() and (cy < ys[1:]).all()):
            continue  # not this board's grid, or not all of it: each face in its own box
        (lefts, rights), (tops, bottoms) = grid.extents
        fx, fy = float(np.median((cx - xs[:-1]) / px)), float(np.median((cy - ys[:-1]) / py))
        lines = Lattice.from_edges(straight.skin, tuple(np.round(line_edges(lefts, rights, fx, px)).tolist()),
                                   tuple(np.round(line_edges(tops, bottoms, fy, py)).tolist()))
        if not _lines_of_several_sizes(lines):
            return fit  # one width: the straight lattice is the lines'
        spread = _Spreads(image, _label_ids(board))(lines)
        return Fit(lines, spread) if spread is not None and spread < fit.spread else fit
    return fit


def _lines_of_several_sizes(lattice: Lattice) -> bool:
    """Whether ``lattice`` places its lines one by one (``xs`` / ``ys``) and their boxes, on whole
    pixels, come in more than one width or height."""
    return not lattice.straight and np.unique(box_sizes(lattice)).size > 1


def _periods(profile: np.ndarray, low: float, high: float, keep: int = 6) -> list[float]:
    """Periods in [low, high] at which an edge profile repeats, strongest first, to a tenth of a pixel
    or better: every local maximum of its autocorrelation, each refined on the highest multiple
    that still stands out, each kept unless within half a pixel of a stronger one. (The locator's
    own search keeps the smallest period first and drops any within 1 px of it: on sgt-mines a side
    peak at 18 px, refined to 19.0, made it drop the true 20 px.)"""
    ac = autocorrelation(profile, low)
    if ac is None:
        return []
    n = len(profile)
    lo, hi = max(2, int(np.floor(low))), min(n // 2, int(np.ceil(high)))
    peaks = [i for i in range(lo, hi + 1) if 0 < i < n - 1 and ac[i] > 0 and ac[i] >= ac[i - 1] and ac[i] >= ac[i + 1]]
    peaks.sort(key=lambda i: -ac[i])
    found: list[float] = []
    for lag in peaks:
        period = refine_period(ac, lag)
        if all(abs(period - f) > 0.5 for f in found):
            found.append(period)
        if len(found) >= keep:
            break
    return found


def _label_ids(board: Board) -> np.ndarray:
    chars = sorted({ch for _, _, ch in board.cells()})
    return np.array([[chars.index(ch) for ch in row] for row in board.grid])


def _comb_start(profile: np.ndarray, pitch: float, count: int) -> float | None:
    """Start of the run of count+1 lines, ``pitch`` apart, that covers the most edges."""
    span = count * pitch
    starts = np.arange(0, len(profile) - span)
    if len(starts) == 0:
        return None
    # Each line takes the strongest edge within a pixel of it, so a rounding slip does not hide it.
    padded = np.maximum(profile, np.maximum(np.roll(profile, 1), np.roll(profile, -1)))
    lines = np.round(starts[:, None] + np.arange(count + 1)[None, :] * pitch).astype(int)
    lines = np.clip(lines, 0, len(profile) - 1)
    score = padded[lines].sum(axis=1)
    # Profile index i is the step between pixels i and i+1, so the first cell starts at i+1.
    return float(starts[int(np.argmax(score))] + 1)


def canonical_cells(image: np.ndarray, lattice: Lattice) -> np.ndarray | None:
    """(cells, pixels) float32: every cell of ``lattice`` at the canonical size, as the reader cuts
    them (the board region resized once, or each box on its own where lines have several widths);
    None when the lattice runs off the image."""
    import cv2

    if not board_inside(image, lattice):
        return None
    rect = lattice.board_rect()
    if rect.width < lattice.cols or rect.height < lattice.rows:
        return None
    if not lattice.straight:
        return cell_images(image, lattice).reshape(lattice.rows * lattice.cols, -1).astype(np.float32)
    region = image[rect.top : rect.bottom, rect.left : rect.right]
    scaled = cv2.resize(region, (lattice.cols * CANONICAL, lattice.rows * CANONICAL), interpolation=cv2.INTER_AREA)
    cells = scaled.reshape(lattice.rows, CANONICAL, lattice.cols, CANONICAL, 3).transpose(0, 2, 1, 3, 4)
    return cells.reshape(lattice.rows * lattice.cols, -1).astype(np.float32)


class _Spreads:
    """``_spread`` of lattices on one image for one board's labels, each worked out once: it depends on
    the lattice only through its rectangle rounded to whole pixels, its rows and columns and, where
    its lines have several widths, their edges (what ``canonical_cells`` cuts), and the searches
    (``_align``, ``_snap``) come back to the same ones."""

    def __init__(self, image: np.ndarray, labels: np.ndarray) -> None:
        self.image = image
        states, index, self.counts = np.unique(labels.ravel(), return_inverse=True, return_counts=True)
        # Which cells each state has, as a matrix: one product sums every state's pictures. The
        # pictures' pixels are whole numbers, and so is every partial sum, exactly so in float32
        # below 2^24 (255 times ~65,000 cells); a bigger board is summed in float64.
        dtype = np.float32 if 255 * labels.size < 1 << 24 else np.float64
        self.members = np.zeros((len(states), labels.size), dtype=dtype)
        self.members[index.ravel(), np.arange(labels.size)] = 1
        self.known: dict[tuple, float | None] = {}

    def __call__(self, lattice: Lattice) -> float | None:
        rect = lattice.board_rect()
        key = (rect.left, rect.top, rect.width, rect.height, lattice.rows, lattice.cols, lattice.xs, lattice.ys)
        if key not in self.known:
            self.known[key] = self._spread(lattice)
        return self.known[key]

    def _spread(self, lattice: Lattice) -> float | None:
        """The mean squared distance of each cell's pixels to the mean picture of its state's cells, or
        None when the lattice runs off the image or every state looks the same (a flat area). Worked
        out as every pixel's square less each state's sum times its mean, in double precision: the
        same sum as cell by cell, at half the cost (the search asks for thousands)."""
        flat = canonical_cells(self.image, lattice)
        if flat is None:
            return None
        sums = (self.members @ flat.astype(self.members.dtype, copy=False)).astype(np.float64)
        means = sums / self.counts[:, None]
        total = float(np.einsum("ij,ij->", flat, flat, dtype=np.float64)) - float(np.einsum("ij,ij->", sums, means))
        # Cells of different states must also differ: a lattice over a flat area (a window's plain
        # background, a faint texture) has every cell alike, whatever the labels say, and so the least
        # spread of all. The states' mean pictures must lie further apart than a capture's noise.
        if len(means) > 1 and float(((means - means.mean(axis=0)) ** 2).mean()) < FLAT_STATES:
            return None
        return max(total, 0.0) / flat.size


def _align(spreads: _Spreads, skin: str, start: tuple[float, float], pitch: tuple[float, float],
           board: Board) -> Fit | None:
    px, py = pitch
    ox, oy = start
    best: tuple[float, float, float] | None = None

    def score(x: float, y: float) -> float | None:
        return spreads(Lattice(skin, (x, y), pitch, board.rows, board.cols))

    # Whole-cell shifts first (the comb may sit one cell off), then pixel shifts within a cell.
    for _ in range(2):
        for axis in (0, 1):
            span = px if axis == 0 else py
            offsets = list(np.arange(-span, span + 0.5, 1.0)) + [-2 * span, 2 * span]
            for d in offsets:
                x, y = (ox + d, oy) if axis == 0 else (ox, oy + d)
                s = score(x, y)
                if s is not None and (best is None or s < best[2]):
                    best = (x, y, s)
            if best is not None:
                ox, oy = best[0], best[1]
    if best is None:
        return None
    return Fit(Lattice(skin, (best[0], best[1]), pitch, board.rows, board.cols), best[2])


def _snap(spreads: _Spreads, fit: Fit) -> Fit:
    """The board's edges on whole pixels: its first pixel and its length in pixels along each axis,
    each moved by up to 2 and 3 px from the aligned lattice's, kept where cells of the same state
    look most alike. The reader cuts a board exactly so (its rectangle rounded to whole pixels,
    resized to canonical cells), so this is the lattice whose cells it will compare."""
    lat = fit.lattice
    rect = lat.board_rect()
    left, top, width, height = rect.left, rect.top, rect.width, rect.height
    best = fit.spread

    def spread(l: int, t: int, w: int, h: int) -> float | None:
        return spreads(Lattice(lat.skin, (float(l), float(t)), (w / lat.cols, h / lat.rows), lat.rows, lat.cols))

    snapped = spread(left, top, width, height)
    if snapped is not None:
        best = snapped
    for _ in range(2):
        moved = False
        for axis in (0, 1):
            # Each candidate from the aligned lattice's edges, not from the last one kept: a walk from
            # candidate to candidate went on over a flat area until its cells were 2 px tall.
            trials = [(dl, dw) for dl in range(-2, 3) for dw in range(-3, 4) if dl or dw]
            for dl, dw in trials:
                cand = (rect.left + dl, top, rect.width + dw, height) if axis == 0 else \
                    (left, rect.top + dl, width, rect.height + dw)
                s = spread(*cand)
                if s is not None and s < best - 1e-9:
                    best, (left, top, width, height), moved = s, cand, True
        if not moved:
            break
    pitch = (width / lat.cols, height / lat.rows)
    ties = []
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            other = spread(left + dx, top + dy, width, height) if dx or dy else None
            if other is not None and other <= best * TIE_RATIO + TIE_SLACK:
                ties.append((dx, dy))
    return Fit(Lattice(lat.skin, (float(left), float(top)), pitch, lat.rows, lat.cols), best, tuple(ties))


def room_around(image: np.ndarray, lattice: Lattice) -> bool:
    """Is there a cell's width of picture beyond the board on at least one side?"""
    rect = lattice.board_rect()
    px, py = lattice.pitch
    height, width = image.shape[:2]
    return rect.left >= px or rect.top >= py or width - rect.right >= px or height - rect.bottom >= py


def mislabelled(image: np.ndarray, lattice: Lattice, board: Board) -> list[tuple[int, int, str, str]]:
    """Cells whose picture is much closer to the average of another state's cells than to the average
    of the other cells given their own state, and to each of them: (row, col, given state, state it
    looks like). Judged on the whole cell and on its inside alone, and only a cell that both call a
    slip is one: what a typing slip gets wrong is the content (a digit, a flag), while some clients
    draw one state with borders of two colours (xbomb, at the end of a game) and others tell two states
    apart by their border alone (a raised covered cell and a flat open 0)."""
    flat = canonical_cells(image, lattice)
    if flat is None:
        return []
    ring = 2
    inside = flat.reshape(len(flat), CANONICAL, CANONICAL, 3)[:, ring:-ring, ring:-ring].reshape(len(flat), -1)
    chars = np.array([ch for _, _, ch in board.cells()])
    whole = _slips(flat, chars, board.cols)
    return [slip for slip in _slips(inside, chars, board.cols) if slip in whole]


def _slips(flat: np.ndarray, chars: np.ndarray, cols: int) -> list[tuple[int, int, str, str]]:
    found = []
    states = sorted(set(chars.tolist()))
    sums = {s: flat[chars == s].sum(axis=0) for s in states}
    counts = {s: int((chars == s).sum()) for s in states}
    for i, ch in enumerate(chars):
        if counts[ch] < 2:
            continue  # a state shown once has nothing to be compared with
        own = (sums[ch] - flat[i]) / (counts[ch] - 1)  # its state's other cells
        d_own = float(((flat[i] - own) ** 2).mean())
        if d_own > 100.0:
            # A state may have several looks: a cell just like another cell of its own state is no slip.
            twins = flat[chars == ch]
            d_own = min(d_own, float(np.sort(((twins - flat[i]) ** 2).mean(axis=1))[1]))
        for other in states:
            if other == ch:
                continue
            d = float(((flat[i] - sums[other] / counts[other]) ** 2).mean())
            if d < MISLABEL_RATIO * d_own and d_own > 100.0:
                found.append((i // cols, i % cols, str(ch), other))
                break
    return found
