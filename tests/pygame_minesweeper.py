"""pygame-minesweeper (PyPI 1.0.11, with the Windows 2000 tiles of pygame-minesweeper-sprites): a client in
the classic Windows look found on PyPI, which no skin was taught on and no code of ours names. The tests
start it as a user would, and the built-in classic look must find, read and play it.

pygame is no dependency of screenbot's, so the client lives in a venv of its own, made on first use in
the cache folder (``${XDG_CACHE_HOME:-~/.cache}/screenbot/pygame-minesweeper-1.0.11``; about 40 MB).
``python3 -m tests.pygame_minesweeper`` makes it ahead of time (CI does, as a phase of its own).

What it does, seen here: 16 px tiles, a smiley face above the board that starts a new game, Escape
quits; a lost game shows every mine and the hit one on red; a won game takes no more clicks and shows
nothing else. Its high scores go to the start's own XDG data folder.
"""

from __future__ import annotations

from pathlib import Path

from screenbot.desktop.client_venv import cache_folder, ensure_client_venv
from screenbot.desktop.processes import ClientWindow, client_env, launch_client, temp_home
from screenbot.errors import ClientStartError

PACKAGES = ("pygame==2.6.1", "pygame-minesweeper==1.0.11", "pygame-minesweeper-sprites==1.0.41")
LEVELS = ("basic", "intermediate", "expert")  # 10x10/10, 16x16/40, 16x30/99
TITLE = "Pygame - Minesweeper"


def ensure_venv() -> Path:
    """The venv's Python, the venv made first if it does not import the client yet."""
    return ensure_client_venv(cache_folder("pygame-minesweeper-1.0.11"), PACKAGES, "minesweeper, pygame",
                              "pygame-minesweeper", "about 40 MB")


def start(level: str = "intermediate", timeout: float = 30.0) -> ClientWindow:
    """Start the client at ``level`` on the current display, in a home of its own."""
    if level not in LEVELS:
        raise ClientStartError(f"unknown level {level!r}; use {', '.join(LEVELS)}", client="pygame-minesweeper")
    python = ensure_venv()
    home = temp_home("pygame-minesweeper")
    # No sound card under a virtual display: SDL's dummy driver keeps pygame from looking for one.
    env = client_env(home, HOME=str(home), SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    return launch_client("pygame-minesweeper", [str(python), "-m", "minesweeper", level], env, home, timeout, TITLE)


if __name__ == "__main__":
    print(ensure_venv())
