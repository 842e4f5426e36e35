"""The live hint overlay on X11: a shaped, click-through, override-redirect window above the game.

Why this design (no compositor is assumed, as under Xvfb or a plain window manager):

- Without a compositing manager X11 has no per-pixel transparency. A window either covers a pixel or it
  does not, so the overlay is opaque and its *shape* (SHAPE extension, bounding region) decides which
  pixels it covers. The drawing comes from ``draw.render_layer`` in the ``FRAME`` style: marks in a band
  around each cell and in the gaps between cells, never in the middle of a cell.
- Click-through: the window's *input* shape (SHAPE 1.1) is empty, so pointer events pass to the window
  below, the game. pyautogui / XTEST clicks and a person's clicks both reach the game.
- Override-redirect: the window manager neither decorates, moves nor focuses it; we keep it above the
  game ourselves by re-raising it whenever another window is restacked or mapped.
- The picture is the window's background pixmap, so the X server repaints it on exposure by itself; no
  redraw round trip through this process is needed when, for example, a menu closes over it.

Capture: the overlay is part of the screen pixels (no compositor, nothing to exclude it from). It is made
harmless instead: it never draws on the middle ``keep_out`` share of any cell, which is where our
recognizer decides a cell (see ``screenbot.overlay.marks.OverlayStyle``), so the bot (ours or ``play`` in
another process) reads the same board with the overlay up as without it. Hiding the overlay during each
capture would also work but makes it flicker and costs a repaint of the game for every frame.

Platforms: this module needs X11 with the SHAPE extension (any Xorg or Xvfb). Windows has its own
(``screenbot.platforms.win32.overlay``: a layered, click-through, topmost window); macOS would use a
borderless NSWindow that ignores mouse events, not implemented (docs/hint-and-replay.md, "Platform
support").

This module is the window itself; ``overlay_pictures`` packs what it shows into X requests and
``overlay_events`` watches for the game drawing and other windows restacking.
"""

from __future__ import annotations

import logging

import numpy as np

from ...errors import DisplayError, WindowGoneError
from ...geometry import Rect
from ..base import TargetState
from .hiding import WM_CLASS
from .overlay_events import ChangeWatch
from .overlay_pictures import put_picture, set_shape

log = logging.getLogger(__name__)

OVERLAY_NAME = "screenbot hint overlay"


