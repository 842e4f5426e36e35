"""Find cell lattices on a frame from the picture's structure alone, before any skin is consulted.

Every Minesweeper skin draws a board as a grid of cell faces: areas of (nearly) one colour, bounded by
gaps, grid lines or bevels, repeating at one pitch. Numbers, flags and mines sit inside a face and do
not change its outline. So:

1. faces: the connected areas of pixels with no strong step to any neighbour, whose bounding boxes
   are squarish and not tiny (``cell_faces``);
2. links: a face and the next one along its row (same centre line), or down its column, when the two
   are about the same size and close: a board's faces chain up, text and icons rarely do;
3. grids: the linked groups, each fitted with a lattice (pitch and centre of cell (0, 0) by least
   squares over the face centres, so fractional pitches and toolkits that give some cells a pixel more
   fit as well as any straight lattice can);
4. the grid's extent (rows, columns) is where its faces are; a board cut by the frame or by another
   window shows cell pieces beyond that extent, which ``clipped.cut_sides`` reports.

No template is needed here: a skin's pictures are only used afterwards, to align to the pixel and
read the cells. The lattice found here says where cell centres are; ``Grid.lattice`` turns it into
pitch boxes with the skin's own face placement.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .grid import Faces, Grid
from .separators import column_is_cells, row_is_cells
from .tiled import tiled_grid

# A step larger than this (0-255, any channel) between neighbouring pixels ends a face. Smooth
# gradients (a few levels a pixel) stay inside one face; anti-aliased rounded corners still close it.
FACE_STEP = 8
MIN_FACE = 5  # px: the smallest face side kept (12 px cells with 2 px borders leave 8)
MAX_FACE = 130  # px: faces of the largest cells (120 px pitch)
FACE_FILL = 0.45  # a face fills at least this share of its bounding box (a digit may take the rest)
FACE_ASPECT = 1.6  # bounding boxes farther from square than this are not cells
CENTRE_SLACK = 2.0  # px: faces of one row (column) have centres this close in y (x)
SIZE_RATIO = 1.8  # linked faces differ in size by at most this (a bevelled covered face vs an open one)
BIG_FACE = 0.4  # share of the pitch a face (or piece of one) spans for its cell to count as faced
MIN_CELLS = 4  # a grid has at least this many rows and columns


@dataclass(frozen=True, slots=True, eq=False)
class Edges:
    """Strong steps between neighbouring pixels: ``dx[y, x]`` between (x, y) and (x+1, y), ``dy[y, x]``
    between (x, y) and (x, y+1)."""

    dx: np.ndarray  # (H, W-1) bool
    dy: np.ndarray  # (H-1, W) bool

    @property
    def shape(self) -> tuple[int, int]:
        return self.dy.shape[0] + 1, self.dx.shape[1] + 1

    def mask(self) -> np.ndarray:
        """True at both pixels of every strong step, so areas of two different colours never touch."""
        edge = np.zeros(self.shape, dtype=bool)
        edge[:, 1:] |= self.dx
        edge[:, :-1] |= self.dx
        edge[1:] |= self.dy
        edge[:-1] |= self.dy
        return edge


def _steps(a: np.ndarray, b: np.ndarray, step: int) -> np.ndarray:
    """Where ``a`` and ``b`` (grey or BGR) differ by more than ``step`` in some channel."""
    import cv2

    diff = cv2.absdiff(a, b)
    if diff.ndim == 2 or diff.shape[2] != 3:
        return (diff if diff.ndim == 2 else diff.max(axis=2)) > step
    # Each channel 255 where it steps, else 0 (in place: one large array less to allocate, which on a
    # 1280x1024 frame cost more than the work); the grey of that is 0 only where no channel steps (its
    # smallest weight, blue's 0.114, still gives 29). Splitting the channels to take their largest
    # cost six times more.
    cv2.threshold(diff, step, 255, cv2.THRESH_BINARY, dst=diff)
    return cv2.cvtColor(diff, cv2.COLOR_BGR2GRAY) > 0


def _raw_edges(frame: np.ndarray, step: int) -> Edges:
    return Edges(_steps(frame[:, 1:], frame[:, :-1], step), _steps(frame[1:], frame[:-1], step))


def find_edges(frame: np.ndarray, step: int = FACE_STEP) -> Edges:
    """Steps larger than ``step`` (0-255) in some channel between 4-neighbours of a BGR or grey frame,
    once any stipple on it is evened out (``flatten_stipple``)."""
    edges = _raw_edges(frame, step)
    flat = flatten_stipple(frame, step, edges)
    return edges if flat is frame else _raw_edges(flat, step)


def flatten_stipple(frame: np.ndarray, step: int = FACE_STEP, edges: Edges | None = None) -> np.ndarray:
    """The frame with areas of a one-pixel stipple (a checkerboard of two colours, as old X toolkits draw
    covered cells: xbomb) replaced by their mean colour. A stipple has a strong step between every two
    neighbouring pixels, so without this it is all edges and the faces it fills are never seen. Only
    areas at least 3x3 px where every pixel differs from all four neighbours are touched: a frame
    without stipple comes back as it is (the same object). ``edges``: the frame's steps, when the
    caller has them."""
    import cv2

    if min(frame.shape[:2]) < 3:
        return frame
    edges = _raw_edges(frame, step) if edges is None else edges
    across, down = edges.dx, edges.dy
    lone = np.zeros(frame.shape[:2], dtype=np.uint8)
    lone[1:-1, 1:-1] = (across[1:-1, :-1] & across[1:-1, 1:] & down[:-1, 1:-1] & down[1:, 1:-1])
    if not lone.any():
        return frame
    kernel = np.ones((3, 3), dtype=np.uint8)
    area = cv2.dilate(cv2.erode(lone, kernel), kernel)
    if not area.any():
        return frame
    # The [1 2 1]/4 kernel each way gives a one-pixel checkerboard's mean colour exactly, whatever its
    # phase, and (unlike a 2x2 mean) moves no face by half a pixel. Copied in through the mask (a
    # NumPy ``where`` over a whole frame cost 11 ms, several times the blur).
    return cv2.copyTo(cv2.GaussianBlur(frame, (3, 3), 0), area, np.ascontiguousarray(frame).copy())


def cell_faces(edges: Edges) -> Faces:
    """The one-colour areas between the edges that could be cell faces or pieces of them."""
    import cv2

    flat = np.ascontiguousarray(~edges.mask(), dtype=np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(flat, connectivity=4)
    left, top, width, height, area = (stats[1:, i] for i in range(5))
    keep = ((np.maximum(width, height) >= MIN_FACE) & (width <= MAX_FACE) & (height <= MAX_FACE)
            & (area >= FACE_FILL * width * height))
    # An area that reaches the picture's edge may go on past it: its box is where the picture ends, not
    # where the face does, and its centre is off the face's. Taken as a face, it pulled a lattice's
    # pitch (a React page cut through a column of covered cells: faces 31 px of 46 wide, centred 7 px
    # off, fitted the columns at 58.5 px instead of 60, and the board cut short of them passed as
    # whole). It is a piece: it still marks its cell, but the lattice is fitted to whole faces.
    frame_h, frame_w = edges.shape
    cut = (left == 0) | (top == 0) | (left + width == frame_w) | (top + height == frame_h)
    square = ((width >= MIN_FACE) & (height >= MIN_FACE) & (width <= FACE_ASPECT * height) & (height <= FACE_ASPECT * width)
              & ~cut)
    return Faces(left[keep].astype(np.int32), top[keep].astype(np.int32), width[keep].astype(np.int32),
                 height[keep].astype(np.int32), square[keep])


def find_grids(frame: np.ndarray, edges: Edges | None = None, *, across: int = MIN_CELLS) -> list[Grid]:
    """Every grid of at least MIN_CELLS x MIN_CELLS cells on the frame, largest first, each grown or
    shrunk to the rows and columns that the cell separators (gaps, lines, bevels) bound. ``edges``
    are the frame's ``find_edges``, when the caller has them already. With no faces linked into a
    grid, a fresh board of picture cells (``tiled``) is looked for instead. ``across``: grids as
    narrow as that one way (still MIN_CELLS the other) are kept too, for a look that grows a board to
    its frame (``locate``)."""
    if min(frame.shape[:2]) < MIN_CELLS * 5:  # a board of MIN_CELLS faces of 5 px cannot fit
        return []
    grids = _faced_grids(frame, find_edges(frame) if edges is None else edges, across)
    if not grids and across == MIN_CELLS:
        tiled = tiled_grid(frame)
        grids = [tiled] if tiled is not None else []
    return grids


def _faced_grids(frame: np.ndarray, edges: Edges, across: int) -> list[Grid]:
    pieces = cell_faces(edges)
    faces = pieces.subset(np.flatnonzero(pieces.square))
    if len(faces) < MIN_CELLS * MIN_CELLS:
        return []
    links = _links(faces)
    seeds = []
    for members in _groups(len(faces), links):
        if len(members) < 2 * MIN_CELLS:
            continue
        grid = _fit(faces.subset(members), links_within=_within(links, members))
        if grid is not None:
            seeds.append(grid)
    # Largest seed first: a board split into several linked groups (a digit that cuts its cell's face
    # in two, an open area drawn without separators) is found whole from its largest piece, and the
    # other pieces then fall inside it.
    seeds.sort(key=lambda g: -g.faced_cells())
    seeds = _merged(seeds)
    grids: list[Grid] = []
    for seed in seeds:
        if any(_inside(seed, grid) for grid in grids):
            continue
        grid = settle(seed, edges, pieces)
        if seed.parts:
            parts = (settle(part, edges, pieces) for part in seed.parts)
            grid = replace(grid, parts=tuple(p for p in parts if min(p.rows, p.cols) >= MIN_CELLS))
        if min(grid.rows, grid.cols) >= across and max(grid.rows, grid.cols) >= MIN_CELLS:
            grids.append(grid)
    return grids


# Two linked groups on one lattice (same pitch within this share, cells lined up within MERGE_ALIGN of a
# pitch), at most MERGE_GAP cells apart, are one board: rows of open cells whose separators a blurred
# (scaled) picture has washed out, or a row of digits that cut every face, split a board in two.
MERGE_PITCH = 0.02
MERGE_ALIGN = 0.2
MERGE_GAP = 2


def _merged(seeds: list[Grid]) -> list[Grid]:
    """The seeds with every pair that lies on one lattice, close together, joined (largest first)."""
    out: list[Grid] = []
    for seed in seeds:
        for i, grid in enumerate(out):
            joined = _join(grid, seed)
            if joined is not None:
                out[i] = joined
                break
        else:
            out.append(seed)
    return out


def _join(a: Grid, b: Grid) -> Grid | None:
    """``a`` and ``b`` as one grid on ``a``'s lattice, or None when they are not parts of one board."""
    (ax, ay), (px, py) = a.centre, a.pitch
    if abs(b.pitch[0] - px) > MERGE_PITCH * px or abs(b.pitch[1] - py) > MERGE_PITCH * py:
        return None
    dc, dr = (b.centre[0] - ax) / px, (b.centre[1] - ay) / py
    if abs(dc - round(dc)) > MERGE_ALIGN or abs(dr - round(dr)) > MERGE_ALIGN:
        return None
    dc, dr = int(round(dc)), int(round(dr))
    gap_rows = max(dr - a.rows, -dr - b.rows, 0)
    gap_cols = max(dc - a.cols, -dc - b.cols, 0)
    share_rows = min(a.rows, dr + b.rows) - max(0, dr)
    share_cols = min(a.cols, dc + b.cols) - max(0, dc)
    beside = gap_cols <= MERGE_GAP and share_rows >= min(a.rows, b.rows) / 2
    above = gap_rows <= MERGE_GAP and share_cols >= min(a.cols, b.cols) / 2
    if not (beside or above):
        return None
    r0, c0 = min(0, dr), min(0, dc)
    rows, cols = max(a.rows, dr + b.rows) - r0, max(a.cols, dc + b.cols) - c0
    faces = Faces(*(np.concatenate([getattr(a.faces, f), getattr(b.faces, f)])
                    for f in ("left", "top", "width", "height", "square")))
    return Grid((ax + c0 * px, ay + r0 * py), a.pitch, rows, cols, faces, parts=(a.parts or (a,)) + (b.parts or (b,)))


