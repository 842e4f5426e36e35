"""Cell separators: whether a row or column of a lattice is bounded and cut by the strong steps that
separate cells (used to grow a grid to its board's extent, and to tell a board cut short)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .structure import Edges


# Cell separators: a share of SEPARATED of the lines checked must show a strong step within
# ``_reach`` of where the lattice puts the separator, for a row or column to be part of the board.
SEPARATED = 0.6


def _reach(pitch: float) -> int:
    """How far (px) from where the lattice puts a separator a step still counts as that separator: a
    straight lattice through GTK's cells (some a pixel wider than others) is off by up to ~0.2 pitch
    at the ends of a long row, and the separator sits anywhere between two faces."""
    return max(2, int(round(0.35 * pitch)))


def separator_share(steps: np.ndarray, at: float, spans: list[tuple[float, float]], pitch: float) -> float:
    """Share of ``spans`` (ranges along the separator) in most of whose pixel lines ``steps`` has a
    step within ``_reach(pitch)`` of ``at``. ``steps`` is oriented with the separator running down
    axis 0: ``Edges.dx`` for the separators between columns, ``Edges.dy.T`` between rows."""
    if not spans:
        return 0.0
    length, across = steps.shape
    t = _reach(pitch)
    lo, hi = max(0, int(round(at)) - t), min(across - 1, int(round(at)) + t)
    if hi < lo:
        return 0.0
    hits = 0
    for a, b in spans:
        start, stop = max(0, int(round(a))), min(length, int(round(b)))
        if stop > start and steps[start:stop, lo : hi + 1].any(axis=1).mean() >= SEPARATED:
            hits += 1
    return hits / len(spans)


def separated(steps: np.ndarray, ats, span: tuple[float, float], pitch: float) -> np.ndarray:
    """For each separator at one of ``ats``: whether in most pixel lines of ``span`` (a range along the
    separators) ``steps`` has a step within ``_reach(pitch)`` of it, as ``separator_share`` of that one
    span says; for all of them at once (the separators between a line's cells, dozens a line)."""
    length, across = steps.shape
    t = _reach(pitch)
    at = np.array([int(round(a)) for a in ats], dtype=np.int64).reshape(-1)
    lo, hi = np.maximum(0, at - t), np.minimum(across - 1, at + t)
    out = np.zeros(len(at), dtype=bool)
    start, stop = max(0, int(round(span[0]))), min(length, int(round(span[1])))
    seen = hi >= lo
    if stop <= start or not seen.any():
        return out
    # Steps counted along each pixel line up to each place across: a window's count is a difference.
    counts = np.zeros((stop - start, across + 1), dtype=np.int32)
    np.cumsum(steps[start:stop], axis=1, out=counts[:, 1:])
    hits = counts[:, hi[seen] + 1] - counts[:, lo[seen]] > 0
    out[seen] = hits.mean(axis=0) >= SEPARATED
    return out


def _middles(centre: float, pitch: float, count: int) -> list[tuple[float, float]]:
    """The middle half of cells 0..count-1 along one axis."""
    return [(centre + k * pitch - pitch / 4, centre + k * pitch + pitch / 4) for k in range(count)]


def _line_is_cells(across: np.ndarray, along: np.ndarray, centre: tuple[float, float], pitch: tuple[float, float],
                   count: int, index: int) -> bool:
    """Is line ``index`` of the lattice (``count`` cells long) a line of cells: bounded on both sides
    by separators (``across``, oriented as ``separator_share`` wants), and cut by the separators between
    its cells (``along``)? ``centre`` and ``pitch`` are (across, along) pairs for this orientation."""
    (c_across, c_along), (p_across, p_along) = centre, pitch
    middles = _middles(c_along, p_along, count)
    sides = min(separator_share(across, c_across + (index - 0.5) * p_across, middles, p_across),
                separator_share(across, c_across + (index + 0.5) * p_across, middles, p_across))
    if sides < SEPARATED:
        return False
    span = (c_across + index * p_across - p_across / 4, c_across + index * p_across + p_across / 4)
    cuts = separated(along, [c_along + (k + 0.5) * p_along for k in range(count - 1)], span, p_along)
    return bool(cuts.mean() >= SEPARATED) if len(cuts) else True


def column_is_cells(edges: Edges, centre: tuple[float, float], pitch: tuple[float, float], rows: int, col: int) -> bool:
    """Is lattice column ``col`` (rows 0..rows-1) a column of cells: bounded left and right by column
    separators, and cut by the separators between its rows?"""
    return _line_is_cells(edges.dx, edges.dy.T, centre, pitch, rows, col)


def row_is_cells(edges: Edges, centre: tuple[float, float], pitch: tuple[float, float], cols: int, row: int) -> bool:
    """The same as ``column_is_cells`` for lattice row ``row`` (columns 0..cols-1)."""
    return _line_is_cells(edges.dy.T, edges.dx, centre[::-1], pitch[::-1], cols, row)
