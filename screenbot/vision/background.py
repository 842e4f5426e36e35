"""Cells drawn on their window's background, in whatever colour the desktop's theme gives it.

gnome-mines draws its rounded cells on the window's own background, and a GTK theme colours that: under
a dark theme (Ubuntu's and GNOME's dark style) the same cells lie on dark grey instead of light. The
skin's pictures are pitch boxes, the background round each face included, so none of them fitted: the
board was taken for xbomb's and refused, and ``learn`` could not learn it either.

A skin says so in its profile (``cells_on_background``). Its board is then read on the frame as its
pictures would show it: where the lines between its cells show a colour the pictures' rims never
show, that is the board's background, and each pixel of a cell's rim that is a mix of it and the
cell's face (its middle's median: a rounded face's antialiased edge is such a mix) is mixed again, by
the same share, with the pictures' background. Only rims, and only what joins the lines between the
cells: a number's or a flag's dark strokes may be as dark as a dark background. Under the theme the
pictures were taken in, the frame is left as it is.
"""

from __future__ import annotations

import numpy as np

from ..geometry import Lattice, Rect
from .cells import board_inside, cell_images
from .skins import CANONICAL, Skin

# The outer share of a cell's pitch, each side, where its background can show, and at most RIM_MOST
# pixels of it, times the desktop's scale (gnome-mines' gap is 4 px at any size at 100%, with a pixel
# of its faces' edge each side: a wider rim would reach a large cell's icon, a mine's dark spikes as
# dark as a dark background).
RIM = 0.2
RIM_MOST = 8
# Levels (largest channel) within which a colour is the one it is compared with: a colour the
# pictures' rims show, or a pixel on the line from the background to the face.
NEAR = 24


