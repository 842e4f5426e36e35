"""A started client: its window handle (``ClientWindow``), and the plumbing every start function shares:
its own HOME and XDG folders, its own process group (stopped as one, nobody else's processes touched),
its log, and the wait for its window."""

from __future__ import annotations

import functools
import logging
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import ClientStartError
from ..geometry import Rect
from ..platforms.x11 import windows

log = logging.getLogger(__name__)

GAMES_DIR = "/usr/games"  # Debian installs the games here, off root's default PATH.


@dataclass(eq=False)
class ClientWindow:
    """A running client: its X window, main pid and how to stop it.

    ``window`` is the X window id of the client area (what capture and clicks are relative to).
    ``geometry()`` asks X each time, because the user or the window manager may move the window.
    ``url`` and ``devtools_port`` are set for the browser client only.
    """

    client: str
    window: int
    pid: int
    url: str | None = None
    devtools_port: int | None = None
    # Where the board is on the screen, when the start function measured it: a vision Lattice (screen
    # pixels). xbomb only: its covered cells are a fine stipple the locator finds no cells in.
    lattice: object | None = None
    log_path: Path | None = None  # what the client printed (removed with its home when it is stopped)
    _stoppers: list[Callable[[], None]] = field(default_factory=list, repr=False)

    def geometry(self) -> Rect:
        return windows.window_geometry(self.window)

    def exists(self) -> bool:
        return windows.window_exists(self.window)

    def close(self) -> None:
        """Stop the client's processes (and the page server of the browser client); idempotent.

        Returns once the window is gone: the X server destroys it only after the dead client's
        connection is torn down, which a busy machine can delay past the process's exit."""
        while self._stoppers:
            stopper = self._stoppers.pop()
            try:
                stopper()
            except Exception:  # closing must go on even if one part is already gone
                log.exception("while closing %s", self.client)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                if not self.exists():
                    return
            except Exception:  # the display itself may be gone already
                return
            time.sleep(0.05)
        log.warning("the %s window %#x is still there after its processes were stopped", self.client, self.window)

    def __enter__(self) -> ClientWindow:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def temp_home(prefix: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=f"screenbot-{prefix}-"))


def client_env(home: Path, **extra: str) -> dict[str, str]:
    """Environment that keeps the client's settings, scores and caches inside ``home``."""
    env = dict(os.environ)
    env.update(
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CACHE_HOME=str(home / "cache"),
        NO_AT_BRIDGE="1",  # no accessibility bus: it only slows GTK start-up and logs warnings
    )
    if GAMES_DIR not in env.get("PATH", "").split(os.pathsep):
        env["PATH"] = env.get("PATH", "") + os.pathsep + GAMES_DIR
    env.update(extra)
    return env


def spawn(cmd: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen:
    # A new session makes the client and everything it forks (dbus-daemon, Chromium's zygotes) one
    # process group, which close() can stop without touching anyone else's processes.
    with open(log_path, "wb") as out:
        return subprocess.Popen(
            cmd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def launch_client(
    client: str,
    cmd: list[str],
    env: dict[str, str],
    home: Path,
    timeout: float,
    title: str,
    then: Callable[[ClientWindow], None] | None = None,
) -> ClientWindow:
    """Start a desktop client in ``home`` and wait for its window (title regex ``title``); ``then``
    runs once the window is there. On any failure everything started is stopped and ``home`` removed."""
    log_path = home / "client.log"
    there = set(windows.find_windows(name=title))  # another copy's windows are not this one's
    proc = spawn(cmd, env, log_path)
    handle = ClientWindow(client, 0, proc.pid, log_path=log_path)
    handle._stoppers += [functools.partial(shutil.rmtree, home, ignore_errors=True), stop_group(proc)]
    try:
        handle.window = wait_window(client, proc, log_path, timeout, there, name=title)
        if then is not None:
            then(handle)
    except BaseException:
        handle.close()
        raise
    return handle


def stop_group(proc: subprocess.Popen) -> Callable[[], None]:
    def stop() -> None:
        if proc.poll() is not None:
            # The leader is gone, but children may linger in its group.
            _signal_group(proc.pid, signal.SIGKILL)
            return
        _signal_group(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            _signal_group(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)
        _signal_group(proc.pid, signal.SIGKILL)

    return stop


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _read_log(path: Path) -> str:
    try:
        return path.read_text(errors="replace", encoding="utf-8")
    except OSError:
        return ""


def wait_window(
    client: str, proc: subprocess.Popen, log_path: Path, timeout: float, there: set[int] = frozenset(), **query: object
) -> int:
    """The id of the client's window: the first matching ``query`` that is not one of ``there``, the
    windows that matched before the client was started (a second copy of a client has the title of
    the first, and was once given the first's window)."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise ClientStartError(f"exited with code {proc.returncode} before showing a window",
                                   client=client, log=_read_log(log_path))
        ids = windows.find_windows(**query)  # type: ignore[arg-type]
        for wid in ids:
            if wid in there:
                continue
            try:
                rect = windows.window_geometry(wid)
            except Exception:
                continue
            if rect.width >= 100 and rect.height >= 100:
                return wid
        if time.monotonic() > deadline:
            raise ClientStartError(f"no window appeared within {timeout:.0f} s", client=client,
                                   log=_read_log(log_path))
        time.sleep(0.1)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
