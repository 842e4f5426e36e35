"""Start KMines (KDE's Minesweeper, Debian ``kmines``) on the current X display.

KMines draws its opened cells see-through over a picture behind the board, so every state looks a
shade different in each part of the board: the skin shipped for it was made by ``screenbot learn``
from zero labels, not by hand. Its settings (level, window size, whether a loss asks "Reset the
game?") are written to its own config file in the start's temporary home before it starts.
"""

from __future__ import annotations

import logging
import time

from ..errors import ClientStartError
from .install import ensure_debian_packages
from .launch import launch_for
from .processes import ClientWindow, client_env, launch_client, temp_home

log = logging.getLogger(__name__)

# KMines' own levels: (cols, rows, mines).
KMINES_LEVELS = {"easy": (9, 9, 10), "medium": (16, 16, 40), "hard": (30, 16, 99)}


def start_kmines(level: str = "easy", window_size: tuple[int, int] = (720, 760), reset_dialog: bool = True,
                 timeout: float = 30.0) -> ClientWindow:
    """Start KMines at ``level`` ("easy", "medium" or "hard") in a window of ``window_size`` (width,
    height, px; the board scales to fit it). ``reset_dialog``: a loss brings KMines' "Reset the game?"
    window over the board (its default)."""
    launch = launch_for("kmines")
    ensure_debian_packages(launch.packages, why="the KMines client")
    if level not in KMINES_LEVELS:
        raise ClientStartError(f"unknown level {level!r}; use {', '.join(KMINES_LEVELS)}", client="kmines")
    width, height = (int(v) for v in window_size)
    if width < 200 or height < 200:
        raise ClientStartError(f"window size {width}x{height} is too small for KMines' board", client="kmines")
    home = temp_home("kmines")
    env = client_env(home, HOME=str(home), QT_QPA_PLATFORM="xcb")
    config = home / "config"
    config.mkdir(parents=True, exist_ok=True)
    (config / "kminesrc").write_text(
        "[General]\n"
        f"kmines_reset={'true' if reset_dialog else 'false'}\n\n"
        "[KgDifficulty]\n"
        f"Level={level.capitalize()}\n",
        encoding="utf-8",
    )
    # Qt's own option sizes the first window (no size is saved in the fresh config to override it).
    command = [*launch.command, "-qwindowgeometry", f"{width}x{height}"]
    handle = launch_client("kmines", command, env, home, timeout, launch.window_title)
    time.sleep(1.0)  # the board's first paint (and its theme's picture) follows the map
    log.info("kmines started: window 0x%x at %s, level %s", handle.window, handle.geometry(), level)
    return handle
