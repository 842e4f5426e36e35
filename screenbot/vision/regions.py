"""Where on the frame a skin could be: areas painted mostly in the colours of its templates.

Colours are binned to 4 bits per channel (4096 bins). The bins of a frame are computed once per
locate and shared by every skin tried; each skin only looks its palette up in them.
"""

from __future__ import annotations

import functools

import numpy as np

from .rectangles import MIN_SIDE
from .skins import Skin

Region = tuple[int, int, int, int]  # (left, top, width, height) in frame pixels


def colour_bins(image: np.ndarray) -> np.ndarray:
    """4 bits per channel: a bin number in [0, 4096) per pixel of a BGR image."""
    q = (image >> 4).astype(np.uint16)
    return (q[..., 0] << 8) | (q[..., 1] << 4) | q[..., 2]


@functools.lru_cache(maxsize=32)
def skin_palette(skin: Skin) -> np.ndarray:
    """Boolean table over colour bins: the colours that fill a noticeable share of some template."""
    table = np.zeros(4096, dtype=bool)
    for template in skin.templates:
        bins = colour_bins(template.image).ravel()
        counts = np.bincount(bins, minlength=4096)
        table |= counts >= 0.03 * len(bins)
    return table


def skin_regions(bins: np.ndarray, skin: Skin, keep: int = 3) -> list[Region]:
    """Areas of the frame (given as its ``colour_bins``) painted mostly in the skin's colours, largest
    first. Profiles are computed inside each, so a page's other content does not drown the pattern."""
    import cv2

    mask = skin_palette(skin)[bins[::2, ::2]]  # half resolution is plenty to find areas
    k = max(3, int(skin.pitch_range[0] // 2) | 1)
    mask = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    min_side = MIN_SIDE * skin.pitch_range[0] / 2
    boxes = []
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        if w >= min_side and h >= min_side:
            boxes.append((int(area), (x, y, w, h)))
    boxes.sort(reverse=True)
    height, width = bins.shape[:2]
    regions = []
    pad = 4
    for _, (x, y, w, h) in boxes[:keep]:
        left, top = max(0, 2 * x - pad), max(0, 2 * y - pad)
        right, bottom = min(width, 2 * (x + w) + pad), min(height, 2 * (y + h) + pad)
        regions.append((left, top, right - left, bottom - top))
    return regions


def palette_share(bins: np.ndarray, skin: Skin, regions: list[Region]) -> float:
    """The share of the pixels in ``regions`` whose colours are the skin's (0 without regions). A
    region is closed over small gaps, so a skin whose palette only happens to cover part of an area
    scores lower on it than the skin that drew it."""
    palette = skin_palette(skin)
    inside = total = 0
    for left, top, width, height in regions:
        window = bins[top : top + height : 2, left : left + width : 2]  # every other pixel is plenty
        inside += int(palette[window].sum())
        total += window.size
    return inside / total if total else 0.0