def as_skin_background(frame: np.ndarray, lattice: Lattice, skin: Skin) -> np.ndarray:
    """``frame`` with the board at ``lattice`` (and a line of cells round it) on the background the
    skin's pictures show; ``frame`` itself where nothing is to change (see the module)."""
    import cv2

    if skin.family or not skin.profile.get("cells_on_background") or frame.ndim != 3:
        return frame
    bank = skin.bank(lattice.drawn_pitch)
    shown = None if bank.background is None else _shown(frame, lattice, bank.rims)
    if shown is None:
        return frame  # the pictures' own background, or no background of another colour
    # The board and a line of cells round it, on the frame padded by its edge pixels.
    (px, py) = lattice.pitch
    pad = int(np.ceil(max(px, py))) + 2
    padded = cv2.copyMakeBorder(frame, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    xs = np.array([lattice.col_edges()[0] - px, *lattice.col_edges(), lattice.col_edges()[-1] + px]) + pad
    ys = np.array([lattice.row_edges()[0] - py, *lattice.row_edges(), lattice.row_edges()[-1] + py]) + pad
    around = Lattice.from_edges(lattice.skin, tuple(float(x) for x in xs), tuple(float(y) for y in ys), lattice.scale)
    area = around.board_rect().clipped(Rect(pad, pad, frame.shape[1], frame.shape[0]))
    if area.width < 1 or area.height < 1 or not board_inside(padded, around):
        return frame
    # Each pixel's cell, and the pixels in that cell's rim unlike its face (only those can be the
    # background or a mix of it).
    across, down = np.arange(area.left, area.right) + 0.5, np.arange(area.top, area.bottom) + 0.5
    col = np.clip(np.searchsorted(xs, across, side="right") - 1, 0, len(xs) - 2)
    row = np.clip(np.searchsorted(ys, down, side="right") - 1, 0, len(ys) - 2)
    x_in, y_in = across - xs[col], down - ys[row]
    rim_x, rim_y = min(RIM * px, RIM_MOST * lattice.scale), min(RIM * py, RIM_MOST * lattice.scale)
    rim = (np.minimum(x_in, px - x_in) < rim_x)[None, :] | (np.minimum(y_in, py - y_in) < rim_y)[:, None]
    k = CANONICAL // 4
    middles = cell_images(padded, around)[:, :, k:-k, k:-k]
    faces = np.median(middles.reshape(around.rows, around.cols, -1, 3), axis=2).astype(np.uint8)
    region = padded[area.top : area.bottom, area.left : area.right]
    # Each pixel's cell's face colour (h, w, 3): rows and columns of pixels are in order of their cells.
    face_map = np.repeat(np.repeat(faces, np.bincount(row, minlength=len(ys) - 1), axis=0),
                         np.bincount(col, minlength=len(xs) - 1), axis=1)
    apart = cv2.absdiff(region, face_map)
    unlike = rim & (np.maximum(np.maximum(apart[..., 0], apart[..., 1]), apart[..., 2]) > NEAR)
    at_y, at_x = np.nonzero(unlike)
    # Channel by channel (n pixels each): sums over an axis of three are slow in NumPy, and these are
    # the same sums in the same order.
    pixels = region[at_y, at_x].astype(np.float32).T  # (3, n)
    face = face_map[at_y, at_x].astype(np.float32).T
    towards = face - shown[:, None]
    span = towards[0] * towards[0] + towards[1] * towards[1] + towards[2] * towards[2]
    off = pixels - shown[:, None]
    share = np.clip((off[0] * towards[0] + off[1] * towards[1] + off[2] * towards[2]) / np.maximum(span, 1.0), 0.0, 1.0)
    gone = np.abs(pixels - (shown[:, None] + share * towards))
    on_line = (np.maximum(np.maximum(gone[0], gone[1]), gone[2]) <= NEAR) & (span > NEAR * NEAR)
    # Only what joins the lines between the cells: a mark's ink inside a face (gnome-mines' flag and
    # digits, as dark as a dark background, a small cell's reaching into its rim) is no background.
    mask = np.zeros(rim.shape, dtype=np.uint8)
    mask[at_y[on_line], at_x[on_line]] = 1
    _, parts = cv2.connectedComponents(mask, connectivity=8)
    by_edge = (np.minimum(x_in, px - x_in) < 1)[None, :] | (np.minimum(y_in, py - y_in) < 1)[:, None]
    joined = np.isin(parts[at_y, at_x], np.unique(parts[(mask == 1) & by_edge])) & on_line
    ground = np.asarray(bank.background, dtype=np.float32)[:, None]
    again = (ground + share[joined] * (face[:, joined] - ground)).T
    painted = frame.copy()
    painted[area.top - pad + at_y[joined], area.left - pad + at_x[joined]] = np.clip(np.round(again), 0, 255).astype(frame.dtype)
    return painted


def _shown(frame: np.ndarray, lattice: Lattice, rims: np.ndarray) -> np.ndarray | None:
    """The board's background, where it is none the pictures' rims show (``rims``): the commonest colour
    unlike those in the bands GAP_BAND pixels either side of the edges between its cells, if it is on
    GAP_SHARE of them; else None."""
    height, width = frame.shape[:2]
    rect = lattice.board_rect().clipped(Rect(0, 0, width, height))
    lines = []
    for x in _spread(lattice.col_edges()[1:-1]):
        at = int(round(x))
        lines.append(frame[rect.top : rect.bottom : 2, max(0, at - GAP_BAND) : at + GAP_BAND].reshape(-1, 3))
    for y in _spread(lattice.row_edges()[1:-1]):
        at = int(round(y))
        lines.append(frame[max(0, at - GAP_BAND) : at + GAP_BAND, rect.left : rect.right : 2].reshape(-1, 3))
    if not lines:
        return None
    pixels = np.concatenate(lines).astype(np.int32)
    packed, counts = np.unique((pixels[:, 0] << 16) | (pixels[:, 1] << 8) | pixels[:, 2], return_counts=True)
    colours = np.stack([packed >> 16, (packed >> 8) & 255, packed & 255], axis=1)
    foreign = (np.abs(colours[:, None].astype(np.float32) - rims).max(axis=2) > NEAR).all(axis=1)
    if not foreign.any():
        return None
    commonest = np.flatnonzero(foreign)[np.argmax(counts[foreign])]
    if counts[commonest] < GAP_SHARE * counts.sum():
        return None
    shown = colours[commonest].astype(np.float32)
    # And it is the window's: the margin round the board, where the picture shows it, is that colour
    # too. (The live hint overlay's marks, drawn round covered cells, are no background: the margin
    # does not show them. `play` captures the board with 2 px round it: no margin to see.)
    margin = _margin(frame, rect)
    if margin is not None and np.abs(np.median(margin, axis=0) - shown).max() > NEAR:
        return None
    return shown


def _margin(frame: np.ndarray, rect: Rect) -> np.ndarray | None:
    """The pixels (n, 3) MARGIN_FROM to MARGIN_TO pixels outside ``rect``, on each side the picture
    shows that far; None where it shows none."""
    height, width = frame.shape[:2]
    near, far = MARGIN_FROM, MARGIN_TO
    top, bottom, left, right = rect.top - far, rect.bottom + far, rect.left - far, rect.right + far
    across, down = slice(max(0, left), min(width, right)), slice(max(0, top), min(height, bottom))
    parts = [frame[top : rect.top - near, across] if top >= 0 else None,
             frame[rect.bottom + near : bottom, across] if bottom <= height else None,
             frame[down, left : rect.left - near] if left >= 0 else None,
             frame[down, rect.right + near : right] if right <= width else None]
    pixels = [part.reshape(-1, 3) for part in parts if part is not None and part.size]
    return np.concatenate(pixels).astype(np.float32) if pixels else None


# The band round a board where its window's background shows (gnome-mines' margin is wider).
MARGIN_FROM = 2
MARGIN_TO = 6


def _spread(edges: tuple[float, ...]) -> tuple[float, ...]:
    """At most GAP_EDGES of ``edges``, spread evenly: enough to see the background between the cells."""
    if len(edges) <= GAP_EDGES:
        return edges
    return tuple(edges[round(k)] for k in np.linspace(0, len(edges) - 1, GAP_EDGES))


# Edges between cells looked at each way (every other pixel along them) for the background.
GAP_EDGES = 6
# Pixels either side of an edge between cells looked at for the background, and the share of them it
# must cover (gnome-mines' 4 px gap, wherever its boxes place it by the edge).
GAP_BAND = 3
GAP_SHARE = 0.15
