"""Is the outermost line of cells on some side partly hidden by something drawn across it?

A window's border (or a window, a toolbar) over more than half of the board's outer row leaves the
board whole to the eye of the structure and the skin: every cell is still there, the lattice is right.
But each cell of that row shows only part of itself, and the part left can pass for another state:
gnome-mines' "?" with its top third hidden reads as a flag, a flag with its top hidden as a covered
cell, with exit 0. ``beyond.cut_straight`` sees a further line cut a few pixels past a side; this is
the same cut one line further in.

Each cell of the outer line is compared with a picture of the skin, the strip nearest the side against
the strip at the far side of the cell: a cell drawn over there fits badly near the side and well at
the far side, and a window's border runs along the whole line, so the median over the line decides.
The picture is the one that fits the cell best as a whole, and also the one that fits best the part
of it away from the side, and the line is drawn over if either shows it: what is drawn near the
side can choose the first (sgt-mines' covered cell with its light left bevel under a window of the
bevel's colour fits an opened 0 best as a whole, and against the 0 its far strip, the covered cell's
dark bevel, fitted as badly as its near one: read with exit 0). Against the second the near strip
may sit a line off (a box a pixel narrower than the pictures' boxes, as GTK draws some columns). A
lit cell under the pointer or a mark on one cell moves no median. It is asked when a board is located,
not at every read: the live hint overlay draws round every covered cell, and it is hidden while the
board is located.
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
# hidden): docs/reading.md, "Known limits". Measured again with the second picture: the labelled shots
# as located, 283: 7.4 at most, as with the first alone; the whole boards of screens-untaught,
# desktop-scale/qt, whole and covered: 21.8 at most (gm-dark-two-widths-won's 23 px right column
# against pictures of 24 px boxes: 21.7 with the first alone, 25.8 with the second not allowed a line
# either way); the drawn-over draws of tests/test_cut_boards.py at seeds 1-25 where this is asked:
# 86 of 91 at 25 or more, 80 with the first alone (the other 5 read exactly).
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
    each cell against the picture (a row of ``pictures``) nearest it as a whole, or against the one
    nearest it away from that strip (its near strip a line either way), whichever differs more."""
    cells = _side_first(np.asarray(line, dtype=np.float32), side)
    pictures = _side_first(pictures.reshape(len(pictures), *line.shape[1:]), side)

    def rms(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.sqrt(((a - b) ** 2).mean(axis=(1, 2, 3)))

    def nearest(part: slice) -> np.ndarray:
        return pictures[squared_distances(np.ascontiguousarray(cells[:, part]).reshape(len(cells), -1),
                                          np.ascontiguousarray(pictures[:, part]).reshape(len(pictures), -1)).argmin(axis=1)]

    whole, away = nearest(slice(None)), nearest(slice(STRIP, None))
    near, far = slice(None, STRIP), slice(-STRIP, None)
    by_whole = rms(whole[:, near], cells[:, near]) - rms(whole[:, far], cells[:, far])
    shifted = np.min([rms(away[:, b : b + STRIP], cells[:, a : a + STRIP]) for a, b in ((0, 0), (0, 1), (1, 0))], axis=0)
    by_rest = shifted - rms(away[:, far], cells[:, far])
    return float(max(np.median(by_whole), np.median(by_rest)))


def _side_first(cells: np.ndarray, side: str) -> np.ndarray:
    """Cells (n, rows, cols, ...) turned so that ``side`` is the first row of every one."""
    return {"top": cells, "bottom": cells[:, ::-1], "left": cells.swapaxes(1, 2),
            "right": cells.swapaxes(1, 2)[:, ::-1]}[side]


__all__ = ["DRAWN_OVER", "sides_drawn_over"]
