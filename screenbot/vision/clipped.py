"""Is a found grid the whole board, or is it cut short by the frame, a window edge or a window over it?
(``cut_sides``: the sides past which its cells go on.)"""

from __future__ import annotations

import numpy as np

from .separators import separated
from .grid import Grid
from .structure import Edges


# A third of the separators going on past a side is the rest of a board (the old board check used the
# same share): a window over half of the last row leaves half of the separators, a stray icon one.
CUT_SHARE = 1 / 3


def cut_sides(grid: Grid, edges: Edges, *, corners: bool = True) -> list[str]:
    """The sides past which the grid's cells go on, cut short (by the frame, a window edge, or a
    window over them): separators between its rows (columns) that continue beyond its last column
    (row) for at least a few pixels, or any of its lines that goes on past it in a whole cell of its
    own size (``lines_going_on``: a window over all but a few rows of its left columns). A board
    with such a side is not all visible. ``corners``: a side whose outermost faces end square where
    the others are rounded is cut too (``_faces_cut_flat``); a look with square faces, whose grid
    lines lie on one side of each cell, ends square at its frame on the other sides, and judges its
    frame itself (``classic``)."""
    height, width = edges.shape
    left, top, right, bottom = grid.box()
    (cx, cy), (px, py) = grid.centre, grid.pitch
    # Where the next cell's face would start: past the separator around the board's last face, and
    # past the last faces themselves (a straight lattice can be a few pixels off at the ends).
    gap_x, gap_y = max(2.0, 0.15 * px), max(2.0, 0.15 * py)
    faces = grid.faces
    inside = (faces.cx > left) & (faces.cx < right) & (faces.cy > top) & (faces.cy < bottom)
    if inside.any():
        f = faces.subset(np.flatnonzero(inside))
        first_x, first_y = float(f.left.min()), float(f.top.min())
        last_x, last_y = float((f.left + f.width).max()), float((f.top + f.height).max())
    else:
        first_x, first_y, last_x, last_y = left, top, right, bottom
    row_cuts = [cy + (r + 0.5) * py for r in range(grid.rows - 1)]
    col_cuts = [cx + (c + 0.5) * px for c in range(grid.cols - 1)]
    strips = {
        "left": (max(0.0, left - px / 2), min(left - gap_x, first_x - 1)),
        "right": (max(right + gap_x, last_x + 1), min(width - 1.0, right + px / 2)),
        "top": (max(0.0, top - py / 2), min(top - gap_y, first_y - 1)),
        "bottom": (max(bottom + gap_y, last_y + 1), min(height - 1.0, bottom + py / 2)),
    }
    sides = []
    for side, (a, b) in strips.items():
        if b - a < 2:
            continue  # nothing beyond this side on the frame: ``off_frame`` reports it
        if side in ("left", "right"):
            share = separated(edges.dy.T, row_cuts, (a, b), py).mean() if row_cuts else np.nan
        else:
            share = separated(edges.dx, col_cuts, (a, b), px).mean() if col_cuts else np.nan
        if share >= CUT_SHARE and _pieces_beyond(grid, side, (a, b)) >= CUT_SHARE:
            sides.append(side)
    for side in ("left", "right", "top", "bottom"):
        # A window over most of a side leaves the separators and pieces of only a few lines going on
        # (too few for the shares above), but those lines show whole cells past the side.
        if side not in sides and lines_going_on(grid, side):
            sides.append(side)
    flat = ~edges.mask()
    for side in ("left", "right", "top", "bottom"):
        if side not in sides and ((corners and _faces_cut_flat(grid, flat, side)) or _on_a_long_edge(grid, edges, side)):
            sides.append(side)
    return sides


# A straight line this close (px) to the board's outer box, running on for two cells past both ends of
# the side, is the edge of a window or a scrolled page that cuts the board, exactly between two
# columns (rows) of cells, where nothing else on the picture shows it. A board's own frame stops
# about where the board does.
EDGE_NEAR = 3
EDGE_RUN = 2.0
EDGE_SHARE = 0.95
EDGE_ROOM = 1.0  # cells of picture past an end that must show the line, where there are not EDGE_RUN