class X11Overlay:
    """One overlay window that follows one game window.

    Use: ``overlay = X11Overlay(game_window_id)``, then ``overlay.show(layer_bgr, layer_mask, rect)`` with a
    picture of ``rect``'s size to place at ``rect`` (root coordinates), and call ``overlay.follow()``
    regularly: it moves the overlay with the game window, keeps it on top, hides it while the game is not
    viewable, and raises ``WindowGoneError`` once the game window is gone (after destroying the overlay).
    """

    def __init__(self, target_window: int, *, display: str | None = None) -> None:
        from Xlib import X, error as xerror

        from .windows import connect

        self._conn = connect(display, purpose="for the live overlay")
        name = self._conn.get_display_name()
        if not self._conn.has_extension("SHAPE"):
            self._conn.close()
            raise DisplayError(f"X display {name} has no SHAPE extension; the live overlay needs it", display=name)
        self._X = X
        self._bad = (xerror.BadWindow, xerror.BadDrawable, xerror.BadMatch)
        self._screen = self._conn.screen()
        self._root = self._screen.root
        self._target_id = target_window
        self._target = self._conn.create_resource_object("window", target_window)
        self._window = None
        self._pixmap = None
        self._gc = None
        self._offset = (0, 0)  # overlay position relative to the target's client area
        self._size = (0, 0)
        self._shown: tuple[np.ndarray, np.ndarray] | None = None  # the picture and mask now on screen
        self._mapped = False
        self._wanted = False  # shown and not hidden on request: follow() maps it while the game shows
        self._last_target: TargetState | None = None
        self._events = ChangeWatch(self._conn, self._root, self._target, X)
        self._conn.sync()

    # --- public ---------------------------------------------------------------------------------

    @property
    def window_id(self) -> int | None:
        return self._window.id if self._window is not None else None

    @property
    def _damage(self):
        """The DAMAGE object on the game window, None without the extension (tests check it)."""
        return self._events.damage

    @property
    def mapped(self) -> bool:
        return self._mapped

    def target_state(self) -> TargetState:
        """Geometry and visibility of the game window; WindowGoneError when it no longer exists."""
        try:
            geom = self._target.get_geometry()
            origin = self._target.translate_coords(self._root, 0, 0)
            attrs = self._target.get_attributes()
        except self._bad as exc:
            raise WindowGoneError(f"game window 0x{self._target_id:x} is gone", window=self._target_id) from exc
        # translate_coords(root, 0, 0) is root's origin in the target's coordinates: negate it.
        rect = Rect(-origin.x, -origin.y, geom.width, geom.height)
        return TargetState(rect, attrs.map_state == self._X.IsViewable)

    def show(self, bgr: np.ndarray, mask: np.ndarray, rect: Rect, *, boxes: list[tuple[int, int, int, int]] | None = None) -> None:
        """Show ``bgr`` where ``mask`` is True, with the picture's top-left at ``rect``'s (root coords).

        ``boxes`` ((x0, y0, x1, y1) in picture pixels), when given, are the only places where the picture
        may differ from the one shown before: only they are compared and sent to the X server."""
        height, width = mask.shape
        if (width, height) != (rect.width, rect.height) or bgr.shape[:2] != mask.shape:
            raise ValueError(f"picture {bgr.shape[1::-1]} / mask {mask.shape[::-1]} do not fit {rect}")
        # follow() has just looked at the game window (each tick starts with it): no round trips here.
        target = self._last_target if self._last_target is not None else self.target_state()
        self._offset = (rect.left - target.rect.left, rect.top - target.rect.top)
        previous = self._shown if (self._shown is not None and self._size == (width, height) and self._mapped) else None
        if boxes is None or previous is None:
            boxes = [(0, 0, width, height)]
        self._ensure_window(rect)
        if self._shown is None:
            boxes = [(0, 0, width, height)]
        uncovered = []  # what the overlay stops covering: the game must draw it again
        if previous is not None:
            for x0, y0, x1, y1 in boxes:
                gone = previous[1][y0:y1, x0:x1] & ~mask[y0:y1, x0:x1]
                if gone.any():
                    uncovered.append((gone, x0, y0))
        if self._paint(bgr, mask, boxes):
            set_shape(self._conn, self._window, mask)
        for gone, x0, y0 in uncovered:
            self._repaint_target(gone, x0, y0)
        self._wanted = True
        if target.viewable:
            self._map()
        self._conn.sync()
        self._last_target = target

    def wait_for_change(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds, returning early (True) as soon as the game draws into its
        window (DAMAGE extension) or another window is mapped or moved. Without DAMAGE it just waits."""
        return self._events.wait(self._conn, timeout, self.window_id)

    def follow(self) -> TargetState:
        """Track the game window once: move with it, stay above it, hide while it is not viewable.

        Raises WindowGoneError (after destroying the overlay) when the game window has closed.
        """
        self._events.drain(self._conn, self.window_id)
        raise_needed, self._events.restacked = self._events.restacked, False
        try:
            state = self.target_state()
        except WindowGoneError:
            self.close()
            raise
        if self._window is None:
            return state
        if not state.viewable:
            self._unmap()
        else:
            last = self._last_target
            if last is None or (state.rect.left, state.rect.top) != (last.rect.left, last.rect.top):
                x, y = state.rect.left + self._offset[0], state.rect.top + self._offset[1]
                self._window.configure(x=x, y=y, stack_mode=self._X.Above)
                if self._shown is not None:
                    # The game moved under us: what it shows beneath the overlay must be drawn anew
                    # (the server's copy of the moved window leaves those areas to the client).
                    self._repaint_target(np.ones_like(self._shown[1]))
            elif raise_needed:
                self._window.configure(stack_mode=self._X.Above)
            if self._wanted and not self._mapped:
                self._map()
        self._last_target = state
        self._conn.sync()
        return state

    def window_geometry(self) -> Rect | None:
        """The overlay window's own place on screen (None before the first ``show``)."""
        if self._window is None:
            return None
        geom = self._window.get_geometry()
        return Rect(geom.x, geom.y, geom.width, geom.height)

    def is_on_top(self) -> bool:
        """True when no mapped sibling is stacked above the overlay (for checks and tests)."""
        if self._window is None:
            return False
        children = self._root.query_tree().children
        ids = [child.id for child in children]
        if self._window.id not in ids:
            return False
        above = children[ids.index(self._window.id) + 1 :]
        for child in above:
            try:
                attrs = child.get_attributes()
                geom = child.get_geometry()
            except self._bad:
                continue
            if attrs.map_state == self._X.IsViewable and geom.width > 1 and geom.height > 1:
                return False
        return True

    def hide(self) -> None:
        """Take the overlay off the screen until the next ``show`` (or ``restore``)."""
        self._wanted = False
        self._unmap()
        self._conn.sync()

    def restore(self) -> None:
        """Put the last picture back on screen after ``hide``."""
        if self._window is not None:
            self._wanted = True
            if self.target_state().viewable:
                self._map()
            self._conn.sync()
        self._conn.sync()

    def close(self) -> None:
        """Destroy the window and close the connection; safe to call twice."""
        if self._conn is None:
            return
        try:
            if self._window is not None:
                self._window.destroy()
            if self._pixmap is not None:
                self._pixmap.free()
            self._conn.sync()
        except Exception:  # the server may already be gone; nothing left to clean
            log.debug("overlay cleanup failed", exc_info=True)
        finally:
            self._window = None
            self._pixmap = None
            self._mapped = False
            self._conn.close()
            self._conn = None

    def __enter__(self) -> X11Overlay:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- internals ------------------------------------------------------------------------------

    def _ensure_window(self, rect: Rect) -> None:
        from Xlib.ext import shape

        X = self._X
        if self._window is not None and self._size == (rect.width, rect.height):
            self._window.configure(x=rect.left, y=rect.top)
            return
        if self._window is not None:
            self._window.destroy()
            self._pixmap.free()
            self._mapped = False
        depth = self._screen.root_depth
        if depth != 24:
            raise DisplayError(f"the live overlay needs a 24-bit display, this one is {depth}-bit", depth=depth)
        self._window = self._root.create_window(
            rect.left,
            rect.top,
            rect.width,
            rect.height,
            0,
            depth,
            X.InputOutput,
            X.CopyFromParent,
            override_redirect=True,
            background_pixel=self._screen.black_pixel,
            event_mask=0,
        )
        self._window.set_wm_name(OVERLAY_NAME)
        self._window.set_wm_class(*WM_CLASS)
        # An empty input region: every click falls through to the game below.
        self._window.shape_rectangles(shape.SO.Set, shape.SK.Input, X.Unsorted, 0, 0, [])
        self._pixmap = self._window.create_pixmap(rect.width, rect.height, depth)
        self._gc = self._pixmap.create_gc()
        self._size = (rect.width, rect.height)
        self._shown = None

    def _paint(self, bgr: np.ndarray, mask: np.ndarray, boxes: list[tuple[int, int, int, int]]) -> bool:
        """Upload the picture; in each box only the rectangle of visible pixels that changed since the
        last one, because the upload (python-xlib packs it in Python) dominates the cost of an overlay
        update. True when the mask (the window's shape) changed."""
        first = self._shown is None
        if first:
            self._shown = (np.zeros_like(bgr), np.zeros_like(mask))
        old_bgr, old_mask = self._shown
        mask_changed = first
        for bx0, by0, bx1, by1 in boxes:
            new_m, old_m = mask[by0:by1, bx0:bx1], old_mask[by0:by1, bx0:bx1]
            if not mask_changed and not np.array_equal(new_m, old_m):
                mask_changed = True
            if first:
                changed = np.ones_like(new_m)
            else:
                changed = new_m & ((bgr[by0:by1, bx0:bx1] != old_bgr[by0:by1, bx0:bx1]).any(axis=2) | ~old_m)
            rows = np.flatnonzero(changed.any(axis=1))
            if rows.size:
                cols = np.flatnonzero(changed.any(axis=0))
                top, bottom = by0 + int(rows[0]), by0 + int(rows[-1]) + 1
                left, right = bx0 + int(cols[0]), bx0 + int(cols[-1]) + 1
                put_picture(self._pixmap, self._gc, bgr, top, bottom, left, right)
                self._window.clear_area(left, top, right - left, bottom - top)
            old_bgr[by0:by1, bx0:bx1] = bgr[by0:by1, bx0:bx1]
            old_mask[by0:by1, bx0:bx1] = mask[by0:by1, bx0:bx1]
        if first:
            self._window.change_attributes(background_pixmap=self._pixmap)
            self._window.clear_area(0, 0, bgr.shape[1], bgr.shape[0])
        return mask_changed

    def _repaint_target(self, uncovered: np.ndarray, x0: int = 0, y0: int = 0) -> None:
        """Ask the game to redraw what the overlay stopped covering.

        Shrinking a shape should make the server send the game Expose events, but GTK clients were
        seen leaving those areas black for seconds; an explicit ClearArea with exposures makes them
        redraw (the game window's background is None, so nothing is cleared in between)."""
        rows = np.flatnonzero(uncovered.any(axis=1))
        cols = np.flatnonzero(uncovered.any(axis=0))
        x = self._offset[0] + x0 + int(cols[0])
        y = self._offset[1] + y0 + int(rows[0])
        try:
            self._target.clear_area(x, y, int(cols[-1] - cols[0]) + 1, int(rows[-1] - rows[0]) + 1, exposures=True)
        except self._bad:  # the game closed meanwhile: follow() reports it
            log.debug("game window gone while asking it to redraw", exc_info=True)

    def _map(self) -> None:
        if self._window is not None and not self._mapped:
            self._window.map()
            self._window.configure(stack_mode=self._X.Above)
            self._mapped = True

    def _unmap(self) -> None:
        if self._window is not None and self._mapped:
            self._window.unmap()
            self._mapped = False
