"""Find top-level X windows and their on-screen geometry (python-xlib; no process per query).

Geometry is the client area in root-window coordinates, i.e. what ``Screen.grab(region=...)`` and
pyautogui use, excluding the window manager's decorations.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import re

from ..errors import DisplayError, WindowGoneError
from ..geometry import Rect

log = logging.getLogger(__name__)


def connect(display: str | None = None, *, purpose: str = "to look for windows on"):
    """A python-xlib connection to ``display`` (else $DISPLAY): the one way the product opens one.
    Raises DisplayError naming the display (and, when none is set, what it was wanted for)."""
    from Xlib import display as xdisplay

    name = display or os.environ.get("DISPLAY")
    if not name:
        raise DisplayError(f"DISPLAY is not set: no X display {purpose}")
    try:
        with xlib_prints_logged():
            return xdisplay.Display(name)
    except Exception as exc:  # Xlib raises DisplayNameError, DisplayConnectionError, OSError...
        raise DisplayError(f"cannot connect to X display {name}: {exc}", display=name) from exc


@contextlib.contextmanager
def xlib_prints_logged():
    """python-xlib prints its warnings on stdout ("Xlib.xauth: warning, no xauthority details available"
    for the empty ~/.Xauthority that xvfb-run leaves behind), where they would corrupt ``--json``
    output: while connecting they go to the log instead. pyautogui connects when it is imported."""
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            yield
    finally:
        for line in printed.getvalue().splitlines():
            log.debug("%s", line)


def _window_name(conn, window) -> str:
    from Xlib import X

    for atom_name, kind in (("_NET_WM_NAME", "UTF8_STRING"), ("WM_NAME", None)):
        atom = conn.intern_atom(atom_name)
        prop_type = conn.intern_atom(kind) if kind else X.AnyPropertyType
        try:
            prop = window.get_full_property(atom, prop_type)
        except Exception:
            return ""
        if prop and prop.value:
            value = prop.value
            if isinstance(value, bytes):
                # xdemineur's title is Latin-1 ("xdémineur"), not UTF-8.
                try:
                    return value.decode("utf-8")
                except UnicodeDecodeError:
                    return value.decode("latin-1")
            return str(value)
    return ""


def _window_pid(conn, window) -> int | None:
    from Xlib import X

    try:
        prop = window.get_full_property(conn.intern_atom("_NET_WM_PID"), X.AnyPropertyType)
    except Exception:
        return None
    return int(prop.value[0]) if prop and len(prop.value) else None


def _client_windows(conn, window, depth: int = 0):
    """Windows carrying WM_STATE below ``window`` (application windows, seen through WM frames)."""
    from Xlib import X

    wm_state = conn.intern_atom("WM_STATE")
    try:
        if window.get_full_property(wm_state, X.AnyPropertyType) is not None:
            yield window
            return
        children = window.query_tree().children
    except Exception:  # the window vanished while we walked the tree
        return
    if depth < 3:
        for child in children:
            yield from _client_windows(conn, child, depth + 1)


def find_windows(
    name: str | None = None, pid: int | None = None, *, display: str | None = None, visible: bool = True
) -> list[int]:
    """Ids of application windows whose title matches the regex ``name`` and/or whose _NET_WM_PID is
    ``pid``; with ``visible`` only those currently mapped and viewable."""
    from Xlib import X

    conn = connect(display)
    try:
        pattern = re.compile(name) if name else None
        found = []
        for window in _client_windows(conn, conn.screen().root):
            if pattern and not pattern.search(_window_name(conn, window)):
                continue
            if pid is not None and _window_pid(conn, window) != pid:
                continue
            if visible:
                try:
                    if window.get_attributes().map_state != X.IsViewable:
                        continue
                except Exception:
                    continue
            found.append(window.id)
        return found
    finally:
        conn.close()


def windows_over(window_id: int, rect: Rect, *, own: bool = False, display: str | None = None) -> list[str]:
    """Titles of the visible windows of other programs stacked above ``window_id`` that overlap
    ``rect`` (root coordinates); with ``own``, those of the same program instead (its dialogs)."""
    from Xlib import X

    conn = connect(display)
    try:
        ours = conn.create_resource_object("window", window_id)
        own_pid = _window_pid(conn, ours)
        above, seen = [], False
        root = conn.screen().root
        for window in _client_windows(conn, root):  # bottom to top, as the X server stacks them
            if window.id == window_id:
                seen = True
                continue
            if not seen:
                continue
            try:
                if window.get_attributes().map_state != X.IsViewable:
                    continue
                geom = window.get_geometry()
                origin = window.translate_coords(root, 0, 0)
            except Exception:  # closed meanwhile
                continue
            if (own_pid is not None and _window_pid(conn, window) == own_pid) != own:
                continue
            if Rect(-origin.x, -origin.y, geom.width, geom.height).intersects(rect):
                above.append(_window_name(conn, window) or f"0x{window.id:x}")
        return above
    finally:
        conn.close()


def window_geometry(window_id: int, *, display: str | None = None) -> Rect:
    """The window's client area in root coordinates. Raises WindowGoneError if it no longer exists."""
    conn = connect(display)
    try:
        window = conn.create_resource_object("window", window_id)
        try:
            geom = window.get_geometry()
            origin = window.translate_coords(conn.screen().root, 0, 0)
        except Exception as exc:  # BadWindow / BadDrawable once the client is gone
            raise WindowGoneError(f"window 0x{window_id:x} no longer exists", window=window_id) from exc
        # translate_coords(root, 0, 0) gives root's origin in the window's coordinates: negate it.
        return Rect(-origin.x, -origin.y, geom.width, geom.height)
    finally:
        conn.close()


def window_exists(window_id: int, *, display: str | None = None) -> bool:
    try:
        window_geometry(window_id, display=display)
    except WindowGoneError:
        return False
    return True


def window_title(window_id: int, *, display: str | None = None) -> str:
    conn = connect(display)
    try:
        return _window_name(conn, conn.create_resource_object("window", window_id))
    finally:
        conn.close()


def screen_size(*, display: str | None = None) -> tuple[int, int]:
    conn = connect(display)
    try:
        screen = conn.screen()
        return screen.width_in_pixels, screen.height_in_pixels
    finally:
        conn.close()
