"""GNOME's own remote-desktop API (Mutter's D-Bus services), the one place that talks D-Bus.

One ``MutterSession`` is a RemoteDesktop session (pointer and keyboard input) with a ScreenCast session
bound to it, recording one monitor as a PipeWire stream. Mutter's services answer any unsandboxed
process of the user's GNOME session with no consent dialog (GNOME shows its screen-sharing icon while
the session lasts) and end the session when our D-Bus connection closes, however this process ends.

The monitor is recorded rather than the game's window: GNOME 43 tells no window's position to other
programs (``org.gnome.Shell.Introspect`` gives sizes and titles only, to allow-listed callers), so the
board is located on the monitor as on any screen, and pointer positions are the monitor's pixels.

D-Bus through jeepney: pure Python, no C library to build (PyGObject needs GObject introspection's
development files and a compiler).
"""

from __future__ import annotations

import logging
import os

from ...errors import DesktopGoneError, DisplayError, WaylandSessionError

log = logging.getLogger(__name__)

REMOTE_DESKTOP = "org.gnome.Mutter.RemoteDesktop"
SCREEN_CAST = "org.gnome.Mutter.ScreenCast"
# Linux input event codes (linux/input-event-codes.h): what NotifyPointerButton takes.
BUTTONS = {"left": 0x110, "right": 0x111, "middle": 0x112}
STREAM_TIMEOUT = 5.0  # seconds from Start to the stream's PipeWire node (about 50 ms measured)
# Seconds a call that waits for its reply waits at most (up to 43 ms measured while the shell renders):
# a shell that never answers (busy, or going) must not hold the bot, above all its exit after Ctrl-C,
# which stops the session (a play stopped so once took over 30 s to exit, in CI).
CALL_TIMEOUT = 10.0


def _jeepney():
    try:
        import jeepney
        import jeepney.io.blocking  # noqa: F401
    except ImportError:
        raise DisplayError("the Wayland backend needs the Python package jeepney (D-Bus): "
                           "pip install jeepney") from None
    return jeepney


def missing_services() -> list[str]:
    """The Mutter services this session's D-Bus lacks (empty: a GNOME Wayland session we can serve).
    DisplayError when there is no session bus to ask."""
    jeepney = _jeepney()
    from jeepney.bus_messages import message_bus
    from jeepney.io.blocking import open_dbus_connection

    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS") and not os.environ.get("XDG_RUNTIME_DIR"):
        raise WaylandSessionError("a Wayland session, but no D-Bus session bus to reach GNOME's remote-desktop "
                                  "services (DBUS_SESSION_BUS_ADDRESS is not set): run this inside the desktop "
                                  "session where the game is shown")
    try:
        with open_dbus_connection(bus="SESSION") as conn:
            return [name for name in (REMOTE_DESKTOP, SCREEN_CAST)
                    if not conn.send_and_get_reply(message_bus.NameHasOwner(name)).body[0]]
    except (OSError, KeyError, jeepney.DBusErrorResponse) as exc:
        raise WaylandSessionError(f"a Wayland session, but its D-Bus session bus does not answer: {exc}") from exc


