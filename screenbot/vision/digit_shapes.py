"""A number's shape, as a second witness to the colour the classic look reads it by.

The classic look (``classic``) tells the numbers apart by their standard colours. A client that draws
its numbers in other colours was read wrong with exit 0: pygame-minesweeper's "2.0" tiles draw the
3 green (the standard 2's colour) and the 2 teal (near the 6's), each read as that number wherever
the board's counts allowed it. The shapes of the digits are the same in every look that shows them:
here the ink of a cell is set against the digits of every shipped skin's pictures (several fonts:
Windows' bitmap digits, GTK's, a browser's, X11's), each ink cropped to its extent and stretched to a
square of SHAPE pixels (a narrow one centred in it); a cell whose ink is clearly nearer another digit
than the one its colour says is refused by name. A font unlike all of them is told less surely: of
96 lone numbers drawn in the look's test font, each in another number's standard colour, 84 were
refused and 12 read as the colour says.

Where the colour says nothing (no standard number has it, or it lies between two), a shape that is
clearly one digit's (``clear_digit``: nearer it than every other digit and every other mark the skins
draw, a flag, a mine, a "?") reads the number: the colours are a convention some clients keep and
others do not, the digits' shapes are what every client draws.
"""

from __future__ import annotations

import functools

import numpy as np

# The side (px) of the square each digit's ink is scaled to: fine enough to tell a 3's open left from a
# 2's base, coarse enough that fonts of one digit stay near one another.
SHAPE = 12
# The colour's number is refused where another digit's nearest shape is nearer than this share of its
# own nearest. Measured (``python3 -m lab digit-shapes``) on the 4,302 number cells of the labelled
# shots of the clients in the classic look (minegauler, xdemineur, sgt-mines, the React page,
# minesweeper-for-web), each set against the other clients' pictures only: another digit nearer than
# its own in 35, none under 0.89 of its distance (the React page's 8 at 200%); pygame-minesweeper's
# green 3, read as a 2 by its colour, is refused.
CLEARLY_NEARER = 0.8
# A shape reads a number whose colour says nothing only where its digit's nearest picture is nearer
# than this share of every other digit's and mark's. Measured as CLEARLY_NEARER: of the 4,315 number
# cells, 4,054 read so, 261 not, none wrong; of the 1,687 mines and wrong flags on their opened cells,
# none read as a number; of 600 lone digits drawn at 15-60 px in OpenCV's six fonts, in random dark
# colours, 248 read, none wrong at this share (2 wrong at 0.8: 5s nearer a 6).
CLEAR_DIGIT = 0.7
DIGITS = "12345678"
# Ink at least this wide for its height is stretched to the square (``shape_of``); narrower, centred in it.
NARROW = 0.45
# The other marks a digit's shape is set against (``clear_digit``): flag, mine, wrong flag, hit mine, "?".
MARKS = "F*WX?"


def shape_of(mask: np.ndarray) -> np.ndarray | None:
    """A (SHAPE * SHAPE,) float32 vector of the ink ``mask`` (2-D bool): cropped to its extent, stretched
    to a square (centred in one where narrower than NARROW of its height), scaled (each pixel the share
    of it that is ink); None for no ink."""
    import cv2

    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    if not len(rows):
        return None
    ink = mask[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1].astype(np.float32)
    if ink.shape[1] >= NARROW * ink.shape[0]:
        # Stretched to the square: fonts draw a digit narrow or wide (minesweeper-for-web's bold 5 is
        # as wide as it is tall, and centred in a square it came nearer another font's wide 6 than any 5).
        return cv2.resize(ink, (SHAPE, SHAPE), interpolation=cv2.INTER_AREA).reshape(-1)
    # A narrow mark (a 1, most fonts' 1 without a foot) keeps its shape, centred in a square: stretched,
    # a bar is a block, like any other ink filling its extent.
    side = max(ink.shape)
    square = np.zeros((side, side), dtype=np.float32)
    top, left = (side - ink.shape[0]) // 2, (side - ink.shape[1]) // 2
    square[top : top + ink.shape[0], left : left + ink.shape[1]] = ink
    return cv2.resize(square, (SHAPE, SHAPE), interpolation=cv2.INTER_AREA).reshape(-1)


