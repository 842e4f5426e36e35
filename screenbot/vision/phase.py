"""Where cell boxes start, once the pitch is known: the phase of the lattice.

The area is scaled so a cell is CANONICAL pixels; one sliding comparison per template (OpenCV's
matchTemplate) gives, at every pixel, how well a cell starting there matches its nearest template.
Each of the CANONICAL x CANONICAL phases is then scored by how many of its grid positions hold a good
match. Precision is one scaled pixel; ``align`` does the last pixel.
"""

from __future__ import annotations

import functools

import numpy as np

from .skins import CANONICAL, OUTSIDE, Skin, TemplateBank

PHASE_STATES = "#012F*"  # states used to find the phase (present on nearly every board)
PHASE_CREDIT_RMS = 25.0  # positions farther than this from every cell template add nothing to a phase
GOOD_RMS = 40.0  # loose: before sub-pixel alignment a true cell can be ~25 off its template


def phase_by_matching(crop: np.ndarray, skin: Skin, pitch: tuple[float, float]) -> tuple[float, float, np.ndarray]:
    """Where cell boxes start (x, y in [0, pitch) crop pixels), and which cells of that grid match some
    template (a bool array, row-major from the phase)."""
    import cv2

    px, py = pitch
    height, width = crop.shape[:2]
    size = (max(CANONICAL, int(round(width * CANONICAL / px))), max(CANONICAL, int(round(height * CANONICAL / py))))
    scaled = cv2.resize(crop, size, interpolation=cv2.INTER_AREA if px > CANONICAL else cv2.INTER_LINEAR)
    cell_images_, outside_images = _bank_images(skin.bank(pitch))

    channels = cv2.split(scaled)

    def nearest(templates):
        best = None
        for template in templates:
            # Channel by channel: OpenCV's single-channel matchTemplate is over ten times faster
            # than its three-channel one, and the sum of the three is the same squared difference.
            ssd = sum(cv2.matchTemplate(ch, t, cv2.TM_SQDIFF) for ch, t in zip(channels, cv2.split(template)))
            best = ssd if best is None else np.minimum(best, ssd)
        return best

    best = nearest(cell_images_)
    rms = np.sqrt(np.maximum(best, 0) / (CANONICAL * CANONICAL * 3))
    good = rms < GOOD_RMS
    if outside_images:
        # Positions that look more like a board's surroundings than like any cell do not count.
        good &= best < nearest(outside_images)
    # Sum the good matches on each phase's grid: fold the map modulo CANONICAL in both axes.
    h, w = good.shape
    hh, ww = (h // CANONICAL) * CANONICAL, (w // CANONICAL) * CANONICAL
    if hh == 0 or ww == 0:
        return 0.0, 0.0, np.zeros((0, 0), dtype=bool)
    # A soft count: a position close to a cell template counts much more than a loosely similar one,
    # so the phase where the board's cells sit exactly wins over phases that straddle two cells.
    credit = np.where(good, np.maximum(0.0, PHASE_CREDIT_RMS - rms), 0.0)
    score = credit[:hh, :ww].reshape(hh // CANONICAL, CANONICAL, ww // CANONICAL, CANONICAL).sum(axis=(0, 2))
    dy, dx = np.unravel_index(int(np.argmax(score)), score.shape)
    return dx * px / CANONICAL, dy * py / CANONICAL, good[dy::CANONICAL, dx::CANONICAL]


@functools.lru_cache(maxsize=64)
def _bank_images(bank: TemplateBank) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """One template per cell state (the first variant: enough to find the phase, and fast), and
    every picture of the board's surroundings."""
    # The states most boards are mostly made of are enough to find where cells start.
    common = [ch for ch in PHASE_STATES if ch in bank.char_order] or [c for c in bank.char_order if c != OUTSIDE]
    cells = tuple(
        bank.vectors[bank.starts[bank.char_order.index(ch)]].reshape(CANONICAL, CANONICAL, 3).astype(np.uint8)
        for ch in common
    )
    outside = tuple(
        vector.reshape(CANONICAL, CANONICAL, 3).astype(np.uint8)
        for vector, char in zip(bank.vectors, bank.chars)
        if char == OUTSIDE
    )[:4]
    return cells, outside
