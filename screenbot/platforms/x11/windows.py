"""Find top-level X windows and their on-screen geometry (python-xlib; no process per query).

Geometry is the client area in root-window coordinates, i.e. what ``Screen.grab(region=...)`` and
pyautogui use, excluding the window manager's decorations.
"""

from __future__ import annotations

import logging
import os
import re

from ...errors import DisplayError, WindowGoneError
from ...geometry import Rect
from ...streams import prints_logged
from .hiding import WM_CLASS as OVERLAY_CLASS

log = logging.getLogger(__name__)


def connect(display: str | None = None, *, purpose: str = "to look for windows on"):
    """A python-xlib connection to ``display`` (else $DISPLAY): the one way the product opens one.
    Raises DisplayError naming the display (and, when none is set, what it was wanted for)."""
    from Xlib import display as xdisplay

    name = display or os.environ.get("DISPLAY")
    if not name:
        raise DisplayError(f"DISPLAY is not set: no X display {purpose}")
    try:
        with prints_logged():
            return xdisplay.Display(name)
    except Exception as exc:  # Xlib raises DisplayNameError, DisplayConnectionError, OSError...
        raise DisplayError(f"cannot connect to X display {name}: {exc}", display=name) from exc


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


def window_class(window_id: int, *, display: str | None = None) -> str:
    """The window's WM_CLASS, instance and class with a space between ("chromium Chromium"); "" if none."""
    conn = connect(display)
    try:
        try:
            names = conn.create_resource_object("window", window_id).get_wm_class()
        except Exception:
            return ""
        return " ".join(names) if names else ""
    finally:
        conn.close()


def screen_size(*, display: str | None = None) -> tuple[int, int]:
    conn = connect(display)
    try:
        screen = conn.screen()
        return screen.width_in_pixels, screen.height_in_pixels
    finally:
        conn.close()


def request_active(conn, window) -> None:
    """Ask the window manager (EWMH ``_NET_ACTIVE_WINDOW``, source 2: as a pager asks, which focus-
    stealing prevention lets through) to raise and focus ``window``. Sent, not flushed."""
    from Xlib import X
    from Xlib.protocol import event

    message = event.ClientMessage(window=window, client_type=conn.intern_atom("_NET_ACTIVE_WINDOW"),
                                  data=(32, [2, X.CurrentTime, 0, 0, 0]))
    conn.screen().root.send_event(message, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)