def _inside(seed: Grid, grid: Grid) -> bool:
    """Do the seed's cell centres lie inside the grid's box?"""
    left, top, right, bottom = grid.box()
    cx, cy = seed.faces.cx, seed.faces.cy
    return bool(((cx > left) & (cx < right) & (cy > top) & (cy < bottom)).mean() > 0.5)


# Share of a row's (column's) cells that must hold a face of the grid's size for it to join a grid:
# separators alone are not enough, since a busy picture (a photo, noise) has steps everywhere.
FACE_SHARE = 0.25


def settle(seed: Grid, edges: Edges, faces: Faces, limit: int = 200) -> Grid:
    """The seed's lattice over the rows and columns its separators bound and its faces fill: outer rows
    and columns that are not cells are dropped (where that leaves fewer than MIN_CELLS either way, none
    is), then neighbouring ones that are cells are added. ``faces`` are all the faces on the frame (a
    digit that splits a face leaves the group, not the board)."""
    (cx, cy), (px, py) = seed.centre, seed.pitch
    r0, c0, rows, cols = 0, 0, seed.rows, seed.cols
    cells = _face_cells(faces, seed)

    def centre() -> tuple[float, float]:
        return cx + c0 * px, cy + r0 * py

    def row_ok(row: int) -> bool:
        filled = sum((r0 + row, c0 + c) in cells for c in range(cols))
        return filled >= FACE_SHARE * cols and row_is_cells(edges, centre(), (px, py), cols, row)

    def column_ok(col: int) -> bool:
        filled = sum((r0 + r, c0 + col) in cells for r in range(rows))
        return filled >= FACE_SHARE * rows and column_is_cells(edges, centre(), (px, py), rows, col)

    for _ in range(limit):
        changed = False
        if rows >= MIN_CELLS and cols >= MIN_CELLS:
            if not row_ok(0):
                r0, rows, changed = r0 + 1, rows - 1, True
            elif not row_ok(rows - 1):
                rows, changed = rows - 1, True
            elif not column_ok(0):
                c0, cols, changed = c0 + 1, cols - 1, True
            elif not column_ok(cols - 1):
                cols, changed = cols - 1, True
        if not changed:
            break
    if rows < MIN_CELLS or cols < MIN_CELLS:
        # Outer lines are dropped whole, so a line that is cells only in part goes, and with it every
        # line it crosses: an open area with no lines between its cells along half of every column (a
        # classic-look board with no grid line) left no column standing. The faces linked on one
        # lattice are cells all the same: the grid is theirs, as far as they reach.
        r0, c0, rows, cols = 0, 0, seed.rows, seed.cols
    for _ in range(limit):
        changed = False
        if row_ok(-1):
            r0, rows, changed = r0 - 1, rows + 1, True
        if row_ok(rows):
            rows, changed = rows + 1, True
        if column_ok(-1):
            c0, cols, changed = c0 - 1, cols + 1, True
        if column_ok(cols):
            cols, changed = cols + 1, True
        if not changed:
            break
    return Grid(centre(), (px, py), rows, cols, seed.faces, faces)


