"""How long the live overlay takes to catch up with the game, measured from the screen alone (pure).

An outside observer grabs the board region over and over and keeps, per frame and per cell, two
features (``CellProbe``):

- a checksum of the cell's middle, which the overlay never draws on: it changes when the *game*
  redraws the cell;
- whether the cell's outer band shows an overlay mark. The live overlay paints solid colours from a
  small palette (the probability scale at whole percents, safe, mine, move), so "a good share of the
  band has exactly a mark colour" means "a mark is drawn around this cell"; the game's own colours
  (gnome-mines tints opened cells by their number) are not in that palette.

From that trace (``change_events``): when a marked cell's middle changes and settles on a new picture
(a cell opened, a mine shown), the overlay must take that cell's mark away, because it was computed for
the old board. The latency of one change is from the first frame showing the new picture for good to
the first frame from which the mark is gone for good. Cells that settle in the same frame are one
change (one click opening an area); the change's latency is that of its slowest cell.

``settle_latency`` gives the other figure: from the change being on screen to the whole region (every
mark redrawn for the new board) showing its final picture.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from screenbot.overlay.marks import MINE_RGB, MOVE_RGB, SAFE_RGB, probability_rgb

# A cell picture must stay this long to count as settled: gnome-mines and Chromium show a clicked cell
# "pressed" for about one display frame before its result, and that look is not the change.
SETTLED_SECONDS = 0.05
MARKED_SHARE = 0.3  # share of a band's pixels in a mark colour for "a mark is drawn here"


def mark_colours() -> np.ndarray:
    """The live overlay's ring colours as sorted 24-bit BGR integers (b | g << 8 | r << 16)."""
    values = [0.005, 0.995, *(k / 100.0 for k in range(101))]  # what ``percent_label`` rounds to
    rgbs = {probability_rgb(p) for p in values} | {SAFE_RGB, MINE_RGB, MOVE_RGB}
    return np.array(sorted(b | g << 8 | r << 16 for r, g, b in rgbs), dtype=np.int32)


@dataclass(frozen=True, slots=True)
class ChangeEvent:
    on_screen: float  # when the game's new picture of the cells appeared for good
    cleared: float | None  # when the last of those cells' old marks was gone for good; None: never
    cells: tuple[tuple[int, int], ...]

    @property
    def seconds(self) -> float | None:
        return None if self.cleared is None else max(0.0, self.cleared - self.on_screen)


