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
from functools import partial
from typing import NamedTuple

from .board import MINE_LIKE_CHARS, NUMBERS, UNKNOWN_CHARS, Board
from .errors import InconsistentBoardError
from .grid import bit_length, bits, dilate, neighbour_masks, popcount


class Constraint(NamedTuple):
    """Exactly ``mines`` of the cells in bitmask ``cells`` are mines. ``source`` is the number's index.

    A named tuple, not a frozen dataclass: thousands are made per decision and a frozen dataclass
    takes several times longer to build."""

    cells: int
    mines: int
    source: int


# ``make_constraint((cells, mines, source))`` makes a Constraint in C: calling the class runs the named
# tuple's ``__new__``, a Python function, which cost a sixth of ``build_constraints``. The solver makes
# its constraints with this.
make_constraint = partial(tuple.__new__, Constraint)


@dataclass(frozen=True, slots=True)
class ConstraintSystem:
    rows: int
    cols: int
    unknown: int  # bitmask of covered cells (not flagged)
    shown_mines: int  # bitmask of cells shown as mines (flags, and mines on a lost board)
    constraints: tuple[Constraint, ...]

    @property
    def flags(self) -> int:
        return popcount(self.shown_mines)

    def reveal(self, index: int, value: int) -> ConstraintSystem:
        """The system after the covered cell ``index`` turns out safe and shows ``value``."""
        bit = 1 << index
        unknown = self.unknown & ~bit
        constraints = [
            con if not con.cells & bit else make_constraint((con.cells & ~bit, con.mines, con.source))
            for con in self.constraints
        ]
        around = neighbour_masks(self.rows, self.cols)[index]
        cells = around & unknown
        left = value - popcount(around & self.shown_mines)
        if left < 0 or left > popcount(cells):
            raise InconsistentBoardError(f"{divmod(index, self.cols)} cannot show {value}", cells=(divmod(index, self.cols),))
        if cells:
            constraints.append(make_constraint((cells, left, index)))
        return ConstraintSystem(self.rows, self.cols, unknown, self.shown_mines, tuple(c for c in constraints if c.cells or c.mines))

    def cell(self, index: int) -> tuple[int, int]:
        return divmod(index, self.cols)

    def cells(self, mask: int) -> tuple[tuple[int, int], ...]:
        return tuple(divmod(i, self.cols) for i in bits(mask))


# Byte tables to the digits '0' / '1': any character but the kind's (a '.' in a Board built by hand,
# or one that is not ASCII, which ``_cell_bytes`` makes a '.') reads as "not this kind".
def _table(kind) -> bytes:
    return bytes(49 if chr(code) in kind else 48 for code in range(256))


_UNKNOWN_BITS = _table(UNKNOWN_CHARS)
_MINE_BITS = _table(MINE_LIKE_CHARS)
_NUMBER_BITS = _table(NUMBERS)
_NONZERO_BITS = _table(NUMBERS[1:])


def _cell_bytes(flat: str) -> bytes:
    """The cells as one byte each, the last cell first: then a kind's bytes, translated to binary
    digits, are its bitmask as ``int`` reads them (bit i = cell i), with no reversal per kind."""
    if not flat.isascii():
        flat = "".join([ch if ch.isascii() else "." for ch in flat])
    return flat.encode()[::-1]


def _mask_of(cells: bytes, table: bytes) -> int:
    """Bitmask of the cells (``_cell_bytes``) whose byte ``table`` maps to '1'."""
    return int(cells.translate(table), 2)


# The last board built, to build the next one from it: a move changes a few cells, and only the numbers
# next to a changed cell need looking at again (the others' constraints are taken over unchanged, the
# very objects, which ``deduce_next`` relies on to skip them). The result is always exactly what building
# from scratch gives; this only saves the work.
# (rows, cols, the cells' bytes (``_cell_bytes``), constraints by number, bitmask of those numbers, the system built)
_last_built: tuple[int, int, bytes, dict[int, Constraint], int, ConstraintSystem] | None = None
# What the last build changed, for ``_continue``: (the system before, the system built, bitmask of the
# numbers looked at again that have a constraint before or after, constraints by number before, after). None after a build from scratch.
_last_change: tuple[ConstraintSystem, ConstraintSystem, int, dict[int, Constraint], dict[int, Constraint]] | None = None


