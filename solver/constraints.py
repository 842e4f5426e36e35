"""From a board to linear constraints over covered cells, and the cheap deterministic pass.

Every revealed number with covered neighbours says: "exactly ``mines`` of these ``cells`` are mines".
The deterministic pass applies the single-number rule (0 left -> all safe, as many left as cells -> all
mines) and the pairwise rule (what the overlap of two numbers forces on their private parts) until
nothing changes. It is exact but incomplete: whatever it cannot settle goes to enumeration.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from .board import CELL_CHARS, MINE_LIKE_CHARS, NUMBERS, UNKNOWN_CHARS, Board
from .errors import InconsistentBoardError
from .grid import bits, neighbour_masks


class Constraint(NamedTuple):
    """Exactly ``mines`` of the cells in bitmask ``cells`` are mines. ``source`` is the number's index.

    A named tuple, not a frozen dataclass: thousands are made per decision and a frozen dataclass
    takes several times longer to build."""

    cells: int
    mines: int
    source: int


@dataclass(frozen=True, slots=True)
class ConstraintSystem:
    rows: int
    cols: int
    unknown: int  # bitmask of covered cells (not flagged)
    shown_mines: int  # bitmask of cells shown as mines (flags, and mines on a lost board)
    constraints: tuple[Constraint, ...]

    @property
    def flags(self) -> int:
        return self.shown_mines.bit_count()

    def reveal(self, index: int, value: int) -> ConstraintSystem:
        """The system after the covered cell ``index`` turns out safe and shows ``value``."""
        bit = 1 << index
        unknown = self.unknown & ~bit
        constraints = [
            con if not con.cells & bit else Constraint(con.cells & ~bit, con.mines, con.source)
            for con in self.constraints
        ]
        around = neighbour_masks(self.rows, self.cols)[index]
        cells = around & unknown
        left = value - (around & self.shown_mines).bit_count()
        if left < 0 or left > cells.bit_count():
            raise InconsistentBoardError(f"{divmod(index, self.cols)} cannot show {value}", cells=(divmod(index, self.cols),))
        if cells:
            constraints.append(Constraint(cells, left, index))
        return ConstraintSystem(self.rows, self.cols, unknown, self.shown_mines, tuple(c for c in constraints if c.cells or c.mines))

    def cell(self, index: int) -> tuple[int, int]:
        return divmod(index, self.cols)

    def cells(self, mask: int) -> tuple[tuple[int, int], ...]:
        return tuple(divmod(i, self.cols) for i in bits(mask))


# (Any other character, e.g. a '.' in a Board built by hand, reads as "not this kind".)
_UNKNOWN_BITS = str.maketrans({ch: "1" if ch in UNKNOWN_CHARS else "0" for ch in CELL_CHARS})
_MINE_BITS = str.maketrans({ch: "1" if ch in MINE_LIKE_CHARS else "0" for ch in CELL_CHARS})
_NUMBER_BITS = str.maketrans({ch: "1" if ch in NUMBERS else "0" for ch in CELL_CHARS})
_NONZERO_BITS = str.maketrans({ch: "1" if ch in NUMBERS and ch != "0" else "0" for ch in CELL_CHARS})


def _mask_of(flat: str, table) -> int:
    """Bitmask of the cells whose character ``table`` maps to '1' (bit i = cell i)."""
    text = flat.translate(table)
    if text.strip("01"):
        text = "".join(ch if ch == "1" else "0" for ch in text)
    return int(text[::-1], 2)


# The last board built, to build the next one from it: a move changes a few rows, and only the numbers
# next to a changed row need looking at again (the others' constraints are taken over unchanged). The
# result is always exactly what building from scratch gives; this only saves the work.
_last_built: tuple[int, int, tuple[str, ...], dict[int, Constraint]] | None = None


def build_constraints(board: Board) -> ConstraintSystem:
    # Bitmask work: the covered and flagged cells are read in one pass each (str.translate), and only
    # the numbers that can say something are visited: those next to a covered cell, and non-zero ones
    # next to a flag (they may contradict it). This runs on every decision.
    global _last_built
    rows, cols = board.rows, board.cols
    flat = "".join(board.grid)
    around = neighbour_masks(rows, cols)
    unknown = _mask_of(flat, _UNKNOWN_BITS)
    shown_mines = _mask_of(flat, _MINE_BITS)
    numbers = _mask_of(flat, _NUMBER_BITS)
    nonzero = _mask_of(flat, _NONZERO_BITS)
    near_unknown = _dilate(unknown, rows, cols)
    near_mines = _dilate(shown_mines, rows, cols)
    lonely = nonzero & ~near_unknown & ~near_mines  # a number with nothing around that could be a mine
    if lonely:
        i = (lonely & -lonely).bit_length() - 1
        raise InconsistentBoardError(
            f"the {flat[i]} at {divmod(i, cols)} sees no flags and no covered cells", cells=(divmod(i, cols),)
        )
    visit = (numbers & near_unknown) | (nonzero & near_mines)
    by_source: dict[int, Constraint] = {}
    last = _last_built
    if last is not None and last[0] == rows and last[1] == cols:
        changed = 0
        row_bits = (1 << cols) - 1
        for r, (old, new) in enumerate(zip(last[2], board.grid)):
            if old != new:
                changed |= row_bits << (r * cols)
        redo = visit & _dilate(changed, rows, cols)
        for i, con in last[3].items():
            if visit >> i & 1 and not redo >> i & 1:
                by_source[i] = con
        visit = redo
    while visit:
        low = visit & -visit
        i = low.bit_length() - 1
        visit ^= low
        near = around[i]
        mask = near & unknown
        shown = (near & shown_mines).bit_count() if shown_mines else 0
        left = ord(flat[i]) - 48 - shown
        if left < 0 or left > mask.bit_count():
            raise InconsistentBoardError(
                f"the {flat[i]} at {divmod(i, cols)} sees {shown} flags and {mask.bit_count()} covered cells",
                cells=(divmod(i, cols),),
            )
        if mask:
            by_source[i] = Constraint(mask, left, i)
    _last_built = (rows, cols, board.grid, by_source)
    constraints = tuple(by_source[i] for i in sorted(by_source))
    return ConstraintSystem(rows, cols, unknown, shown_mines, constraints)


@lru_cache(maxsize=64)
def _column_masks(rows: int, cols: int) -> tuple[int, int]:
    """Cells not in the first column, cells not in the last column."""
    row_first = sum(1 << (r * cols) for r in range(rows))
    first = row_first
    last = row_first << (cols - 1)
    full = (1 << (rows * cols)) - 1
    return full & ~first, full & ~last


def _dilate(mask: int, rows: int, cols: int) -> int:
    """``mask`` and every neighbour of its cells."""
    not_first, not_last = _column_masks(rows, cols)
    full = (1 << (rows * cols)) - 1
    row = mask | ((mask << 1) & not_first) | ((mask >> 1) & not_last)
    return (row | (row << cols) | (row >> cols)) & full


@dataclass(frozen=True, slots=True)
class Deduction:
    safe: int  # bitmask of cells proven safe
    mines: int  # bitmask of cells proven mines
    constraints: tuple[Constraint, ...]  # what is left, reduced by the cells settled


def deduce(
    system: ConstraintSystem,
    constraints: tuple[Constraint, ...] | None = None,
    deadline: float = math.inf,
    *,
    safe: int = 0,
    mines: int = 0,
    settled: tuple[Constraint, ...] = (),
    touched: int = -1,
) -> Deduction:
    """Apply the single-number and pairwise rules until they settle nothing more.

    ``safe``/``mines`` are cells already known; ``settled`` are constraints already checked pairwise
    against each other (a previous deduction's result): only pairs with a new or changed constraint
    are looked at, so a lookahead's re-solve after one reveal costs little. ``touched``: the cells
    whose state changed since the constraints were last reduced (default: all of them). Past ``deadline`` it stops
    early: what it found is still certain, the rest is left to the enumeration.
    """
    work = list(system.constraints if constraints is None else constraints)
    checked = {(c.cells, c.mines) for c in settled}
    # touched: cells settled since the last pass (-1: all)
    while True:
        before = safe | mines
        work, safe, mines = _reduce(system, work, safe, mines, touched)
        touched = (safe | mines) & ~before
        if touched:
            continue
        if time.perf_counter() > deadline:
            break
        safe_found, mines_found = _pairwise(work, checked, deadline)
        checked = {(c.cells, c.mines) for c in work}
        if not (safe_found or mines_found):
            break
        if safe_found & mines_found:
            raise InconsistentBoardError("the numbers contradict each other", cells=system.cells(safe_found & mines_found))
        touched = (safe_found | mines_found) & ~(safe | mines)
        safe |= safe_found
        mines |= mines_found
    return Deduction(safe & system.unknown, mines, tuple(work))


def _reduce(system, work, safe, mines, touched):
    """Remove settled cells from the constraints that hold any of ``touched`` (the others are reduced
    already), then apply the single-number rule."""
    out = []
    seen = set()
    for con in work:
        mask, left = con.cells, con.mines
        if mask & touched:
            if mask & mines:
                left -= (mask & mines).bit_count()
                mask &= ~mines
            mask &= ~safe
            size = mask.bit_count()
            if left < 0 or left > size:
                raise InconsistentBoardError(
                    "a number cannot be satisfied", cells=(system.cell(con.source),) + system.cells(con.cells)
                )
            if not mask:
                continue
            if left == 0:
                safe |= mask
                continue
            if left == size:
                mines |= mask
                continue
        if (mask, left) not in seen:
            seen.add((mask, left))
            out.append(con if mask == con.cells else Constraint(mask, left, con.source))
    return out, safe, mines


def _pairwise(work: list[Constraint], checked: set[tuple[int, int]], deadline: float = math.inf) -> tuple[int, int]:
    """For each overlapping pair (at least one of them not in ``checked``), bound the mines in the
    overlap and settle the private parts. Stops early (with what it found) past ``deadline``."""
    fresh = [k for k, con in enumerate(work) if (con.cells, con.mines) not in checked]
    if not fresh:
        return 0, 0
    reach = 0
    for k in fresh:
        reach |= work[k].cells
    by_cell: dict[int, list[int]] = {}
    for k, con in enumerate(work):
        if not con.cells & reach:
            continue  # shares no cell with a fresh constraint: no pair to look at
        mask = con.cells
        while mask:
            low = mask & -mask
            by_cell.setdefault(low.bit_length() - 1, []).append(k)
            mask ^= low
    safe = mines = 0
    done = set()
    for count, x in enumerate(fresh):
        if not count & 255 and count and time.perf_counter() > deadline:
            break
        a = work[x]
        partners = set()
        mask = a.cells
        while mask:
            low = mask & -mask
            partners.update(by_cell[low.bit_length() - 1])
            mask ^= low
        for y in partners:
            if y == x:
                continue
            pair = (x, y) if x < y else (y, x)
            if pair in done:
                continue
            done.add(pair)
            b = work[y]
            both = a.cells & b.cells
            only_a = a.cells & ~both
            only_b = b.cells & ~both
            na, nb, nboth = only_a.bit_count(), only_b.bit_count(), both.bit_count()
            low_m = max(0, a.mines - na, b.mines - nb)
            high_m = min(nboth, a.mines, b.mines)
            for only, n, left in ((only_a, na, a.mines), (only_b, nb, b.mines)):
                if not only:
                    continue
                if left - low_m == 0:
                    safe |= only
                elif left - high_m == n:
                    mines |= only
    return safe, mines
