"""Ground truth for screenshots of desktop clients, by the rules of the game, not by the recognizer.

A session records what it did (which cells it flagged, which cell it clicked last) and screenshots at
a known lattice. When the game ends, every mine is on screen (after a loss the client shows them; after
a win every unopened cell is a mine). The number on each opened cell is then *computed* from the mine
positions. Two checks make the labelling trustworthy rather than assumed:

- cells that look identical (same canonical image) must get the same label, and cells with the same
  label must look identical: a client that drew a 3 where the rules say 2 fails the check;
- an earlier screenshot's opened cell must look exactly as it does at the end.

Only cell *appearance classes* are used here (which cells look alike), never a template or a skin.
"""

from __future__ import annotations

import itertools

import numpy as np

import logging

from solver.board import Board, neighbours

from screenbot.errors import ScreenError
from screenbot.geometry import Lattice

log = logging.getLogger(__name__)

# Two canonical cell images are the same picture when they differ little on average AND almost no
# pixel differs strongly: a flag and a flag with a small "?" differ in a few pixels only.
SAME_MEAN = 5.0
SAME_STRONG = 60
SAME_STRONG_SHARE = 0.004


class TruthCheckError(ScreenError):
    """The rules-based labelling of a screenshot did not check out; the shot must not become a fixture."""


class Looks:
    """The pictures a session has seen for sure, by what it did: the covered picture of every cell
    (from a fresh board, or one probed picture everywhere), and each flag / "?" it placed.

    ``strict`` is for clients that draw every cell at the same pixel phase (integer pitch): then the
    same state is the same picture to the pixel. With a fractional pitch icons shift by a pixel from
    cell to cell, so pictures of one state are compared with a looser tolerance, and flags and "?"
    with the picture recorded at that very cell.
    """

    def __init__(self, covered: np.ndarray, strict: bool) -> None:
        self.covered = covered  # (rows, cols, 16, 16, 3)
        self.strict = strict
        self.flag: dict[tuple[int, int], np.ndarray] = {}
        self.question: dict[tuple[int, int], np.ndarray] = {}

    def same(self, a: np.ndarray, b: np.ndarray | None) -> bool:
        return same(a, b, loose=not self.strict)

    def is_covered(self, cell: np.ndarray, r: int, c: int) -> bool:
        return same(cell, self.covered[r, c])  # same cell, same pixel phase: always strict

    def _marked(self, table: dict, cell: np.ndarray, r: int, c: int) -> bool:
        if (r, c) in table:
            return same(cell, table[(r, c)])
        return any(self.same(cell, pic) for pic in table.values())

    def is_flag(self, cell: np.ndarray, r: int, c: int) -> bool:
        return self._marked(self.flag, cell, r, c)

    def is_question(self, cell: np.ndarray, r: int, c: int) -> bool:
        return self._marked(self.question, cell, r, c)


def canonical_cells(frame: np.ndarray, lattice: Lattice,
                    starts: tuple[list[int], list[int]] | None = None, inset: float = 0.2) -> np.ndarray:
    """(rows, cols, 16, 16, 3) pictures of each cell without ``inset`` of its pitch on every side.

    Only the middle is compared: where a client spreads a fractional pitch over whole pixels (GTK
    does), a cell's border and gap move by a pixel from one cell to the next, while its middle, with
    the digit or icon, is drawn the same everywhere. ``starts`` (left of each column, top of each
    row, in frame pixels) replaces the lattice's evenly spaced boxes when the client's layout is
    known to be uneven (GTK gives the first cells a pixel more than the last ones).
    """
    import cv2

    px, py = lattice.pitch
    xs = starts[0] if starts else [lattice.origin[0] + c * px for c in range(lattice.cols)]
    ys = starts[1] if starts else [lattice.origin[1] + r * py for r in range(lattice.rows)]
    out = np.empty((lattice.rows, lattice.cols, 16, 16, 3), dtype=np.int16)
    width, height = int(round((1 - 2 * inset) * px)), int(round((1 - 2 * inset) * py))
    for r in range(lattice.rows):
        top = int(round(ys[r] + inset * py))
        for c in range(lattice.cols):
            left = int(round(xs[c] + inset * px))
            out[r, c] = cv2.resize(frame[top : top + height, left : left + width], (16, 16),
                                   interpolation=cv2.INTER_AREA)
    return out


LOOSE_MEAN = 12.0
LOOSE_STRONG_SHARE = 0.12


