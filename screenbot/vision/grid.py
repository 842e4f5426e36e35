"""What the structure locator finds (``structure.find_grids``): candidate cell faces on a frame, and the
grid of cells they sit on, with its geometry (face centres, pitch boxes).

Data and geometry only; how faces are found and linked into grids is ``structure``'s job.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True, eq=False)
class Faces:
    """Candidate cell faces: bounding boxes (left, top, width, height) as int arrays, centres as floats.
    ``square`` marks the squarish ones; the others are pieces of faces (a digit can cut one in two)."""

    left: np.ndarray
    top: np.ndarray
    width: np.ndarray
    height: np.ndarray
    square: np.ndarray

    @property
    def cx(self) -> np.ndarray:
        return self.left + self.width / 2.0

    @property
    def cy(self) -> np.ndarray:
        return self.top + self.height / 2.0

    def __len__(self) -> int:
        return len(self.left)

    def subset(self, index: np.ndarray) -> Faces:
        return Faces(self.left[index], self.top[index], self.width[index], self.height[index], self.square[index])


@dataclass(frozen=True, eq=False)  # no slots: ``centres`` and ``extents`` are kept on the grid
class Grid:
    """A lattice of cells found by structure: cell (r, c)'s face centre is ``centre + (c*px, r*py)``.

    ``faces`` are the faces of the linked group(s) the grid grew from; ``pieces`` all faces and pieces
    of faces on the frame.
    """

    centre: tuple[float, float]
    pitch: tuple[float, float]
    rows: int
    cols: int
    faces: Faces
    pieces: Faces | None = None
    # The faces are the cells' whole pitch boxes (a board of picture cells found by ``tiled``): its
    # centres are box centres, whatever face a skin's pictures have.
    boxes: bool = False
    # The grids this one was joined from (``structure._merged``), each settled on its own: two boards
    # side by side on one lattice look like one board's pieces, and are judged apart where the whole
    # is no board.
    parts: tuple = ()

    def faced_cells(self) -> int:
        """How many lattice positions hold one of the grid's faces."""
        (cx, cy), (px, py) = self.centre, self.pitch
        cols = np.round((self.faces.cx - cx) / px).astype(int)
        rows = np.round((self.faces.cy - cy) / py).astype(int)
        return len(set(zip(rows.tolist(), cols.tolist())))

    def box(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of the pitch boxes centred on the face centres."""
        (cx, cy), (px, py) = self.centre, self.pitch
        return cx - px / 2, cy - py / 2, cx + (self.cols - 0.5) * px, cy + (self.rows - 0.5) * py

    @functools.cached_property
    def centres(self) -> tuple[np.ndarray, np.ndarray]:
        """Each column's and row's face centre (x of columns, y of rows): the median of its faces',
        interpolated between the nearest columns (rows) with faces where it has none. Worked out once
        a grid (each skin places its boxes from them), read-only."""
        return self._by_line(self.faces.cx, self.faces.cy)

    @functools.cached_property
    def extents(self) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
        """((left, right) of each column's faces, (top, bottom) of each row's), medians like ``centres``.
        Where cells come in two widths (GTK gives some a pixel more), faces of the wider lines are
        wider too: their edges, unlike their centres, say where each line's box begins and ends."""
        faces = self.faces
        lefts, tops = self._by_line(faces.left.astype(float), faces.top.astype(float))
        rights, bottoms = self._by_line((faces.left + faces.width).astype(float), (faces.top + faces.height).astype(float))
        return (lefts, rights), (tops, bottoms)

    def _by_line(self, along_x: np.ndarray, along_y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per column (of ``along_x``, one value per face) and per row (of ``along_y``): the median over
        the line's faces, each line without faces given the offset from the straight grid of the
        nearest lines with faces (interpolated between them)."""
        (cx, cy), (px, py) = self.centre, self.pitch
        faces = self.faces
        out = []
        for count, at, values, start, pitch in ((self.cols, faces.cx, along_x, cx, px), (self.rows, faces.cy, along_y, cy, py)):
            k = np.round((at - start) / pitch).astype(int)
            known = _medians_by_line(k, values, count)
            straight = start + pitch * np.arange(count)
            if len(known) < 2:
                out.append(straight + (np.median(values - (start + pitch * k)) if len(values) else 0.0))
                continue
            index, value = (np.array(v) for v in zip(*known))
            # Between known lines: interpolated; beyond them: the nearest known one's offset kept.
            offset = np.interp(np.arange(count), index, value - straight[index])
            out.append(straight + offset)
        for line in out:
            line.flags.writeable = False
        return out[0], out[1]

    def describe(self) -> str:
        left, top, _, _ = self.box()
        return (f"{self.rows}x{self.cols} cells at ({left:.0f}, {top:.0f}), pitch "
                f"{self.pitch[0]:.2f}x{self.pitch[1]:.2f}")


def _medians_by_line(line: np.ndarray, values: np.ndarray, count: int) -> list[tuple[int, float]]:
    """(i, median of the ``values`` on line i) for each line 0..count-1 that has any, in order: all
    lines from one sort (a board has dozens of lines and hundreds of faces), each median as
    ``np.median`` gives it (the middle value, or the mean of the two middle ones)."""
    order = np.lexsort((values, line))
    lines, ordered = line[order], values[order]
    found, first, many = np.unique(lines, return_index=True, return_counts=True)
    known = []
    for i, start, n in zip(found.tolist(), first.tolist(), many.tolist()):
        if 0 <= i < count:
            middle = start + n // 2
            known.append((i, float(ordered[middle] if n % 2 else (ordered[middle - 1] + ordered[middle]) / 2)))
    return known


def line_edges(starts: np.ndarray, ends: np.ndarray, phase: float, pitch: float) -> np.ndarray:
    """Where each line's box begins (and the last one ends), from where its faces begin and end: between
    two lines, the middle of the gap between their faces moved as the skin's pictures place the box
    edge (``phase``, the face centre's share of a box); the first and last lines keep the gap on their
    outer side that their neighbour has. A face a pixel wider widens its box, not its neighbour's."""
    inner = (ends[:-1] + starts[1:]) / 2 + (0.5 - phase) * pitch
    first = starts[0] - (starts[1] - inner[0])
    last = ends[-1] + (inner[-1] - ends[-2])
    return np.concatenate(([first], inner, [last]))


__all__ = ["Faces", "Grid", "line_edges"]
