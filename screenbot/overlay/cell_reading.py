"""How the hint session tells which cells the game redrew, and which of them are caught half drawn.

The middle of a cell is the part no overlay draws on (``OverlayStyle.keep_out``; with the windows in its
side bands, ``side_window``, for a look told by its edges): comparing those parts of two captures tells
which cells the game redrew, and only those are read again by the play loop's
``ChangedCellsReader`` (our own marks changing around a cell change nothing in it). A cell drawn
"pressed" a frame before its result (it reads as a 0 next to an unopened cell) keeps its last reading
until it settles (``half_drawn``).
"""

from __future__ import annotations

import math

import numpy as np

from solver.board import FLAG, UNKNOWN_CHARS

from ..geometry import Lattice
from ..play.consistency import zeros_beside
from .marks import OverlayStyle, clear_rects



class MiddleChanges:
    """The play loop's ``ChangeTest`` for frames with our overlay on them: a cell changed when its
    middle (and side windows) differ from what it was last accepted with."""

    def __init__(self, style: OverlayStyle) -> None:
        self.style = style
        self._index: _Middles | None = None
        self._accepted: np.ndarray | None = None  # (cells, bytes): the middles of the accepted reading
        self._last: np.ndarray | None = None  # the middles of the frame tested last

    def changed(self, frame: np.ndarray, lattice) -> np.ndarray | None:
        shape = frame.shape[:2]
        if self._index is None or self._index.key != (lattice, shape):
            self._index, self._accepted = _Middles(lattice, self.style, shape), None
        self._last = self._index.of(frame)
        if self._accepted is None:
            return None
        return (self._last != self._accepted).any(axis=1).reshape(lattice.rows, lattice.cols)

    def accept(self, frame: np.ndarray, cells: np.ndarray | None) -> None:
        if self._accepted is None or cells is None:
            self._accepted = self._last.copy()
        else:
            flat = cells.ravel()
            self._accepted[flat] = self._last[flat]

    def forget(self) -> None:
        self._accepted = None


def half_drawn(chars: tuple[str, ...], cells: np.ndarray, flood: str) -> list[tuple[int, int]]:
    """The changed ``cells`` that read as a 0 next to an unopened cell: a clicked cell drawn "pressed"
    a frame before its result. ``flood``: which neighbours the client opens around a zero ("8", "4",
    "none": from its play profile)."""
    changed = [(int(r), int(c)) for r, c in zip(*np.nonzero(cells))]
    return zeros_beside(chars, flood, UNKNOWN_CHARS | {FLAG}, changed)


def hold_half_drawn(reader, flood: str) -> list[tuple[int, int]]:
    """Put back the accepted reading of changed cells caught half drawn (in ``reader``'s pending
    reading), until none is left (a cell put back can make a neighbour's 0 half drawn too); returns
    the cells held: none when there is no accepted reading to put back (the first look, or after the
    overlay was hidden and the board forgotten), and such a frame is then unreadable."""
    held: list[tuple[int, int]] = []
    if reader.accepted is None:
        return held
    while True:
        bad = half_drawn(reader.pending.board.grid, reader.changed, flood)
        if not bad:
            return held
        reader.hold(bad)
        held += bad


class _Middles:
    """The parts of every cell no overlay draws on (``marks.clear_rects``: the middle, and the side
    windows of a look told by its edges), as one (cells, bytes) array per frame."""

    def __init__(self, lattice: Lattice, style: OverlayStyle, shape: tuple[int, int]) -> None:
        self.key = (lattice, shape)
        height, width = shape
        cells = []
        for r in range(lattice.rows):
            for c in range(lattice.cols):
                cells.append([
                    (max(0, math.ceil(x0)), max(0, math.ceil(y0)), min(width, math.floor(x1)), min(height, math.floor(y1)))
                    for x0, y0, x1, y1 in clear_rects(lattice, style, r, c)
                ])
        parts = []
        for kind in range(len(cells[0])):
            boxes = [rects[kind] for rects in cells]
            # The same size for every cell (fractional pitches differ by a pixel), at least one pixel.
            w = max(1, min(b[2] - b[0] for b in boxes))
            h = max(1, min(b[3] - b[1] for b in boxes))
            ys, xs = np.mgrid[0:h, 0:w]
            index = []
            for x0, y0, _, _ in boxes:
                x0, y0 = min(x0, width - w), min(y0, height - h)
                pixels = ((ys + y0) * width + (xs + x0)).ravel()
                index.append((pixels[:, None] * 3 + np.arange(3)).ravel())
            parts.append(np.stack(index))
        self._index = np.concatenate(parts, axis=1)

    def of(self, frame: np.ndarray) -> np.ndarray:
        return np.take(np.ascontiguousarray(frame).ravel(), self._index)


__all__ = ["MiddleChanges", "half_drawn", "hold_half_drawn"]