def _face_cells(faces: Faces, grid: Grid) -> set[tuple[int, int]]:
    """The lattice positions (row, col, from the grid's first cell) holding a face of a cell's size, or
    a large piece of one (a digit can cut a face in two), inside their pitch box."""
    (cx, cy), (px, py) = grid.centre, grid.pitch
    col = np.round((faces.cx - cx) / px)
    row = np.round((faces.cy - cy) / py)
    inside = ((faces.left >= cx + (col - 0.5) * px - 2) & (faces.left + faces.width <= cx + (col + 0.5) * px + 2)
              & (faces.top >= cy + (row - 0.5) * py - 2) & (faces.top + faces.height <= cy + (row + 0.5) * py + 2))
    # Raised buttons keep a flat face of about half their pitch (minegauler's 17 px buttons: 8 px).
    big = np.maximum(faces.width / px, faces.height / py) >= BIG_FACE
    on = inside & big
    return set(zip(row[on].astype(int).tolist(), col[on].astype(int).tolist()))


def _links(faces: Faces) -> np.ndarray:
    """(k, 3) array of (a, b, axis): face b follows face a along its row (axis 0) or column (axis 1)."""
    out = []
    size = np.maximum(faces.width, faces.height).astype(np.float64)
    for axis, along, across in ((0, faces.cx, faces.cy), (1, faces.cy, faces.cx)):
        a, b = _next_on_line(along, across)
        gap = along[b] - along[a]
        big = np.maximum(size[a], size[b])
        small = np.minimum(size[a], size[b])
        ok = (small * SIZE_RATIO >= big) & (gap >= 0.8 * small) & (gap <= 1.9 * big + 3)
        out.append(np.stack([a[ok], b[ok], np.full(int(ok.sum()), axis)], axis=1))
    return np.concatenate(out) if out else np.zeros((0, 3), dtype=int)


