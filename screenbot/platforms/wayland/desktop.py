"""The GNOME Wayland desktop: the screen and the input of a Mutter remote-desktop session.

What Wayland lets one program know of another's windows is nothing, and what GNOME 43 tells over D-Bus
is no window position: the sessions see the board only, as on the portable desktop (a moved board is
located again when it stops reading; a window over it, a minimised or closed game show as a board that
no longer reads). GNOME keeps no other program's window above the game, so there is no live overlay.
"""

from __future__ import annotations

import time

import numpy as np

from ...errors import DesktopGoneError, InputError, WaylandSessionError
from ..portable import PortableDesktop
from .keysyms import keysym

# A press sent at once after a pointer motion is lost now and then (3 of 33 in a fresh session): the
# compositor has not yet moved its pointer focus. 20 ms between them: 70 of 70 landed.
MOTION_SETTLE = 0.02
PRESS_HOLD = 0.005  # button down to button up: a press and its release, never both in one instant


class WaylandScreen:
    """``capture.Screen`` over the session's screen cast: the monitor's latest frame."""

    def __init__(self, session, stream) -> None:
        self._session, self._stream = session, stream

    @property
    def size(self) -> tuple[int, int]:
        return self._stream.size

    @property
    def origin(self) -> tuple[int, int]:
        return (0, 0)  # regions and pointer positions are both the recorded monitor's pixels

    def grab(self, region=None) -> np.ndarray:
        import cv2

        from ...capture import check_region

        width, height = self.size
        left, top, w, h = region if region is not None else (0, 0, width, height)
        check_region((left, top, w, h), self.size)
        frame = self._stream.latest()
        return cv2.cvtColor(frame[top:top + h, left:left + w], cv2.COLOR_BGRA2BGR)

    def close(self) -> None:
        self._stream.close()
        self._session.close()

    def __enter__(self) -> WaylandScreen:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class WaylandInput:
    """``mouse.Mouse`` (and keys) through the session's RemoteDesktop: positions in monitor pixels."""

    def __init__(self, session) -> None:
        self._session = session

    def size(self) -> tuple[int, int]:
        return self._session.size

    def move(self, x: float, y: float) -> None:
        self._session.pointer_to(x, y)

    def click(self, x: float, y: float, button: str = "left", holding: tuple[str, ...] = ()) -> None:
        syms = [keysym(key) for key in holding]
        self._session.pointer_to(x, y)
        time.sleep(MOTION_SETTLE)
        down: list = []
        try:
            for sym in syms:
                self._session.key(sym, True)
                down.append(sym)
            self._session.button(button, True)
            time.sleep(PRESS_HOLD)
            self._session.button(button, False)
        finally:
            for sym in reversed(down):  # never left held down, whatever went wrong
                self._session.key(sym, False)

    def press(self, *keys: str) -> None:
        """One key, or a combination held down in order and let go in reverse (ctrl, r)."""
        syms = [keysym(key) for key in keys]
        for sym in syms:
            self._session.key(sym, True)
        for sym in reversed(syms):
            self._session.key(sym, False)


class WaylandDesktop(PortableDesktop):
    name = "wayland"
    overlay_refusal = ("GNOME on Wayland keeps no program's window above another's, so the live overlay "
                       "cannot be drawn (hints on a screenshot need none: --image)")

    def __init__(self) -> None:
        super().__init__("linux")
        self._session = None

    def require_screen(self, advice: str) -> None:
        from .mutter import missing_services

        missing = missing_services()
        if missing:
            raise WaylandSessionError(
                f"this Wayland desktop has no {' or '.join(missing)} on its session bus: those are GNOME's "
                "(Mutter's) remote-desktop services, which let the bot see and click other programs' "
                "windows; other compositors (KDE, Sway) and sandboxes (Flatpak, Snap) lack them, and the "
                "desktop portals' consent dialogs are not supported. Run the bot in a GNOME session, or "
                "log in to an X11 session")

    def lost(self, exc: BaseException) -> bool:
        """The screen cast ending, or the session's D-Bus going, is the desktop going."""
        return isinstance(exc, DesktopGoneError)

    def screen(self) -> WaylandScreen:
        """Start the remote-desktop session and its screen cast; closing the screen ends both."""
        from .frames import FrameStream
        from .mutter import MutterSession

        session = MutterSession()
        try:
            stream = FrameStream(session.node, session.size)
        except BaseException:
            session.close()
            raise
        self._session = session
        return WaylandScreen(session, stream)

    def mouse(self) -> WaylandInput:
        if self._session is None:
            raise InputError("on Wayland the pointer belongs to the screen's session: open the screen first")
        return WaylandInput(self._session)
