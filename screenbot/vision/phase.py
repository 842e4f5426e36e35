"""Where cell boxes start, once the pitch is known: the phase of the lattice.

The area is scaled so a cell is PHASE_SIZE pixels; one sliding comparison per template and colour
channel (OpenCV's matchTemplate) gives, at every pixel, how well a cell starting there matches its
nearest template. Each of the PHASE_SIZE x PHASE_SIZE phases is then scored by how many of its grid
positions hold a good match. Precision is one scaled pixel (pitch / PHASE_SIZE frame pixels);
``align`` finds the last pixels.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .skins import CANONICAL, OUTSIDE, Skin, TemplateBank

# Pixels per cell for the phase search: the reading size. Half of it would make the sliding
# comparisons four times cheaper, but misplaced the phase by a pixel or two on crisp small cells
# (xdemineur's 21 px bevels), more than the alignment after it could recover.
PHASE_SIZE = 16
PHASE_STATES = "#012F*"  # states used to find the phase (present on nearly every board)
PHASE_CREDIT_RMS = 25.0  # positions farther than this from every cell template add nothing to a phase
GOOD_RMS = 40.0  # loose: before sub-pixel alignment a true cell can be ~25 off its template


def phase_by_matching(crop: np.ndarray, skin: Skin, pitch: tuple[float, float]) -> tuple[float, float, np.ndarray]:
    """Where cell boxes start (x, y in [0, pitch) crop pixels), and which cells of that grid match some
    template (a bool array, row-major from the phase)."""
    import cv2

    px, py = pitch
    height, width = crop.shape[:2]
    size = (max(PHASE_SIZE, int(round(width * PHASE_SIZE / px))), max(PHASE_SIZE, int(round(height * PHASE_SIZE / py))))
    scaled = cv2.resize(crop, size, interpolation=cv2.INTER_AREA if px > PHASE_SIZE else cv2.INTER_LINEAR)
    templates = _phase_templates(skin.bank(pitch))
    # The sliding comparisons in grey, one per template instead of one per template and channel:
    # where cell boxes start is told by shapes (borders, bevels, digits) more than by hues. Colour
    # decides below which cells of the chosen grid are cells.
    grey = cv2.cvtColor(scaled, cv2.COLOR_BGR2GRAY)
    best = None
    for template in templates.grey:
        ssd = cv2.matchTemplate(grey, template, cv2.TM_SQDIFF)
        best = ssd if best is None else np.minimum(best, ssd)
    rms = np.sqrt(np.maximum(best, 0) / (PHASE_SIZE * PHASE_SIZE))
    # Sum the good matches on each phase's grid: fold the map modulo PHASE_SIZE in both axes.
    h, w = rms.shape
    hh, ww = (h // PHASE_SIZE) * PHASE_SIZE, (w // PHASE_SIZE) * PHASE_SIZE
    if hh == 0 or ww == 0:
        return 0.0, 0.0, np.zeros((0, 0), dtype=bool)
    # A soft count: a position close to a cell template counts much more than a loosely similar one,
    # so the phase where the board's cells sit exactly wins over phases that straddle two cells.
    credit = np.maximum(0.0, PHASE_CREDIT_RMS - rms)
    score = credit[:hh, :ww].reshape(hh // PHASE_SIZE, PHASE_SIZE, ww // PHASE_SIZE, PHASE_SIZE).sum(axis=(0, 2))
    dy, dx = np.unravel_index(int(np.argmax(score)), score.shape)
    rows, cols = rms[dy::PHASE_SIZE, dx::PHASE_SIZE].shape
    cells = scaled[dy : dy + rows * PHASE_SIZE, dx : dx + cols * PHASE_SIZE]
    cells = cells.reshape(rows, PHASE_SIZE, cols, PHASE_SIZE, 3).transpose(0, 2, 1, 3, 4)
    vectors = cells.reshape(rows * cols, -1).astype(np.float32)
    to_cell = _squared_distances(vectors, templates.cells).min(axis=1)
    good = np.sqrt(np.maximum(to_cell, 0) / vectors.shape[1]) < GOOD_RMS
    if len(templates.outside):
        # Positions that look more like a board's surroundings than like any cell are not cells.
        good &= to_cell < _squared_distances(vectors, templates.outside).min(axis=1)
    return dx * px / PHASE_SIZE, dy * py / PHASE_SIZE, good.reshape(rows, cols)


def _squared_distances(vectors: np.ndarray, templates: np.ndarray) -> np.ndarray:
    """(cells, templates) squared distances, by expansion: one matrix product for all pairs."""
    return (vectors * vectors).sum(axis=1)[:, None] + (templates * templates).sum(axis=1)[None, :] - 2.0 * vectors @ templates.T


def phase_precision(pitch: tuple[float, float]) -> tuple[float, float]:
    """How far (frame pixels, x and y) the phase found may be from the true one."""
    return pitch[0] / PHASE_SIZE, pitch[1] / PHASE_SIZE


@dataclass(frozen=True, slots=True, eq=False)
class PhaseTemplates:
    """One template per common cell state (the first variant: enough to find the phase, and fast),
    in grey for the sliding comparisons and as colour rows, and the board's surroundings as colour
    rows (PHASE_SIZE x PHASE_SIZE x 3 values a row)."""

    grey: tuple[np.ndarray, ...]
    cells: np.ndarray
    outside: np.ndarray


@functools.lru_cache(maxsize=64)
def _phase_templates(bank: TemplateBank) -> PhaseTemplates:
    import cv2

    def image(vector: np.ndarray) -> np.ndarray:
        picture = vector.reshape(CANONICAL, CANONICAL, 3)
        if PHASE_SIZE != CANONICAL:
            picture = cv2.resize(picture, (PHASE_SIZE, PHASE_SIZE), interpolation=cv2.INTER_AREA)
        return np.clip(np.round(picture), 0, 255).astype(np.uint8)

    def rows(images: list[np.ndarray]) -> np.ndarray:
        return np.array([i.reshape(-1) for i in images], dtype=np.float32).reshape(len(images), -1)

    # The states most boards are mostly made of are enough to find where cells start.
    common = [ch for ch in PHASE_STATES if ch in bank.char_order] or [c for c in bank.char_order if c != OUTSIDE]
    cells = [image(bank.vectors[bank.starts[bank.char_order.index(ch)]]) for ch in common]
    outside = [image(vector) for vector, char in zip(bank.vectors, bank.chars) if char == OUTSIDE][:4]
    grey = tuple(cv2.cvtColor(c, cv2.COLOR_BGR2GRAY) for c in cells)
    return PhaseTemplates(grey, rows(cells), rows(outside))
