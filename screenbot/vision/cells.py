"""Cut every cell out of a frame at the canonical size and find each one's nearest template.

Pure NumPy/OpenCV on arrays: one resize of the board region, one reshape into a (cells, pixels)
matrix, one matrix product against all templates. No Python loop over cells.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import weakref
from dataclasses import dataclass

import numpy as np

from solver.board import NUMBERS

from ..geometry import Lattice, Rect
from .skins import CANONICAL, OUTSIDE, TemplateBank, soften

# RMS colour difference (0-255 scale) at which the absolute score reaches zero.
RMS_SCALE = 40.0
# RMS levels (0-255) below which two states' pictures count as alike (``confidence``).
SEPARATION_FLOOR = 6.0


@dataclass(frozen=True, slots=True, eq=False)
class CellMatches:
    """Per cell (row-major): best char, its RMS difference, the best other char's RMS, confidence."""

    chars: np.ndarray  # (N,) '<U1'
    best_rms: np.ndarray  # (N,)
    second_rms: np.ndarray  # (N,)
    second_chars: np.ndarray  # (N,)
    confidence: np.ndarray  # (N,)

    FIELDS = ("chars", "best_rms", "second_rms", "second_chars", "confidence")


def board_inside(frame: np.ndarray, lattice: Lattice) -> bool:
    rect = lattice.board_rect()
    return rect.left >= 0 and rect.top >= 0 and rect.right <= frame.shape[1] and rect.bottom <= frame.shape[0]


def cut_out(frame: np.ndarray, left: int, top: int, right: int, bottom: int) -> np.ndarray:
    """The frame's pixels in the box [left, right) x [top, bottom), its nearest edge pixels repeated
    where the box passes the frame's edge (a look round a cell by the frame's edge still gets its
    whole box)."""
    height, width = frame.shape[:2]
    if 0 <= left and 0 <= top and right <= width and bottom <= height:
        return frame[top:bottom, left:right]
    rows = np.clip(np.arange(top, bottom), 0, height - 1)
    cols = np.clip(np.arange(left, right), 0, width - 1)
    return frame[rows[:, None], cols]


def best_place(image: np.ndarray, pictures) -> tuple[int, int]:
    """(dy, dx): where in ``image`` one of ``pictures`` (all of one size and of the image's type) lies
    best, by the least sum of squared differences."""
    import cv2

    fits = [cv2.matchTemplate(image, picture, cv2.TM_SQDIFF) for picture in pictures]
    fit = min(fits, key=lambda f: float(f.min()))
    dy, dx = np.unravel_index(int(np.argmin(fit)), fit.shape)
    return int(dy), int(dx)


def box_sizes(lattice: Lattice) -> np.ndarray:
    """(rows, cols) int: each cell's box size (width and height in whole pixels) as one number, equal
    for two cells exactly when their boxes are the same size."""
    widths = np.diff(np.round(lattice.col_edges())).astype(np.int64)
    heights = np.diff(np.round(lattice.row_edges())).astype(np.int64)
    return heights[:, None] * (1 << 20) + widths[None, :]


def cell_images(frame: np.ndarray, lattice: Lattice, size: int = CANONICAL, *, smooth: bool = True) -> np.ndarray:
    """(rows, cols, size, size, 3) uint8: every cell's pitch box scaled to ``size`` (the canonical size).

    The board region is resized with area averaging, which is what makes the comparison
    scale-normalised: a 19 px and an 83 px cell both become CANONICAL x CANONICAL averages. A lattice
    whose cells have several widths (``Lattice.xs``) is resized a column, then a row, at a time, each
    to its own box. Boxes smaller than ``size`` are enlarged smoothly, or with ``smooth`` False by area
    (each screen pixel copied into whole pixels where the factor is whole).
    """
    rect = lattice.board_rect()
    region = frame[rect.top : rect.bottom, rect.left : rect.right]
    xs = [round(x) - rect.left for x in lattice.col_edges()]
    ys = [round(y) - rect.top for y in lattice.row_edges()]
    # Boxes of one width side by side are shrunk in one call: by area averaging each maps onto exactly
    # ``size`` pixels of the result, so the result is the same as one call per box, with a call per run,
    # not per line. Not enlarged so: interpolation would blend pixels across the boxes' edges.
    columns = np.hstack([_resized(region[:, a:b], (n * size, region.shape[0]), smooth) for a, b, n in _equal_runs(xs, size)])
    scaled = np.vstack([_resized(columns[a:b], (lattice.cols * size, n * size), smooth) for a, b, n in _equal_runs(ys, size)])
    return scaled.reshape(lattice.rows, size, lattice.cols, size, 3).transpose(0, 2, 1, 3, 4)


