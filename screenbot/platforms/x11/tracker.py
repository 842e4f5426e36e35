"""Follow the game's window while playing: where it is, whether it still exists, give it the keyboard.

One X connection is kept open for the whole session: a geometry query is then two round trips (a small
fraction of a millisecond), cheap enough to check before every batch of clicks that the window has not
moved since the board was located.

``ping`` is a round trip through the client itself (the window manager's ``_NET_WM_PING`` protocol):
the client answers it once it has read the input events sent before it, which lets the click loop
send the next click as soon as the client has taken the last one (see ``play.clicking``).
"""

from __future__ import annotations

import logging
import select
import time

from ...errors import WindowGoneError
from ...geometry import Rect

log = logging.getLogger(__name__)


def _quiet_x_error(error, request) -> None:
    log.debug("X error on the game window: %s", error)


class WindowTracker:
    """A top-level X window by id (as found by ``windows.find_windows``): the X11 ``GameWindow``."""

    def __init__(self, window_id: int, display: str | None = None) -> None:
        from .windows import connect

        self._conn = connect(display, purpose="to follow the game window on")
        name = self._conn.get_display_name()
        # Requests on a window that was just minimised or closed fail asynchronously (BadMatch,
        # BadWindow); Xlib would print them. The checks that follow such requests say what happened.
        self._conn.set_error_handler(_quiet_x_error)
        self.window_id = window_id
        self._window = self._conn.create_resource_object("window", window_id)
        self._root = self._conn.screen().root
        self._display_name = name
        self._ping_conn = None  # opened on first use: it receives the answers, sent to the root window
        # Windows mapped over the board, told by the X server (WindowArrivals): armed by the first
        # ``appeared_over`` (play asks before its first click), so that a user of this class that never
        # asks (learn) has no events queued for it.
        self._arrivals = None
        self._ping_atoms = (0, 0)  # WM_PROTOCOLS and _NET_WM_PING, once that connection is open
        self._pings = 0

    def geometry(self) -> Rect:
        """The client area in root coordinates; WindowGoneError once the window is destroyed."""
        try:
            geom = self._window.get_geometry()
            origin = self._window.translate_coords(self._root, 0, 0)
        except Exception as exc:  # BadWindow / BadDrawable
            raise WindowGoneError(f"the game window 0x{self.window_id:x} was closed", window=self.window_id) from exc
        return Rect(-origin.x, -origin.y, geom.width, geom.height)

    def title(self) -> str:
        from .windows import window_title

        return window_title(self.window_id, display=self._display_name)

    def program(self) -> str:
        from .windows import window_class

        return window_class(self.window_id, display=self._display_name)

    def windows_over(self, rect: Rect, own: bool = False) -> list[str]:
        """Titles of other programs' windows stacked above the game window over ``rect`` (with
        ``own``: of the game's own windows, its dialogs)."""
        from .windows import windows_over

        try:
            return windows_over(self.window_id, rect, own=own, display=self._display_name)
        except Exception as exc:  # a window closed while the tree was walked: not covered by it
            log.debug("could not list the windows over the game: %s", exc)
            return []

    def appeared_over(self, rect: Rect) -> list[str]:
        """Titles of other programs' windows mapped over ``rect`` since the last call, above the game
        or under it: ``WindowArrivals``."""
        if self._arrivals is None:
            from .windows import WindowArrivals

            try:
                self._arrivals = WindowArrivals(self._conn, self.window_id)
            except Exception as exc:  # the window closed already: the next geometry() says so
                log.debug("could not watch for windows over the game: %s", exc)
            return []
        try:
            return self._arrivals.over(rect)
        except Exception as exc:  # the X connection broke: the next geometry query says how
            log.debug("could not read window arrivals: %s", exc)
            return []

    def was_hidden(self) -> bool:
        """Whether the window was unmapped (minimised, hidden) since the last call, even if shown again
        now: ``WindowArrivals.hidden``, armed with it by the first ``appeared_over``."""
        if self._arrivals is None:
            return False
        try:
            return self._arrivals.hidden()
        except Exception as exc:  # the X connection broke: the next geometry query says how
            log.debug("could not read whether the game window was hidden: %s", exc)
            return False

    def put_arrivals_back(self) -> None:
        """Raise back over the game the windows ``appeared_over`` last reported that are under it now."""
        if self._arrivals is not None:
            try:
                self._arrivals.put_back()
            except Exception as exc:
                log.debug("could not put windows back over the game: %s", exc)

    def guards_presses(self) -> bool:
        """False: X11 has no hook that sees where a press goes before the window under it takes it."""
        return False

    def is_viewable(self) -> bool:
        from Xlib import X

        try:
            return self._window.get_attributes().map_state == X.IsViewable
        except Exception:
            return False

    def activate(self) -> None:
        """Ask the window manager to raise and focus the window (EWMH), so key presses reach it."""
        from Xlib import X

        from .windows import request_active

        try:
            request_active(self._conn, self._window)
            self._window.set_input_focus(X.RevertToParent, X.CurrentTime)
            self._conn.sync()
        except Exception as exc:
            raise WindowGoneError(f"the game window 0x{self.window_id:x} was closed", window=self.window_id) from exc

    def supports_ping(self) -> bool:
        """Whether the client lists _NET_WM_PING among its WM_PROTOCOLS (GTK and Chromium do;
        plain Xlib clients such as xdemineur do not)."""
        try:
            protocols = self._window.get_wm_protocols()
        except Exception:
            return False
        return self._conn.intern_atom("_NET_WM_PING") in set(protocols or ())

    def ping(self, timeout: float) -> bool:
        """Send the client a _NET_WM_PING and wait for its answer; False if none came within
        ``timeout`` seconds (a busy or hung client). Raises WindowGoneError once the window is closed."""
        from Xlib import X
        from Xlib.protocol import event

        from .windows import connect

        if self._ping_conn is None:
            conn = connect(self._display_name)
            conn.set_error_handler(_quiet_x_error)  # a ping sent to a window closing meanwhile
            # Clients answer by sending the message back to the root window with this mask.
            conn.screen().root.change_attributes(event_mask=X.SubstructureNotifyMask)
            # Looked up once: python-xlib's intern_atom is a round trip to the X server each time.
            self._ping_atoms = (conn.intern_atom("WM_PROTOCOLS"), conn.intern_atom("_NET_WM_PING"))
            self._ping_conn = conn
        conn = self._ping_conn
        protocols, ping = self._ping_atoms
        self._pings = (self._pings + 1) & 0xFFFFFFFF
        stamp = self._pings  # the timestamp field: any value the client sends back unchanged
        window = conn.create_resource_object("window", self.window_id)
        message = event.ClientMessage(window=window, client_type=protocols, data=(32, [ping, stamp, self.window_id, 0, 0]))
        try:
            window.send_event(message, event_mask=0)
            conn.flush()
        except Exception as exc:
            raise WindowGoneError(f"the game window 0x{self.window_id:x} was closed", window=self.window_id) from exc
        deadline = time.perf_counter() + timeout
        while True:
            while conn.pending_events():
                answer = conn.next_event()
                if answer.type == X.ClientMessage and answer.client_type == protocols and list(answer.data[1][:2]) == [ping, stamp]:
                    return True
            left = deadline - time.perf_counter()
            if left <= 0:
                return False
            select.select([conn.fileno()], [], [], left)

    def close(self) -> None:
        if self._ping_conn is not None:
            self._ping_conn.close()
        self._conn.close()
