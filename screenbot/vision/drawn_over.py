"""Is the outermost line of cells on some side partly hidden by something drawn across it?

A window's border (or a window, a toolbar) over more than half of the board's outer row leaves the
board whole to the eye of the structure and the skin: every cell is still there, the lattice is right.
But each cell of that row shows only part of itself, and the part left can pass for another state:
gnome-mines' "?" with its top third hidden reads as a flag, a flag with its top hidden as a covered
cell, with exit 0. ``beyond.cut_straight`` sees a further line cut a few pixels past a side; this is
the same cut one line further in.

Each cell of the outer line is compared with the picture of the skin that fits it best as a whole, the
strip nearest the side against the strip at the far side of the cell: a cell drawn over there fits
badly near the side and well at the far side, and a window's border runs along the whole line, so
the median over the line decides. A lit cell under the pointer or a mark on one cell moves no median.
It is asked when a board is located, not at every read: the live hint overlay draws round every
covered cell, and it is hidden while the board is located.
"""

from __future__ import annotations

import numpy as np

from ..geometry import Lattice
from .beyond import SIDES
from .cells import cell_images, squared_distances
from .skins import Skin, soften

# Canonical lines (of CANONICAL) in each strip: a quarter of the cell, past the gap or bevel round a
# face (a window's border the colour of the gap leaves those alike) and into the face and its glyph.
STRIP = 4
# RMS (0-255) by which the strip nearest the side fits worse than the far strip, median over the outer
# line, at which the line is drawn over. Whole boards as located on the labelled screenshots of every
# client (252 shots, four sides each): 9.1 at most (gnome-mines, whose toolkit gives some cells a pixel
# more than a straight lattice); their outer line drawn over past its middle, where that read a wrong
# board: 30 to 65. Half a quarter of a cell hidden is not seen by it (a gnome-mines "?" with 3 of 21 px
# hidden): docs/reading.md, "Known limits".
DRAWN_OVER = 25.0


def sides_drawn_over(frame: np.ndarray, lattice: Lattice, skin: Skin) -> list[str]:
    """The sides whose outermost line of cells is drawn over along its length (see the module)."""
    cells = soften(cell_images(frame, lattice))
    bank = skin.bank(lattice.drawn_pitch)
    return [side for side in SIDES if _strip_gap(_outer_line(cells, side), bank.vectors, side) >= DRAWN_OVER]


def _outer_line(cells: np.ndarray, side: str) -> np.ndarray:
    """The cells (n, CANONICAL, CANONICAL, 3) of the outermost line on ``side``."""
    return {"top": cells[0], "bottom": cells[-1], "left": cells[:, 0], "right": cells[:, -1]}[side]


def _strip_gap(line: np.ndarray, pictures: np.ndarray, side: str) -> float:
    """Median over the cells of ``line``: RMS of the strip nearest ``side`` less RMS of the far strip,
    each cell against the picture (a row of ``pictures``) nearest it as a whole."""
    vectors = np.ascontiguousarray(line, dtype=np.float32).reshape(len(line), -1)
    nearest = squared_distances(vectors, pictures).argmin(axis=1)
    squared = ((pictures[nearest] - vectors) ** 2).reshape(line.shape).mean(axis=3)  # (cells, rows, cols)
    # Turned so that the side is the first row of every cell.
    if side == "bottom":
        squared = squared[:, ::-1]
    elif side == "left":
        squared = squared.transpose(0, 2, 1)
    elif side == "right":
        squared = squared.transpose(0, 2, 1)[:, ::-1]
    near = np.sqrt(squared[:, :STRIP].mean(axis=(1, 2)))
    far = np.sqrt(squared[:, -STRIP:].mean(axis=(1, 2)))
    return float(np.median(near - far))


__all__ = ["DRAWN_OVER", "sides_drawn_over"]
