"""Follow the game's window while playing: where it is, whether it still exists, give it the keyboard.

One X connection is kept open for the whole session: a geometry query is then two round trips (a small
fraction of a millisecond), cheap enough to check before every batch of clicks that the window has not
moved since the board was located.
"""

from __future__ import annotations

import logging
import os

from ..errors import DisplayError, WindowGoneError
from ..geometry import Rect

log = logging.getLogger(__name__)


class WindowTracker:
    """A top-level X window by id (as found by ``screenbot.desktop.windows.find_windows``)."""

    def __init__(self, window_id: int, display: str | None = None) -> None:
        from Xlib import display as xdisplay

        name = display or os.environ.get("DISPLAY")
        if not name:
            raise DisplayError("DISPLAY is not set: no X display to follow the game window on")
        try:
            self._conn = xdisplay.Display(name)
        except Exception as exc:  # Xlib raises several unrelated types for a bad display
            raise DisplayError(f"cannot connect to X display {name}: {exc}", display=name) from exc
        self.window_id = window_id
        self._window = self._conn.create_resource_object("window", window_id)
        self._root = self._conn.screen().root

    def geometry(self) -> Rect:
        """The client area in root coordinates; WindowGoneError once the window is destroyed."""
        try:
            geom = self._window.get_geometry()
            origin = self._window.translate_coords(self._root, 0, 0)
        except Exception as exc:  # BadWindow / BadDrawable
            raise WindowGoneError(f"the game window 0x{self.window_id:x} was closed", window=self.window_id) from exc
        return Rect(-origin.x, -origin.y, geom.width, geom.height)

    def is_viewable(self) -> bool:
        from Xlib import X

        try:
            return self._window.get_attributes().map_state == X.IsViewable
        except Exception:
            return False

    def activate(self) -> None:
        """Ask the window manager to raise and focus the window (EWMH), so key presses reach it."""
        from Xlib import X
        from Xlib.protocol import event

        atom = self._conn.intern_atom("_NET_ACTIVE_WINDOW")
        message = event.ClientMessage(
            window=self._window, client_type=atom, data=(32, [2, X.CurrentTime, 0, 0, 0])
        )
        try:
            self._root.send_event(message, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
            self._window.set_input_focus(X.RevertToParent, X.CurrentTime)
            self._conn.sync()
        except Exception as exc:
            raise WindowGoneError(f"the game window 0x{self.window_id:x} was closed", window=self.window_id) from exc

    def close(self) -> None:
        self._conn.close()