def canonical_crops(frame: np.ndarray, rects) -> np.ndarray:
    """(len(rects), CANONICAL, CANONICAL, 3) uint8: each box of ``frame`` (a Rect on it) scaled to the
    canonical size by area, as one resize a box gives it. Boxes of one size are stacked and scaled in
    one call: by area each maps onto exactly its own CANONICAL rows (enlarged too: a test checks it)."""
    import cv2

    cells = np.empty((len(rects), CANONICAL, CANONICAL, 3), dtype=np.uint8)
    by_size: dict[tuple[int, int], list[int]] = {}
    for k, rect in enumerate(rects):
        by_size.setdefault((rect.width, rect.height), []).append(k)
    for ks in by_size.values():
        stacked = np.vstack([frame[rects[k].top : rects[k].bottom, rects[k].left : rects[k].right] for k in ks])
        cells[ks] = cv2.resize(stacked, (CANONICAL, CANONICAL * len(ks)), interpolation=cv2.INTER_AREA).reshape(
            len(ks), CANONICAL, CANONICAL, 3)
    return cells


def _equal_runs(edges: list[int], size: int) -> list[tuple[int, int, int]]:
    """The boxes between ``edges`` as runs of boxes of one width, at least ``size`` (a box to enlarge
    is a run of its own): (first edge, last edge, boxes)."""
    runs = []
    for a, b in zip(edges, edges[1:]):
        if runs and b - a >= size and b - a == (runs[-1][1] - runs[-1][0]) // runs[-1][2]:
            runs[-1] = (runs[-1][0], b, runs[-1][2] + 1)
        else:
            runs.append((a, b, 1))
    return runs


def _resized(image: np.ndarray, size: tuple[int, int], smooth: bool = True) -> np.ndarray:
    """``image`` resized to ``size`` (width, height): area averages when shrinking, and when enlarging
    unless ``smooth``."""
    import cv2

    shrink = image.shape[1] >= size[0] and image.shape[0] >= size[1]
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA if shrink or not smooth else cv2.INTER_LINEAR)


def shifted_cell_images(frame: np.ndarray, rect: Rect, dxs, dys) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """The box ``rect`` moved by each whole-pixel shift (dx, dy), dx from ``dxs`` and dy from ``dys``
    (each ascending), that stays on the frame, each scaled to the canonical size: the pictures
    (shifts, CANONICAL, CANONICAL, 3) uint8 and the shifts they were cut at, dy major.
    A box at least CANONICAL px each way is shrunk by area averaging, as ``cv2.resize`` does (to within
    a level in 0.01% of the pixels), but for all shifts at once: area averaging is a linear map per
    axis, so two matrix products over the pixels around the box give every shifted picture (one resize
    per shift cost a board of weak cells, 81 shifts each, a second or more)."""
    import cv2

    height, width = frame.shape[:2]
    dxs = [dx for dx in dxs if 0 <= rect.left + dx and rect.right + dx <= width]
    dys = [dy for dy in dys if 0 <= rect.top + dy and rect.bottom + dy <= height]
    shifts = [(dx, dy) for dy in dys for dx in dxs]
    if not shifts:
        return np.zeros((0, CANONICAL, CANONICAL, 3), dtype=np.uint8), []
    if rect.width < CANONICAL or rect.height < CANONICAL:  # enlarged, not averaged: one at a time
        crops = [frame[rect.top + dy : rect.bottom + dy, rect.left + dx : rect.right + dx] for dx, dy in shifts]
        return np.stack([cv2.resize(c, (CANONICAL, CANONICAL), interpolation=cv2.INTER_AREA) for c in crops]), shifts
    around = frame[rect.top + dys[0] : rect.bottom + dys[-1], rect.left + dxs[0] : rect.right + dxs[-1]]
    across = _shifted_weights(rect.width, dxs[-1] - dxs[0] + 1)[[dx - dxs[0] for dx in dxs]]
    down = _shifted_weights(rect.height, dys[-1] - dys[0] + 1)[[dy - dys[0] for dy in dys]]
    channels = around.transpose(2, 0, 1).astype(np.float32, order="C")  # (3, height, width), for BLAS
    scaled = down.reshape(-1, down.shape[-1]) @ channels @ across.reshape(-1, across.shape[-1]).T
    scaled = scaled.reshape(3, len(dys), CANONICAL, len(dxs), CANONICAL).transpose(1, 3, 2, 4, 0)
    return np.clip(np.rint(scaled), 0, 255).astype(np.uint8).reshape(-1, CANONICAL, CANONICAL, 3), shifts


