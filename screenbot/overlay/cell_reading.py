"""The hint session's reading of the board, kept up to date from the cells whose middle changed.

The middle of a cell is the part no overlay draws on (``OverlayStyle.keep_out``): comparing the middles
of two captures tells which cells the game redrew, and only those are read again (identical pixels read
identically; our own marks changing around a cell change nothing in it). A cell drawn "pressed" a frame
before its result (it reads as a 0 next to an unopened cell) keeps its last reading until it settles.
"""

from __future__ import annotations

import math

import numpy as np

from solver.board import FLAG, UNKNOWN_CHARS, Board

from ..geometry import Lattice
from ..play.reading import confidence_grid, read_block
from .marks import OverlayStyle, keep_out_rect

ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))
AROUND = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)


class LiveCellReader:
    """``read`` a capture (the changed cells anew), ``hold_half_drawn`` what must not show yet, then
    ``accept`` the reading once it is used: it is the reference for the next change test. ``pending``
    is the last reading not yet accepted: (characters per cell, confidence per cell)."""

    def __init__(self) -> None:
        self._middles: _Middles | None = None
        self._read_middles: np.ndarray | None = None
        self._read_chars: list[list[str]] | None = None
        self._read_confidence: np.ndarray | None = None
        self.pending: tuple[list[list[str]], np.ndarray] | None = None

    def start(self, lattice, style: OverlayStyle, shape: tuple[int, int]) -> None:
        """A newly located board (``lattice`` in the captured region's frame of ``shape``)."""
        self._middles = _Middles(lattice, style, shape)
        self.forget()

    def forget(self) -> None:
        """Read every cell anew at the next capture."""
        self._read_middles = self._read_chars = self._read_confidence = None

    def middles(self, frame: np.ndarray) -> np.ndarray:
        return self._middles.of(frame)

    def changed(self, middles: np.ndarray) -> np.ndarray:
        """Which cells' middles differ from those of the last accepted reading (all before the first)."""
        return self._middles.changed(middles, self._read_middles)

    def read(self, vision, frame: np.ndarray, lattice, changed: np.ndarray) -> Board:
        """The board on ``frame``: the ``changed`` cells read anew (by ``vision``), the others as they were
        read before."""
        rows, cols = lattice.rows, lattice.cols
        if self._read_chars is None or changed.all():
            reading = vision.read(frame, lattice)
            chars = [list(row) for row in reading.board.grid]
            confidence = confidence_grid(reading, (rows, cols))
        else:
            rs, cs = np.nonzero(changed.reshape(rows, cols))
            r0, r1, c0, c1 = int(rs.min()), int(rs.max()) + 1, int(cs.min()), int(cs.max()) + 1
            grid, sub_conf = read_block(vision, frame, lattice, r0, r1, c0, c1)
            chars = [row[:] for row in self._read_chars]
            confidence = self._read_confidence.copy()
            for r, c in zip(rs.tolist(), cs.tolist()):
                chars[r][c] = grid[r - r0][c - c0]
                confidence[r, c] = sub_conf[r - r0, c - c0]
        self.pending = (chars, confidence)
        return Board(tuple("".join(row) for row in chars))

    def hold_half_drawn(self, changed: np.ndarray, flood: str) -> list[tuple[int, int]]:
        """Put back the previous reading of changed cells that read as a 0 next to an unopened cell
        (``changed`` and the pending reading are updated); returns the cells held. ``flood``: which
        neighbours the client opens around a zero ("8", "4", "none": from its play profile)."""
        if flood == "none" or self._read_chars is None or self.pending is None:
            return []
        chars = self.pending[0]
        rows, cols = len(chars), len(chars[0])
        grid = changed.reshape(rows, cols)  # a view: clearing a cell here clears it in ``changed``
        blocked = UNKNOWN_CHARS | {FLAG}
        steps = ORTHOGONAL if flood == "4" else AROUND
        held: list[tuple[int, int]] = []
        while True:
            bad = [
                (r, c)
                for r, c in zip(*np.nonzero(grid))
                if chars[r][c] == "0"
                and any(0 <= r + dr < rows and 0 <= c + dc < cols and chars[r + dr][c + dc] in blocked for dr, dc in steps)
            ]
            if not bad:
                return held
            for r, c in bad:
                chars[r][c] = self._read_chars[r][c]
                grid[r, c] = False
            held += [(int(r), int(c)) for r, c in bad]

    def accept(self, middles: np.ndarray, changed: np.ndarray) -> None:
        """The last read stands (it was used): its cells are the reference for the next change test."""
        if self.pending is not None:
            self._read_chars, self._read_confidence = self.pending
            self.pending = None
        if self._read_middles is None:
            self._read_middles = middles.copy()
        else:
            self._read_middles[changed] = middles[changed]


class _Middles:
    """The middle of every cell, the part no overlay draws on (``OverlayStyle.keep_out``), as one
    (cells, bytes) array per frame: comparing two tells which cells the game redrew."""

    def __init__(self, lattice: Lattice, style: OverlayStyle, shape: tuple[int, int]) -> None:
        height, width = shape
        boxes = []
        for r in range(lattice.rows):
            for c in range(lattice.cols):
                x0, y0, x1, y1 = keep_out_rect(lattice, style, r, c)
                boxes.append((max(0, math.ceil(x0)), max(0, math.ceil(y0)), min(width, math.floor(x1)), min(height, math.floor(y1))))
        # The same size for every cell (fractional pitches differ by a pixel), at least one pixel.
        w = max(1, min(b[2] - b[0] for b in boxes))
        h = max(1, min(b[3] - b[1] for b in boxes))
        ys, xs = np.mgrid[0:h, 0:w]
        index = []
        for x0, y0, _, _ in boxes:
            x0, y0 = min(x0, width - w), min(y0, height - h)
            pixels = ((ys + y0) * width + (xs + x0)).ravel()
            index.append((pixels[:, None] * 3 + np.arange(3)).ravel())
        self._index = np.stack(index)
        self._shape = shape

    def of(self, frame: np.ndarray) -> np.ndarray:
        return np.take(np.ascontiguousarray(frame).ravel(), self._index)

    @staticmethod
    def changed(middles: np.ndarray, before: np.ndarray | None) -> np.ndarray:
        if before is None:
            return np.ones(len(middles), dtype=bool)
        return (middles != before).any(axis=1)


__all__ = ["LiveCellReader"]
