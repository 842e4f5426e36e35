"""A virtual X display (Xvfb + openbox) for clients, tests and the demo, and Wayland detection.

    with VirtualDisplay() as display:      # sets os.environ["DISPLAY"], restores it on exit
        ...                                # start clients, capture with mss, click with pyautogui

``ensure_display()`` reuses a reachable DISPLAY when there is one, otherwise starts a VirtualDisplay.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import select
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass

from ..errors import DisplayError, WaylandSessionError
from ..platforms.portable import OWN_DESKTOPS
from ..platforms.x11.windows import connect

log = logging.getLogger(__name__)

DEFAULT_SIZE = (1280, 1024)
# 24-bit depth matters: at 16 bit the clients' colours are quantised and the templates no longer match.
DEFAULT_DEPTH = 24


def check_not_wayland(environ: dict[str, str] | None = None) -> None:
    """Raise WaylandSessionError when running inside a Wayland session: its DISPLAY, if any, is
    XWayland, which neither shows nor takes clicks for native Wayland windows. The Wayland window
    system (``screenbot.platforms.wayland``) serves such a session. A DISPLAY we started ourselves
    (Xvfb) is fine even on a Wayland desktop: callers pass that environment explicitly.
    """
    env = os.environ if environ is None else environ
    if env.get("WAYLAND_DISPLAY") or env.get("XDG_SESSION_TYPE", "").lower() == "wayland":
        raise WaylandSessionError(
            "this is a Wayland session (WAYLAND_DISPLAY / XDG_SESSION_TYPE=wayland): through X the bot "
            "would see only XWayland's windows; use --window-system wayland (the default here, on GNOME), "
            "or run the clients inside a virtual display (screenbot starts one with Xvfb when DISPLAY is unset)"
        )


def require_x_display(advice: str) -> str:
    """The X display named by DISPLAY, checked usable for capture and clicks.

    Raises WaylandSessionError in a Wayland session, and DisplayError ending with ``advice`` (what the
    user can do) when DISPLAY is unset or no X server answers there."""
    check_not_wayland()
    display = os.environ.get("DISPLAY")
    if not display or not display_reachable(display):
        raise DisplayError(f"no X display (DISPLAY={display!r}): {advice}", display=display)
    return display


def display_reachable(display: str, timeout: float = 2.0) -> bool:
    """True when an X server answers on ``display`` (e.g. ":99")."""
    if importlib.util.find_spec("Xlib") is None:  # pragma: no cover - python-xlib is a dependency on Linux
        return _reachable_with_xdpyinfo(display, timeout)
    try:
        conn = connect(display)
    except DisplayError:
        return False
    conn.close()
    return True


def display_lost(exc: BaseException) -> bool:
    """Was ``exc`` the X display going away under a running command (the X server ended, the session
    closed)? Xlib names its lost connections; what mss or pyautogui raise then is confirmed by trying
    to connect again."""
    if type(exc).__module__.startswith("Xlib") and "Connection" in type(exc).__name__:
        return True
    display = os.environ.get("DISPLAY")
    return bool(display) and not display_reachable(display)


def _reachable_with_xdpyinfo(display: str, timeout: float) -> bool:
    if not shutil.which("xdpyinfo"):
        return False
    try:
        done = subprocess.run(["xdpyinfo", "-display", display], capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0


@dataclass(frozen=True, slots=True)
class DisplayInfo:
    name: str  # e.g. ":7"
    width: int
    height: int


def display_numbers_allowed(environ: dict[str, str] | None = None) -> range | None:
    """The display numbers a VirtualDisplay may take, from SCREENBOT_XVFB_DISPLAYS ("70-79" or "70"),
    for machines where several people start displays and each keeps to a range; None: any (Xvfb
    chooses the lowest free one)."""
    text = (environ if environ is not None else os.environ).get("SCREENBOT_XVFB_DISPLAYS", "").strip()
    if not text:
        return None
    first, _, last = text.partition("-")
    try:
        low, high = int(first), int(last or first)
    except ValueError:
        raise DisplayError(f"SCREENBOT_XVFB_DISPLAYS={text!r} is not a number or a range such as 70-79") from None
    if not 0 <= low <= high:
        raise DisplayError(f"SCREENBOT_XVFB_DISPLAYS={text!r} is not a number or a range such as 70-79")
    return range(low, high + 1)


class VirtualDisplay:
    """Context manager: Xvfb on a free display number plus openbox; restores DISPLAY on exit.

    Xvfb chooses the free number itself, or takes the first free one of SCREENBOT_XVFB_DISPLAYS, and
    says on ``-displayfd`` which display it holds: several processes can each start one at the same
    time without racing on lock files.
    """

    def __init__(
        self,
        size: tuple[int, int] = DEFAULT_SIZE,
        depth: int = DEFAULT_DEPTH,
        window_manager: bool = True,
        start_timeout: float = 15.0,
    ) -> None:
        self.size = size
        self.depth = depth
        self.window_manager = window_manager
        self.start_timeout = start_timeout
        self.name: str | None = None
        self._xvfb: subprocess.Popen | None = None
        self._wm: subprocess.Popen | None = None
        self._saved_display: str | None = None
        self._saved_wayland: str | None = None

    @property
    def info(self) -> DisplayInfo:
        if self.name is None:
            raise DisplayError("the virtual display is not running")
        return DisplayInfo(self.name, *self.size)

    def __enter__(self) -> VirtualDisplay:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def start(self) -> None:
        if self._xvfb is not None:
            raise DisplayError("the virtual display is already running", display=self.name)
        self._ensure_programs()
        numbers = display_numbers_allowed()
        if numbers is not None:
            self._start_in(numbers)
        else:
            self._start_any()
        self._saved_display = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = self.name
        # The display we start is X11 even when the surrounding desktop is Wayland: hide the Wayland
        # socket from the clients we launch so GTK/Chromium pick X11 and stay capturable.
        self._saved_wayland = os.environ.pop("WAYLAND_DISPLAY", None)
        if self.window_manager:
            self._start_window_manager()
        log.info("virtual display %s started (Xvfb pid %s)", self.name, self._xvfb.pid)

    def _xvfb_args(self) -> list[str]:
        width, height = self.size
        return ["-screen", "0", f"{width}x{height}x{self.depth}", "-nolisten", "tcp", "-noreset"]

    def _start_in(self, numbers: range) -> None:
        """Xvfb on the first number of ``numbers`` that is free (SCREENBOT_XVFB_DISPLAYS)."""
        for number in numbers:
            if os.path.exists(f"/tmp/.X{number}-lock") or os.path.exists(f"/tmp/.X11-unix/X{number}"):
                continue
            try:
                self._spawn(f":{number}")
            except DisplayError:
                continue  # taken meanwhile by someone else: try the next number
            return
        raise DisplayError(f"no free display number among :{numbers.start} to :{numbers.stop - 1} "
                           f"(SCREENBOT_XVFB_DISPLAYS)")

    def _start_any(self) -> None:
        self._spawn(None)

    def _spawn(self, display: str | None) -> None:
        """Start Xvfb on ``display`` (None: Xvfb picks the lowest free number) and wait until it runs.

        Xvfb writes its display number on ``-displayfd`` once it holds that display and accepts
        connections, and writes nothing when it fails (with a given number: someone else holds it).
        Waiting for an answer on the number instead would mistake another process's Xvfb, started on
        the same number a moment earlier, for ours (two test workers then shared one screen)."""
        read_fd, write_fd = os.pipe()
        cmd = ["Xvfb", *([display] if display else []), "-displayfd", str(write_fd), *self._xvfb_args()]
        try:
            self._xvfb = subprocess.Popen(
                cmd, pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
        finally:
            os.close(write_fd)
        try:
            number = self._read_display_number(read_fd)
        except DisplayError:
            self._kill(self._xvfb)
            self._xvfb = None
            raise
        finally:
            os.close(read_fd)
        self.name = f":{number}"
        self._wait_reachable()

    def _ensure_programs(self) -> None:
        """Install Xvfb (and openbox) when missing and we are root, before anything is started, so a
        fresh machine gets its display from ``screenbot demo``; otherwise MissingPackagesError names
        the apt-get line."""
        from .install import ensure_debian_packages

        needed = {"Xvfb": "xvfb", **({"openbox": "openbox"} if self.window_manager else {})}
        missing = tuple(package for program, package in needed.items() if not shutil.which(program))
        if not missing:
            return
        ensure_debian_packages(missing, why="the virtual display needs Xvfb and openbox")
        absent = [program for program in needed if not shutil.which(program)]
        if absent:  # dpkg has the packages, yet PATH does not lead to their programs
            raise DisplayError(f"{' and '.join(absent)} not found on PATH ({os.environ.get('PATH', '')}) although "
                               f"their Debian packages are installed")

    def _read_display_number(self, read_fd: int) -> int:
        deadline = time.monotonic() + self.start_timeout
        data = b""
        while not data.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise DisplayError("Xvfb did not report a display number in time")
            ready, _, _ = select.select([read_fd], [], [], min(remaining, 0.2))
            if ready:
                chunk = os.read(read_fd, 64)
                if not chunk:
                    break
                data += chunk
            elif self._xvfb is not None and self._xvfb.poll() is not None:
                break
        if not data.strip().isdigit():
            err = b""
            if self._xvfb is not None and self._xvfb.poll() is not None and self._xvfb.stderr:
                err = self._xvfb.stderr.read() or b""
            raise DisplayError(
                "Xvfb failed to start: " + (err.decode(errors="replace").strip()[-500:] or "no output")
            )
        return int(data.strip())

    def _wait_reachable(self) -> None:
        deadline = time.monotonic() + self.start_timeout
        while not display_reachable(self.name or ""):
            if time.monotonic() > deadline:
                self.stop()
                raise DisplayError("Xvfb started but does not accept connections", display=self.name)
            time.sleep(0.05)

    def _start_window_manager(self) -> None:
        env = dict(os.environ, DISPLAY=self.name or "")
        self._wm = subprocess.Popen(
            ["openbox", "--sm-disable"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        # Openbox takes the WM selection asynchronously; windows mapped before that get no decorations
        # and a different position, so wait until it owns the selection.
        deadline = time.monotonic() + self.start_timeout
        while not _window_manager_running(self.name or ""):
            if self._wm.poll() is not None or time.monotonic() > deadline:
                log.warning("openbox did not take over display %s; continuing without it", self.name)
                return
            time.sleep(0.05)
        # Owning the selection is not yet managing windows: a client that maps its window in the next
        # moments can be left unmapped for good (xbomb started at once: 13 of 30 times, no window).
        # A window of our own, managed, shows that openbox handles map requests.
        if not _window_manager_manages(self.name or "", deadline):
            log.warning("openbox on display %s did not manage a window within %.0f s", self.name, self.start_timeout)

    def stop(self) -> None:
        for proc in (self._wm, self._xvfb):
            if proc is not None:
                self._kill(proc)
        self._wm = self._xvfb = None
        if self.name is not None:
            if self._saved_display is None:
                os.environ.pop("DISPLAY", None)
            else:
                os.environ["DISPLAY"] = self._saved_display
            if self._saved_wayland is not None:
                os.environ["WAYLAND_DISPLAY"] = self._saved_wayland
            log.info("virtual display %s stopped", self.name)
        self.name = None

    @staticmethod
    def _kill(proc: subprocess.Popen) -> None:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
        if proc.stderr:
            proc.stderr.close()


# How long a probe window may wait to be managed before another is mapped (a managed one takes ~10 ms).
PROBE_PATIENCE = 0.5


def _ask_display(display: str, question) -> bool:
    """``question(conn)`` on a fresh connection to ``display``: True without python-xlib (nothing to
    ask with), False when the display cannot be reached."""
    if importlib.util.find_spec("Xlib") is None:  # pragma: no cover
        return True
    try:
        conn = connect(display)
    except DisplayError:
        return False
    try:
        return question(conn)
    finally:
        conn.close()


def _window_manager_running(display: str) -> bool:
    def owned(conn) -> bool:
        selection = conn.intern_atom(f"WM_S{conn.get_default_screen()}")
        return conn.get_selection_owner(selection) != 0

    return _ask_display(display, owned)


def _window_manager_manages(display: str, deadline: float) -> bool:
    """Map a small window of our own until the window manager manages one (WM_STATE on it)."""

    def probe_managed(conn) -> bool:
        screen = conn.screen()
        wm_state = conn.intern_atom("WM_STATE")
        while time.monotonic() < deadline:
            probe = screen.root.create_window(0, 0, 8, 8, 0, screen.root_depth)
            probe.set_wm_name("screenbot probe")
            probe.map()
            conn.sync()
            # A probe mapped in the race is never managed either: a fresh one after a moment.
            retry = min(deadline, time.monotonic() + PROBE_PATIENCE)
            try:
                while time.monotonic() < retry:
                    if probe.get_full_property(wm_state, 0) is not None:
                        return True
                    time.sleep(0.02)
            finally:
                probe.destroy()
                conn.sync()
        return False

    return _ask_display(display, probe_managed)


class _ExistingDisplay:
    """Stand-in context manager for a DISPLAY that already works: starts and stops nothing."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> _ExistingDisplay:
        return self

    def __exit__(self, *exc_info: object) -> None:
        return None

    def stop(self) -> None:
        return None


def ensure_display(platform: str = sys.platform) -> VirtualDisplay | _ExistingDisplay:
    """Use the current DISPLAY when an X server answers there, else start a VirtualDisplay.

    Returns a context manager in both cases; leaving it stops only what it started. Raises
    WaylandSessionError on a Wayland session without a usable X display of ours, DisplayError on
    Windows and macOS.
    """
    if platform in OWN_DESKTOPS:
        # Wine sets DISPLAY for Windows programs: an X server beside the desktop, not one to play on.
        raise DisplayError(f"a virtual X display and the Linux clients run on Linux only (this is {platform}): "
                           "start your Minesweeper and run 'screenbot play' (or 'screenbot hint')")
    current = os.environ.get("DISPLAY")
    if current and display_reachable(current):
        if os.environ.get("WAYLAND_DISPLAY"):
            # DISPLAY here is XWayland: native Wayland windows would be invisible to capture.
            check_not_wayland()
        log.info("using existing display %s", current)
        return _ExistingDisplay(current)
    if not current:
        # No X at all on a Wayland desktop: we could start Xvfb, but the user's game would not be on it.
        check_not_wayland()
    display = VirtualDisplay()
    display.start()
    return display
