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

A skin that lacks a number (learnt from games that never showed a 6) meets glyphs it has no picture of,
and where a client's numbers differ little at the pixel that differs most, one can pass for another:
gnome-mines draws small dark digits on a tint of its own per number, and at 23 px its 6 is 29 from its
5's pictures there, inside the limit (which right reads at fractional sizes need). Over the whole middle
they differ much more (25 on average, a tint and a stroke), while a right read differs only where an
edge falls a fraction of a pixel otherwise. So such a skin also holds a number to the mean difference:
within ``NEAR_SHARE`` of how far that number's own pictures are from the nearest other number's (the
skin's pictures of that size set against each other as cells would be), a measure each skin and size
brings with it; never less than what the capture alone may add (``CAPTURE_NOISE``).
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import numpy as np

from ..geometry import Lattice, Rect
from .calibration import Limits
from .calibration import limits as skin_limits
from .cells import best_place
from .skins import Skin, pitch_distance
from .unseen import lacks_a_number

# The states checked: numbers, whose pictures differ by a small glyph.
NUMBERS = frozenset("012345678")
# The share of the cell, centred, that is compared: where the glyph is, and where the live hint
# overlay never draws (it keeps to the outer ~19% of each side).
MIDDLE = 0.6
# How far (px) the middle may sit from where the lattice puts it: a capture and a board are not
# always cut at the same pixel.
REACH = 2
# Half a pixel each way, x, y and both: how far a client that centres its glyph in its box draws it
# from where it drew it in a box a pixel wider or taller. GTK gives a window's spare pixels to the
# first lines of cells, so one board has boxes of two widths: gnome-mines' 2 in a 23 px box of a 23.87
# px board is sharp where its pictures of that pitch, cut from 24 px boxes, are anti-aliased over two
# pixels, 64-81 apart at the stem. Moved half a pixel (each pixel the mean of two), the sharp glyph is
# the anti-aliased one; the cell is moved and the capture, whichever of the two is the sharp one. A
# cell is set against the moved pictures only where none as cut is within the limits.
HALF_PIXEL = ((0.5, 0.0), (0.0, 0.5), (0.5, 0.5))
# Captures within this many pixels of the board's pitch count as its own size.
SAME_SIZE = 0.5
# How far a cell may be from its pictures (``calibration.Limits``; the skin's own, or the pooled ones)
# is measured, not set here: the largest difference (0-255, in the channel that differs most, after a
# 3x3 blur, a pixel's slip forgiven) at any pixel of the middle, halfway between the farthest right
# read and the nearest wrong one on the labelled shots, as captured and as JPEG. The channel that
# differs most, not their mean: xbomb's thin violet 7 on white differs from white mostly in green, and
# by the mean (35) it passed for an opened 0. Other numbers are far on large cells, where the small
# scale loses the glyph; on small ones (gnome-mines at 23 px: a 2 and a 3 are 21 apart) this look
# decides nothing and the small scale, which sees them whole, does, or for a number the skin lacks,
# ``NEAR_SHARE``.
# Zooms of a capture of another size, as a share of the cell's pitch over the capture's: a font that
# grows with the cell but not in step (gnome-mines' digits at the sizes between its captures are
# 0.85-1.25 times that size). A capture is also tried as it is (xbomb draws the same digits at 44,
# 50 and 62 px).
ZOOMS = (0.85, 0.92, 1.0, 1.08, 1.16, 1.25)
# Pictures of another size are held to a limit of their own (``calibration.OTHER``): a number far in
# size from every picture of it may be refused (gnome-mines' 99 px cells from its 57.56 px pictures,
# 1.7 times: 2 right reads of 173 reach 59 and 93).
# For a skin that lacks a number: the largest mean difference (``_apart``) between a cell read as a
# number and that number's pictures, as a share of the least mean difference between a picture of it
# and one of another number of that size (the skin's own, less the numbers it lacks). Measured on every
# number cell of the labelled screenshots (1971 distinct pictures; gnome-mines, minegauler,
# react-minesweeper, sgt-mines, xbomb, xdemineur; 16-99 px): set against the pictures of its own
# number (every other number in the skin, so the share is the largest it can be), a cell reaches 0.22
# (gnome-mines' 2 at 38 px: 4.1 of 18.3; react-minesweeper's 1 at 1.25x: 0.21), 0.24 against
# gnome-mines' pictures of another size; set against another number's pictures, its own left out of
# the skin, 0.47 or more, and where the peak's limits let it pass (gnome-mines up to 41 px)
# 0.51 (its 2 as a 1 at 31.7 px from 38 px pictures: 15.8 of 30.9; 0.54 at a size it has pictures
# of). gnome-mines' 6 against the 5 of a skin of 0-5 at 23 px: 25.0 of 30.4. Pictures of one number at
# one size are up to 0.25 apart (KMines' see-through 0 over the shades of its background at 37 px).
# xbomb's 5 at 44-62 px against its 20 px pictures (0.72-0.93) is refused, as the peak refused it.
NEAR_SHARE = 1 / 3
# ... but never less than this (0-255): what the capture alone may add to every pixel, the client's
# drawing aside. A 16-bit capture, restored (``colour_cast.restore_16_bit``), is up to 4 levels off in
# a channel at every pixel; xbomb's thin digits on 50 px white cells differ from one another by 4.2-6.9
# on average, so their share alone (1.4-2.3) refused such captures read with the shipped xbomb skin (it
# has no 8). The peak tells those digits apart (113 and more); gnome-mines' numbers that pass it differ
# by 13.8 or more. JPEG's error is larger (a mean of 5-20 at quality 95 around coloured digits): with
# a skin that lacks a number, a JPEG is more often refused.
CAPTURE_NOISE = 5.0


# Limits no picture is within but an identical one: the distances to the nearest picture (what the
# calibration measures, whatever the limits of the day).
NEAREST = Limits(1e-9, 1e-9)


class Mismatches(NamedTuple):
    """Per cell (row-major): ``unlike``, read as a number its middle matches no picture of;
    ``untaught``, those of them judged by pictures of another size (the skin has none of that number
    at this one: it may be a number the client draws differently here, or one the skin lacks)."""

    unlike: np.ndarray
    untaught: np.ndarray


def detail_mismatches(frame: np.ndarray, lattice: Lattice, skin: Skin, chars: np.ndarray) -> Mismatches:
    """Which cells read as a number (``chars``, one character per cell) look like none of its pictures."""
    limits = skin_limits(skin.margins)
    peaks, means, mean_limits, scaled = detail_distances(frame, lattice, skin, chars, limits)
    unlike = (peaks > np.where(scaled, limits.other, limits.own)) | (means > mean_limits)
    return Mismatches(unlike, unlike & scaled)


def detail_distances(frame: np.ndarray, lattice: Lattice, skin: Skin, chars: np.ndarray,
                     limits: Limits) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per cell, how far its middle is from the pictures of the number read: the largest difference at
    one pixel and the mean one, against the first picture within the limits (``limits``; with
    ``NEAREST``, always the nearest), else the nearest; 0 where the skin has no picture of it. Per cell, the limit of the mean (``NEAR_SHARE``, ``CAPTURE_NOISE``;
    infinite for a skin with every number). And per cell, whether those were captures of another size brought to
    this one."""
    if lattice.scale != 1.0:
        frame, lattice = as_drawn(frame, lattice)
    count = lattice.rows * lattice.cols
    peaks, means = np.zeros(count, dtype=np.float32), np.zeros(count, dtype=np.float32)
    mean_limits = np.full(count, np.inf, dtype=np.float32)
    scaled = np.zeros(count, dtype=bool)
    pitch = (round(lattice.pitch[0] * 2) / 2, round(lattice.pitch[1] * 2) / 2)
    own = _captures(skin, *pitch)
    lacking = lacks_a_number(skin)
    height, width = frame.shape[:2]
    for index in np.flatnonzero(np.isin(chars, list(NUMBERS))):
        row, col = divmod(int(index), lattice.cols)
        rect = lattice.cell_rect(row, col)
        char = str(chars[index])
        taught = char in own
        captures = own[char] if taught else _scaled_captures(skin, char, rect.width, rect.height, *pitch)
        if not captures:
            continue
        if lacking:
            size = pitch if taught else _nearest_size(skin, char, *pitch)
            mean_limit = max(NEAR_SHARE * _separations(skin, *size).get(char, math.inf), CAPTURE_NOISE)
        else:
            mean_limit = math.inf
        framed, (mx, my) = captures[0]
        # The cell's middle with REACH px to move in, one more px round it for ``_apart``, one for the
        # blur and COLOUR_SPAN // 2 for the colour's (pictures of one number share their size and place).
        room = REACH + 2 + COLOUR_SPAN // 2
        top, left = rect.top + my - room, rect.left + mx - room
        bottom, right = top + framed.shape[0] + 2 * room - 2, left + framed.shape[1] + 2 * room - 2
        if top < 0 or left < 0 or bottom > height or right > width:
            continue  # at the frame's edge: not judged here
        raw = frame[top:bottom, left:right]
        # A client draws a number the same way every time: each picture is judged once.
        peak_limit = limits.own if taught else limits.other
        key = (id(captures), char, raw.shape, raw.tobytes(), peak_limit, mean_limit)
        # The captures are kept with the result: while it is kept, their id is no other pictures'.
        if key not in _judged or _judged[key][0] is not captures:
            if len(_judged) > JUDGED_KEPT:
                _judged.clear()
            spread = COLOUR_SPAN // 2  # the pixels the colour's average reaches for past the room above
            kept = as_kept(raw)[spread : raw.shape[0] - spread, spread : raw.shape[1] - spread]
            _judged[key] = (captures, _nearest(kept, captures, peak_limit, mean_limit))
        peaks[index], means[index] = _judged[key][1]
        mean_limits[index], scaled[index] = mean_limit, not taught
    return peaks, means, mean_limits, scaled


# Over how many pixels (a square this wide) a cell's colour is compared; its brightness is compared at
# every pixel. A JPEG keeps colour at half the resolution and blurs it over its 8x8 blocks: a blue 1
# saved at quality 95 bleeds blue into the grey round its strokes. Compared in every channel at every
# pixel, such a 1 was up to 60 from its own pictures (minegauler's at 16 px; xdemineur's 50, sgt-mines'
# 50: over the limit of the day, 48, refused), while a 1 against minegauler's 4 was 61 and
# xdemineur's thin 5 against its opened 0 57 (65 as captured): no limit told them apart. Compared so,
# right reads of the labelled shots' number cells are at most 34 from the nearest picture of their
# own size as captured and as JPEGs of quality 80-95, and a cell is at least 49 from another number's
# or an opened 0's (xdemineur's 5 against its 0; gnome-mines' numbers aside, which the small scale
# tells apart): each skin's ``calibration.json``, written by ``python3 -m lab detail-margins --write``.
COLOUR_SPAN = 5


def as_kept(image: np.ndarray) -> np.ndarray:
    """``image`` (BGR uint8) with its colour averaged over ``COLOUR_SPAN`` px, its brightness as it is:
    what every capture keeps, a JPEG's too."""
    import cv2

    ycc = cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb)
    ycc[..., 1:] = cv2.blur(np.ascontiguousarray(ycc[..., 1:]), (COLOUR_SPAN, COLOUR_SPAN))
    return cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR)


