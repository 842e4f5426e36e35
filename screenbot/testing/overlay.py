"""A fake overlay window for tests without a display.

``FakeOverlay`` follows a window-like object (``geometry()``, e.g. ``screenbot.testing.SimulatedClient``)
the way ``X11Overlay`` follows an X window, and ``OverlaidScreen`` puts what it shows on top of that
client's screen pixels, exactly as an opaque shaped window would appear in a real capture. With both, a
hint session reads its board through its own overlay in tests too.
"""

from __future__ import annotations

import numpy as np

from ..geometry import Rect
from ..platforms.base import TargetState


class FakeOverlay:
    def __init__(self, window) -> None:
        self.window = window
        self.bgr: np.ndarray | None = None
        self.mask: np.ndarray | None = None
        self.rect: Rect | None = None
        self.mapped = False
        self.wanted = False
        self.shows = 0
        self._offset = (0, 0)
        self.viewable = True

    def target_state(self) -> TargetState:
        return TargetState(self.window.geometry(), self.viewable)  # WindowGoneError when closed

    def show(self, bgr: np.ndarray, mask: np.ndarray, rect: Rect, *, boxes=None) -> None:
        """Like ``X11Overlay.show``; with ``boxes``, only those parts of the picture are taken (as only
        they are sent to the X server), so a change outside them stays unseen, as it would on screen."""
        if mask.shape != (rect.height, rect.width) or bgr.shape[:2] != mask.shape:
            raise ValueError(f"picture {bgr.shape[1::-1]} / mask {mask.shape[::-1]} do not fit {rect}")
        window = self.window.geometry()
        self._offset = (rect.left - window.left, rect.top - window.top)
        if boxes is not None and self.bgr is not None and self.bgr.shape == bgr.shape:
            for x0, y0, x1, y1 in boxes:
                self.bgr[y0:y1, x0:x1] = bgr[y0:y1, x0:x1]
                self.mask[y0:y1, x0:x1] = mask[y0:y1, x0:x1]
            self.rect = rect
        else:
            self.bgr, self.mask, self.rect = bgr.copy(), mask.copy(), rect
        self.wanted = True
        self.mapped = self.viewable
        self.shows += 1

    def follow(self) -> TargetState:
        state = self.target_state()
        if self.rect is not None:
            self.rect = Rect(state.rect.left + self._offset[0], state.rect.top + self._offset[1], self.rect.width, self.rect.height)
        if not state.viewable:
            self.mapped = False
        elif self.wanted and not self.mapped:
            self.mapped = True
        return state

    def hide(self) -> None:
        self.wanted = False
        self.mapped = False

    def restore(self) -> None:
        if self.bgr is not None:
            self.wanted = True
            self.mapped = self.viewable

    def close(self) -> None:
        self.mapped = self.wanted = False
        self.bgr = self.mask = self.rect = None

    def paint_on(self, frame: np.ndarray, origin: tuple[int, int] = (0, 0)) -> np.ndarray:
        """``frame`` (whose top-left is ``origin`` on screen) with the overlay's pixels on top."""
        if not self.mapped or self.rect is None or self.mask is None or self.bgr is None:
            return frame
        out = frame.copy()
        height, width = out.shape[:2]
        left, top = self.rect.left - origin[0], self.rect.top - origin[1]
        x0, y0 = max(0, left), max(0, top)
        x1, y1 = min(width, left + self.rect.width), min(height, top + self.rect.height)
        if x1 <= x0 or y1 <= y0:
            return out
        mask = self.mask[y0 - top : y1 - top, x0 - left : x1 - left]
        out[y0:y1, x0:x1][mask] = self.bgr[y0 - top : y1 - top, x0 - left : x1 - left][mask]
        return out


class OverlaidScreen:
    """A screen (``grab(region)``) showing ``overlay`` above ``screen``'s pixels."""

    def __init__(self, screen, overlay: FakeOverlay) -> None:
        self.screen = screen
        self.overlay = overlay

    def grab(self, region: tuple[int, int, int, int] | None = None) -> np.ndarray:
        frame = self.screen.grab(region)
        origin = (region[0], region[1]) if region is not None else (0, 0)
        return self.overlay.paint_on(frame, origin)
