"""Turning a drawing's coverage mask into the rectangle list the X SHAPE extension takes (pure)."""

from __future__ import annotations

import numpy as np


def mask_to_rectangles(mask: np.ndarray) -> list[tuple[int, int, int, int]]:
    """(x, y, width, height) rectangles whose union is exactly the True pixels of ``mask``.

    Runs of each row, merged with the identical runs of the rows below; rings and labels stay at a few
    rectangles per cell, which keeps the SHAPE request small.
    """
    mask = np.asarray(mask, bool)
    height, width = mask.shape
    padded = np.zeros((height, width + 2), np.int8)
    padded[:, 1:-1] = mask
    diff = np.diff(padded, axis=1)
    open_runs: dict[tuple[int, int], int] = {}  # (x0, x1) -> first row
    rects: list[tuple[int, int, int, int]] = []
    for y in range(height + 1):
        if y < height:
            starts = np.flatnonzero(diff[y] == 1)
            ends = np.flatnonzero(diff[y] == -1)
            runs = set(zip(starts.tolist(), ends.tolist()))
        else:
            runs = set()
        for run in list(open_runs):
            if run not in runs:
                top = open_runs.pop(run)
                rects.append((run[0], top, run[1] - run[0], y - top))
        for run in runs:
            open_runs.setdefault(run, y)
    return rects
