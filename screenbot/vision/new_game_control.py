"""Where a client puts its own new-game control: a face or a button above the board, found on the screen.

Clients in the classic look put a face between the mine counter and the clock; web pages put a button
("New game", a smiley) above the board. A fixed offset from the board misses many of them (a 34 px
button 36 px above 40 px cells lies 0.9 cells up, the fixed guess 1.5). So the strip above the board
is looked at: the things in it that stand out from what surrounds the board, about a cell in size and
solid (a face, a bordered button; not a word of a menu), the one nearest the board's middle. Pure: a
picture and a lattice in, a point out.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..geometry import Lattice

# The strip looked at: this many pitches above the board's top, and one pitch beyond each side.
STRIP_PITCHES = 4.0
# Grey levels a pixel must differ from the colour around the board to be part of something on it.
STANDS_OUT = 24
# A control's box, in pitches: a face or a button is about a cell (counters are wider, a line of the
# board's frame much wider, a letter of a heading smaller), and lies near the board's middle.
SMALLEST, LARGEST, WIDEST, OFF_MIDDLE = 0.5, 2.5, 2.0, 3.0
# Share of its convex hull a control fills with its holes filled: a face (a disc of 9 px or more: 0.91)
# or a bordered button (1.0) is solid; a word of a menu bar is strokes with gaps ("pe" of "Type" above
# sgt-mines' board: 0.70).
SOLID = 0.85


def control_above(image: np.ndarray, board: Lattice) -> tuple[float, float] | None:
    """The centre of the new-game control above ``board`` on ``image`` (screen pixels, as the lattice),
    as (dx, dy) pitches from the top centre of the board's whole cells (``ControlAction.click``), or
    None when nothing there looks like one."""
    rect = board.inner_rect()
    px, py = board.pitch
    height, width = image.shape[:2]
    left, right = max(0, int(rect.left - px)), min(width, int(rect.right + px))
    top, bottom = max(0, int(rect.top - STRIP_PITCHES * py)), max(0, rect.top - 1)
    if bottom - top < SMALLEST * py or right - left < SMALLEST * px:
        return None
    strip = image[top:bottom, left:right].astype(np.int16)
    if strip.ndim == 2:
        strip = strip[:, :, None]
    # The background is what surrounds the board: the commonest colour of the pitch just above it (the
    # strip's top may reach a page's other parts, a browser's bars).
    near = strip[-min(len(strip), int(py)):]
    colours, counts = np.unique(near.reshape(-1, strip.shape[2]) // 8, axis=0, return_counts=True)
    background = colours[np.argmax(counts)] * 8 + 4
    mask = (np.abs(strip - background).max(axis=2) > STANDS_OUT).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    centre_x = rect.left + rect.width / 2
    best: tuple[float, float] | None = None
    for i in range(1, count):
        x, y, w, h = stats[i, :4]
        if not (SMALLEST * px <= w <= LARGEST * px and SMALLEST * py <= h <= LARGEST * py):
            continue
        cx, cy = left + x + w / 2, top + y + h / 2
        if not (1 / WIDEST <= w / h <= WIDEST) or abs(cx - centre_x) > OFF_MIDDLE * px or y == 0:
            continue  # (at the strip's top: cut by it, so its middle is not known)
        if _solidity((labels[y : y + h, x : x + w] == i).astype(np.uint8)) < SOLID:
            continue
        if best is None or abs(cx - centre_x) < abs(best[0] - centre_x):
            best = (cx, cy)
    if best is None:
        return None
    return (best[0] - centre_x) / px, (best[1] - rect.top) / py


def _solidity(blob: np.ndarray) -> float:
    """The share of ``blob``'s convex hull inside its outline (its holes filled)."""
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(blob)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    hull = np.zeros_like(blob)
    cv2.drawContours(hull, [cv2.convexHull(np.vstack(contours))], -1, 1, thickness=cv2.FILLED)
    return float(filled.sum() / max(1, hull.sum()))


__all__ = ["control_above"]