class CellProbe:
    """Per-cell features of frames of one screen region (a lattice in that region's pixels).

    ``middle`` is the share of the pitch, centred, whose pixels are checksummed (inside the overlay's
    keep-out square); ``band`` the share outside of which, up to a pixel in from the cell box, marks are
    looked for (outside the keep-out square, where the overlay's rings are)."""

    def __init__(self, shape: tuple[int, int], origin, pitch, rows: int, cols: int, *, middle: float = 0.5, band: float = 0.8) -> None:
        height, width = shape
        ox, oy = origin
        px, py = pitch
        self.rows, self.cols = rows, cols
        mid_index, band_index, band_count = [], [], []
        for r in range(rows):
            for c in range(cols):
                cx, cy = ox + (c + 0.5) * px, oy + (r + 0.5) * py
                x0, x1 = _span(cx, px * middle, width)
                y0, y1 = _span(cy, py * middle, height)
                ys, xs = np.mgrid[y0:y1, x0:x1]
                mid_index.append((ys * width + xs).ravel())
                bx0, bx1 = _span(cx, px - 2.0, width)
                by0, by1 = _span(cy, py - 2.0, height)
                ix0, ix1 = _span(cx, px * band, width)
                iy0, iy1 = _span(cy, py * band, height)
                ys, xs = np.mgrid[by0:by1, bx0:bx1]
                outside = ~((xs >= ix0) & (xs < ix1) & (ys >= iy0) & (ys < iy1))
                band_index.append((ys * width + xs)[outside])
                band_count.append(int(outside.sum()))
        size = min(len(i) for i in mid_index)
        bsize = min(band_count)
        # Same number of pixels per cell (fractional pitches differ by one), as byte offsets into the
        # flattened frame: ``np.take`` on bytes is ~10x faster than gathering BGR rows.
        channels = np.arange(3)
        self._mid = (np.stack([i[:size] for i in mid_index])[:, :, None] * 3 + channels).reshape(rows * cols, -1)
        self._band = np.stack([i[:bsize] for i in band_index]) * 3
        # Exact integer checksum weights (no float rounding: equal pictures give equal sums).
        self._weights = (np.arange(size * 3, dtype=np.int64) * 2654435761 % 1000003) + 1
        self._palette = mark_colours()
        self.shape = (height, width)

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    def sample(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(middle checksums int64[cells], marked bool[cells]) of a BGR frame of the region."""
        if frame.shape[:2] != self.shape:
            raise ValueError(f"frame is {frame.shape[1::-1]}, the probe was made for {self.shape[::-1]}")
        raw = np.ascontiguousarray(frame).ravel()
        sums = np.take(raw, self._mid).astype(np.int64) @ self._weights
        b, g, r = (np.take(raw, self._band + k).astype(np.int32) for k in range(3))
        colour = b | g << 8 | r << 16
        at = np.minimum(np.searchsorted(self._palette, colour), len(self._palette) - 1)
        return sums, (self._palette[at] == colour).mean(axis=1) >= MARKED_SHARE


def _span(centre: float, size: float, limit: int) -> tuple[int, int]:
    lo = int(math.ceil(centre - size / 2.0))
    hi = int(math.floor(centre + size / 2.0))
    return max(0, lo), min(limit, max(lo + 1, hi))


def _runs(values: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) index ranges of equal consecutive values."""
    cuts = np.flatnonzero(values[1:] != values[:-1]) + 1
    bounds = [0, *cuts.tolist(), len(values)]
    return list(zip(bounds[:-1], bounds[1:]))


def change_events(
    times: Sequence[float], mids: np.ndarray, marks: np.ndarray, *, settled: float = SETTLED_SECONDS, cols: int = 1
) -> list[ChangeEvent]:
    """The changes of marked cells in a trace (``mids``, ``marks``: frames x cells) and when their
    marks went away. A cell counts when it was marked at the end of a settled picture and then settled
    on a different one that is not followed by yet another picture while still marked."""
    t = np.asarray(times, dtype=float)
    frames = len(t)
    if frames == 0:
        return []
    # A run that lasts ``settled`` seconds, or runs to the end of the trace, is a settled picture.
    end_time = np.append(t[1:], t[-1])  # a frame is on screen until the next one
    by_start: dict[int, list[tuple[int, float | None]]] = {}
    for cell in range(mids.shape[1]):
        runs = [(a, b) for a, b in _runs(mids[:, cell]) if end_time[b - 1] - t[a] >= settled or b == frames]
        # Pictures the cell showed while marked: looks of a cell still covered (lit under the pointer
        # and back); returning to one of them is no change of the game.
        covered_looks = set()
        for (a0, b0), (a1, b1) in zip(runs, runs[1:]):
            if marks[b0 - 1, cell]:
                covered_looks.add(int(mids[a0, cell]))
            if mids[a0, cell] == mids[a1, cell] or not marks[b0 - 1, cell] or int(mids[a1, cell]) in covered_looks:
                continue
            # The mark is gone for good from the first frame after which it never shows again while the
            # new picture lasts (it may also have gone during the in-between frames).
            shown = np.flatnonzero(marks[b0:b1, cell])
            last = b0 + int(shown[-1]) if shown.size else None
            if last is None:
                cleared: float | None = t[b0]
            elif last + 1 < b1:
                cleared = float(t[last + 1])
            elif b1 < frames:
                # Still marked when the cell changed again: that picture was the game's in-between look of
                # a still covered cell (lit under the pointer, drawn pressed); the next change counts.
                continue
            else:
                cleared = None  # still marked at the end of the trace: a stale mark
            by_start.setdefault(a1, []).append((cell, cleared))
    events = []
    for start in sorted(by_start):
        items = by_start[start]
        clears = [c for _, c in items]
        cleared = None if any(c is None for c in clears) else max(clears)  # type: ignore[type-var]
        events.append(ChangeEvent(float(t[start]), cleared, tuple(divmod(cell, cols) for cell, _ in items)))
    return events


def settle_latency(times: Sequence[float], signatures: Sequence[int], on_screen: float) -> float:
    """Seconds from ``on_screen`` to the start of the last run of equal whole-frame ``signatures``."""
    start = _runs(np.asarray(signatures, dtype=np.uint64))[-1][0]
    return max(0.0, float(times[start]) - on_screen)


@dataclass(frozen=True, slots=True)
class Figures:
    count: int
    median_ms: float | None
    p90_ms: float | None
    max_ms: float | None

    def as_dict(self) -> dict[str, float | int | None]:
        return {"count": self.count, "median_ms": self.median_ms, "p90_ms": self.p90_ms, "max_ms": self.max_ms}


def figures(seconds: Sequence[float]) -> Figures:
    """Median, 90th percentile (nearest rank) and maximum, in milliseconds."""
    if not seconds:
        return Figures(0, None, None, None)
    ordered = sorted(seconds)
    p90 = ordered[min(len(ordered) - 1, math.ceil(0.9 * len(ordered)) - 1)]
    return Figures(len(ordered), round(statistics.median(ordered) * 1000, 1), round(p90 * 1000, 1), round(ordered[-1] * 1000, 1))
