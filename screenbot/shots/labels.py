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

from dataclasses import dataclass

import numpy as np

from solver.board import Board, neighbours

from ..errors import ScreenError
from ..vision.cells import cell_images
from ..vision.lattice import Lattice

# Two canonical cell images are the same picture when they differ little on average AND almost no
# pixel differs strongly: a flag and a flag with a small "?" differ in a few pixels only.
SAME_MEAN = 5.0
SAME_STRONG = 60
SAME_STRONG_SHARE = 0.004


class TruthCheckError(ScreenError):
    """The rules-based labelling of a screenshot did not check out; the shot must not become a fixture."""


@dataclass(frozen=True, slots=True)
class Appearance:
    """Canonical images of the states a session has seen for sure (by what it did)."""

    covered: np.ndarray
    flag: np.ndarray | None = None
    question: np.ndarray | None = None


def canonical_cells(frame: np.ndarray, lattice: Lattice) -> np.ndarray:
    return cell_images(frame, lattice).astype(np.int16)


def same(a: np.ndarray, b: np.ndarray | None) -> bool:
    if b is None:
        return False
    diff = np.abs(a.astype(np.int16) - b.astype(np.int16))
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
    look: Appearance,
    *,
    outcome: str,
    flagged: frozenset[tuple[int, int]] = frozenset(),
    last_click: tuple[int, int] | None = None,
) -> Board:
    """Label the end-of-game frame ``final``; ``before`` is the frame just before the last click.

    ``outcome`` is "lost" (the last click hit a mine) or "won". Raises TruthCheckError when the
    picture does not agree with the rules.
    """
    end = canonical_cells(final, lattice)
    prev = canonical_cells(before, lattice)
    rows, cols = lattice.rows, lattice.cols
    labels = [["" for _ in range(cols)] for _ in range(rows)]
    mines: set[tuple[int, int]] = set()

    def unopened_before(r: int, c: int) -> bool:
        return same(prev[r, c], look.covered) or same(prev[r, c], look.question) or same(prev[r, c], look.flag)

    for r in range(rows):
        for c in range(cols):
            cell = end[r, c]
            if outcome == "lost":
                if (r, c) == last_click:
                    if same(cell, look.covered):
                        raise TruthCheckError(f"the losing click at ({r}, {c}) left the cell covered")
                    labels[r][c] = "X"
                    mines.add((r, c))
                elif (r, c) in flagged:
                    if same(cell, look.flag):
                        labels[r][c] = "F"
                        mines.add((r, c))
                    else:
                        labels[r][c] = "W"
                elif same(cell, look.covered):
                    labels[r][c] = "#"
                elif same(cell, look.question):
                    labels[r][c] = "?"
                elif unopened_before(r, c):
                    labels[r][c] = "*"
                    mines.add((r, c))
            elif outcome == "won":
                if same(cell, look.flag):
                    labels[r][c] = "F"
                    mines.add((r, c))
                elif same(cell, look.covered) or same(cell, look.question):
                    labels[r][c] = "#" if same(cell, look.covered) else "?"
                    mines.add((r, c))
            else:
                raise ValueError(f"outcome must be 'lost' or 'won', not {outcome!r}")
    for r in range(rows):
        for c in range(cols):
            if not labels[r][c]:
                labels[r][c] = str(sum((rr, cc) in mines for rr, cc in neighbours(rows, cols, r, c)))
    board = Board(tuple("".join(row) for row in labels))
    try:
        _check_classes(end, board)
    except TruthCheckError as exc:
        raise TruthCheckError(f"{exc}; board by the rules:\n" + "\n".join(board.grid)) from None
    return board


def _check_classes(cells: np.ndarray, board: Board) -> None:
    """Same picture <=> same label, over the whole frame (flags and wrong flags included)."""
    ids = _classes(cells)
    by_class: dict[int, set[str]] = {}
    by_label: dict[str, set[int]] = {}
    for r, c, ch in board.cells():
        by_class.setdefault(int(ids[r, c]), set()).add(ch)
        by_label.setdefault(ch, set()).add(int(ids[r, c]))
    for cls, chars in by_class.items():
        if len(chars) > 1:
            raise TruthCheckError(f"cells that look the same were labelled {sorted(chars)} by the rules")
    for ch, classes in by_label.items():
        if len(classes) > 1:
            raise TruthCheckError(f"cells labelled {ch!r} by the rules look different ({len(classes)} pictures)")


def label_earlier(
    frame: np.ndarray,
    final: np.ndarray,
    final_board: Board,
    lattice: Lattice,
    look: Appearance,
    *,
    flagged: frozenset[tuple[int, int]] = frozenset(),
    questioned: frozenset[tuple[int, int]] = frozenset(),
) -> Board:
    """Label a frame taken during the game, from the labelled final frame of the same game."""
    now = canonical_cells(frame, lattice)
    end = canonical_cells(final, lattice)
    rows = []
    for r in range(lattice.rows):
        row = []
        for c in range(lattice.cols):
            cell = now[r, c]
            if (r, c) in flagged:
                if not same(cell, look.flag):
                    raise TruthCheckError(f"cell ({r}, {c}) was flagged but does not show the flag picture")
                row.append("F")
            elif (r, c) in questioned:
                if not same(cell, look.question):
                    raise TruthCheckError(f"cell ({r}, {c}) was marked '?' but does not show it")
                row.append("?")
            elif same(cell, look.covered):
                row.append("#")
            else:
                final_char = final_board[r, c]
                if final_char not in "012345678" or not same(cell, end[r, c]):
                    raise TruthCheckError(
                        f"cell ({r}, {c}) is open here but ends as {final_char!r} or looks different at the end"
                    )
                row.append(final_char)
        rows.append("".join(row))
    return Board(tuple(rows))
