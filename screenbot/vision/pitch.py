"""The cell pitch: how often the board's cell borders repeat along each axis.

Pure NumPy on edge profiles (strong intensity steps per column / row); no templates needed, so the
new-client procedure uses it too.
"""

from __future__ import annotations

import numpy as np

EDGE_STEP = 12  # grey-level step that counts as an edge (gnome-mines open cells are 22 off their gaps)


def edge_profiles(gray: np.ndarray, mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Strong-step counts per column boundary (len W-1) and per row boundary (len H-1).

    With ``mask`` (pixels in the skin's colours) a step counts only between two such pixels, so the
    borders of buttons, text and page furniture around the board do not blur the cells' rhythm.
    """
    dx = np.abs(np.diff(gray, axis=1)) > EDGE_STEP
    dy = np.abs(np.diff(gray, axis=0)) > EDGE_STEP
    if mask is not None:
        dx &= mask[:, 1:] & mask[:, :-1]
        dy &= mask[1:, :] & mask[:-1, :]
    return dx.sum(axis=0).astype(np.float64), dy.sum(axis=1).astype(np.float64)


def pitch_candidates(profile: np.ndarray, low: float, high: float, keep: int = 3) -> list[float]:
    """Periods in [low, high] at which the profile repeats, best first, refined to sub-pixel."""
    ac = autocorrelation(profile, low)
    if ac is None:
        return []
    n = len(profile)
    lo, hi = max(2, int(np.floor(low))), min(n // 2, int(np.ceil(high)))
    if hi <= lo:
        return []
    window = ac[lo : hi + 1]
    peaks = [i for i in range(1, len(window) - 1) if window[i] >= window[i - 1] and window[i] >= window[i + 1]]
    if not peaks:
        return []
    strongest = max(window[i] for i in peaks)
    # Strong peaks only, smallest period first: a multiple of the pitch repeats too, and often as
    # strongly, so the smallest period that yields a board is the pitch.
    strong = sorted(i for i in peaks if window[i] >= max(0.05, 0.5 * strongest))
    # Of peaks within 8% of each other (a side lobe next to the true period, as 2 px borders make),
    # keep the higher one.
    strong = [i for i in strong
              if not any(j != i and abs(j - i) <= 0.08 * (lo + i) and window[j] > window[i] for j in strong)]
    result: list[float] = []
    for i in strong:
        refined = refine_period(ac, lo + i)
        if all(abs(refined - r) > 1.0 for r in result):
            result.append(refined)
        if len(result) >= keep:
            break
    return result


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