@functools.lru_cache(maxsize=4)
def exemplars(ink_level: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(shapes (N, SHAPE * SHAPE), states (N,), skins (N,)) of every number and mark picture (``MARKS``)
    of the shipped skins, a pixel being ink where a channel differs from the picture's face by more
    than ``ink_level``."""
    from .skins import TEMPLATES_DIR, load_skins

    shapes, states, owners = [], [], []
    for name, skin in load_skins(TEMPLATES_DIR).items():
        for template in skin.templates:
            if template.char in DIGITS + MARKS:
                shape = shape_of(picture_ink(template.canonical.astype(np.float32), ink_level))
                if shape is not None:
                    shapes.append(shape)
                    states.append(template.char)
                    owners.append(name)
    return np.array(shapes, dtype=np.float32).reshape(-1, SHAPE * SHAPE), np.array(states), np.array(owners)


def picture_ink(picture: np.ndarray, ink_level: float) -> np.ndarray:
    """The ink of a number's square picture (h, w, 3): inside its outer eighth on every side (bevels,
    grid lines), the pixels far from its face (the commonest colour there)."""
    height, width = picture.shape[:2]
    inner = picture[height // 8 : height - height // 8, width // 8 : width - width // 8]
    flat = inner.reshape(-1, 3)
    keys = (flat // 16).astype(np.int32) @ np.array([256, 16, 1])
    values, counts = np.unique(keys, return_counts=True)
    face = flat[keys == values[np.argmax(counts)]].mean(axis=0)
    return np.abs(inner - face).max(axis=2) > ink_level


def shaped_otherwise(mask: np.ndarray, number: str, ink_level: float, hidden: str = "") -> str:
    """The digit the ink ``mask`` (pixels more than ``ink_level`` from the face) is clearly shaped like,
    where that is not ``number``; '' otherwise, and where the ink reaches the mask's edge (``distances``).
    ``hidden``: a skin whose pictures are left out (its client measured as one nobody taught)."""
    nearest = distances(mask, ink_level, DIGITS, hidden)
    if number not in nearest:
        return ""
    other = min((d for d in nearest if d != number), key=nearest.get)
    return other if nearest[other] < CLEARLY_NEARER * nearest[number] else ""


def clear_digit(mask: np.ndarray, ink_level: float, hidden: str = "", marks: str = MARKS, digits: str = DIGITS) -> str:
    """The digit the ink ``mask`` is clearly shaped like, nearer it than every other digit and mark
    (``marks``, ``digits``: those the cell may hold) by CLEAR_DIGIT; '' for none (or ink reaching the
    mask's edge). ``hidden``: as ``shaped_otherwise``."""
    nearest = distances(mask, ink_level, digits + marks, hidden)
    if not any(d in digits for d in nearest):
        return ""
    digit = min((d for d in nearest if d in digits), key=nearest.get)
    rest = min(v for d, v in nearest.items() if d != digit)
    return digit if nearest[digit] < CLEAR_DIGIT * rest else ""


def distances(mask: np.ndarray, ink_level: float, states: str, hidden: str = "") -> dict[str, float]:
    """Each of ``states``' nearest picture's distance from the ink ``mask``'s shape; empty where the
    ink reaches the mask's edge: a digit larger than the mask shows only in part (a bold 8 cut at its
    top looks like a 6)."""
    if not mask.any() or mask[0].any() or mask[-1].any() or mask[:, 0].any() or mask[:, -1].any():
        return {}
    nearest = _nearest(np.packbits(mask).tobytes(), mask.shape, ink_level, hidden)
    return {state: value for state, value in nearest.items() if state in states}


@functools.lru_cache(maxsize=1024)
def _nearest(packed: bytes, shape: tuple[int, int], ink_level: float, hidden: str) -> dict[str, float]:
    """``distances`` of every state, for the ink packed in ``packed`` (``np.packbits`` of a mask of
    ``shape``): a cell's ink is set against the pictures once, whichever states each reader asks of it
    (a mine's, a digit's, another digit's)."""
    mask = np.unpackbits(np.frombuffer(packed, np.uint8), count=shape[0] * shape[1]).reshape(shape).astype(bool)
    shapes, _, owners = exemplars(ink_level)
    distance = np.abs(shapes - shape_of(mask)).mean(axis=1)
    if hidden:
        distance = np.where(owners == hidden, np.inf, distance)
    nearest = {state: float(distance[index].min()) for state, index in _by_state(ink_level).items()}
    return {state: value for state, value in nearest.items() if value < np.inf}


@functools.lru_cache(maxsize=4)
def _by_state(ink_level: float) -> dict[str, np.ndarray]:
    """The indices of ``exemplars``' pictures of each state: worked out once, not at each cell."""
    _, states, _ = exemplars(ink_level)
    return {state: np.flatnonzero(states == state) for state in np.unique(states)}


def clearly_shaped(mask: np.ndarray, ink_level: float, group: str, hidden: str = "") -> bool:
    """Is the ink ``mask`` clearly shaped as one of ``group``'s states (drawn alike: a mine shown and
    hit), nearer their pictures than every other digit's and mark's by CLEAR_DIGIT, as ``clear_digit``
    tells a digit? False where the ink reaches the mask's edge. ``hidden``: as ``shaped_otherwise``."""
    nearest = distances(mask, ink_level, DIGITS + MARKS, hidden)
    ours = [v for d, v in nearest.items() if d in group]
    rest = [v for d, v in nearest.items() if d not in group]
    return bool(ours and rest) and min(ours) < CLEAR_DIGIT * min(rest)
