"""Flat cell indices (``i = row * cols + col``) and their neighbour tables.

The engine works on sets of cell indices held as Python int bitmasks: union, intersection and size are
single big-int operations, much faster than Python sets for boards of a few hundred cells.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

# ``popcount(x)`` is ``x.bit_count()``, ``bit_length(x)`` is ``x.bit_length()``. Compiled (mypyc has no
# primitive for either), the method is looked up on the int at every call; these names are bound once
# and called directly, about 120 instructions less per call, which the solver makes thousands of
# times per game.
popcount: Final = int.bit_count
bit_length: Final = int.bit_length


@lru_cache(maxsize=64)
def neighbour_table(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    table = []
    for r in range(rows):
        for c in range(cols):
            table.append(
                tuple(
                    rr * cols + cc
                    for rr in range(max(0, r - 1), min(rows, r + 2))
                    for cc in range(max(0, c - 1), min(cols, c + 2))
                    if (rr, cc) != (r, c)
                )
            )
    return tuple(table)


@lru_cache(maxsize=64)
def neighbour_masks(rows: int, cols: int) -> tuple[int, ...]:
    return tuple(sum(1 << j for j in nbrs) for nbrs in neighbour_table(rows, cols))


# The bits set in each byte value, lowest first.
_BYTE_BITS: Final = tuple(tuple(b for b in range(8) if value >> b & 1) for value in range(256))


def bits(mask: int) -> list[int]:
    """The indices set in ``mask`` (not negative), lowest first."""
    # Byte by byte: the classic loop (lowest bit, clear it, again) makes three new long ints per bit,
    # about 1,500 instructions per bit on an expert board's 480-bit masks, where this costs a few
    # dozen per byte and per bit.
    out: list[int] = []
    base = 0
    for byte in mask.to_bytes((bit_length(mask) + 7) // 8, "little"):
        if byte:
            for b in _BYTE_BITS[byte]:
                out.append(base + b)
        base += 8
    return out


def cell_shape(index: int, unknown: int, rows: int, cols: int) -> tuple[int, int]:
    """(neighbours on the board, how many of them are in ``unknown``): a corner, edge or inside cell,
    and how covered its surroundings are. Cells off the frontier with the same chance of a mine
    differ by no more than this."""
    return len(neighbour_table(rows, cols)[index]), popcount(neighbour_masks(rows, cols)[index] & unknown)


def first_of_each_shape(cells: int, unknown: int, rows: int, cols: int) -> list[int]:
    """The lowest cell of each ``cell_shape`` among ``cells``, lowest first."""
    # On whole masks, not cell by cell (a guess looks at hundreds of floating cells): the number of
    # covered neighbours of every cell at once, then for each shape its cells' lowest bit.
    planes = _neighbour_counts(unknown, rows, cols)
    full = (1 << (rows * cols)) - 1
    out = []
    for count in range(9):
        exact = cells
        for k, plane in enumerate(planes):
            exact &= plane if count >> k & 1 else full & ~plane
        if not exact:
            continue
        for degree_cells in _degree_masks(rows, cols):
            found = exact & degree_cells
            if found:
                out.append(bit_length(found & -found) - 1)
    out.sort()
    return out


def _neighbour_counts(mask: int, rows: int, cols: int) -> list[int]:
    """How many neighbours of each cell are in ``mask``, as four bit planes: cell i has
    sum(2**k for the planes k that hold bit i)."""
    not_first, not_last = _column_masks(rows, cols)
    full = (1 << (rows * cols)) - 1
    west = (mask << 1) & not_first  # bit i: the cell left of i is in mask
    east = (mask >> 1) & not_last
    planes = [0, 0, 0, 0]
    for one in (west, east, (west << cols) & full, (mask << cols) & full, (east << cols) & full,
                west >> cols, mask >> cols, east >> cols):
        for k in range(4):  # add one bit plane: a ripple of carries through the count's planes
            if not one:
                break
            planes[k], one = planes[k] ^ one, planes[k] & one
    return planes


@lru_cache(maxsize=64)
def _degree_masks(rows: int, cols: int) -> tuple[int, ...]:
    """The cells of each number of neighbours on the board (corners, sides, inside)."""
    by_degree: dict[int, int] = {}
    for i, nbrs in enumerate(neighbour_table(rows, cols)):
        by_degree[len(nbrs)] = by_degree.get(len(nbrs), 0) | 1 << i
    return tuple(by_degree.values())


@lru_cache(maxsize=64)
def _column_masks(rows: int, cols: int) -> tuple[int, int]:
    """Cells not in the first column, cells not in the last column."""
    row_first = sum(1 << (r * cols) for r in range(rows))
    first = row_first
    last = row_first << (cols - 1)
    full = (1 << (rows * cols)) - 1
    return full & ~first, full & ~last


def dilate(mask: int, rows: int, cols: int) -> int:
    """``mask`` and every neighbour of its cells."""
    not_first, not_last = _column_masks(rows, cols)
    full = (1 << (rows * cols)) - 1
    row = mask | ((mask << 1) & not_first) | ((mask >> 1) & not_last)
    return (row | (row << cols) | (row >> cols)) & full