def _on_a_long_edge(grid: Grid, edges: Edges, side: str) -> bool:
    """Does a long straight line run along ``side`` of the grid, right at its outer box?"""
    height, width = edges.shape
    left, top, right, bottom = grid.box()
    (px, py) = grid.pitch
    if side in ("left", "right"):
        steps, at, lo, hi, pitch = edges.dx, left if side == "left" else right, top, bottom, py
        limit = height
    else:
        steps, at, lo, hi, pitch = edges.dy.T, top if side == "top" else bottom, left, right, px
        limit = width
    start, stop = int(lo - EDGE_RUN * pitch), int(hi + EDGE_RUN * pitch)
    # Where the picture ends sooner, a line that runs on to its edge runs on as far as can be seen, if
    # that is a cell or more: a board's frame stops a few pixels past its ends.
    room = EDGE_ROOM * pitch
    if (start < 0 and lo < room) or (stop > limit and limit - hi < room):
        return False  # not enough picture past the ends to tell a long line from the board's frame
    start, stop = max(0, start), min(limit, stop)
    near = steps[start:stop, max(0, int(round(at)) - EDGE_NEAR) : int(round(at)) + EDGE_NEAR + 1]
    return bool(near.size and near.mean(axis=0).max() >= EDGE_SHARE)


def _pieces_beyond(grid: Grid, side: str, strip: tuple[float, float]) -> float:
    """Share of the grid's rows (for left/right) or columns (top/bottom) that have a piece of a face in
    ``strip`` beyond ``side``, lined up with them: the rest of cut cells, not the steps of a busy
    background (which has separators everywhere but no faces)."""
    pieces = grid.pieces
    if pieces is None or not len(pieces):
        return 0.0
    (cx, cy), (px, py) = grid.centre, grid.pitch
    a, b = strip
    if side in ("left", "right"):
        within = (pieces.left + pieces.width >= a) & (pieces.left <= b)
        line = np.round((pieces.cy - cy) / py)
        aligned = (np.abs(pieces.cy - cy - line * py) < 0.25 * py) & (pieces.height >= 0.4 * py) & (pieces.height <= py)
        count = grid.rows
    else:
        within = (pieces.top + pieces.height >= a) & (pieces.top <= b)
        line = np.round((pieces.cx - cx) / px)
        aligned = (np.abs(pieces.cx - cx - line * px) < 0.25 * px) & (pieces.width >= 0.4 * px) & (pieces.width <= px)
        count = grid.cols
    lines = line[within & aligned]
    return len({int(k) for k in lines if 0 <= k < count}) / count


# A face's outer edge fills this much more of its bounding box than its inner edge: it was cut there.
CUT_EDGE = 0.15
CORNER = 0.2  # share of a face's side at each end compared (its corners)


