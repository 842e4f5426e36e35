"""Blocks of cells on a grid of good/bad cells: the board is the largest all-good rectangle.

Pure NumPy, no pixels: ``good`` is a (rows, cols) bool array saying which lattice positions look like
cells of the skin.
"""

from __future__ import annotations

import numpy as np

MIN_SIDE = 4  # fewest rows/columns a board may have (gnome-mines' smallest custom board is 4x4)

Block = tuple[int, int, int, int]  # (row, col, rows, cols)


def largest_rectangle(good: np.ndarray, min_side: int = MIN_SIDE) -> Block:
    """(row, col, rows, cols) of the largest all-True rectangle with both sides at least ``min_side``
    (histogram method, O(R*C)); (0, 0, 0, 0) when there is none."""
    rows, cols = good.shape
    heights = np.zeros(cols, dtype=int)
    best = (0, 0, 0, 0)
    best_area = 0
    for r in range(rows):
        heights = np.where(good[r], heights + 1, 0)
        stack: list[int] = []
        for c in range(cols + 1):
            h = heights[c] if c < cols else 0
            while stack and heights[stack[-1]] >= h:
                top = stack.pop()
                height = heights[top]
                left = stack[-1] + 1 if stack else 0
                area = height * (c - left)
                if area > best_area and height >= min_side and c - left >= min_side:
                    best_area = area
                    best = (r - height + 1, left, int(height), c - left)
            stack.append(c)
    return best


def extend(good: np.ndarray, block: Block, share: float = 0.8) -> Block:
    """Grow the all-good block by whole rows/columns that are mostly good: a cell the templates
    match poorly (a state seen at another size only) must not cut the board in two; reading it
    later will say which cell it is."""
    r0, c0, rows, cols = block
    if rows == 0 or cols == 0:
        return block
    changed = True
    while changed:
        changed = False
        if r0 > 0 and good[r0 - 1, c0 : c0 + cols].mean() >= share:
            r0, rows, changed = r0 - 1, rows + 1, True
        if r0 + rows < good.shape[0] and good[r0 + rows, c0 : c0 + cols].mean() >= share:
            rows, changed = rows + 1, True
        if c0 > 0 and good[r0 : r0 + rows, c0 - 1].mean() >= share:
            c0, cols, changed = c0 - 1, cols + 1, True
        if c0 + cols < good.shape[1] and good[r0 : r0 + rows, c0 + cols].mean() >= share:
            cols, changed = cols + 1, True
    return r0, c0, rows, cols
