"""The last look at a weak cell: its glyph sought wherever it sits in the cell and at whatever size.

Some clients do not scale their icons with the cell. gnome-mines draws its flag smaller and further
to the left in a 30 px cell than in a 23 or a 38 px one, so at a window size no capture was made at,
a flag matched no picture of the skin where the lattice puts it, and a won game (the client flags
every mine) could not be read. Here the middle of every picture of the skin (of every size: a
client may draw a glyph at this size as at another), zoomed a few steps either way, is slid over the
middle of the cell in colour at a finer scale than the canonical one; each state scores its best
fit, and the cell is read only when one state fits clearly better than every other
(``cells.confidence``). Weak cells only: a few milliseconds each.
"""

from __future__ import annotations

import functools

import numpy as np

from ..geometry import Lattice
from .cells import ByPicture, CellMatches, confidence, cut_out, squared_distances
from .skins import Skin

# The side (px) both the cell and the pictures are scaled to for this look: fine enough for a glyph
# moved by a tenth of a cell to move by whole pixels.
SIDE = 32
# The share of a picture, centred, that is slid over the cell: the glyph, little of the border.
MIDDLE = 0.6
# How far the picture's middle may move from the cell's middle, each way (share of the cell): the
# client's glyph off the middle (~0.1) and a straight lattice off a toolkit's uneven cells (~0.15).
REACH = 0.25
# Zooms of the pictures: a glyph drawn at 0.75-1.3 times the size a capture shows it at is found.
ZOOMS = (0.75, 0.82, 0.9, 1.0, 1.1, 1.2, 1.3)
# Two middles of one state closer than this (RMS, 0-255) are one.
REPEAT = 2.0
# More weak cells than this are left to the earlier looks: something covers the board. (A won
# gnome-mines expert board shows 99 flags, each a little different from the others.)
MOST_CELLS = 160


def judge_weak_by_glyph(matches: CellMatches, frame: np.ndarray, lattice: Lattice, skin: Skin, threshold: float,
                        settled: np.ndarray | None = None) -> CellMatches:
    """``matches`` with each cell below ``threshold`` (and not ``settled``) replaced by this look's
    reading where that is more confident."""
    weak = matches.confidence < threshold
    if settled is not None:
        weak &= ~settled
    indices = np.flatnonzero(weak)
    if not len(indices) or len(indices) > MOST_CELLS:
        return matches
    fields = {name: getattr(matches, name).copy() for name in CellMatches.FIELDS}
    for index in indices:
        (best, best_rms), (second, second_rms), score = glyph_look(frame, lattice, skin, int(index))
        if score > fields["confidence"][index]:
            fields["chars"][index], fields["second_chars"][index] = best, second
            fields["best_rms"][index], fields["second_rms"][index] = best_rms, second_rms
            fields["confidence"][index] = score
    return CellMatches(**fields)


def glyph_look(frame: np.ndarray, lattice: Lattice, skin: Skin, index: int):
    """This look at cell ``index``: its best (state, RMS), its second, and its confidence. Once per
    picture: a board's weak cells are mostly drawn alike, pixel for pixel (a won board's flags), and
    the frames of a game in play show them again and again (kept by the pixels cut, before scaling,
    so that a picture seen before costs no scaling either)."""
    cut = _cut(frame, lattice, index)
    ranked = _looked.get(cut, (skin,), lambda: _fits(_region(cut), *_middles(skin)) + [("", np.inf)])
    (best, best_rms), (second, second_rms) = ranked[0], ranked[1]
    return (best, best_rms), (second, second_rms), float(confidence(np.array([best_rms]), np.array([second_rms]))[0])


# Regions already looked at, with each skin: the states ranked by fit.
_looked = ByPicture(5_000)


