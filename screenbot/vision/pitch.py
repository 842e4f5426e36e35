"""The cell pitch: how often the board's cell borders repeat along each axis.

Pure NumPy on edge profiles (strong intensity steps per column / row); no templates needed, which is
why the new-client procedure (``newskin``) measures a board it has no skin for with it.
"""

from __future__ import annotations

import numpy as np

EDGE_STEP = 12  # grey-level step that counts as an edge (gnome-mines open cells are 22 off their gaps)


def autocorrelation(profile: np.ndarray, low: float) -> np.ndarray | None:
    """The profile's autocorrelation, 1 at lag 0 (None for a profile too short to repeat at ``low``
    or flat)."""
    n = len(profile)
    if n < 2 * low:
        return None
    x = profile - profile.mean()
    size = 1 << int(np.ceil(np.log2(2 * n)))
    spectrum = np.fft.rfft(x, size)
    ac = np.fft.irfft(spectrum * np.conj(spectrum), size)[:n]
    if ac[0] <= 0:
        return None
    return ac / ac[0]


def refine_period(ac: np.ndarray, lag: int) -> float:
    """Sub-pixel period: locate the autocorrelation peak near a high multiple k*lag and divide by k."""
    best_k, best_pos = 1, float(lag)
    for k in range(2, 12):
        centre = k * lag
        if centre + k >= len(ac):
            break
        lo, hi = centre - k, centre + k + 1
        seg = ac[lo:hi]
        i = int(np.argmax(seg))
        if seg[i] < 0.15:
            break
        pos = float(lo + i)
        if 0 < i < len(seg) - 1:  # parabolic interpolation of the peak
            a, b, c = seg[i - 1], seg[i], seg[i + 1]
            denom = a - 2 * b + c
            if denom < 0:
                pos += 0.5 * (a - c) / denom
        best_k, best_pos = k, pos
    return best_pos / best_k
