"""The fine look: at a size the skin was captured at, a cell read as a number must look like one of
that number's captures pixel for pixel, or it is refused.

The reader compares cells at a small canonical size, which is what lets one capture read a client at
every window size; but there a small digit in a large cell is a few faint pixels, and a number the
skin has no picture of (a learnt skin that never saw a 5: xbomb draws a thin cyan 5 on a 50 px white
cell) can score as a confident 1. Where the skin has captures at the board's own pitch, which is
always so for a learnt skin and for clients with fixed cells, the cell's middle is set against each
capture of the state read, at its own resolution: a picture the client draws for that state differs
from it by a few levels at most, another glyph by far more where their strokes part.
"""

from __future__ import annotations

import functools

import numpy as np

from ..geometry import Lattice
from .skins import Skin

# The states checked: numbers, whose pictures differ by a small glyph.
NUMBERS = frozenset("012345678")
# The share of the cell, centred, that is compared: where the glyph is, and where the live hint
# overlay never draws (it keeps to the outer ~19% of each side).
MIDDLE = 0.6
# How far (px) the middle may sit from where the lattice puts it: a capture and a board are not
# always cut at the same pixel.
REACH = 2
# Captures within this many pixels of the board's pitch count as its own size.
SAME_SIZE = 0.5
# The largest difference (0-255, in the channel that differs most, after a 3x3 blur, a pixel's slip
# forgiven) at any pixel of the middle for a cell drawn like a capture. On every fixture with captures
# at its size, right reads reach 37 (react-minesweeper's 6 at 1.25x; fixed-size clients 0), while a
# number set against an opened 0's captures is at least 67 (xdemineur's 5). The channel that differs
# most, not their mean: xbomb's thin violet 7 on white differs from white mostly in green, and by the
# mean (35) it passed for an opened 0. Other numbers are far on large cells, where the small scale
# loses the glyph; on small ones (gnome-mines at 23 px: a 1 and a 2 are 12 apart) this look decides
# nothing and the small scale, which sees them whole, does.
PEAK = 48.0


def detail_mismatches(frame: np.ndarray, lattice: Lattice, skin: Skin, chars: np.ndarray) -> np.ndarray:
    """Per cell (row-major), True where the cell is read as a number the skin has captures of at this
    pitch and its middle matches none of them. ``chars`` is the reading, one character per cell."""
    return detail_peaks(frame, lattice, skin, chars) > PEAK


def detail_peaks(frame: np.ndarray, lattice: Lattice, skin: Skin, chars: np.ndarray) -> np.ndarray:
    """Per cell, how far its middle is from the captures of the number read, at this pitch (the
    largest difference at one pixel): the first capture within PEAK, else the nearest; 0 where the
    skin has no capture of it at this size."""
    out = np.zeros(lattice.rows * lattice.cols, dtype=np.float32)
    captures = _captures(skin, round(lattice.pitch[0] * 2) / 2, round(lattice.pitch[1] * 2) / 2)
    if not captures:
        return out
    height, width = frame.shape[:2]
    for index in np.flatnonzero(np.isin(chars, list(captures))):
        row, col = divmod(int(index), lattice.cols)
        rect = lattice.cell_rect(row, col)
        char = str(chars[index])
        framed, (mx, my) = captures[char][0]
        # The cell's middle with REACH px to move in, one more px round it for ``_apart`` and one for
        # the blur (captures of one number share their size and place).
        top, left = rect.top + my - REACH - 2, rect.left + mx - REACH - 2
        bottom, right = top + framed.shape[0] + 2 * REACH + 2, left + framed.shape[1] + 2 * REACH + 2
        if top < 0 or left < 0 or bottom > height or right > width:
            continue  # at the frame's edge: not judged here
        raw = frame[top:bottom, left:right]
        # A client draws a number the same way every time: each picture is judged once.
        key = (id(captures), char, raw.shape, raw.tobytes())
        if key not in _judged:
            if len(_judged) > JUDGED_KEPT:
                _judged.clear()
            _judged[key] = _nearest(raw, captures[char])
        out[index] = _judged[key]
    return out


# Pictures already judged: (captures, number, shape, pixels) -> peak.
_judged: dict[tuple, float] = {}
JUDGED_KEPT = 20_000


def _nearest(raw: np.ndarray, captures: list[tuple[np.ndarray, tuple[int, int]]]) -> float:
    import cv2

    region = cv2.blur(raw.astype(np.float32), (3, 3))[1:-1, 1:-1]
    best = np.inf
    for framed, _ in captures:
        if framed.shape != captures[0][0].shape:
            continue
        middle = framed[1:-1, 1:-1]
        fit = cv2.matchTemplate(region[1:-1, 1:-1], middle, cv2.TM_SQDIFF)
        dy, dx = np.unravel_index(int(np.argmin(fit)), fit.shape)
        best = min(best, _apart(region[dy : dy + framed.shape[0], dx : dx + framed.shape[1]], framed))
        if best <= PEAK:
            break
    return float(best)


def _apart(a: np.ndarray, b: np.ndarray) -> float:
    """The largest difference between two pictures (each with a one-pixel frame round the part
    compared; at a pixel, the channel that differs most) at a pixel with no match within one pixel of it in the other, either way: a stroke
    drawn a pixel over (fonts at sizes a fraction of a pixel apart) counts for nothing, a stroke where
    the other picture has none within a pixel counts in full."""

    def one_way(x: np.ndarray, y: np.ndarray) -> float:
        h, w = x.shape[0] - 2, x.shape[1] - 2
        inner = x[1:-1, 1:-1]
        near = np.stack([np.abs(inner - y[dy : dy + h, dx : dx + w]).max(axis=2) for dy in range(3) for dx in range(3)])
        return float(near.min(axis=0).max())

    return max(one_way(a, b), one_way(b, a))


@functools.lru_cache(maxsize=64)
def _captures(skin: Skin, pitch_x: float, pitch_y: float) -> dict[str, list[tuple[np.ndarray, tuple[int, int]]]]:
    """For each number with captures at this pitch: (the middle of each capture with a one-pixel frame,
    blurred, float32; the offset (x, y) of the middle in the pitch box)."""
    import cv2

    found: dict[str, list[tuple[np.ndarray, tuple[int, int]]]] = {}
    for template in skin.templates:
        if template.char not in NUMBERS:
            continue
        if abs(template.pitch[0] - pitch_x) > SAME_SIZE or abs(template.pitch[1] - pitch_y) > SAME_SIZE:
            continue
        image = cv2.blur(template.image.astype(np.float32), (3, 3))
        h, w = image.shape[:2]
        mx, my = round(w * (1 - MIDDLE) / 2), round(h * (1 - MIDDLE) / 2)
        found.setdefault(template.char, []).append((np.ascontiguousarray(image[my - 1 : h - my + 1, mx - 1 : w - mx + 1]), (mx, my)))
    return found
