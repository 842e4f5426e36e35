"""The fine look: a cell read as a number must look like one of that number's pictures pixel for
pixel, or it is refused.

The reader compares cells at a small canonical size, which is what lets one capture read a client at
every window size; but there a small digit in a large cell is a few faint pixels, and a number the
skin has no picture of (a learnt skin that never saw a 5: xbomb draws a thin cyan 5 on a 50 px white
cell) can score as a confident 1. Where the skin has captures of the number read at the board's own
pitch, which is always so for a learnt skin and for clients with fixed cells, the cell's middle is set
against each of them at its own resolution: a picture the client draws for that state differs from
it by a few levels at most, another glyph by far more where their strokes part.

At a pitch the skin has no capture of that number at (xbomb's windows give 44, 51, 56 px cells, its
skin has 5-7 at 20 px only), the captures of the nearest size stand in, brought to the cell's own
resolution: as they are (a client that draws its digits at one pixel size whatever the cell) and
scaled with the cell, give or take a little (a client whose font grows with the cell, not exactly
in step). A number the client draws unlike all of these is refused: at worst a right number at a
size far from every capture of it, never a wrong one read with exit 0.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

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
# Zooms of a capture of another size, as a share of the cell's pitch over the capture's: a font that
# grows with the cell but not in step (gnome-mines' digits at the sizes between its captures are
# 0.85-1.25 times that size). A capture is also tried as it is (xbomb draws the same digits at 44,
# 50 and 62 px).
ZOOMS = (0.85, 0.92, 1.0, 1.08, 1.16, 1.25)
# The limit of ``PEAK`` for pictures of another size. Measured on number cells of every fixture (up
# to 6 of each number a shot shows) and of real xbomb boards at 44-62 px, each set against the
# pictures of the nearest size other than its own: right reads reach 41 (gnome-mines' 2 at 27.45 px
# from 24.36 px pictures), 40 on react-minesweeper, 36 on minegauler, 0 on xbomb's 44-62 px cells
# from its 50 px pictures; a cell set against another number's pictures is at least 86 on xbomb's
# large cells (its 5 against its 1: 119 and more), 87 on minegauler, 122 on react-minesweeper, 65
# on gnome-mines from 37 px up. Below ~33 px gnome-mines' numbers come as near as 20: this look
# decides nothing there, nor does ``PEAK``'s at 23 px. Across a gap wider than any between two sizes
# of a skin (gnome-mines' 99 px cells from its 57.56 px pictures, 1.7 times), 2 right reads of 173
# reach 59 and 93: a number far in size from every picture of it may be refused.
SCALED_PEAK = 56.0


class Mismatches(NamedTuple):
    """Per cell (row-major): ``unlike``, read as a number its middle matches no picture of;
    ``untaught``, those of them judged by pictures of another size (the skin has none of that number
    at this one: it may be a number the client draws differently here, or one the skin lacks)."""

    unlike: np.ndarray
    untaught: np.ndarray


def detail_mismatches(frame: np.ndarray, lattice: Lattice, skin: Skin, chars: np.ndarray) -> Mismatches:
    """Which cells read as a number (``chars``, one character per cell) look like none of its pictures."""
    peaks, scaled = detail_peaks(frame, lattice, skin, chars)
    unlike = peaks > np.where(scaled, SCALED_PEAK, PEAK)
    return Mismatches(unlike, unlike & scaled)


def detail_peaks(frame: np.ndarray, lattice: Lattice, skin: Skin,
                 chars: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per cell, how far its middle is from the pictures of the number read (the largest difference at
    one pixel): the first picture within the limit, else the nearest; 0 where the skin has no picture
    of it. And per cell, whether those were captures of another size brought to this one."""
    out = np.zeros(lattice.rows * lattice.cols, dtype=np.float32)
    scaled = np.zeros(len(out), dtype=bool)
    pitch = (round(lattice.pitch[0] * 2) / 2, round(lattice.pitch[1] * 2) / 2)
    own = _captures(skin, *pitch)
    height, width = frame.shape[:2]
    for index in np.flatnonzero(np.isin(chars, list(NUMBERS))):
        row, col = divmod(int(index), lattice.cols)
        rect = lattice.cell_rect(row, col)
        char = str(chars[index])
        taught = char in own
        captures = own[char] if taught else _scaled_captures(skin, char, rect.width, rect.height, *pitch)
        if not captures:
            continue
        framed, (mx, my) = captures[0]
        # The cell's middle with REACH px to move in, one more px round it for ``_apart`` and one for
        # the blur (pictures of one number share their size and place).
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
            _judged[key] = _nearest(raw, captures, PEAK if taught else SCALED_PEAK)
        out[index], scaled[index] = _judged[key], not taught
    return out, scaled


# Pictures already judged: (captures, number, shape, pixels) -> peak.
_judged: dict[tuple, float] = {}
JUDGED_KEPT = 20_000


def _nearest(raw: np.ndarray, captures: list[tuple[np.ndarray, tuple[int, int]]], limit: float) -> float:
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
        if best <= limit:
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


@functools.lru_cache(maxsize=256)
def _scaled_captures(skin: Skin, char: str, width: int, height: int, pitch_x: float,
                     pitch_y: float) -> tuple[tuple[np.ndarray, tuple[int, int]], ...]:
    """For a cell of ``width`` x ``height`` px at a pitch the skin has no capture of ``char`` at: the
    captures of the nearest size (log distance: 20 to 40 px is as far as 40 to 80) as they are and at
    each of ZOOMS, each cut to the cell's middle with a one-pixel frame, blurred (as ``_captures``
    gives them); the offset (x, y) of the middle in the cell's box. Empty when the skin has none."""
    import cv2

    mine = [t for t in skin.templates if t.char == char]
    if char not in NUMBERS or not mine:
        return ()
    nearest = min({t.pitch for t in mine},
                  key=lambda p: abs(math.log(p[0] / pitch_x)) + abs(math.log(p[1] / pitch_y)))
    mx, my = round(width * (1 - MIDDLE) / 2), round(height * (1 - MIDDLE) / 2)
    side_x, side_y = width - 2 * mx + 2, height - 2 * my + 2
    found = []
    # The likeliest zooms first (``_nearest`` stops at the first picture within the limit).
    for zoom in sorted([None, *ZOOMS], key=lambda z: abs(z - 1.0) if z else 0.05):
        for template in (t for t in mine if t.pitch == nearest):
            h, w = template.image.shape[:2]
            zoom_x, zoom_y = (1.0, 1.0) if zoom is None else (width / w * zoom, height / h * zoom)
            size = (round(w * zoom_x), round(h * zoom_y))
            if size[0] < side_x + 2 or size[1] < side_y + 2:
                continue  # smaller than the middle compared: a picture of a small cell's whole face
            shrink = size[0] <= w
            image = cv2.resize(template.image, size, interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
            image = cv2.blur(image.astype(np.float32), (3, 3))
            x, y = (size[0] - side_x) // 2, (size[1] - side_y) // 2
            found.append((np.ascontiguousarray(image[y : y + side_y, x : x + side_x]), (mx, my)))
    return tuple(found)