def _cut(frame: np.ndarray, lattice: Lattice, index: int) -> np.ndarray:
    """The cell's middle with REACH round it, as the frame has it."""
    rect = lattice.cell_rect(*divmod(index, lattice.cols))
    side = _region_side()
    half_x, half_y = side * rect.width / SIDE / 2, side * rect.height / SIDE / 2
    cx, cy = rect.left + rect.width / 2, rect.top + rect.height / 2
    return cut_out(frame, int(np.floor(cx - half_x)), int(np.floor(cy - half_y)),
                   int(np.ceil(cx + half_x)), int(np.ceil(cy + half_y)))


def _region(cut: np.ndarray) -> np.ndarray:
    """A cell's ``_cut`` scaled as a cell of SIDE px would be, and softened."""
    import cv2

    side = _region_side()
    return _soft(cv2.resize(cut, (side, side), interpolation=cv2.INTER_AREA))


def _region_side() -> int:
    """The side (px, at SIDE px a cell) of what the middles are slid over."""
    return round(SIDE * MIDDLE) + 2 * round(SIDE * REACH)


def _fits(region: np.ndarray, chars: tuple[str, ...], middles: np.ndarray) -> list[tuple[str, float]]:
    """Each state's best fit to a cell's ``region`` (RMS, 0-255), best first: every middle at every
    place, as one matrix product (``cells.squared_distances``)."""
    side = round(SIDE * MIDDLE)
    patches = np.lib.stride_tricks.sliding_window_view(region, (side, side), axis=(0, 1)).transpose(0, 1, 3, 4, 2)
    patches = patches.reshape(-1, middles.shape[1])
    rms = np.sqrt(squared_distances(np.ascontiguousarray(patches), middles).min(axis=0) / middles.shape[1])
    best: dict[str, float] = {}
    for char, value in zip(chars, rms):
        best[char] = min(best.get(char, np.inf), float(value))
    return sorted(best.items(), key=lambda item: item[1])


@functools.lru_cache(maxsize=16)
def _middles(skin: Skin) -> tuple[tuple[str, ...], np.ndarray]:
    """(chars, middles as rows) for every picture of the skin (at every size: the
    client may draw a glyph at this size as at any other) and every zoom."""
    import cv2

    side = round(SIDE * MIDDLE)
    chars, middles = [], []
    for template in skin.templates:
        picture = cv2.resize(template.image, (SIDE, SIDE), interpolation=cv2.INTER_AREA)
        for zoom in ZOOMS:
            size = round(SIDE * zoom)
            zoomed = cv2.resize(picture, (size, size), interpolation=cv2.INTER_AREA if zoom < 1 else cv2.INTER_LINEAR)
            start = (size - side) // 2
            chars.append(template.char)
            middles.append(_soft(zoomed[start : start + side, start : start + side]).reshape(-1))
    chars, matrix = _distinct(np.array(chars), np.stack(middles))
    matrix.flags.writeable = False  # so that ``squared_distances`` keeps what it works out of them
    return tuple(chars), matrix


def _distinct(chars: np.ndarray, middles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The middles without near-repeats of one state (captures of one look at near sizes, zoomed to
    the same picture): each costs time on every weak cell and adds nothing."""
    keep = []
    for char in dict.fromkeys(chars.tolist()):
        rows = np.flatnonzero(chars == char)
        group = middles[rows]
        apart = np.sqrt(squared_distances(group, group) / group.shape[1])
        kept: list[int] = []
        for i in range(len(rows)):
            if not kept or apart[i, kept].min() >= REPEAT:
                kept.append(i)
        keep += [rows[i] for i in kept]
    keep.sort()
    return chars[keep], middles[keep]


def _soft(picture: np.ndarray) -> np.ndarray:
    """The picture in colour, a little blurred so that a glyph half a pixel off costs little: float32.
    Colour, not grey levels: this look decides cells no earlier look could, and in grey levels a dark
    box drawn over the board (a tooltip) fit gnome-mines' wrong flag on its red square (RMS 6)."""
    import cv2

    return cv2.GaussianBlur(picture.astype(np.float32), (3, 3), 0.8)


__all__ = ["judge_weak_by_glyph"]