@functools.lru_cache(maxsize=256)
def _shifted_weights(size: int, shifts: int) -> np.ndarray:
    """(shifts, CANONICAL, size + shifts - 1): for each shift, the area weights that shrink ``size``
    pixels starting there to CANONICAL (output pixel j averages input [j s, (j + 1) s), s = size /
    CANONICAL, each input pixel by the length it overlaps)."""
    scale = size / CANONICAL
    start = np.arange(CANONICAL)[:, None] * scale
    pixel = np.arange(size)[None, :]
    weights = np.clip(np.minimum(pixel + 1, start + scale) - np.maximum(pixel, start), 0, None) / scale
    out = np.zeros((shifts, CANONICAL, size + shifts - 1), dtype=np.float32)
    for shift in range(shifts):
        out[shift, :, shift : shift + size] = weights
    out.flags.writeable = False
    return out


def channel_mean(pictures: np.ndarray) -> np.ndarray:
    """The mean of the colour channels (the last axis, 3 long) as float32: what ``mean(axis=-1)``
    gives, twenty times faster (NumPy reduces a short last axis one element at a time)."""
    total = pictures[..., 0].astype(np.float32)
    total += pictures[..., 1]
    total += pictures[..., 2]
    return total / 3


def less_median_colour(pictures: np.ndarray) -> np.ndarray:
    """Pictures (k, pixels, 3) each less its own median colour, channel by channel: what is left of a
    cell drawn see-through once the shade of the background behind it is taken away."""
    pictures = np.asarray(pictures, dtype=np.float32)
    return pictures - np.median(pictures, axis=1, keepdims=True)


