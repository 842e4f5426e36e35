"""The drawing surface of the overlay: BGR colours and an alpha mask painted together, with
anti-aliased sub-pixel primitives (rounded rectangles, lines, discs, polygons, text)."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

_SHIFT = 4  # OpenCV fixed-point bits: sub-pixel positions keep small cells symmetric
_ONE = 1 << _SHIFT


def _fx(v: float) -> int:
    return int(round(v * _ONE))


class Canvas:
    """BGR + alpha drawing surface; every primitive paints colour and coverage together.

    Primitives rasterise into a small mask around their own bounding box, not the whole canvas, so a
    480-cell board draws in milliseconds.
    """

    def __init__(self, height: int, width: int, *, solid: bool = False) -> None:
        self.bgr = np.zeros((height, width, 3), np.uint8)
        self.alpha = np.zeros((height, width), np.uint8)
        # Solid: every pixel is either fully painted or untouched (the live window has no translucency),
        # so edges are thresholded instead of blended and marks keep their exact colours.
        self.solid = solid

    def _scratch(self, x0: float, y0: float, x1: float, y1: float, pad: float = 2.0):
        """A zeroed mask covering the box (clipped to the canvas) and its top-left offset."""
        h, w = self.alpha.shape
        left = max(0, int(math.floor(x0 - pad)))
        top = max(0, int(math.floor(y0 - pad)))
        right = min(w, int(math.ceil(x1 + pad)) + 1)
        bottom = min(h, int(math.ceil(y1 + pad)) + 1)
        return np.zeros((max(0, bottom - top), max(0, right - left)), np.uint8), left, top

    def rounded_rect(self, rect, radius: float, rgb, alpha: int, thickness: float = -1.0) -> None:
        """Filled (thickness < 0) or outlined rounded rectangle; an outline is centred on the rect edge."""
        x0, y0, x1, y1 = rect
        radius = max(0.0, min(radius, (x1 - x0) / 2.0, (y1 - y0) / 2.0))
        half = max(0.0, thickness / 2.0)
        mask, ox, oy = self._scratch(x0 - half, y0 - half, x1 + half, y1 + half)
        if mask.size == 0:
            return
        if thickness < 0:
            _fill_rounded(mask, x0 - ox, y0 - oy, x1 - ox, y1 - oy, radius)
        else:
            _fill_rounded(mask, x0 - half - ox, y0 - half - oy, x1 + half - ox, y1 + half - oy, radius + half)
            inner = np.zeros_like(mask)
            _fill_rounded(inner, x0 + half - ox, y0 + half - oy, x1 - half - ox, y1 - half - oy, max(0.0, radius - half))
            mask = cv2.subtract(mask, inner)
        self.paint(mask, ox, oy, rgb, alpha)

    def polyline(self, points, rgb, alpha: int, thickness: float, closed: bool = False) -> None:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        mask, ox, oy = self._scratch(min(xs), min(ys), max(xs), max(ys), pad=thickness + 2.0)
        if mask.size == 0:
            return
        pts = np.array([[_fx(x - ox), _fx(y - oy)] for x, y in points], np.int32).reshape(-1, 1, 2)
        cv2.polylines(mask, [pts], closed, 255, max(1, round(thickness)), cv2.LINE_AA, _SHIFT)
        self.paint(mask, ox, oy, rgb, alpha)

    def disc(self, center, radius: float, rgb, alpha: int) -> None:
        cx, cy = center
        mask, ox, oy = self._scratch(cx - radius, cy - radius, cx + radius, cy + radius)
        if mask.size == 0:
            return
        cv2.circle(mask, (_fx(cx - ox), _fx(cy - oy)), _fx(radius), 255, -1, cv2.LINE_AA, _SHIFT)
        self.paint(mask, ox, oy, rgb, alpha)

    def polygon(self, points, rgb, alpha: int) -> None:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        mask, ox, oy = self._scratch(min(xs), min(ys), max(xs), max(ys))
        if mask.size == 0:
            return
        pts = np.array([[_fx(x - ox), _fx(y - oy)] for x, y in points], np.int32)
        cv2.fillPoly(mask, [pts], 255, cv2.LINE_AA, _SHIFT)
        self.paint(mask, ox, oy, rgb, alpha)

    def text(self, label: str, center, height: float, rgb, outline_rgb, alpha: int) -> None:
        """Centred text ``height`` px tall (digits' cap height), with a contrasting outline."""
        font = cv2.FONT_HERSHEY_DUPLEX
        base_h = cv2.getTextSize("0", font, 1.0, 1)[0][1]
        scale = height / base_h
        weight = max(1, round(height / 9.0))
        halo_weight = weight + 2 * max(1, round(height / 10.0))
        (w, h), _ = cv2.getTextSize(label, font, scale, weight)
        x, y = center[0] - w / 2.0, center[1] + h / 2.0
        mask, ox, oy = self._scratch(x, y - h, x + w, y, pad=halo_weight + 2.0)
        if mask.size == 0:
            return
        org = (int(round(x - ox)), int(round(y - oy)))
        cv2.putText(mask, label, org, font, scale, 255, halo_weight, cv2.LINE_AA)
        self.paint(mask, ox, oy, outline_rgb, alpha)
        mask[:] = 0
        cv2.putText(mask, label, org, font, scale, 255, weight, cv2.LINE_AA)
        self.paint(mask, ox, oy, rgb, 255)

    def paint(self, coverage: np.ndarray, ox: int, oy: int, rgb, alpha: int) -> None:
        """Paint ``rgb`` where ``coverage`` > 0 (placed at ox, oy), at ``alpha`` scaled by the coverage."""
        h, w = coverage.shape
        if self.solid:
            covered = coverage >= 128
            self.bgr[oy : oy + h, ox : ox + w][covered] = _bgr(rgb)
            self.alpha[oy : oy + h, ox : ox + w][covered] = 255
            return
        a = coverage.astype(np.float32) * (alpha / 255.0 / 255.0)
        dst_a = self.alpha[oy : oy + h, ox : ox + w]
        dst_c = self.bgr[oy : oy + h, ox : ox + w]
        old_a = dst_a.astype(np.float32) / 255.0
        new_a = a + old_a * (1.0 - a)
        colour = np.array(_bgr(rgb), np.float32)
        mixed = (colour * a[:, :, None] + dst_c.astype(np.float32) * (old_a * (1.0 - a))[:, :, None]) / np.maximum(
            new_a, 1e-6
        )[:, :, None]
        touched = coverage > 0
        dst_c[touched] = np.clip(mixed[touched] + 0.5, 0, 255).astype(np.uint8)
        dst_a[touched] = np.clip(new_a[touched] * 255.0 + 0.5, 0, 255).astype(np.uint8)

    def blit(self, tile: Tile, x: int, y: int) -> None:
        """Copy a pre-drawn tile whose face corner goes at (x, y); its covered pixels replace ours."""
        th, tw = tile.alpha.shape
        h, w = self.alpha.shape
        left, top = x + tile.dx, y + tile.dy
        if left >= 0 and top >= 0 and left + tw <= w and top + th <= h:
            # The usual case, the whole tile on the canvas: masks made once per tile.
            mask, mask3 = tile.covered
            np.copyto(self.alpha[top : top + th, left : left + tw], tile.alpha, where=mask)
            np.copyto(self.bgr[top : top + th, left : left + tw], tile.bgr, where=mask3)
            return
        sx0, sy0 = max(0, -left), max(0, -top)
        sx1, sy1 = min(tw, w - left), min(th, h - top)
        if sx1 <= sx0 or sy1 <= sy0:
            return
        src_a = tile.alpha[sy0:sy1, sx0:sx1]
        covered = src_a > 0
        dst = (slice(top + sy0, top + sy1), slice(left + sx0, left + sx1))
        np.copyto(self.alpha[dst], src_a, where=covered)
        np.copyto(self.bgr[dst], tile.bgr[sy0:sy1, sx0:sx1], where=covered[:, :, None])

    def clear(self, rect) -> None:
        """Erase a rectangle (the FRAME keep-out zone)."""
        h, w = self.alpha.shape
        x0, y0 = max(0, int(math.floor(rect[0]))), max(0, int(math.floor(rect[1])))
        x1, y1 = min(w, int(math.ceil(rect[2]))), min(h, int(math.ceil(rect[3])))
        if x1 > x0 and y1 > y0:
            self.alpha[y0:y1, x0:x1] = 0
            self.bgr[y0:y1, x0:x1] = 0


def _fill_rounded(mask: np.ndarray, x0: float, y0: float, x1: float, y1: float, radius: float) -> None:
    if x1 <= x0 or y1 <= y0:
        return
    r = max(0.0, min(radius, (x1 - x0) / 2.0, (y1 - y0) / 2.0))
    # A rounded rectangle is the union of two rectangles and four corner discs.
    for a, b, c, d in ((x0 + r, y0, x1 - r, y1), (x0, y0 + r, x1, y1 - r)):
        pts = np.array([[_fx(a), _fx(b)], [_fx(c), _fx(b)], [_fx(c), _fx(d)], [_fx(a), _fx(d)]], np.int32)
        cv2.fillPoly(mask, [pts], 255, cv2.LINE_AA, _SHIFT)
    if r > 0.5:
        for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
            cv2.circle(mask, (_fx(cx), _fx(cy)), _fx(r), 255, -1, cv2.LINE_AA, _SHIFT)


def _bgr(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return rgb[2], rgb[1], rgb[0]


@dataclass(frozen=True)  # no slots: ``covered`` is cached on the instance
class Tile:
    """A pre-drawn mark, blitted by ``Canvas.blit`` wherever it goes."""

    bgr: np.ndarray
    alpha: np.ndarray
    dx: int  # offset of the tile's top-left from the face's top-left corner
    dy: int

    @functools.cached_property
    def covered(self) -> tuple[np.ndarray, np.ndarray]:
        """Where the tile paints, as masks for ``alpha`` and for ``bgr`` (made once per tile)."""
        mask = self.alpha > 0
        return mask, np.ascontiguousarray(np.broadcast_to(mask[:, :, None], self.bgr.shape))
