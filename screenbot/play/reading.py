"""Reading the board again after a change: only the cells that changed, the rest kept as read before.

Identical pixels read identically, so reading the cells whose pixels changed and keeping the last
reading everywhere else gives exactly what a full read would, in a fraction of the time: a step usually
changes a few cells, and a full read of an expert board takes 3-12 ms.

One reader serves the play loop and the live hint overlay; they differ only in how they tell which
cells changed (a ``ChangeTest``):
- ``PixelChanges`` (play): any pixel near a cell. The bot's frames have nothing of ours on them.
- ``overlay.cell_reading.MiddleChanges`` (hint): each cell's middle, the part no overlay draws on, so
  our own marks changing around a cell are not a change of the cell.

A reading is *pending* until ``accept``: then it is the reference for the next change test. The play
loop accepts every reading; the hint session first puts back cells caught half drawn (``hold``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from solver.board import Board

from ..errors import BoardNotFoundError, UnrecognizedCellError

# Pixels around a changed pixel whose cells are read again: the recognizer may look up to 2 px past a
# cell's box (a weak cell's second look), so a change there could change that cell's reading.
MARGIN = 3
# Above this share of the board, one full read is as cheap as the bookkeeping.
FULL_READ_SHARE = 0.6


@dataclass(frozen=True, slots=True, eq=False)
class BoardReading:
    """What the loop needs of a reading: the board, the least confident cell, the lattice read with."""

    board: Board
    min_confidence: float
    lattice: object
    confidence: np.ndarray  # (rows, cols)


class ChangeTest(Protocol):
    def changed(self, frame: np.ndarray, lattice) -> np.ndarray | None:
        """Which cells (a (rows, cols) bool array) differ from the reference; None: no reference."""

    def accept(self, frame: np.ndarray, cells: np.ndarray | None) -> None:
        """``frame`` is now the reference for ``cells`` (None: all of them)."""

    def forget(self) -> None:
        """No reference: the next test says every cell changed."""


class PixelChanges:
    """The cells within MARGIN pixels of any pixel that differs from the frame accepted last."""

    def __init__(self) -> None:
        self._frame: np.ndarray | None = None

    def changed(self, frame: np.ndarray, lattice) -> np.ndarray | None:
        if self._frame is None or self._frame.shape != frame.shape:
            return None
        cells = np.zeros((lattice.rows, lattice.cols), dtype=bool)
        box = _changed_cells(self._frame, frame, lattice)
        if box is not None:
            r0, r1, c0, c1 = box
            cells[r0:r1, c0:c1] = True
        return cells

    def accept(self, frame: np.ndarray, cells: np.ndarray | None) -> None:
        # Every changed cell was read again, so the whole frame is the reference.
        self._frame = frame

    def forget(self) -> None:
        self._frame = None


class ChangedCellsReader:
    """Reads frames of one board region in turn, each time only the cells ``changes`` says changed."""

    def __init__(self, vision, changes: ChangeTest | None = None) -> None:
        self.vision = vision
        self.changes: ChangeTest = changes if changes is not None else PixelChanges()
        self._accepted: BoardReading | None = None
        self._pending: tuple[BoardReading, np.ndarray, np.ndarray | None] | None = None  # reading, frame, cells

    @property
    def pending(self) -> BoardReading | None:
        return self._pending[0] if self._pending is not None else None

    @property
    def accepted(self) -> BoardReading | None:
        """The reading that stands (None before the first, or after ``forget``)."""
        return self._accepted

    @property
    def changed(self) -> np.ndarray:
        """The cells the pending reading read anew (and still holds), as a (rows, cols) bool array."""
        reading, _, cells = self._pending
        return np.ones(reading.confidence.shape, dtype=bool) if cells is None else cells

    def read(self, frame: np.ndarray, lattice) -> BoardReading:
        """The board on ``frame`` (pending until ``accept``): the changed cells read anew, the others as
        accepted last. UnrecognizedCellError or BoardNotFoundError when a changed cell cannot be read."""
        last = self._accepted
        cells = self.changes.changed(frame, lattice)  # always: a test may keep what it saw for ``accept``
        if last is None or last.lattice != lattice:
            cells = None
        if cells is None:
            reading = self._full(frame, lattice)
        elif not cells.any():
            reading = last
        else:
            reading = self._update(last, frame, lattice, cells)
        self._pending = (reading, frame, cells)
        return reading

    def hold(self, held: list[tuple[int, int]]) -> BoardReading:
        """Keep the accepted reading of these cells (caught half drawn): they count as unchanged, so the
        next read looks at them again. Returns the pending reading with them put back."""
        reading, frame, cells = self._pending
        last = self._accepted
        rows = [list(row) for row in reading.board.grid]
        confidence = reading.confidence.copy()
        cells = self.changed.copy()
        for r, c in held:
            rows[r][c] = last.board.grid[r][c]
            confidence[r, c] = last.confidence[r, c]
            cells[r, c] = False
        board = Board(tuple("".join(row) for row in rows), reading.board.mines)
        reading = BoardReading(board, float(confidence.min()), reading.lattice, confidence)
        self._pending = (reading, frame, cells)
        return reading

    def accept(self) -> None:
        """The pending reading stands (it was used): the reference for the next change test."""
        if self._pending is not None:
            reading, frame, cells = self._pending
            self._accepted = reading
            self.changes.accept(frame, cells)
            self._pending = None

    def discard(self) -> None:
        """The pending reading was not used: the next read compares with the accepted one again."""
        self._pending = None

    def forget(self) -> None:
        """Read every cell anew next time."""
        self._accepted = self._pending = None
        self.changes.forget()

    def _update(self, last: BoardReading, frame: np.ndarray, lattice, cells: np.ndarray) -> BoardReading:
        rs, cs = np.nonzero(cells)
        r0, r1, c0, c1 = int(rs.min()), int(rs.max()) + 1, int(cs.min()), int(cs.max()) + 1
        # A look read from its structure (the classic look) measures each cell against the whole
        # board's faces: a block of a few cells is not enough to read it by.
        by_structure = getattr(self.vision, "reads_whole_boards", None)
        by_structure = by_structure is not None and by_structure(lattice)
        whole = by_structure or (r1 - r0) * (c1 - c0) > FULL_READ_SHARE * lattice.rows * lattice.cols
        if not whole:
            try:
                grid, sub_confidence = read_block(self.vision, frame, lattice, r0, r1, c0, c1, cells[r0:r1, c0:c1])
            except (UnrecognizedCellError, BoardNotFoundError):
                # Read the whole board: an error then names the board's own coordinates.
                whole = True
        if whole:
            # Only the changed cells are needed: the others keep their reading, whatever they show now
            # (under the live hint overlay's marks some may read as nothing). Not so for a look read
            # from its structure: there a cell that no longer reads in the board's new light is a
            # board read wrong somewhere, before or now.
            full = self._full(frame, lattice, None if by_structure else cells)
            grid, sub_confidence, r0, c0 = full.board.grid, full.confidence, 0, 0
        rows = [list(row) for row in last.board.grid]
        confidence = last.confidence.copy()
        for r, c in zip(rs.tolist(), cs.tolist()):
            rows[r][c] = grid[r - r0][c - c0]
            confidence[r, c] = sub_confidence[r - r0, c - c0]
        board = Board(tuple("".join(row) for row in rows), last.board.mines)
        return BoardReading(board, float(confidence.min()), lattice, confidence)

    def _full(self, frame: np.ndarray, lattice, needed: np.ndarray | None = None) -> BoardReading:
        reading = self.vision.read(frame, lattice, needed)
        confidence = confidence_grid(reading, (lattice.rows, lattice.cols))
        return BoardReading(reading.board, float(reading.min_confidence), lattice, confidence)


def _changed_cells(before: np.ndarray, after: np.ndarray, lattice) -> tuple[int, int, int, int] | None:
    """Rows r0:r1 and columns c0:c1 of the cells within MARGIN pixels of any changed pixel, or None."""
    import cv2

    if np.array_equal(before, after):
        return None
    # OpenCV's difference and NumPy's max over uint8 rows: ~0.1 ms on an expert board, 30x faster than
    # a boolean comparison of the two frames.
    channels = after.shape[2] if after.ndim == 3 else 1
    diff = cv2.absdiff(before, after).reshape(after.shape[0], -1)
    ys = np.flatnonzero(diff.max(axis=1))
    xs = np.flatnonzero(diff.max(axis=0).reshape(-1, channels).max(axis=1))
    # None when only pixels away from every cell changed.
    return lattice.cells_touching(xs[0] - MARGIN, ys[0] - MARGIN, xs[-1] + MARGIN, ys[-1] + MARGIN)


def read_block(vision, frame: np.ndarray, lattice, r0: int, r1: int, c0: int, c1: int,
               needed: np.ndarray | None = None):
    """The cells in rows r0:r1 and columns c0:c1, read as a lattice of their own (a read costs about
    its cell count): their rows of characters and their (r1-r0, c1-c0) confidence. ``needed``: which
    of them the caller uses (``Vision.read``)."""
    reading = vision.read(frame, lattice.block(r0, c0, r1 - r0, c1 - c0), needed)
    return reading.board.grid, confidence_grid(reading, (r1 - r0, c1 - c0))


def confidence_grid(reading, shape: tuple[int, int]) -> np.ndarray:
    """A reading's per-cell confidence, or its minimum everywhere for a reading without one."""
    confidence = getattr(reading, "confidence", None)
    if isinstance(confidence, np.ndarray) and confidence.shape == shape:
        return confidence.astype(float)
    value = getattr(reading, "min_confidence", None)
    return np.full(shape, 1.0 if value is None else float(value))
