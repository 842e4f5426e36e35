"""What the hint overlay marks, before any pixel is drawn: the probability colour scale and its labels,
the hints per cell (``Hints``), the two drawing
styles and the ``Layer`` a drawing results in (where the cells are: ``screenbot.geometry.Lattice``). ``draw`` renders them; ``live`` shows them in the desktop's overlay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

from ..geometry import Lattice

Cell = tuple[int, int]

FILL = "fill"
FRAME = "frame"

# Colour scale stops (probability, RGB). Green for safe-looking cells, amber near one half, red towards a
# certain mine; a perceptual order a person reads without a legend.
_SCALE_STOPS = (
    (0.00, (38, 166, 91)),
    (0.12, (142, 196, 64)),
    (0.25, (240, 200, 40)),
    (0.45, (245, 140, 35)),
    (0.70, (222, 62, 48)),
    (1.00, (150, 20, 40)),
)
SAFE_RGB = (20, 190, 90)
MINE_RGB = (130, 10, 30)
MOVE_RGB = (20, 110, 255)
WHITE = (255, 255, 255)
INK = (25, 25, 30)  # near-black for outlines and the mine glyph


def probability_rgb(p: float) -> tuple[int, int, int]:
    """The scale colour of a mine probability in [0, 1] (clamped), as RGB."""
    p = min(1.0, max(0.0, float(p)))
    for (p0, c0), (p1, c1) in zip(_SCALE_STOPS, _SCALE_STOPS[1:]):
        if p <= p1:
            t = (p - p0) / (p1 - p0)
            return tuple(round(a + (b - a) * t) for a, b in zip(c0, c1))  # type: ignore[return-value]
    return _SCALE_STOPS[-1][1]


def percent_label(p: float) -> str:
    """Rounded percentage that never claims certainty the solver did not give ("<1", ">99")."""
    value = p * 100.0
    if 0.0 < value < 1.0:
        return "<1"
    if 99.0 < value < 100.0:
        return ">99"
    return str(round(value))


# --- what to draw --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hints:
    """The solver's view of the board, reduced to what the overlay shows.

    ``probabilities`` is one row per board row, a float for each covered cell and None elsewhere (as in
    ``solver.probability.Analysis``). ``move`` is the recommended (action, row, col) or None.
    """

    probabilities: tuple[tuple[float | None, ...], ...]
    safe: frozenset[Cell] = frozenset()
    mines: frozenset[Cell] = frozenset()
    move: tuple[str, int, int] | None = None

    @classmethod
    def from_analysis(cls, analysis: object, move: object | None = None) -> Hints:
        """From an ``Analysis`` and optionally a ``Move`` (anything with action, row, col)."""
        chosen = None
        if move is not None:
            chosen = (str(getattr(move, "action")), int(getattr(move, "row")), int(getattr(move, "col")))
        return cls(
            probabilities=tuple(tuple(row) for row in getattr(analysis, "probabilities")),
            safe=frozenset(getattr(analysis, "safe")),
            mines=frozenset(getattr(analysis, "mines")),
            move=chosen,
        )

    @classmethod
    def from_decision(cls, decision: object) -> Hints:
        """From a ``Decision``: its analysis and its first move (the one the bot would play next)."""
        moves = getattr(decision, "moves")
        return cls.from_analysis(getattr(decision, "analysis"), moves[0] if moves else None)

    def without(self, cells: Iterable[Cell]) -> Hints:
        """The same hints with no mark at ``cells`` (and no move there)."""
        drop = set(cells)
        if not drop:
            return self
        probabilities = tuple(
            tuple(None if (r, c) in drop else p for c, p in enumerate(row)) for r, row in enumerate(self.probabilities)
        )
        move = None if self.move is not None and self.move[1:] in drop else self.move
        return Hints(probabilities, self.safe - drop, self.mines - drop, move)

    def mark_rgb(self, row: int, col: int) -> tuple[int, int, int] | None:
        """The colour a cell is marked with (RGB), or None for a cell that gets no mark."""
        p = self.probabilities[row][col]
        if p is None:
            return None
        if (row, col) in self.mines:
            return MINE_RGB
        if (row, col) in self.safe:
            return SAFE_RGB
        # Drawn from the rounded label, so that equal labels share one cached tile.
        return probability_rgb(label_value(percent_label(p)))

    def covered_cells(self) -> Iterable[tuple[int, int, float]]:
        for r, row in enumerate(self.probabilities):
            for c, p in enumerate(row):
                if p is not None:
                    yield r, c, p


@dataclass(frozen=True, slots=True)
class OverlayStyle:
    """How to draw.

    ``keep_out`` (FRAME only) is the fraction of the cell pitch, centred on the cell, that is never drawn
    on: the part of each cell the recognizer compares (a skin's ``vision.interior``). The band outside it,
    gap between cells included, carries the marks. ``side_window`` (FRAME only) is the fraction of the
    pitch, centred on the left and the right side of each cell, where the band is left clear too: for
    looks whose covered and open cells differ only at their edges (the classic look's bevels), so that a
    cell opened under its mark still shows that it changed. ``text_min_px`` is the smallest cell (FILL)
    or band (FRAME) height that gets a percentage.
    """

    mode: str = FILL
    opacity: float = 0.62
    keep_out: float = 0.6
    side_window: float = 0.0
    text_min_px: float = 17.0
    show_percent: bool = True

    def __post_init__(self) -> None:
        if self.mode not in (FILL, FRAME):
            raise ValueError(f"unknown overlay style mode {self.mode!r}")
        if not 0.0 <= self.keep_out < 1.0:
            raise ValueError(f"keep_out must be in [0, 1), got {self.keep_out}")
        if not 0.0 <= self.side_window < 1.0:
            raise ValueError(f"side_window must be in [0, 1), got {self.side_window}")


FILL_STYLE = OverlayStyle(mode=FILL)
FRAME_STYLE = OverlayStyle(mode=FRAME, opacity=1.0, text_min_px=11.0)


@dataclass(frozen=True, slots=True)
class Layer:
    """A drawing in image coordinates: BGR colours plus an alpha mask (0 = untouched, 255 = opaque)."""

    bgr: np.ndarray
    alpha: np.ndarray

    @property
    def shape_mask(self) -> np.ndarray:
        """Boolean mask of the pixels the drawing covers (the live window's shape)."""
        return self.alpha > 0


def label_value(label: str) -> float:
    """The probability a percent label stands for (the colour is quantised to whole percents)."""
    if label == "<1":
        return 0.005
    if label == ">99":
        return 0.995
    return int(label) / 100.0


def keep_out_rect(grid: Lattice, style: OverlayStyle, r: int, c: int) -> tuple[float, float, float, float]:
    """The square in the middle of cell (r, c) that the FRAME style never draws on: ``keep_out`` of the
    pitch on each axis, centred on the cell (the part of the cell box the recognizer compares)."""
    cx, cy = grid.face_center(r, c)
    hw, hh = grid.pitch[0] * style.keep_out / 2.0, grid.pitch[1] * style.keep_out / 2.0
    return cx - hw, cy - hh, cx + hw, cy + hh


def clear_rects(grid: Lattice, style: OverlayStyle, r: int, c: int) -> list[tuple[float, float, float, float]]:
    """Every part of cell (r, c) the FRAME style never draws on: the keep-out square, then the windows in
    its left and right bands (``side_window``; from the middle of the gap to the keep-out square)."""
    middle = keep_out_rect(grid, style, r, c)
    if style.side_window <= 0.0:
        return [middle]
    cx, cy = grid.face_center(r, c)
    hw, hh = grid.pitch[0] / 2.0, grid.pitch[1] * style.side_window / 2.0
    return [middle, (cx - hw, cy - hh, middle[0], cy + hh), (middle[2], cy - hh, cx + hw, cy + hh)]
