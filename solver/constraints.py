"""From a board to linear constraints over covered cells, and the cheap deterministic pass.

Every revealed number with covered neighbours says: "exactly ``mines`` of these ``cells`` are mines".
The deterministic pass applies the single-number rule (0 left -> all safe, as many left as cells -> all
mines) and the pairwise rule (what the overlap of two numbers forces on their private parts) until
nothing changes. It is exact but incomplete: whatever it cannot settle goes to enumeration.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import MINE_LIKE_CHARS, NUMBERS, UNKNOWN_CHARS, Board
from .errors import InconsistentBoardError
from .grid import bits, neighbour_masks, neighbour_table


@dataclass(frozen=True, slots=True)
class Constraint:
    """Exactly ``mines`` of the cells in bitmask ``cells`` are mines. ``source`` is the number's index."""

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


def build_constraints(board: Board) -> ConstraintSystem:
    rows, cols = board.rows, board.cols
    flat = "".join(board.grid)
    table = neighbour_table(rows, cols)
    unknown = 0
    shown_mines = 0
    for i, ch in enumerate(flat):
        if ch in UNKNOWN_CHARS:
            unknown |= 1 << i
        elif ch in MINE_LIKE_CHARS:
            shown_mines |= 1 << i
    constraints = []
    for i, ch in enumerate(flat):
        if ch not in NUMBERS or ch == "0" and not _has_unknown(flat, table[i]):
            continue
        mask = 0
        shown = 0
        for j in table[i]:
            nch = flat[j]
            if nch in UNKNOWN_CHARS:
                mask |= 1 << j
            elif nch in MINE_LIKE_CHARS:
                shown += 1
        left = int(ch) - shown
        if left < 0 or left > mask.bit_count():
            raise InconsistentBoardError(
                f"the {ch} at {divmod(i, cols)} sees {shown} flags and {mask.bit_count()} covered cells",
                cells=(divmod(i, cols),),
            )
        if mask:
            constraints.append(Constraint(mask, left, i))
    return ConstraintSystem(rows, cols, unknown, shown_mines, tuple(constraints))


def _has_unknown(flat: str, nbrs: tuple[int, ...]) -> bool:
    return any(flat[j] in UNKNOWN_CHARS for j in nbrs)


@dataclass(frozen=True, slots=True)
class Deduction:
    safe: int  # bitmask of cells proven safe
    mines: int  # bitmask of cells proven mines
    constraints: tuple[Constraint, ...]  # what is left, reduced by the cells settled


def deduce(system: ConstraintSystem, constraints: tuple[Constraint, ...] | None = None) -> Deduction:
    """Apply the single-number and pairwise rules until they settle nothing more."""
    work = list(system.constraints if constraints is None else constraints)
    safe = 0
    mines = 0
    while True:
        work, safe, mines, settled = _reduce(system, work, safe, mines)
        if settled:
            continue
        safe_found, mines_found = _pairwise(work)
        if not (safe_found or mines_found):
            return Deduction(safe, mines, tuple(work))
        if safe_found & mines_found:
            raise InconsistentBoardError("the numbers contradict each other", cells=system.cells(safe_found & mines_found))
        safe |= safe_found
        mines |= mines_found


def _reduce(system, work, safe, mines):
    """Remove settled cells from every constraint, then apply the single-number rule."""
    out = []
    seen = set()
    settled = False
    for con in work:
        mask, left = con.cells, con.mines
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
            settled = True
        elif left == size:
            mines |= mask
            settled = True
        elif (mask, left) not in seen:
            seen.add((mask, left))
            out.append(con if mask == con.cells else Constraint(mask, left, con.source))
    return out, safe, mines, settled


def _pairwise(work: list[Constraint]) -> tuple[int, int]:
    """For each overlapping pair, bound the mines in the overlap and settle the private parts."""
    by_cell: dict[int, list[int]] = {}
    for k, con in enumerate(work):
        for i in bits(con.cells):
            by_cell.setdefault(i, []).append(k)
    safe = mines = 0
    done = set()
    for members in by_cell.values():
        for x in range(len(members)):
            for y in range(x + 1, len(members)):
                pair = (members[x], members[y])
                if pair in done:
                    continue
                done.add(pair)
                a, b = work[pair[0]], work[pair[1]]
                both = a.cells & b.cells
                only_a = a.cells & ~both
                only_b = b.cells & ~both
                na, nb, nboth = only_a.bit_count(), only_b.bit_count(), both.bit_count()
                low = max(0, a.mines - na, b.mines - nb)
                high = min(nboth, a.mines, b.mines)
                for only, n, left in ((only_a, na, a.mines), (only_b, nb, b.mines)):
                    if not only:
                        continue
                    if left - low == 0:
                        safe |= only
                    elif left - high == n:
                        mines |= only
    return safe, mines