# Pictures already judged: (captures' id, number, shape, pixels, limits) -> (captures, (peak, mean)).
_judged: dict[tuple, tuple[object, tuple[float, float]]] = {}
JUDGED_KEPT = 20_000


def _nearest(raw: np.ndarray, captures: list[tuple[np.ndarray, tuple[int, int]]], limit: float,
             mean_limit: float = math.inf) -> tuple[float, float]:
    """(peak, mean) of ``raw`` (a cell's middle with room round it, as ``detail_distances`` cuts it)
    against the first capture within both limits, else against the one nearest them."""
    import cv2

    region = cv2.blur(raw.astype(np.float32), (3, 3))[1:-1, 1:-1]
    best, worst = (math.inf, math.inf), math.inf
    # As cut first; then, only if no capture is within the limits, each of the two moved half a pixel
    # (the phases: ``HALF_PIXEL``).
    for moved_cell, moved_capture in ((None, None), *((half, None) for half in HALF_PIXEL),
                                      *((None, half) for half in HALF_PIXEL)):
        cell = region if moved_cell is None else _moved(region, moved_cell)
        for framed, _ in captures:
            if framed.shape != captures[0][0].shape:
                continue
            picture = framed if moved_capture is None else _moved(framed, moved_capture)
            peak, mean = _apart(_aligned(cell, picture), picture)
            over = max(peak / limit, mean / mean_limit if mean_limit > 0 else math.inf)
            if over < worst:
                best, worst = (peak, mean), over
            if over <= 1.0:
                return best
    return best