def _faces_cut_flat(grid: Grid, flat: np.ndarray, side: str) -> bool:
    """Were the faces of the outermost row (column) on ``side`` cut straight, where their other side
    is rounded? A window edge that falls exactly between two rows shows nothing else: the board just
    ends a pixel early, with square corners where the client draws round ones. Measured against the
    grid's other faces: a client whose faces are lopsided by design (a raised button's flat part hugs
    its light top-left bevel: minegauler) shows the same difference on every face, not a cut."""
    (cx, cy), (px, py) = grid.centre, grid.pitch
    f = grid.faces
    if side in ("top", "bottom"):
        line = 0 if side == "top" else grid.rows - 1
        on = np.abs(f.cy - (cy + line * py)) < py / 2
    else:
        line = 0 if side == "left" else grid.cols - 1
        on = np.abs(f.cx - (cx + line * px)) < px / 2
    index = np.flatnonzero(on)
    if len(index) < max(2, (grid.cols if side in ("top", "bottom") else grid.rows) // 2):
        return False
    gains = _corner_gains(f, flat, side)
    # Each face against the grid's other faces of its own size (a covered button and an open cell
    # differ): what that kind of face shows when nothing cuts it. Of its very size where there are
    # such: a picture enlarged by a fractional scale (Qt at 125%) draws every fourth line of cells a
    # pixel wider, its bevel a pixel thicker, and its corners unlike the narrower faces'.
    excess = []
    for i in index:
        alike = ~on & (np.abs(f.width - f.width[i]) <= 1) & (np.abs(f.height - f.height[i]) <= 1)
        same = alike & (f.width == f.width[i]) & (f.height == f.height[i])
        alike = same if same.sum() >= 2 else alike
        usual = float(np.median(gains[alike])) if alike.sum() >= 2 else 0.0
        excess.append(gains[i] - max(usual, 0.0))
    return bool(np.median(excess) > CUT_EDGE)


def _corner_gains(f, flat: np.ndarray, side: str) -> np.ndarray:
    """Per face: how much more of its outer edge on ``side`` is flat than of its inner edge, at the
    corners only (the ends of the two edges): a digit or an icon in the middle of the face can reach
    its inner edge (xbomb's tall digits do) but not its corners.

    All faces at once from running counts along the few lines of pixels their edges lie on (a board
    has hundreds of faces); the same numbers as ``_corner_gains_each`` (a mean of booleans is its count
    over its length), which takes the faces a box of the frame would cut."""
    height, width = flat.shape[:2]
    x0, y0 = f.left.astype(np.int64), f.top.astype(np.int64)
    w, h = f.width.astype(np.int64), f.height.astype(np.int64)
    if not len(f) or (x0 < 0).any() or (y0 < 0).any() or (w < 2).any() or (h < 2).any() \
            or (x0 + w > width).any() or (y0 + h > height).any():
        return _corner_gains_each(f, flat, side)
    if side in ("top", "bottom"):
        lines = flat  # edges along rows
        first, last, start, length = y0, y0 + h - 1, x0, w
    else:
        lines = flat.T  # edges along columns
        first, last, start, length = x0, x0 + w - 1, y0, h
    outer, inner = (first, last) if side in ("top", "left") else (last, first)
    end = np.maximum(2, np.round(CORNER * length).astype(np.int64))

    def corner_mean(at: np.ndarray) -> np.ndarray:
        used, row = np.unique(at, return_inverse=True)
        counts = np.zeros((len(used), lines.shape[1] + 1), np.int64)
        np.cumsum(lines[used], axis=1, out=counts[:, 1:])
        count = (counts[row, start + end] - counts[row, start]
                 + counts[row, start + length] - counts[row, start + length - end])
        return count / (2 * end)

    return corner_mean(outer) - corner_mean(inner)


def _corner_gains_each(f, flat: np.ndarray, side: str) -> np.ndarray:
    """``_corner_gains`` a face at a time."""
    gains = []
    for i in range(len(f)):
        x0, y0, w, h = int(f.left[i]), int(f.top[i]), int(f.width[i]), int(f.height[i])
        box = flat[y0 : y0 + h, x0 : x0 + w]
        if side in ("top", "bottom"):
            outer, inner = (box[0], box[-1]) if side == "top" else (box[-1], box[0])
        else:
            outer, inner = (box[:, 0], box[:, -1]) if side == "left" else (box[:, -1], box[:, 0])
        end = max(2, int(round(CORNER * len(outer))))
        corners = np.r_[0:end, len(outer) - end : len(outer)]
        gains.append(outer[corners].mean() - inner[corners].mean())
    return np.array(gains)


# A cell just past a side shows where the lattice puts it: a whole face (or the pieces a digit or an
# icon cuts it into, taken together) of the size of the board's own cells' faces, to within
# SAME_SIZE of it (or SAME_SIZE_PX), centred within ALIGNED of a pitch of where the cell would be.
SAME_SIZE = 0.12
SAME_SIZE_PX = 2
ALIGNED = 0.2
FILLED = 0.6  # share of that size the pieces' boxes must fill: a digit cuts a face into a few large pieces
# Share of the box's width and of its height the pieces must span: the pieces of one face are apart
# only by the strokes of the digit that cut it.
SPANNED = 0.8
SIZE_SEEN = 2  # cells of the board that must show a face of a size for it to be a face size of the board


def lines_going_on(grid: Grid, side: str) -> list[int]:
    """The lines of the grid (rows for left/right, columns for top/bottom) that go on past ``side``:
    where the lattice puts the next cell of the line, a face of the size of the grid's own cells'
    faces shows whole (alone, or as the pieces a digit cuts it into). A window over the rest of the
    side hides the other lines, so each line counts on its own: a board with one such line goes on."""
    pieces = grid.pieces
    if pieces is None or not len(pieces):
        return []
    (cx, cy), (px, py) = grid.centre, grid.pitch
    col, row = (pieces.cx - cx) / px, (pieces.cy - cy) / py
    line_c, line_r = np.round(col), np.round(row)
    # The sizes of the faces the board's own cells show, each seen on at least SIZE_SEEN cells (a
    # covered cell's face and an open one's differ: a bevel).
    on_cell = (pieces.square & (line_c >= 0) & (line_c < grid.cols) & (line_r >= 0) & (line_r < grid.rows)
               & (np.abs(col - line_c) < ALIGNED) & (np.abs(row - line_r) < ALIGNED))
    found, seen = np.unique(np.stack([pieces.width[on_cell], pieces.height[on_cell]], axis=1), axis=0, return_counts=True)
    sizes = found[seen >= SIZE_SEEN].astype(float)
    if not len(sizes):
        return []
    if side in ("left", "right"):
        count, at = grid.rows, (-1 if side == "left" else grid.cols)
    else:
        count, at = grid.cols, (-1 if side == "top" else grid.rows)
    going_on = []
    for k in range(count):
        c, r = (at, k) if side in ("left", "right") else (k, at)
        x, y = cx + c * px, cy + r * py  # where that cell's face would be centred
        # Every piece lying inside that cell's pitch box (a little widened): the face, or its pieces.
        inside = ((pieces.left >= x - 0.6 * px) & (pieces.left + pieces.width <= x + 0.6 * px)
                  & (pieces.top >= y - 0.6 * py) & (pieces.top + pieces.height <= y + 0.6 * py))
        if not inside.any():
            continue
        left, top = pieces.left[inside].min(), pieces.top[inside].min()
        right, bottom = (pieces.left + pieces.width)[inside].max(), (pieces.top + pieces.height)[inside].max()
        w, h = float(right - left), float(bottom - top)
        if abs((left + right) / 2 - x) >= ALIGNED * px or abs((top + bottom) / 2 - y) >= ALIGNED * py:
            continue
        if (pieces.width * pieces.height)[inside].sum() < FILLED * w * h:
            continue  # scattered small pieces (a title bar's icon and text), not one face
        if (_covered(pieces.left[inside], pieces.width[inside], left, w) < SPANNED
                or _covered(pieces.top[inside], pieces.height[inside], top, h) < SPANNED):
            continue  # a wide gap across the box: pieces of two things (a button, the text below it)
        alike = ((np.abs(w - sizes[:, 0]) <= np.maximum(SAME_SIZE_PX, SAME_SIZE * sizes[:, 0]))
                 & (np.abs(h - sizes[:, 1]) <= np.maximum(SAME_SIZE_PX, SAME_SIZE * sizes[:, 1])))
        if alike.any():
            going_on.append(k)
    return going_on


def _covered(starts: np.ndarray, lengths: np.ndarray, origin: float, extent: float) -> float:
    """Share of [origin, origin + extent) covered by the intervals [start, start + length)."""
    covered = np.zeros(max(1, int(round(extent))), dtype=bool)
    for start, length in zip(starts, lengths):
        covered[max(0, int(start - origin)) : max(0, int(start - origin + length))] = True
    return float(covered.mean())
