"""Cells that show a number the skin has no picture of.

A skin learnt by playing knows the numbers its games happened to show: a 6 may first appear while
``play`` plays. Such a cell matches no picture, yet its surround is an opened cell's and its middle
holds a glyph where an opened 0 has none. ``play`` reads it as ``UNREAD``: open, so no mine, and
telling nothing about its neighbours. That keeps every deduction sound (a cell proven safe without the
number is safe whatever the number is) and lets the game go on where it used to stop.

Only for a skin that lacks a picture of some number 1-8: with all of them, a cell like this is no
number, and it is refused as before; unless it was read as a number the skin has no picture of at this
cell size and ``detail`` found it unlike that number's pictures of the nearest size (the client may
draw a number differently here).

A client that draws its opened cells see-through (KMines) puts a different shade of its background
behind every cell, so no picture's surround is near an unseen number's: the surrounds are then also
compared with each cell's and picture's own median colour taken away, and either comparison may say
"an opened cell's surround".

A number the skin lacks is kept from passing for the nearest one it has by ``detail``: with such a
skin, a cell read as a number must be near that number's pictures on the whole, within a share of how
far they are from the nearest other number's (``detail.NEAR_SHARE``). What it refuses comes here. A
client that tints each number's whole cell (gnome-mines) can give an unseen number a surround like no
opened cell the skin has (its 6 at 23 px is 31 from its 5's, RMS, where ``SURROUND_CLOSE`` is 16):
such a cell stays refused.
"""

from __future__ import annotations

import numpy as np

from solver.board import NUMBERS, UNKNOWN_CHARS

from .cells import interior_margin, less_median_colour, squared_distances
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
# The share of the surround's pixels it is judged by, the nearest to the picture's: a wide glyph (the
# classic look's 4) reaches into the thin frame, and those few pixels would outweigh the rest.
SURROUND_KEPT = 0.8
# States whose surround is not an opened cell's.
_NOT_OPEN = frozenset(UNKNOWN_CHARS | {"F", OUTSIDE})


def lacks_a_number(skin: Skin) -> bool:
    return not set(NUMBERS[1:]) <= skin.chars


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
    middle = _per_char(cells[:, ~ring], templates[:, ~ring], bank)
    opened = [i for i, char in enumerate(order) if char in NUMBERS]
    closed = [i for i, char in enumerate(order) if char in _NOT_OPEN]
    open_around = np.zeros(len(indices), dtype=bool)
    for look in (lambda x: x, lambda x: less_median_colour(x.reshape(len(x), -1, 3)).reshape(x.shape)):
        surround = _per_char(look(cells)[:, ring], look(templates)[:, ring], bank, kept=SURROUND_KEPT)
        best_open = surround[:, opened].min(axis=1)
        best_closed = surround[:, closed].min(axis=1) if closed else np.full(len(indices), np.inf)
        open_around |= (best_open <= SURROUND_CLOSE) & (best_closed >= SURROUND_APART * best_open)
    found[indices] = open_around & (middle[:, order.index("0")] >= INK)
    return found


def _ring() -> np.ndarray:
    """The surround of a canonical cell: all but its middle MIDDLE share."""
    k = interior_margin(MIDDLE)
    ring = np.ones((CANONICAL, CANONICAL), dtype=bool)
    ring[k : CANONICAL - k, k : CANONICAL - k] = False
    return ring


def _per_char(cells: np.ndarray, templates: np.ndarray, bank: TemplateBank, kept: float = 1.0) -> np.ndarray:
    """(cells, chars) RMS of each cell's pixels to the nearest template of each state (any shape of
    pixels, the same for both). ``kept`` < 1: over that share of the pixels only, those nearest the
    template's."""
    if kept < 1.0:
        pixels = cells.shape[1]
        count = max(1, int(round(kept * pixels)))
        cells = np.asarray(cells, dtype=np.float32).reshape(len(cells), 1, pixels, -1)
        templates = np.asarray(templates, dtype=np.float32).reshape(1, len(templates), pixels, -1)
        squared = ((cells - templates) ** 2).sum(axis=3)  # (cells, templates, pixels)
        nearest = np.partition(squared, count - 1, axis=2)[:, :, :count]
        rms = np.sqrt(nearest.sum(axis=2) / (count * cells.shape[3]))
        return np.minimum.reduceat(rms, bank.starts, axis=1)
    flat_cells = np.ascontiguousarray(cells).reshape(len(cells), -1)
    flat_templates = np.ascontiguousarray(templates).reshape(len(templates), -1)
    rms = np.sqrt(squared_distances(flat_cells, flat_templates) / flat_cells.shape[1])
    return np.minimum.reduceat(rms, bank.starts, axis=1)


__all__ = ["lacks_a_number", "unseen_numbers"]