def build_constraints(board: Board) -> ConstraintSystem:
    # Bitmask work: the covered and flagged cells are read in one pass each (bytes.translate), and only
    # the numbers that can say something are visited: those next to a covered cell, and non-zero ones
    # next to a flag (they may contradict it). This runs on every decision.
    global _last_built, _last_change
    rows, cols = board.rows, board.cols
    flat = "".join(board.grid)
    cell_bytes = _cell_bytes(flat)
    last_cell = len(cell_bytes) - 1  # cell i's byte is cell_bytes[last_cell - i]
    around = neighbour_masks(rows, cols)
    unknown = _mask_of(cell_bytes, _UNKNOWN_BITS)
    shown_mines = _mask_of(cell_bytes, _MINE_BITS)
    numbers = _mask_of(cell_bytes, _NUMBER_BITS)
    nonzero = _mask_of(cell_bytes, _NONZERO_BITS)
    near_unknown = dilate(unknown, rows, cols)
    near_mines = dilate(shown_mines, rows, cols)
    lonely = nonzero & ~near_unknown & ~near_mines  # a number with nothing around that could be a mine
    if lonely:
        i = bit_length(lonely & -lonely) - 1
        raise InconsistentBoardError(
            f"the {flat[i]} at {divmod(i, cols)} sees no flags and no covered cells", cells=(divmod(i, cols),)
        )
    visit = (numbers & near_unknown) | (nonzero & near_mines)
    last = _last_built
    redo = -1
    if last is not None and (last[0], last[1], len(last[2])) == (rows, cols, len(cell_bytes)):
        # A number whose own cell and neighbours are unchanged has the same constraint as before.
        redo = dilate(_changed_cells(last[2], cell_bytes), rows, cols)
        by_source = last[3].copy()
        removed = bits(redo & last[4])
        for i in removed:
            del by_source[i]
        sources = last[4] & ~redo
        visit &= redo
        # The last system's constraints, in the order of their numbers, less the ones looked at again.
        gone = set(removed)
        kept = [con for con in last[5].constraints if con[2] not in gone]
    else:
        by_source = {}
        sources = 0
        kept = []
    made: list[Constraint] = []  # in the order of their numbers, as ``bits`` lists them
    for i in bits(visit):
        near = around[i]
        mask = near & unknown
        shown = popcount(near & shown_mines) if shown_mines else 0
        left = cell_bytes[last_cell - i] - 48 - shown
        if left < 0 or left > popcount(mask):
            raise InconsistentBoardError(
                f"the {flat[i]} at {divmod(i, cols)} sees {shown} flags and {popcount(mask)} covered cells",
                cells=(divmod(i, cols),),
            )
        if mask:
            con = make_constraint((mask, left, i))
            by_source[i] = con
            made.append(con)
            sources |= 1 << i
    constraints = _merged(kept, made)
    system = ConstraintSystem(rows, cols, unknown, shown_mines, constraints)
    _last_change = None if redo == -1 or last is None else (last[5], system, redo & (last[4] | sources), last[3], by_source)
    _last_built = (rows, cols, cell_bytes, by_source, sources, system)
    return system


def _merged(a: list[Constraint], b: list[Constraint]) -> tuple[Constraint, ...]:
    """Two lists of constraints, each in the order of their numbers, as one in that order (a sort took
    a sixth of ``build_constraints``)."""
    if not b:
        return tuple(a)
    out: list[Constraint] = []
    j, nb = 0, len(b)
    for con in a:
        source = con[2]
        while j < nb and b[j][2] < source:
            out.append(b[j])
            j += 1
        out.append(con)
    out.extend(b[j:])
    return tuple(out)


def _changed_cells(old: bytes, new: bytes) -> int:
    """Bitmask of the cells whose byte differs (both as ``_cell_bytes``), in C: the XOR of the two is
    zero exactly at the unchanged cells, and a byte table turns it into binary digits."""
    diff = int.from_bytes(old, "big") ^ int.from_bytes(new, "big")
    return int(diff.to_bytes(len(new), "big").translate(_NONZERO_BYTE), 2)


