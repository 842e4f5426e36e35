"""xbomb's board, measured on the screen: the locator sees no cell faces in its stippled covered cells, so
``start_xbomb`` (in ``clients``) finds its grid from the black lines between the cells instead."""

from __future__ import annotations

from ..errors import ClientStartError
from ..geometry import Lattice, Rect

XBOMB_LEVELS = {1: (8, 8, 10), 2: (16, 16, 40), 3: (30, 16, 99)}  # cols, rows, bombs


def xbomb_lattice(window: Rect, rows: int, cols: int, frame=None) -> Lattice:
    """The xbomb board's lattice on the screen, from its black grid lines (2 px each: every cell draws
    a 1 px border of its own) inside ``window``: the screen's picture is grabbed unless ``frame`` (the
    window's picture) is given. ClientStartError when the lines are not there."""
    import numpy as np

    if frame is None:
        from ..capture import MssScreen

        with MssScreen() as screen:
            frame = screen.grab(window.as_region())
    dark = frame[:, :, :3].astype(int).sum(axis=2) < 100
    found = []
    for axis, count in ((0, cols), (1, rows)):
        share = dark.mean(axis=axis)
        lines = _line_starts(np.flatnonzero(share > 0.6))
        run = next((lines[i : i + count + 1] for i in range(len(lines) - count)
                    if len({b - a for a, b in zip(lines[i : i + count + 1], lines[i + 1 : i + count + 1])}) == 1), None)
        if run is None:
            raise ClientStartError(f"the {rows}x{cols} grid lines were not found in the window", client="xbomb")
        found.append((run[0], (run[-1] - run[0]) / count))
    (x0, px), (y0, py) = found
    # The box of a cell starts past the line that ends the cell before it (where new-skin cut them).
    return Lattice("xbomb", (float(window.left + x0 + 1), float(window.top + y0 + 1)), (float(px), float(py)), rows, cols)


def _line_starts(index) -> list[int]:
    """The first index of each run of consecutive indices."""
    return [int(v) for i, v in enumerate(index) if i == 0 or index[i - 1] != v - 1]