def interior_margin(interior: float) -> int:
    """Canonical pixels left out on each side when only the middle ``interior`` share is compared."""
    return max(0, min(CANONICAL // 2 - 1, round(CANONICAL * (1.0 - interior) / 2.0)))


def match_cells(cells: np.ndarray, bank: TemplateBank, interior: float = 1.0) -> CellMatches:
    """Nearest template per cell. ``cells`` is (..., CANONICAL, CANONICAL, 3); results are flattened.

    ``interior`` < 1 compares only the middle of each cell (``interior_margin`` canonical pixels left
    out on every side) with the same middle of the templates. The middles are cut before they are
    softened: blurred after the cut, nothing from outside a middle reaches it (the live hint overlay's
    marks, drawn just outside it, once tipped a lit covered tile's match over a 0's).
    """
    k = interior_margin(interior)
    templates = bank.vectors
    pictures, inverse = distinct(np.asarray(cells).reshape(-1, CANONICAL, CANONICAL, 3))
    if k:
        side = CANONICAL - 2 * k
        pictures = soften(pictures[:, k:-k, k:-k])
        templates = _interior_templates(bank, k)
    else:
        side = CANONICAL
        pictures = soften(pictures)
    vectors = np.ascontiguousarray(pictures, dtype=np.float32).reshape(-1, side * side * 3)
    rms_all = np.sqrt(squared_distances(vectors, templates, exact=True) / vectors.shape[1])
    per_char = np.minimum.reduceat(rms_all, bank.starts, axis=1)[inverse]  # (N, chars)
    order = np.argsort(per_char, axis=1)
    rows = np.arange(per_char.shape[0])
    best = order[:, 0]
    best_rms = per_char[rows, best]
    if per_char.shape[1] > 1:
        second = order[:, 1]
        second_rms = per_char[rows, second]
    else:
        second = best
        second_rms = np.full_like(best_rms, np.inf)
    char_order = np.array(bank.char_order)
    return CellMatches(char_order[best], best_rms, second_rms, char_order[second], confidence(best_rms, second_rms))


class ByPicture:
    """What a costly look made of a picture, kept by the picture's pixels: a board's weak cells are
    mostly drawn alike, pixel for pixel (a won board's flags), and the frames of a game in play show
    them again and again. Forgets everything once it holds ``kept`` answers."""

    def __init__(self, kept: int) -> None:
        self._kept = kept
        self._found: dict[tuple, object] = {}

    def get(self, picture: np.ndarray, context: tuple, look):
        """``look()``'s answer for ``picture`` in ``context`` (what else the answer depends on)."""
        key = self.key(picture, context)
        if key not in self._found:
            self.keep(key, look())
        return self._found[key]

    @staticmethod
    def key(picture: np.ndarray, context: tuple) -> tuple:
        """What an answer for ``picture`` in ``context`` is kept by (``known``, ``keep``: for looks
        taken at many pictures at once)."""
        return (context, picture.shape, hashlib.blake2b(np.ascontiguousarray(picture).tobytes(), digest_size=16).digest())

    def known(self, key: tuple):
        """The answer kept by ``key``, or None."""
        return self._found.get(key)

    def keep(self, key: tuple, answer) -> None:
        if len(self._found) >= self._kept:
            self._found.clear()
        self._found[key] = answer


def distinct(pictures: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct pictures of a stack (first occurrences, in order) and, for each picture of the
    stack, the index of its own among them. A board's cells are mostly alike (an expert board's 480
    cells are 1 to 20 distinct pictures): each is matched once, not once a cell.

    Pictures are told apart by a 64-bit key of their pixels (a weighted sum of their 8-byte words),
    then checked pixel for pixel against the picture their key names; two pictures that share a key
    (never seen, but possible) are told apart by their bytes instead. The keys take a fifth of the
    time a dictionary of each picture's bytes took (0.1 ms for 480 cells)."""
    flat = np.ascontiguousarray(pictures).reshape(len(pictures), -1)
    if len(flat) and flat.dtype == np.uint8 and flat.shape[1] % 8 == 0:
        words = flat.view(np.uint64)
        keys = (words * _key_weights(words.shape[1])).sum(axis=1, dtype=np.uint64)
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        order = np.argsort(first)  # ids in order of first appearance, as the callers are promised
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        first, inverse = first[order], rank[inverse.reshape(-1)]
        if np.array_equal(flat[first][inverse], flat):
            return (pictures if len(first) == len(flat) else pictures[first]), inverse
    index: dict[bytes, int] = {}
    inverse = np.fromiter((index.setdefault(row.tobytes(), len(index)) for row in flat), dtype=np.intp, count=len(flat))
    if len(index) == len(flat):
        return pictures, inverse
    _, first = np.unique(inverse, return_index=True)  # ids count up in order of first appearance
    return pictures[first], inverse


@functools.lru_cache(maxsize=8)
def _key_weights(words: int) -> np.ndarray:
    """Fixed odd 64-bit weights, one per 8-byte word of a picture (``distinct``'s keys)."""
    weights = np.random.default_rng(20261204).integers(0, 2**63, words, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    weights.flags.writeable = False
    return weights


@functools.lru_cache(maxsize=64)
def _interior_templates(bank: TemplateBank, k: int) -> np.ndarray:
    """The middles of the bank's templates (``k`` canonical pixels left out on every side), cut then
    softened as ``match_cells`` does the cells', as rows; read-only, so that ``squared_distances`` keeps
    what it works out of them."""
    middles = soften(bank.pictures[:, k:-k, k:-k]).reshape(len(bank.pictures), -1).copy()
    middles.flags.writeable = False
    return middles


def squared_distances(vectors: np.ndarray, templates: np.ndarray, *, exact: bool = False) -> np.ndarray:
    """(cells, templates) squared distances between rows, by expansion: |a|^2 + |b|^2 - 2 a.b, one
    matrix product for all pairs. Both sides are taken relative to the templates' mean first: in
    float32 the expansion of two ~200-level pictures cancels to within a few units, which is a large
    error on a near-perfect match. ``exact``: in float64, where a cell's score must not depend on how
    many other rows one product has (float32 rounds differently with the product's size): what a
    reading says of a cell is then the same whether the board or only the cells that changed are read."""
    dtype = np.float64 if exact else np.float32
    centre, b, b_squared = _template_side(templates, dtype)
    a = vectors.astype(dtype, copy=False) - centre
    sq = (a * a).sum(axis=1)[:, None] + b_squared[None, :] - 2.0 * (a @ b.T)
    return np.maximum(sq, 0.0)


# What ``squared_distances`` works out of the templates alone, kept for read-only template arrays that
# own their pixels (a skin's banks: compared with a few cells at a time, thousands of times a locate,
# the templates' side was most of the cost). By the array's id and the precision, with a weak reference
# to check it is the same array.
_TEMPLATE_SIDES: collections.OrderedDict[tuple, tuple] = collections.OrderedDict()
_TEMPLATE_SIDES_KEPT = 256


def _template_side(templates: np.ndarray, dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The templates' mean, the templates less it, and their squared lengths, in ``dtype``."""
    fixed = not templates.flags.writeable and templates.base is None
    key = (id(templates), np.dtype(dtype).str)
    if fixed:
        kept = _TEMPLATE_SIDES.get(key)
        if kept is not None and kept[0]() is templates:
            return kept[1]
    centre = templates.mean(axis=0, dtype=np.float64).astype(dtype)
    b = templates.astype(dtype, copy=False) - centre
    side = (centre, b, (b * b).sum(axis=1))
    if fixed:
        _TEMPLATE_SIDES[key] = (weakref.ref(templates), side)
        while len(_TEMPLATE_SIDES) > _TEMPLATE_SIDES_KEPT:
            _TEMPLATE_SIDES.popitem(last=False)
    return side


def closeness(best_rms):
    """0..1: how near a cell is to its nearest picture, whatever the other states' pictures are."""
    return np.clip(1.0 - best_rms / RMS_SCALE, 0.0, 1.0)


def confidence(best_rms: np.ndarray, second_rms: np.ndarray) -> np.ndarray:
    """0..1: high when the best template is close AND clearly closer than any other state's.

    A close match alone is not enough (a half-drawn cell can sit between two states), nor is a clear
    winner alone (a dialog corner is far from everything, just less far from one template).
    """
    absolute = closeness(best_rms)
    # How much nearer the best state is than the second, as a share of the second's distance, but
    # never of less than SEPARATION_FLOOR: two states whose pictures differ by less than that where
    # they are compared (xdemineur's covered cell and 0 in their middles: 0.5 levels) are not told
    # apart by which of them is a hair nearer.
    separation = (second_rms - best_rms) / np.maximum(second_rms, SEPARATION_FLOOR)
    return np.minimum(absolute, np.clip(0.5 + separation, 0.0, 1.0))


def pattern_states(cells: np.ndarray, bank: TemplateBank, chars: np.ndarray) -> np.ndarray:
    """Per cell, the state whose pattern of light and dark (whatever the colours) is nearest the
    cell's middle, where the state read (``chars``, chosen mostly by colour) is far from it; '' where
    the pattern agrees. ``cells`` are the canonical cells where the lattice puts them.

    A grey copy of a "1" on its green square is nearer in colour to a flat open cell than to the green
    "1", but its pattern is clearly a "1": such a cell must be refused, not misread. The middle is
    where digits and icons are and gaps are not, and the hint overlay never draws there.
    """
    pictures, inverse = distinct(np.asarray(cells).reshape(-1, CANONICAL, CANONICAL, 3))
    vectors = soften(pictures).reshape(-1, CANONICAL * CANONICAL * 3)
    patterns = _patterns(_middle(vectors))
    shape = np.sqrt(squared_distances(patterns, _template_patterns(bank), exact=True) / patterns.shape[1])
    per_char = np.minimum.reduceat(shape, bank.starts, axis=1)[inverse]
    order = np.array(bank.char_order)
    column = {char: k for k, char in enumerate(bank.char_order)}
    read = per_char[np.arange(len(inverse)), [column[c] for c in chars]]
    conflict = read > SHAPE_FACTOR * per_char.min(axis=1) + SHAPE_MARGIN
    return np.where(conflict, order[per_char.argmin(axis=1)], "")


# A state read is refused when its pattern is this much farther from the cell's than the nearest
# pattern of any state (RMS of grey levels around their means, 0-255).
SHAPE_FACTOR = 2.0
SHAPE_MARGIN = 8.0
SHAPE_INTERIOR = 0.625  # the share of a cell, centred, whose pattern is compared
_LUMA = np.array([0.114, 0.587, 0.299], dtype=np.float32)  # BGR weights of the grey level


def _middle(vectors: np.ndarray) -> np.ndarray:
    """The middle SHAPE_INTERIOR share of each canonical picture in ``vectors``, as rows."""
    k = interior_margin(SHAPE_INTERIOR)
    pictures = vectors.reshape(len(vectors), CANONICAL, CANONICAL, 3)
    return np.ascontiguousarray(pictures[:, k : CANONICAL - k, k : CANONICAL - k]).reshape(len(vectors), -1)


def _patterns(vectors: np.ndarray) -> np.ndarray:
    """The pattern of light and dark of each BGR picture (a row of ``vectors``), whatever the colours:
    its grey levels with their mean taken off."""
    grey = vectors.reshape(len(vectors), -1, 3) @ _LUMA
    return grey - grey.mean(axis=1, keepdims=True)


@functools.lru_cache(maxsize=64)
def _template_patterns(bank: TemplateBank) -> np.ndarray:
    patterns = _patterns(_middle(bank.vectors))
    patterns.flags.writeable = False
    return patterns


def faces_unlike(cells: np.ndarray, bank: TemplateBank, chars: np.ndarray) -> np.ndarray:
    """Per cell read as a number, True where it shows the face of another state more than the face of
    the number read (``chars``): the colour most of a cell is painted in, which a whole-cell distance
    weighs no more than a glyph's few pixels of ink.

    A client may tell states apart by the face they are drawn on (gnome-mines' numbers each on a tint
    of its own, its covered cells a darker grey than its opened ones). Drawn in another of its tile
    themes (every number dark grey on the opened cells' grey), a 2 came nearer the 1's picture than
    any other and was read so with exit 0, its face the opened cells' grey and not the 1's green.
    A cell shows another state's face where at least FACE_SHOWN of its pixels (inside FACE_MARGIN) are
    within FACE_NEAR of that face and of none of its own state's faces, and more than twice as many
    as are within FACE_NEAR of its own: a cell whose face is its state's but mostly hidden by ink (a
    small cell's bold digit) is not refused here, and nor is one whose colours a JPEG or a cast moved
    up to FACE_NEAR (faces of other states are more than twice that far: below)."""
    import cv2

    faces, of_picture = _bank_faces(bank)
    chars = np.asarray(chars)
    picture_chars = np.array(bank.chars)
    asked = {}
    # Asked of the numbers 1-8 only: a number is what a client draws on a face of its own (a tint); asked
    # of marks and covered cells too, the term refused a lost board's flags (read as mines by
    # the look read from its structure in their place, exit 0) and a learnt client's "?" under the
    # pointer, whose faces its pictures had not seen.
    for char in np.unique(chars[np.isin(chars, list(NUMBERS[1:]))]):
        own = np.unique(of_picture[picture_chars == char])
        # Another state's face is more than twice FACE_NEAR from every face of the number read, so
        # that no pixel moved up to FACE_NEAR from its own face (a JPEG, a colour cast) comes near it.
        apart = (np.abs(faces[:, None] - faces[own][None]).max(axis=2) > 2 * FACE_NEAR).all(axis=1)
        others = np.flatnonzero(apart)
        if len(own) and len(others):
            asked[char] = (own, others)
    unlike = np.zeros(len(chars), dtype=bool)
    if not asked:
        return unlike
    # Only the cells asked about are looked at (most of a board is covered cells).
    looked = np.flatnonzero(np.isin(chars, list(asked)))
    chars = chars[looked]
    pictures, inverse = distinct(np.asarray(cells).reshape(-1, CANONICAL, CANONICAL, 3)[looked])
    k = FACE_MARGIN
    pixels = np.ascontiguousarray(pictures[:, k : CANONICAL - k, k : CANONICAL - k]).reshape(-1, 1, 3)
    # One pass of OpenCV's range test per face over every distinct cell's pixels at once: (faces,
    # distinct cells, pixels), True where the pixel is within FACE_NEAR of the face.
    needed = np.unique(np.concatenate([np.concatenate(pair) for pair in asked.values()]))
    near = np.zeros((len(faces), len(pictures), pixels.shape[0] // len(pictures)), dtype=bool)
    for face in needed:
        inside = cv2.inRange(pixels, faces[face] - FACE_NEAR, faces[face] + FACE_NEAR)
        near[face] = inside.reshape(len(pictures), -1) > 0
    for char, (own, others) in asked.items():
        at = np.unique(inverse[chars == char])
        mine = near[own][:, at].any(axis=0)
        # A pixel near one of its own number's faces is its own.
        theirs = (near[others][:, at] & ~mine).mean(axis=2).max(axis=0)
        refused = (theirs >= FACE_SHOWN) & (theirs > 2 * mine.mean(axis=1))
        unlike[looked] |= (chars == char) & np.isin(inverse, at[refused])
    return unlike


def commonest_colour(pixels: np.ndarray) -> np.ndarray | None:
    """The colour most of ``pixels`` (..., 3) show, to 8 levels a channel (their mean within that
    bin): a face under a mark, a glyph or a bevel. None for no pixels."""
    if not len(pixels):
        return None
    flat = pixels.reshape(-1, 3)
    quantised = (flat // 8).astype(np.int32)
    keys = quantised[:, 0] * 1024 + quantised[:, 1] * 32 + quantised[:, 2]
    values, counts = np.unique(keys, return_counts=True)
    return flat[keys == values[np.argmax(counts)]].mean(axis=0)


@functools.lru_cache(maxsize=64)
def _bank_faces(bank: TemplateBank) -> tuple[np.ndarray, np.ndarray]:
    """The distinct faces (F, 3) of the bank's pictures of states (not of what lies round a board),
    each the commonest colour of a picture inside FACE_MARGIN, and each picture's face (an index into
    them; -1 for a picture of no state)."""
    k = FACE_MARGIN
    faces = [commonest_colour(picture[k : CANONICAL - k, k : CANONICAL - k]) for picture in bank.pictures]
    states = np.array(bank.chars) != OUTSIDE
    # Faces a few levels apart (one tint captured at two sizes) are one, to look for fewer: each joins
    # the first within a third of FACE_NEAR of it.
    unique: list[np.ndarray] = []
    of_picture = np.full(len(faces), -1)
    for index in np.flatnonzero(states):
        same = [j for j, face in enumerate(unique) if np.abs(face - faces[index]).max() <= FACE_NEAR / 3]
        if not same:
            unique.append(faces[index])
        of_picture[index] = same[0] if same else len(unique) - 1
    return np.array(unique), of_picture


# The canonical pixels left out on each side where faces are looked for (gaps, bevels, grid lines).
FACE_MARGIN = CANONICAL // 8
# A pixel shows a face within this many levels (largest channel) of it: gnome-mines' opened grey and
# its 1's green are 28 apart, its tints of neighbouring numbers 15. On the labelled shots of every
# skin, as they are, as JPEG 40 and 95, and scaled 0.98 and 1.02, no cell was refused by
# ``faces_unlike``; scaled 0.94 or 1.06 (casts ``colour_cast`` refuses), 1 cell of 91,000.
FACE_NEAR = 12
# The least share of a cell's pixels in another state's face that says it is that face (the default
# tiles' 121 numbers in the labelled shots, read as tinted ones: 0.68-0.88 in the opened cells' grey).
FACE_SHOWN = 0.3
