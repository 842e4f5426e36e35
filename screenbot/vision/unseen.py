"""Cells that show a number the skin has no picture of.

A skin learnt by playing knows the numbers its games happened to show: a 6 may first appear while
``play`` plays. Such a cell matches no picture, yet its surround is an opened cell's and its middle
holds a glyph where an opened 0 has none. ``play`` reads it as ``UNREAD``: open, so no mine, and
telling nothing about its neighbours. That keeps every deduction sound (a cell proven safe without the
number is safe whatever the number is) and lets the game go on where it used to stop.

Only for a skin that lacks a picture of some number 1-8: with all of them, a cell like this is no
number, and it is refused as before. Such a skin also asks of each cell read as a number that its
middle lie near a picture of that number (``far_numbers``): the nearest number the skin has may be far
from the one the cell shows.
"""

from __future__ import annotations

import numpy as np

from solver.board import NUMBERS, UNKNOWN_CHARS

from .cells import interior_margin, squared_distances
from .skins import CANONICAL, OUTSIDE, Skin, TemplateBank

# The share of the cell, centred, left out of its surround: all but a thin frame, since the glyphs of
# some clients (xdemineur) reach near the cell's edges.
MIDDLE = 0.875
# The surround must be this close to an opened cell's (RMS, 0-255) ...
SURROUND_CLOSE = 16.0
# ... and this many times closer than to any cell that is not open (covered, flag, "?", the window).
SURROUND_APART = 1.8
# The middle must be at least this far from an opened 0's (RMS, 0-255): it holds a glyph (xbomb's thin
# 3 in a 50 px cell is 9 from its 0 at the canonical size).
INK = 4.0
# States whose surround is not an opened cell's.
_NOT_OPEN = frozenset(UNKNOWN_CHARS | {"F", OUTSIDE})


# With a number missing from the skin, a cell read as a number must be this close to one of its
# pictures in the middle (RMS, 0-255; the middle NUMBER_MIDDLE share, moved up to a canonical pixel):
# the nearest of the numbers it has may be far from it. On every fixture at a size its skin has
# captures of, right reads are within 6.3 and another number is 6.8 or more away (xbomb's thin
# digits; 10.8 on gnome-mines, over 26 elsewhere). At other sizes gnome-mines' right reads reach 13:
# those are refused when the skin lacks a number, never misread.
NUMBER_CLOSE = 6.5
NUMBER_MIDDLE = 0.625


def _middle_bound() -> float:
    """How much farther a cell's middle can be from a picture than the whole cell is (RMS): all of the
    difference in the middle."""
    return CANONICAL / (CANONICAL - 2 * interior_margin(NUMBER_MIDDLE))


def lacks_a_number(skin: Skin) -> bool:
    return not set(NUMBERS[1:]) <= skin.chars


def far_numbers(softened: np.ndarray, bank: TemplateBank, chars: np.ndarray, whole_rms: np.ndarray) -> np.ndarray:
    """Which cells (row-major) read as a number (``chars``) have a middle far from every picture of it:
    with a number missing from the skin, they may show that one. ``whole_rms``: each cell's RMS to the
    nearest picture of what it reads as, over the whole cell where the lattice puts it (inf if not
    known); a middle is at most MIDDLE_BOUND times as far, so a cell that near needs no look."""
    far = np.zeros(len(chars), dtype=bool)
    indices = np.flatnonzero(np.isin(chars, list(NUMBERS)) & (np.asarray(whole_rms) * _middle_bound() > NUMBER_CLOSE))
    if not len(indices):
        return far
    k = interior_margin(NUMBER_MIDDLE)
    side = CANONICAL - 2 * k
    cells = np.asarray(softened, dtype=np.float32).reshape(-1, CANONICAL, CANONICAL, 3)[indices]
    order = list(bank.char_order)
    rows = [order.index(str(c)) for c in chars[indices]]
    templates = bank.vectors.reshape(-1, CANONICAL, CANONICAL, 3)[:, k : k + side, k : k + side]
    nearest = np.full(len(indices), np.inf, dtype=np.float32)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            moved = cells[:, k + dy : k + dy + side, k + dx : k + dx + side]
            per_char = _per_char(moved, templates, bank)
            nearest = np.minimum(nearest, per_char[np.arange(len(indices)), rows])
    far[indices] = nearest > NUMBER_CLOSE
    return far


def unseen_numbers(softened: np.ndarray, bank: TemplateBank, candidates: np.ndarray) -> np.ndarray:
    """Which ``candidates`` (a bool mask over the cells, row-major) look like an opened cell with a
    glyph no picture has. ``softened`` are the canonical cells as ``cells.soften`` gives them."""
    found = np.zeros(len(candidates), dtype=bool)
    indices = np.flatnonzero(candidates)
    order = list(bank.char_order)
    if not len(indices) or "0" not in order:
        return found
    ring = _ring()
    cells = np.asarray(softened, dtype=np.float32).reshape(-1, CANONICAL, CANONICAL, 3)[indices]
    templates = bank.vectors.reshape(-1, CANONICAL, CANONICAL, 3)
    surround = _per_char(cells[:, ring], templates[:, ring], bank)
    middle = _per_char(cells[:, ~ring], templates[:, ~ring], bank)
    opened = [i for i, char in enumerate(order) if char in NUMBERS]
    closed = [i for i, char in enumerate(order) if char in _NOT_OPEN]
    best_open = surround[:, opened].min(axis=1)
    best_closed = surround[:, closed].min(axis=1) if closed else np.full(len(indices), np.inf)
    found[indices] = (
        (best_open <= SURROUND_CLOSE)
        & (best_closed >= SURROUND_APART * best_open)
        & (middle[:, order.index("0")] >= INK)
    )
    return found


def _ring() -> np.ndarray:
    """The surround of a canonical cell: all but its middle MIDDLE share."""
    k = interior_margin(MIDDLE)
    ring = np.ones((CANONICAL, CANONICAL), dtype=bool)
    ring[k : CANONICAL - k, k : CANONICAL - k] = False
    return ring


def _per_char(cells: np.ndarray, templates: np.ndarray, bank: TemplateBank) -> np.ndarray:
    """(cells, chars) RMS of each cell's pixels to the nearest template of each state (any shape of
    pixels, the same for both)."""
    flat_cells = np.ascontiguousarray(cells).reshape(len(cells), -1)
    flat_templates = np.ascontiguousarray(templates).reshape(len(templates), -1)
    rms = np.sqrt(squared_distances(flat_cells, flat_templates) / flat_cells.shape[1])
    return np.minimum.reduceat(rms, bank.starts, axis=1)


__all__ = ["far_numbers", "lacks_a_number", "unseen_numbers"]
