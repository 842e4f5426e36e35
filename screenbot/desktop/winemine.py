"""winemine (Wine's clone of Windows Minesweeper): its Wine prefix, and how it is started.

A Wine prefix (the Windows folder tree and registry Wine runs programs in) takes about 7 s and 700 MB
to make, so one is made on first use in a cache folder and shared by every start::

    ${SCREENBOT_WINE_PREFIX:-${XDG_CACHE_HOME:-~/.cache}/screenbot/wine-prefix}

winemine keeps its settings in that prefix's registry (``HKCU\\Software\\Microsoft\\WinMine``). Each
start writes them first: the board size, where the window opens, and best times of 0 s, which no game
beats, so a win never opens the name and best-times dialogs over the board. ``python3 -m
screenbot.desktop.prepare winemine`` makes the prefix ahead of time (CI does).
"""

from __future__ import annotations

import logging
import os
import subprocess
import tempfile
from pathlib import Path

from ..errors import ClientStartError
from .install import ensure_debian_packages
from .launch import launch_for
from .processes import ClientWindow, client_env, launch_client, temp_home

log = logging.getLogger(__name__)

# cols, rows, mines of the three levels; winemine reads the size from Width/Height/Mines, Difficulty
# only ticks the menu item.
LEVELS = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}
DIFFICULTY = {"beginner": 0, "intermediate": 1, "expert": 2}
PREFIX_TIMEOUT = 180.0  # s for wineboot to make a prefix (7 s on an idle machine)


def prefix_dir() -> Path:
    given = os.environ.get("SCREENBOT_WINE_PREFIX")
    if given:
        return Path(given).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "screenbot" / "wine-prefix"


def wine_vars(prefix: Path) -> dict[str, str]:
    # No debug chatter, and no offer to download Mono or Gecko (nothing is fetched at run time).
    return {"WINEPREFIX": str(prefix), "WINEDEBUG": "-all", "WINEDLLOVERRIDES": "mscoree,mshtml="}


def ensure_prefix(packages: tuple[str, ...]) -> Path:
    """Wine installed (as root: with apt-get) and a prefix made; returns the prefix."""
    ensure_debian_packages(packages, why="the winemine client (Wine)")
    prefix = prefix_dir()
    if (prefix / "system.reg").is_file():
        return prefix
    prefix.parent.mkdir(parents=True, exist_ok=True)
    log.warning("making a Wine prefix for winemine in %s (once; about 700 MB)", prefix)
    try:
        done = subprocess.run(["wineboot", "-i"], env={**os.environ, **wine_vars(prefix)}, capture_output=True, text=True,
                              timeout=PREFIX_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ClientStartError(f"wineboot could not make the Wine prefix {prefix}: {exc}", client="winemine") from None
    if done.returncode != 0 or not (prefix / "system.reg").is_file():
        raise ClientStartError(f"wineboot could not make the Wine prefix {prefix} (exit {done.returncode})",
                               client="winemine", log=done.stderr[-2000:])
    return prefix


def settings_reg(level: str, position: tuple[int, int]) -> str:
    """The registry file a start imports: board size, window position, unbeatable best times."""
    cols, rows, mines = LEVELS[level]
    values = {"Difficulty": DIFFICULTY[level], "Width": cols, "Height": rows, "Mines": mines,
              "Xpos": position[0], "Ypos": position[1], "Time1": 0, "Time2": 0, "Time3": 0}
    lines = ["REGEDIT4", "", r"[HKEY_CURRENT_USER\Software\Microsoft\WinMine]"]
    lines += [f'"{name}"=dword:{value:08x}' for name, value in values.items()]
    return "\n".join(lines) + "\n"


def start_winemine(level: str = "intermediate", position: tuple[int, int] = (100, 100),
                   timeout: float = 30.0) -> ClientWindow:
    """Start winemine at ``level`` (beginner 9x9/10, intermediate 16x16/40, expert 30x16/99; 16 px cells),
    its window at ``position``."""
    if level not in LEVELS:
        raise ClientStartError(f"unknown level {level!r}; use {', '.join(LEVELS)}", client="winemine")
    launch = launch_for("winemine")
    prefix = ensure_prefix(launch.packages)
    with tempfile.NamedTemporaryFile("w", suffix=".reg", delete=False) as reg:
        reg.write(settings_reg(level, position))
    try:
        subprocess.run(["wine", "regedit", "/S", reg.name], env={**os.environ, **wine_vars(prefix)}, capture_output=True, timeout=60, check=True)
    except (OSError, subprocess.SubprocessError) as exc:
        raise ClientStartError(f"could not write winemine's settings into the Wine registry: {exc}", client="winemine") from None
    finally:
        os.unlink(reg.name)
    home = temp_home("winemine")
    handle = launch_client("winemine", list(launch.command), client_env(home, **wine_vars(prefix)), home, timeout,
                           launch.window_title)
    log.info("winemine started: window 0x%x at %s", handle.window, handle.geometry())
    return handle