def _next_on_line(along: np.ndarray, across: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (a, b): b is the nearest face after a along the axis whose centre line is within
    CENTRE_SLACK of a's own. Each pair is judged on its own two centres: lines labelled by chaining
    close centres would let the faces of a board beside this one (a few pixels off its rows) and
    pieces of icons between them join rows of different heights into one line."""
    order = np.argsort(across, kind="stable")
    sorted_across = across[order]
    lo = np.searchsorted(sorted_across, across - CENTRE_SLACK, side="left")
    hi = np.searchsorted(sorted_across, across + CENTRE_SLACK, side="right")
    counts = hi - lo
    a = np.repeat(np.arange(len(along)), counts)
    offsets = np.arange(len(a)) - np.repeat(np.cumsum(counts) - counts, counts)
    b = order[np.repeat(lo, counts) + offsets]
    after = along[b] > along[a]
    a, b = a[after], b[after]
    first = np.lexsort((along[b], a))  # by face a, then the nearest b first
    a, b = a[first], b[first]
    keep = np.r_[True, a[1:] != a[:-1]] if len(a) else np.zeros(0, dtype=bool)
    return a[keep], b[keep]


def _groups(count: int, links: np.ndarray) -> list[np.ndarray]:
    """Connected groups of faces under the links (union-find), as index arrays."""
    parent = np.arange(count)

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b, _ in links:
        ra, rb = find(int(a)), find(int(b))
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    roots = np.array([find(i) for i in range(count)])
    order = np.argsort(roots, kind="stable")
    cuts = np.flatnonzero(np.diff(roots[order])) + 1
    return [g for g in np.split(order, cuts) if len(g) > 1]


def _within(links: np.ndarray, members: np.ndarray) -> np.ndarray:
    index = -np.ones(int(links[:, :2].max(initial=0)) + 1 if len(links) else 1, dtype=np.int64)
    index[members[members < len(index)]] = np.arange(int((members < len(index)).sum()))
    a, b = links[:, 0], links[:, 1]
    inside = (index[a] >= 0) & (index[b] >= 0)
    out = links[inside].copy()
    out[:, 0], out[:, 1] = index[out[:, 0]], index[out[:, 1]]
    return out


def _fit(faces: Faces, links_within: np.ndarray) -> Grid | None:
    """The lattice through a linked group of faces, or None when its faces do not sit on one."""
    cx, cy = faces.cx, faces.cy
    fits = []
    # Faces cut short give neither the rough pitch nor the first line; the faces that sit on that line,
    # cut or not, then place the lattice and stay the grid's (its rows, columns and per-line medians):
    # a face a JPEG left 2 px narrower, taken off the grid's faces, changed the corner statistics of
    # its row (``clipped._faces_cut_flat``), and small faces of a zoomed classic board's digits left
    # out of the last fit moved the lattice 0.05 px, enough to stop its growth over the open area.
    whole = ~_cut_short(faces)
    keep = np.ones(len(faces), dtype=bool)
    for axis, along in ((0, cx), (1, cy)):
        sel = links_within[links_within[:, 2] == axis]
        sel = sel[whole[sel[:, 0]] & whole[sel[:, 1]]]
        if len(sel) == 0:
            return None
        gaps = along[sel[:, 1]] - along[sel[:, 0]]
        # Neighbouring cells are the shortest steps; a step over a missing face is twice as long.
        # The mean, not the median: GTK mixes cells of two widths, and indices counted with the
        # commoner width drift by a whole cell along a long row.
        shortest = np.percentile(gaps, 10)
        p = float(np.mean(gaps[gaps < 1.5 * shortest]))
        # Whole-cell indices from the rough pitch (right while the drift over the board stays under
        # half a cell), then a least-squares line through them, twice: the second time without the
        # faces that sit off the first line (text, icons, a face split by a digit).
        # Indices counted from a face in the middle of the group, not from its first one: a stray face
        # half a pitch off the lattice (a button above the board) would split the others' indices.
        anchor = along[np.argmin(np.abs(along - np.median(along)))]
        ref = float(np.median(along - p * np.round((along - anchor) / p)))
        k = np.round((along - ref) / p)
        on = whole.copy()
        for _ in range(2):
            if np.ptp(k[on]) == 0:
                return None
            slope, intercept = np.polyfit(k[on], along[on], 1)
            on = np.abs(along - intercept - k * slope) <= max(2.0, 0.2 * slope)
        fits.append((float(slope), float(intercept), k.astype(int)))
        keep &= on
    (px, x0, cols_i), (py, y0, rows_i) = fits
    if keep.sum() < 2 * MIN_CELLS or px <= 0 or py <= 0 or not 0.8 <= px / py <= 1.25:
        return None
    c_lo, c_hi = cols_i[keep].min(), cols_i[keep].max()
    r_lo, r_hi = rows_i[keep].min(), rows_i[keep].max()
    rows, cols = int(r_hi - r_lo + 1), int(c_hi - c_lo + 1)
    return Grid((x0 + c_lo * px, y0 + r_lo * py), (px, py), rows, cols, faces.subset(np.flatnonzero(keep)))


def _cut_short(faces: Faces) -> np.ndarray:
    """Faces cut short by something drawn over their cell: narrower than most faces of their height,
    or shorter than most faces of their width. A window edge 6 px into a column of 21 px cells left
    its faces 10 px of 12 wide, centred a pixel off, square enough to pass; fitted, the column pulled
    the lattice's pitch to 20.99 px, a third of a pixel off at the far side of the board. Faces are
    compared with their own kind only (a raised covered cell's face is smaller than an opened
    cell's both ways); cells a pixel wider than others (GTK) stay within the slack."""
    cut = np.zeros(len(faces), dtype=bool)
    for along, across in ((faces.width, faces.height), (faces.height, faces.width)):
        for size in np.unique(across):
            kind = np.abs(across - size) <= 1
            usual = float(np.median(along[kind]))
            cut |= (across == size) & (along < usual - max(1.5, 0.1 * usual))
    return cut
