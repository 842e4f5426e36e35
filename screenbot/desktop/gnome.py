"""A headless GNOME Shell on Wayland, for the Wayland tests: the desktop Ubuntu and Fedora start by
default, with no screen and no X at all.

``HeadlessGnome`` starts, each in a private temporary folder: a session D-Bus; a second, empty bus
standing in for the system bus (GNOME Shell sees systemd's seat folders and would ask logind on a system
bus that does not answer here, then end); PipeWire and WirePlumber (without WirePlumber a screen cast
is announced but sends no frame); and ``gnome-shell --headless --wayland --no-x11`` with one virtual
monitor. While it runs, this process's environment names its buses and Wayland socket (as
``VirtualDisplay`` sets DISPLAY), so ``screenbot.platforms`` serves it; ``stop`` ends everything it
started and puts the environment back.

``unsafe`` starts the shell with ``--unsafe-mode``, which lets ``evaluate`` run JavaScript in the
shell: the tests move, minimise and cover windows with it. Users' shells are not in that mode, and the
bot never needs it.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from ..errors import DisplayError
from .install import ensure_debian_packages
from .processes import GAMES_DIR, stop_group

log = logging.getLogger(__name__)

# What the shell and the bot's screen cast need (the same list as .ci/run's).
PACKAGES = ("gnome-shell", "mutter", "dbus", "pipewire", "pipewire-bin", "wireplumber", "gstreamer1.0-pipewire",
            "gstreamer1.0-tools", "gstreamer1.0-plugins-base", "libegl-mesa0", "libgl1-mesa-dri", "libgbm1")
START_TIMEOUT = 30.0  # seconds; the shell said "started" after 0.7-1.9 s here
ENV_KEYS = ("XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
            "DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "DISPLAY")


class HeadlessGnome:
    def __init__(self, size: tuple[int, int] = (1280, 1024), unsafe: bool = False) -> None:
        self.size = size
        self.unsafe = unsafe
        self.env: dict[str, str] = {}
        self._folder: Path | None = None
        self._processes: list[subprocess.Popen] = []
        self._saved: dict[str, str | None] = {}

    def __enter__(self) -> HeadlessGnome:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def start(self) -> None:
        ensure_debian_packages(PACKAGES, why="a headless GNOME Shell on Wayland")
        self._folder = Path(tempfile.mkdtemp(prefix="screenbot-gnome-"))
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> None:
        folder = self._folder
        runtime = folder / "runtime"
        runtime.mkdir(mode=0o700)
        env = {key: value for key, value in os.environ.items() if key not in ENV_KEYS}
        env.update(XDG_RUNTIME_DIR=str(runtime), XDG_SESSION_TYPE="wayland", NO_AT_BRIDGE="1")
        for name in ("config", "data", "cache", "state"):  # else the shell writes into the home folder
            (folder / name).mkdir()
            env[f"XDG_{name.upper()}_HOME"] = str(folder / name)
        env["DBUS_SYSTEM_BUS_ADDRESS"] = self._bus(env)
        env["DBUS_SESSION_BUS_ADDRESS"] = self._bus(env)
        self._spawn(["pipewire"], env, "pipewire")
        self._wait_for(lambda: any(runtime.glob("pipewire-0")), "PipeWire's socket", 10.0)
        self._spawn(["wireplumber"], env, "wireplumber")
        socket = "screenbot-wayland"
        width, height = self.size
        shell_log = folder / "gnome-shell.log"
        self._spawn(["gnome-shell", "--headless", "--wayland", "--no-x11", "--wayland-display", socket,
                     "--virtual-monitor", f"{width}x{height}", *(["--unsafe-mode"] if self.unsafe else [])],
                    env, "gnome-shell")
        self._wait_for(lambda: "GNOME Shell started" in shell_log.read_text(encoding="utf-8", errors="replace"),
                       "GNOME Shell's start", START_TIMEOUT)
        env["WAYLAND_DISPLAY"] = socket
        self.env = env
        for key in ENV_KEYS:
            self._saved[key] = os.environ.get(key)
        os.environ.update({key: env[key] for key in ENV_KEYS if key in env})
        os.environ.pop("DISPLAY", None)
        self._leave_overview()
        log.info("headless GNOME Shell on Wayland socket %s (%dx%d), folder %s", socket, width, height, folder)

    def _bus(self, env: dict[str, str]) -> str:
        bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"], env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               start_new_session=True)
        self._processes.append(bus)
        address = bus.stdout.readline().decode().strip()
        bus.stdout.close()
        if not address:
            raise DisplayError("dbus-daemon gave no bus address")
        return address

    def _spawn(self, command: list[str], env: dict[str, str], name: str) -> None:
        if shutil.which(command[0]) is None:
            raise DisplayError(f"{command[0]} is not installed (apt-get install {' '.join(PACKAGES)})")
        with open(self._folder / f"{name}.log", "wb") as out:
            self._processes.append(subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                                    stderr=subprocess.STDOUT, start_new_session=True))

    def _wait_for(self, ready, what: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            ended = [p.args[0] for p in self._processes if p.poll() is not None]
            if ended or time.monotonic() > deadline:
                said = (self._folder / "gnome-shell.log")
                tail = said.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-3:] if said.exists() else []
                raise DisplayError(f"{what} did not come ({'ended: ' + ', '.join(ended) if ended else f'{timeout:.0f} s'})"
                                   + (f"; gnome-shell said: {' | '.join(tail)}" if tail else ""))
            time.sleep(0.05)

    def _leave_overview(self) -> None:
        """The shell starts in its Overview, where a new window shows as a thumbnail: Escape leaves it
        (sent through the same remote-desktop service the bot uses)."""
        from ..platforms.wayland.keysyms import keysym
        from ..platforms.wayland.mutter import MutterSession

        session = MutterSession()
        try:
            session.key(keysym("escape"), True)
            session.key(keysym("escape"), False)
        finally:
            session.close()
        if self.unsafe:
            self._wait_for(lambda: self.evaluate("Main.overview.visible") == "false", "the Overview's end", 5.0)

    def client_env(self, **extra: str) -> dict[str, str]:
        """The environment for a native Wayland client of this shell."""
        env = dict(self.env, GDK_BACKEND="wayland", QT_QPA_PLATFORM="wayland", **extra)
        if GAMES_DIR not in env.get("PATH", "").split(os.pathsep):
            env["PATH"] = env.get("PATH", "") + os.pathsep + GAMES_DIR
        return env

    def evaluate(self, script: str) -> str:
        """Run JavaScript in the shell (``unsafe`` only) and return its result as text."""
        from jeepney import DBusAddress, new_method_call
        from jeepney.io.blocking import open_dbus_connection
        from jeepney.wrappers import unwrap_msg

        shell = DBusAddress("/org/gnome/Shell", "org.gnome.Shell", "org.gnome.Shell")
        with open_dbus_connection(bus=self.env["DBUS_SESSION_BUS_ADDRESS"]) as conn:
            ok, result = unwrap_msg(conn.send_and_get_reply(new_method_call(shell, "Eval", "s", (script,))))
        if not ok:
            raise DisplayError(f"the shell refused the script: {result}")
        return result

    def stop(self) -> None:
        for process in reversed(self._processes):
            stop_group(process)()
        self._processes.clear()
        if self._saved:
            for key, value in self._saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
            self._saved.clear()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None


class WaylandClient:
    """A native Wayland client of a ``HeadlessGnome`` (``unsafe``), found by its window's title."""

    def __init__(self, gnome: HeadlessGnome, process: subprocess.Popen, home: Path, title: str) -> None:
        self.gnome, self.process, self.home, self.title = gnome, process, home, title

    def window(self) -> str:
        """A JavaScript expression for the client's MetaWindow (undefined while it has none)."""
        return f"global.get_window_actors().map(a => a.meta_window).find(w => w.get_title() == {self.title!r})"

    def frame(self) -> tuple[int, int, int, int] | None:
        """(left, top, width, height) of its window's frame, None while it has no window."""
        import json

        said = self.gnome.evaluate(f"(w => w ? (r => [r.x, r.y, r.width, r.height])(w.get_frame_rect()) : null)"
                                   f"({self.window()})")
        rect = json.loads(said)
        return None if rect is None else tuple(rect)

    def act(self, script: str) -> None:
        """Run ``script`` with ``w`` bound to its window: ``w.move_frame(true, 100, 50)``, ``w.minimize()``."""
        self.gnome.evaluate(f"(w => {{ {script}; }})({self.window()})")

    def __enter__(self) -> WaylandClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        stop_group(self.process)()  # its whole group: dbus-run-session, its bus, the game
        shutil.rmtree(self.home, ignore_errors=True)