_NONZERO_BYTE = bytes([48] + [49] * 255)  # byte 0 -> '0', any other -> '1'


@dataclass(frozen=True, slots=True)
class Deduction:
    safe: int  # bitmask of cells proven safe
    mines: int  # bitmask of cells proven mines
    constraints: tuple[Constraint, ...]  # what is left, reduced by the cells settled
    complete: bool = True  # False when the deadline stopped it before the rules had settled all they can


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
    checked = set(settled)  # (named tuples hash by value: a set of them is built at C speed)
    complete = True
    # touched: cells settled since the last pass (-1: all)
    while True:
        before = safe | mines
        work, safe, mines = _reduce(system, work, safe, mines, touched)
        touched = (safe | mines) & ~before
        if touched:
            continue
        if not complete or time.perf_counter() > deadline:
            complete = False
            break
        safe_found, mines_found, complete = _pairwise(work, checked, deadline)
        checked = set(work)
        if not (safe_found or mines_found):
            break
        if safe_found & mines_found:
            raise InconsistentBoardError("the numbers contradict each other", cells=system.cells(safe_found & mines_found))
        touched = (safe_found | mines_found) & ~(safe | mines)
        safe |= safe_found
        mines |= mines_found
    # Flags may have been passed in as known mines (``deduce_next``): only covered cells are returned.
    return Deduction(safe & system.unknown, mines & system.unknown, tuple(work), complete)


# The last complete deduction and its system, for ``deduce_next``.
_last_deduced: tuple[ConstraintSystem, Deduction] | None = None


def deduce_next(system: ConstraintSystem, deadline: float = math.inf) -> Deduction:
    """``deduce(system)``, started from the last board's deduction when this board continues it (the
    same numbers, some covered cells opened or flagged since): only what changed is looked at again.
    Gives the same cells and the same remaining constraints as a fresh ``deduce`` (their order and
    the number each is credited to may differ; nothing downstream depends on those)."""
    global _last_deduced
    start = _continue(_last_deduced, system)
    if start is None:
        result = deduce(system, deadline=deadline)
    else:
        prev, fresh, opened, flagged = start
        touched = opened | flagged
        for con in fresh:
            touched |= con.cells
        result = deduce(
            system,
            prev.constraints + fresh,
            deadline,
            safe=prev.safe | opened,
            mines=prev.mines | flagged,
            settled=prev.constraints,
            touched=touched,
        )
    _last_deduced = (system, result) if result.complete else None
    return result


def _continue(
    last: tuple[ConstraintSystem, Deduction] | None, system: ConstraintSystem
) -> tuple[Deduction, tuple[Constraint, ...], int, int] | None:
    """(previous deduction, constraints of the numbers shown since, cells opened, cells flagged) when
    ``system`` continues the last deduced one, else None."""
    if last is None:
        return None
    old, prev = last
    if (old.rows, old.cols) != (system.rows, system.cols) or system.unknown & ~old.unknown:
        return None
    if old.shown_mines & ~system.shown_mines:
        return None
    flagged = system.shown_mines & ~old.shown_mines
    opened = old.unknown & ~system.unknown & ~flagged
    change = _last_change
    if change is not None and change[0] is old and change[1] is system:
        # Built from the old system by build_constraints: only the numbers it looked at again can
        # have changed (the others kept their very constraint, whose cells were not touched).
        _, _, redo, before, after = change
        looked_at = bits(redo)
        olds = tuple(before[i] for i in looked_at if i in before)
        now = {i: after[i] for i in looked_at if i in after}
    else:
        olds = old.constraints
        now = {con.source: con for con in system.constraints}
    off = ~system.unknown
    for con in olds:  # every number seen before must still say the same
        current = now.pop(con.source, None)
        if current is con and not con.cells & off:
            continue  # the very constraint (build_constraints kept it), its cells all still covered
        cells = con.cells & system.unknown
        mines = con.mines - popcount(con.cells & flagged)
        if cells:
            if current is None or current.cells != cells or current.mines != mines:
                return None
        elif mines or current is not None:
            return None
    fresh = tuple(now.values())
    if any(not old.unknown >> con.source & 1 for con in fresh):
        return None  # a number that had no covered neighbour before cannot have one now
    return prev, fresh, opened, flagged