def _moved(image: np.ndarray, by: tuple[float, float]) -> np.ndarray:
    """``image`` (float32) moved by ``by`` (x, y) pixels, each pixel the linear mix of those it now
    overlaps (the edge pixels repeated into what comes in)."""
    import cv2

    shift = np.float32([[1, 0, by[0]], [0, 1, by[1]]])
    return cv2.warpAffine(image, shift, (image.shape[1], image.shape[0]), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def _aligned(region: np.ndarray, framed: np.ndarray) -> np.ndarray:
    """The part of ``region`` (blurred, REACH px round the place of ``framed``) that fits ``framed``
    best."""
    dy, dx = best_place(region[1:-1, 1:-1], (framed[1:-1, 1:-1],))
    return region[dy : dy + framed.shape[0], dx : dx + framed.shape[1]]


def _apart(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """The largest and the mean difference between two pictures (each with a one-pixel frame round the
    part compared; at a pixel, the channel that differs most, from the nearest pixel within one pixel
    of it in the other, either way): a stroke drawn a pixel over (fonts at sizes a fraction of a pixel
    apart) counts for nothing, a stroke where the other picture has none within a pixel counts in
    full, and so does a tint over the whole middle."""

    def one_way(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        h, w = x.shape[0] - 2, x.shape[1] - 2
        inner = x[1:-1, 1:-1]
        near = np.stack([np.abs(inner - y[dy : dy + h, dx : dx + w]).max(axis=2) for dy in range(3) for dx in range(3)])
        return near.min(axis=0)

    there, back = one_way(a, b), one_way(b, a)
    return float(max(there.max(), back.max())), float(max(there.mean(), back.mean()))


def as_drawn(frame: np.ndarray, lattice: Lattice) -> tuple[np.ndarray, Lattice]:
    """A board drawn at a desktop's scale (``Lattice.scale``) as its client drew it before the scale: the
    board and a cell round it, shrunk by the scale (each pixel the mean of those it covers), and its
    lattice there. Its glyphs, drawn sharp at the larger size, then compare with the pictures pixel for
    pixel as at 100%, where an enlarged picture would be blurred beside them."""
    import cv2

    scale = lattice.scale
    height, width = frame.shape[:2]
    area = lattice.board_rect().expanded(int(np.ceil(max(lattice.pitch)))).clipped(Rect(0, 0, width, height))
    shown = frame[area.top : area.bottom, area.left : area.right]
    small = cv2.resize(shown, (max(1, round(area.width / scale)), max(1, round(area.height / scale))),
                       interpolation=cv2.INTER_AREA)
    xs = tuple((x - area.left) / scale for x in lattice.col_edges())
    ys = tuple((y - area.top) / scale for y in lattice.row_edges())
    return small, Lattice.from_edges(lattice.skin, xs, ys)


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
        image = cv2.blur(as_kept(template.image).astype(np.float32), (3, 3))
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

    if char not in NUMBERS or char not in skin.chars:
        return ()
    nearest = _nearest_size(skin, char, pitch_x, pitch_y)
    mine = [t for t in skin.templates if t.char == char]
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
            image = cv2.blur(as_kept(image).astype(np.float32), (3, 3))
            x, y = (size[0] - side_x) // 2, (size[1] - side_y) // 2
            found.append((np.ascontiguousarray(image[y : y + side_y, x : x + side_x]), (mx, my)))
    return tuple(found)


def _nearest_size(skin: Skin, char: str, pitch_x: float, pitch_y: float) -> tuple[float, float]:
    """The pitch of the skin's pictures of ``char`` nearest this one (log distance: 20 to 40 px is as
    far as 40 to 80)."""
    return min({t.pitch for t in skin.templates if t.char == char}, key=lambda p: pitch_distance(p, (pitch_x, pitch_y)))


@functools.lru_cache(maxsize=64)
def _separations(skin: Skin, pitch_x: float, pitch_y: float) -> dict[str, float]:
    """For each number with captures at this pitch, how far the nearest other number is from it: the
    least mean difference (``_apart``) of a picture of another number of this size set against its
    captures, as a cell showing that number would be."""
    import cv2

    own = _captures(skin, pitch_x, pitch_y)
    pictures = [t for t in skin.templates if t.char in own
                and abs(t.pitch[0] - pitch_x) <= SAME_SIZE and abs(t.pitch[1] - pitch_y) <= SAME_SIZE]
    room = REACH + 2
    found = {}
    for char, captures in own.items():
        framed, (mx, my) = captures[0]
        alike = [f for f, _ in captures if f.shape == framed.shape]
        nearest = math.inf
        for picture in (t for t in pictures if t.char != char):
            # A picture is one pitch box: its edge pixels drawn on give the middle room to move in.
            box = cv2.copyMakeBorder(as_kept(picture.image), room, room, room, room, cv2.BORDER_REPLICATE)
            raw = box[my : my + framed.shape[0] + 2 * REACH + 2, mx : mx + framed.shape[1] + 2 * REACH + 2]
            region = cv2.blur(raw.astype(np.float32), (3, 3))[1:-1, 1:-1]
            nearest = min(nearest, *(_apart(_aligned(region, f), f)[1] for f in alike))
        found[char] = nearest
    return found