def same(a: np.ndarray, b: np.ndarray | None, *, loose: bool = False) -> bool:
    if b is None:
        return False
    diff = np.abs(a.astype(np.int16) - b.astype(np.int16))
    if loose:
        return float(diff.mean()) < LOOSE_MEAN and float((diff > SAME_STRONG).mean()) < LOOSE_STRONG_SHARE
    return float(diff.mean()) < SAME_MEAN and float((diff > SAME_STRONG).mean()) < SAME_STRONG_SHARE


def _classes(cells: np.ndarray) -> np.ndarray:
    """Appearance class id per cell: cells whose images are the same picture share an id."""
    rows, cols = cells.shape[:2]
    flat = cells.reshape(rows * cols, *cells.shape[2:])
    ids = -np.ones(rows * cols, dtype=int)
    reps: list[np.ndarray] = []
    for i, vec in enumerate(flat):
        for k, rep in enumerate(reps):
            if same(vec, rep):
                ids[i] = k
                break
        else:
            ids[i] = len(reps)
            reps.append(vec)
    return ids.reshape(rows, cols)


def label_final(
    final: np.ndarray,
    before: np.ndarray,
    lattice: Lattice,
    look: Looks,
    *,
    outcome: str,
    flagged: frozenset[tuple[int, int]] = frozenset(),
    last_click: tuple[int, int] | None = None,
    starts: tuple[list[int], list[int]] | None = None,
    inset: float = 0.2,
    mine_total: int | None = None,
) -> Board:
    """Label the end-of-game frame ``final``; ``before`` is the frame just before the last click.

    ``outcome`` is "lost" (the last click hit a mine) or "won"; ``mine_total``: the game's, where known.
    Raises TruthCheckError when the picture does not agree with the rules.
    """
    if outcome not in ("lost", "won"):
        raise ValueError(f"outcome must be 'lost' or 'won', not {outcome!r}")
    end = canonical_cells(final, lattice, starts, inset)
    prev = canonical_cells(before, lattice, starts, inset)
    rows, cols = lattice.rows, lattice.cols
    labels = [["" for _ in range(cols)] for _ in range(rows)]
    mines: set[tuple[int, int]] = set()
    undecided: list[tuple[int, int]] = []
    for r in range(rows):
        for c in range(cols):
            cell = end[r, c]
            if outcome == "lost":
                if (r, c) == last_click:
                    if look.is_covered(cell, r, c):
                        raise TruthCheckError(f"the losing click at ({r}, {c}) left the cell covered")
                    labels[r][c] = "X"
                    mines.add((r, c))
                elif (r, c) in flagged:
                    if look.is_flag(cell, r, c):
                        labels[r][c] = "F"
                        mines.add((r, c))
                    else:
                        undecided.append((r, c))  # a wrong flag, or a flag the loss redrew
                elif look.is_covered(cell, r, c):
                    labels[r][c] = "#"
                elif look.is_question(cell, r, c):
                    labels[r][c] = "?"
                elif look.is_covered(prev[r, c], r, c) or look.is_question(prev[r, c], r, c):
                    # Covered until the loss: a mine shown, or (gnome-mines' classic and default
                    # themes) a covered tile the loss dimmed, one flat colour.
                    if _flat(cell):
                        labels[r][c] = "#"
                    else:
                        labels[r][c] = "*"
                        mines.add((r, c))
            elif ((r, c) in flagged or look.flag) and look.is_flag(cell, r, c):
                # Flagged by the player, or by the client itself at a win (gnome-mines flags every mine).
                labels[r][c] = "F"
                mines.add((r, c))
            elif look.is_covered(cell, r, c) or look.is_question(cell, r, c):
                labels[r][c] = "#" if look.is_covered(cell, r, c) else "?"
                mines.add((r, c))
    # A flag the loss drew otherwise is a wrong flag or a right one redrawn: the flag marks a mine
    # exactly where the numbers then computed agree with the pictures (and, after a loss, which shows
    # every mine, the mines shown add up to the total), which must hold for one choice.
    fits, failure = [], None
    for marks in itertools.product("FW", repeat=len(undecided)):
        shown = len(mines) + marks.count("F")
        if outcome == "lost" and mine_total is not None and shown != mine_total:
            failure = TruthCheckError(f"{shown} mines shown, not the {mine_total} the game has")
            continue
        board = _numbered(labels, mines | {cell for cell, mark in zip(undecided, marks) if mark == "F"}, undecided, marks)
        try:
            _check_classes(end, board, look.strict)
        except TruthCheckError as exc:
            failure = TruthCheckError(f"{exc}; board by the rules:\n" + "\n".join(board.grid))
            continue
        fits.append(board)
    if not fits:
        raise failure
    if len(fits) > 1:
        raise TruthCheckError(f"the flags at {undecided} fit the numbers as right or wrong flags in {len(fits)} ways")
    return fits[0]