def start_wayland_gnome_mines(gnome: HeadlessGnome, timeout: float = 20.0, **options) -> WaylandClient:
    """gnome-mines as a native Wayland client of ``gnome``, with a game running (``options`` as
    ``start_gnome_mines``: level, window_size, custom, question_marks, theme). Returns once its window
    is shown (the shell's own word: ``unsafe`` shells only)."""
    from .clients import gnome_mines_home
    from .launch import launch_for

    if not gnome.unsafe:
        raise DisplayError("start_wayland_gnome_mines follows the window through the shell's unsafe mode")
    launch = launch_for("gnome-mines")
    ensure_debian_packages(launch.packages, why="the gnome-mines client")
    # Best times no game beats: a win opens no best-times dialog over the board. Play on Wayland knows no
    # window, so it closes such a dialog only once the screen showed the won board, and the dialog came
    # with the win itself now and then (CI runs 80 and 81; README: play stops, exit 1): what is tested
    # here is play.
    home, args = gnome_mines_home(**options, unbeaten_best_times=True)
    env = gnome.client_env(GSETTINGS_BACKEND="keyfile", XDG_CONFIG_HOME=str(home / "config"),
                           XDG_DATA_HOME=str(home / "data"), XDG_CACHE_HOME=str(home / "cache"))
    with open(home / "client.log", "wb") as out:
        process = subprocess.Popen([*launch.command, *args], env=env, stdin=subprocess.DEVNULL, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    client = WaylandClient(gnome, process, home, "Mines")
    deadline = time.monotonic() + timeout
    while client.frame() is None:
        if process.poll() is not None or time.monotonic() > deadline:
            client.close()
            raise DisplayError(f"gnome-mines showed no window on Wayland in {timeout:.0f} s")
        time.sleep(0.05)
    time.sleep(0.3)  # its first frame drawn
    return client