def _reduce(
    system: ConstraintSystem, work: list[Constraint], safe: int, mines: int, touched: int
) -> tuple[list[Constraint], int, int]:
    """Remove settled cells from the constraints that hold any of ``touched`` (the others are reduced
    already), then apply the single-number rule. The constraints that hold none of ``touched`` must
    be distinct (as this leaves them): only a changed one can then be a duplicate."""
    out: list[Constraint] = []
    changed = 0  # the cells of the constraints changed here
    for con in work:
        cells, left, source = con
        if not cells & touched:
            out.append(con)
            continue
        mask = cells
        if mask & mines:
            left -= popcount(mask & mines)
            mask &= ~mines
        mask &= ~safe
        size = popcount(mask)
        if left < 0 or left > size:
            raise InconsistentBoardError(
                "a number cannot be satisfied", cells=(system.cell(source),) + system.cells(cells)
            )
        if not mask:
            continue
        if left == 0:
            safe |= mask
            continue
        if left == size:
            mines |= mask
            continue
        changed |= mask
        out.append(con if mask == cells else make_constraint((mask, left, source)))
    return (_distinct(out, changed) if changed else out), safe, mines


def _distinct(work: list[Constraint], changed: int) -> list[Constraint]:
    """``work`` without the later of two constraints on the same cells with the same count. Only the
    constraints that share a cell with ``changed`` are compared (hashing hundreds of long bitmasks on
    every pass was a fifth of the cheap pass): the others are distinct already."""
    seen: set[tuple[int, int]] = set()
    out: list[Constraint] = []
    for con in work:
        cells, left, _source = con
        if cells & changed:
            key = (cells, left)
            if key in seen:
                continue
            seen.add(key)
        out.append(con)
    return out


# Above this many (fresh, any) pairs of constraints ``_pairwise`` indexes them by cell rather than
# scanning: the scan is quadratic on boards of thousands of numbers.
_SCAN_LIMIT = 1024


def _pairwise(
    work: list[Constraint], checked: set[Constraint], deadline: float = math.inf
) -> tuple[int, int, bool]:
    """For each overlapping pair (at least one of them not in ``checked``), bound the mines in the
    overlap and settle the private parts. Stops early past ``deadline``, with what it found and False."""
    fresh = [k for k, con in enumerate(work) if con not in checked]
    if not fresh:
        return 0, 0, True
    is_fresh = [False] * len(work)
    for k in fresh:
        is_fresh[k] = True
    # Partners of a fresh constraint: found by scanning them all when that is cheap (what is left
    # after the cheap rules is usually a dozen constraints), else through an index by cell.
    by_cell: dict[int, list[int]] | None = None
    if len(fresh) * len(work) > _SCAN_LIMIT:
        reach = 0
        for k in fresh:
            reach |= work[k].cells
        by_cell = {}
        for k, con in enumerate(work):
            if not con.cells & reach:
                continue  # shares no cell with a fresh constraint: no pair to look at
            for cell in bits(con.cells):
                by_cell.setdefault(cell, []).append(k)
    safe = mines = 0
    for count, x in enumerate(fresh):
        if not count & 255 and count and time.perf_counter() > deadline:
            return safe, mines, False
        a = work[x]
        if by_cell is None:
            cells = a.cells
            partners = [y for y, con in enumerate(work) if con.cells & cells]
        else:
            near: set[int] = set()
            for cell in bits(a.cells):
                near.update(by_cell[cell])
            partners = list(near)
        for y in partners:
            # A pair of two fresh constraints is looked at from the first of them only.
            if y == x or (y < x and is_fresh[y]):
                continue
            b = work[y]
            both = a.cells & b.cells
            only_a = a.cells & ~both
            only_b = b.cells & ~both
            na, nb, nboth = popcount(only_a), popcount(only_b), popcount(both)
            low_m = max(0, a.mines - na, b.mines - nb)
            high_m = min(nboth, a.mines, b.mines)
            for only, n, left in ((only_a, na, a.mines), (only_b, nb, b.mines)):
                if not only:
                    continue
                if left - low_m == 0:
                    safe |= only
                elif left - high_m == n:
                    mines |= only
    return safe, mines, True