def _numbered(labels: list[list[str]], mines: set[tuple[int, int]], undecided: list, marks) -> Board:
    """The board of ``labels`` with each unlabelled cell given the count of ``mines`` round it."""
    rows, cols = len(labels), len(labels[0])
    grid = [row[:] for row in labels]
    for (r, c), mark in zip(undecided, marks):
        grid[r][c] = mark
    for r in range(rows):
        for c in range(cols):
            if not grid[r][c]:
                grid[r][c] = str(sum((rr, cc) in mines for rr, cc in neighbours(rows, cols, r, c)))
    return Board(tuple("".join(row) for row in grid))


# A cell picture whose channels vary less than this (standard deviation, levels) is one flat colour.
FLAT_STD = 12.0


def _flat(cell: np.ndarray) -> bool:
    """Whether the middle of the canonical ``cell`` is one flat colour: its edges are left out, as where
    GTK makes the last rows a pixel lower than the pitch they hold the gap between the tiles; a mine's
    icon, at any size, lies in the middle."""
    return float(cell[3:-3, 3:-3].reshape(-1, 3).std(axis=0).max()) < FLAT_STD


def _check_classes(cells: np.ndarray, board: Board, strict: bool) -> None:
    """Same picture => same label (pixel-identical pictures), and same label => similar picture."""
    ids = _classes(cells)
    by_class: dict[int, set[str]] = {}
    for r, c, ch in board.cells():
        by_class.setdefault(int(ids[r, c]), set()).add(ch)
    for chars in by_class.values():
        if len(chars) > 1:
            raise TruthCheckError(f"cells that look the same were labelled {sorted(chars)} by the rules")
    first: dict[str, np.ndarray] = {}
    for r, c, ch in board.cells():
        if ch not in "012345678*":
            continue  # flags, "?" and covered cells were compared with their own recorded pictures
        if ch not in first:
            first[ch] = cells[r, c]
        elif not _alike(cells[r, c], first[ch], strict):
            raise TruthCheckError(f"cells labelled {ch!r} by the rules look different, e.g. at ({r}, {c})")


def _alike(a: np.ndarray, b: np.ndarray, strict: bool) -> bool:
    """Pictures of one state: identical at an integer pitch; at a fractional pitch glyphs move by a
    pixel, so compare the average colour (each number has its own colours) and the ink share."""
    if strict:
        return same(a, b)
    mean_a, mean_b = a.reshape(-1, 3).mean(axis=0), b.reshape(-1, 3).mean(axis=0)
    ink_a = (a.reshape(-1, 3).sum(axis=1) < 300).mean()
    ink_b = (b.reshape(-1, 3).sum(axis=1) < 300).mean()
    log.debug("alike: colour %.1f ink %.3f", float(np.abs(mean_a - mean_b).max()), abs(ink_a - ink_b))
    return float(np.abs(mean_a - mean_b).max()) < 8 and abs(ink_a - ink_b) < 0.06


def label_earlier(
    frame: np.ndarray,
    final: np.ndarray,
    final_board: Board,
    lattice: Lattice,
    look: Looks,
    *,
    flagged: frozenset[tuple[int, int]] = frozenset(),
    questioned: frozenset[tuple[int, int]] = frozenset(),
    starts: tuple[list[int], list[int]] | None = None,
    inset: float = 0.2,
) -> Board:
    """Label a frame taken during the game, from the labelled final frame of the same game."""
    now = canonical_cells(frame, lattice, starts, inset)
    end = canonical_cells(final, lattice, starts, inset)
    rows = []
    redrawn = False  # an opened cell the end of the game drew otherwise
    for r in range(lattice.rows):
        row = []
        for c in range(lattice.cols):
            cell = now[r, c]
            if (r, c) in flagged:
                if not look.is_flag(cell, r, c):
                    raise TruthCheckError(f"cell ({r}, {c}) was flagged but does not show the flag picture")
                row.append("F")
            elif (r, c) in questioned:
                if not look.is_question(cell, r, c):
                    raise TruthCheckError(f"cell ({r}, {c}) was marked '?' but does not show it")
                row.append("?")
            elif look.is_covered(cell, r, c):
                row.append("#")
            else:
                final_char = final_board[r, c]
                if final_char not in "012345678":
                    raise TruthCheckError(f"cell ({r}, {c}) is open here but ends as {final_char!r}")
                redrawn |= not same(cell, end[r, c])
                row.append(final_char)
        rows.append("".join(row))
    board = Board(tuple(rows))
    if redrawn:
        # gnome-mines' classic and default tile themes give every opened cell another background once a
        # game is lost: this frame's pictures must then agree with its labels on their own.
        _check_classes(now, board, look.strict)
    return board