class MutterSession:
    """A running RemoteDesktop + ScreenCast session recording one monitor. ``node`` is the PipeWire
    node of its stream, ``size`` the monitor's (width, height) in pixels, ``position`` its top-left in
    the desktop's layout. Calls go out on one D-Bus connection, from one thread."""

    def __init__(self, monitor: str = "") -> None:
        jeepney = _jeepney()
        from jeepney import DBusAddress, MatchRule, new_method_call
        from jeepney.bus_messages import message_bus
        from jeepney.io.blocking import open_dbus_connection

        self._new_call = new_method_call
        self._errors = (jeepney.DBusErrorResponse, OSError, TimeoutError)
        try:
            self._conn = open_dbus_connection(bus="SESSION")
        except (OSError, KeyError) as exc:
            raise WaylandSessionError(f"a Wayland session, but its D-Bus session bus does not answer: {exc}") from exc
        try:
            remote = DBusAddress("/org/gnome/Mutter/RemoteDesktop", REMOTE_DESKTOP, REMOTE_DESKTOP)
            path = self._call(remote, "CreateSession")[0]
            self._remote = DBusAddress(path, REMOTE_DESKTOP, REMOTE_DESKTOP + ".Session")
            session_id = self._property(path, REMOTE_DESKTOP, REMOTE_DESKTOP + ".Session", "SessionId")
            cast = DBusAddress("/org/gnome/Mutter/ScreenCast", SCREEN_CAST, SCREEN_CAST)
            cast_path = self._call(cast, "CreateSession", "a{sv}", ({"remote-desktop-session-id": ("s", session_id)},))[0]
            cast_session = DBusAddress(cast_path, SCREEN_CAST, SCREEN_CAST + ".Session")
            # cursor-mode 0: the pointer is not drawn into the frames (it would hide a cell).
            self.stream = self._call(cast_session, "RecordMonitor", "sa{sv}", (monitor, {"cursor-mode": ("u", 0)}))[0]
            added = MatchRule(type="signal", interface=SCREEN_CAST + ".Stream", member="PipeWireStreamAdded",
                              path=self.stream)
            self._conn.send_and_get_reply(message_bus.AddMatch(added))
            with self._conn.filter(added) as signals:
                self._call(self._remote, "Start")
                self.node = int(self._conn.recv_until_filtered(signals, timeout=STREAM_TIMEOUT).body[0])
            parameters = self._property(self.stream, SCREEN_CAST, SCREEN_CAST + ".Stream", "Parameters")
        except self._errors as exc:
            self._conn.close()
            raise DisplayError(f"GNOME's screen cast could not be started: {exc}") from exc
        self.size = tuple(int(v) for v in parameters["size"][1])
        self.position = tuple(int(v) for v in parameters.get("position", ("", (0, 0)))[1])
        log.info("Mutter session %s: monitor %s, %dx%d at %s, PipeWire node %d", path,
                 parameters.get("output-name", ("", "?"))[1], *self.size, self.position, self.node)

    def _call(self, address, method: str, signature: str | None = None, body: tuple = ()):
        from jeepney.wrappers import unwrap_msg

        return unwrap_msg(self._conn.send_and_get_reply(self._new_call(address, method, signature, body),
                                                        timeout=CALL_TIMEOUT))

    def _property(self, path: str, service: str, interface: str, name: str):
        from jeepney import DBusAddress

        properties = DBusAddress(path, service, "org.freedesktop.DBus.Properties")
        return self._call(properties, "Get", "ss", (interface, name))[0][1]

    def pointer_to(self, x: float, y: float) -> None:
        """Move the pointer to (x, y), pixels of the recorded monitor."""
        self._send("NotifyPointerMotionAbsolute", "sdd", (self.stream, float(x), float(y)))

    def button(self, button: str, pressed: bool) -> None:
        self._send("NotifyPointerButton", "ib", (BUTTONS[button], pressed))

    def key(self, keysym: int, pressed: bool) -> None:
        self._send("NotifyKeyboardKeysym", "ub", (keysym, pressed))

    def _send(self, method: str, signature: str, body: tuple) -> None:
        """Send an input event without waiting for its reply: the shell answers only once its main loop
        gets to the call, which while it renders and casts a redraw took up to 43 ms a call (median
        0.6 ms). Calls on one connection are handled in the order sent; a refused one shows as an error
        message on the connection, read at the next call that waits for a reply (``close``)."""
        from jeepney import MessageFlag

        message = self._new_call(self._remote, method, signature, body)
        message.header.flags |= MessageFlag.no_reply_expected
        try:
            self._conn.send(message)
        except OSError as exc:
            raise DesktopGoneError(f"GNOME's remote desktop is gone ({method}): {exc}") from exc

    def close(self) -> None:
        """Stop the session (ending its stream); closing the connection would end it as well."""
        try:
            self._call(self._remote, "Stop")
        except self._errors as exc:  # the compositor went first
            log.debug("stopping the Mutter session: %s", exc)
        finally:
            self._conn.close()