class WindowArrivals:
    """Other programs' windows that come over a part of the screen, as the X server tells them
    (MapNotify and restacks of top-level windows, on a connection's root window).

    Asking the stacking order before a focus request or a click leaves a gap: a window mapped just
    after the question is missed, and a window manager with focus-stealing prevention maps a new
    window *under* the window the pointer has just clicked (seen with openbox: an xterm opened over
    the board ended up behind the game 2-4 events after it appeared). Events have no gap: every
    window mapped since the last look is reported, whether it ended up above the game or below it.
    One left below the game, over the board, is put back on top (``put_back``, asked of the window
    manager as a pager would): it is where it would have been had the bot not been clicking.
    """

    def __init__(self, conn, window_id: int) -> None:
        from Xlib import X

        self._conn = conn
        self._root = conn.screen().root
        self._root.change_attributes(event_mask=X.SubstructureNotifyMask)
        game = conn.create_resource_object("window", window_id)
        # The game window's own unmaps too: a window manager asked to make the game active while it
        # iconifies it undoes that before its frame is unmapped (openbox, mid-animation), and only the
        # game window itself was unmapped then.
        game.change_attributes(event_mask=X.StructureNotifyMask)
        self._game_id = window_id
        self._game_pid = _window_pid(conn, game)
        self._game_frame = self._top_level(window_id)
        self._arrived: list[tuple[int, object]] = []  # (frame id, program window) the last ``over`` reported
        # What the X server told since the last look: windows mapped, windows restacked, and whether the
        # game window or its frame was unmapped (minimised, or hidden otherwise), which a look at its
        # state can miss: the window manager maps it again when the bot asks it to make the game active.
        self._mapped: list[int] = []
        self._restacked: list[int] = []
        self._hidden = False

    def _top_level(self, window_id: int) -> int:
        """The root's child holding ``window_id`` (the window manager's frame around it)."""
        window = self._conn.create_resource_object("window", window_id)
        try:
            while True:
                parent = window.query_tree().parent
                if parent.id == self._root.id:
                    return window.id
                window = parent
        except Exception:  # closed meanwhile: no frame to tell apart
            return window_id

    def over(self, rect: Rect) -> list[str]:
        """Titles of other programs' windows mapped over ``rect`` since the last call (or raised over
        the game there). Reads only what the X server has already sent, but for windows that qualify."""
        self._drain()
        mapped, restacked = self._mapped, self._restacked
        self._mapped, self._restacked = [], []
        if not mapped and not restacked:
            return []
        under = self._under_game()
        if under is None:
            return []
        titles, self._arrived = [], []
        for window_id in dict.fromkeys(mapped + restacked):
            if window_id == self._game_frame or window_id not in under:
                continue  # the game itself, or gone meanwhile
            if window_id not in mapped and under[window_id]:
                continue  # moved or lowered below the game: not over it
            found = self._other_program_over(window_id, rect)
            if found is not None:
                titles.append(found[0])
                self._arrived.append((window_id, found[1]))
        return titles

    def hidden(self) -> bool:
        """Whether the game's window (or its frame) was unmapped, minimised or hidden, since the last call,
        even if it is mapped again now. Reads only what the X server has already sent."""
        self._drain()
        hidden, self._hidden = self._hidden, False
        return hidden

    def _drain(self) -> None:
        from Xlib import X

        while self._conn.pending_events():
            event = self._conn.next_event()
            about = getattr(event, "event", None)  # the window told (CreateNotify names no such window)
            if about is None:
                continue
            if event.type == X.UnmapNotify and event.window.id in (self._game_frame, self._game_id):
                self._hidden = True
            elif about.id != self._root.id:
                continue
            elif event.type == X.MapNotify:
                self._mapped.append(event.window.id)
            elif event.type == X.ConfigureNotify:
                self._restacked.append(event.window.id)

    def put_back(self) -> None:
        """Raise the windows the last ``over`` reported that are now under the game. Asked once the
        window manager has carried out what came before: a click the bot sent just before a window
        appeared has it raise the game (click to raise) a moment *after* the window was mapped."""
        under = self._under_game() or {}
        for window_id, client in self._arrived:
            if under.get(window_id):
                try:
                    request_active(self._conn, client)
                    self._conn.flush()
                    log.info("a window mapped over the board went under the game: raised back over it")
                except Exception as exc:
                    log.debug("could not raise window 0x%x back over the game: %s", window_id, exc)
        self._arrived = []

    def _under_game(self) -> dict[int, bool] | None:
        """For each top-level window now, whether it is stacked under the game's frame (None when
        the tree cannot be read)."""
        try:
            stacking = [w.id for w in self._root.query_tree().children]  # bottom to top
        except Exception:
            return None
        game_at = stacking.index(self._game_frame) if self._game_frame in stacking else -1
        return {window_id: at < game_at for at, window_id in enumerate(stacking)}

    def _other_program_over(self, window_id: int, rect: Rect):
        """(title, program window) of top-level window ``window_id`` when it is viewable, overlaps
        ``rect`` and belongs to another program than the game (and this one); else None."""
        from Xlib import X

        frame = self._conn.create_resource_object("window", window_id)
        try:
            if frame.get_attributes().map_state != X.IsViewable:
                return None
            geom = frame.get_geometry()
        except Exception:  # gone meanwhile
            return None
        if not Rect(geom.x, geom.y, geom.width, geom.height).intersects(rect):
            return None
        client = next(_client_windows(self._conn, frame), frame)
        pid = _window_pid(self._conn, client)
        if pid is not None and pid in (self._game_pid, os.getpid()):
            return None
        try:
            overlay = client.get_wm_class() == OVERLAY_CLASS
        except Exception:  # gone meanwhile
            return None
        if overlay:
            # A screenbot hint overlay (another process's: ``screenbot hint`` beside ``play``): clicks go
            # through it to the game, and the board reads through it; it comes back after every locate.
            return None
        return _window_name(self._conn, client) or f"0x{client.id:x}", client
