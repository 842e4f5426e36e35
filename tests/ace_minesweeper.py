"""ace-minesweeper (Debian ``ace-of-penguins`` 1.5): a client no skin was taught on and no code of ours
names, found in Debian. Its covered cells are raised grey squares, as in the classic look, but its
opened cells are the window's green with white numbers: not the classic look.

What it does, seen here: a 32x32 board of 12 px cells with 200 mines, on a green window with a penguin
above the board (a click starts a new game); no first-click rule; a lost game shows every mine; Escape,
q and Ctrl+C quit it (its source's key handler).
"""

from __future__ import annotations

import shutil

from screenbot.desktop.processes import ClientWindow, client_env, launch_client, temp_home
from screenbot.errors import ClientStartError

COMMAND = "/usr/games/ace-minesweeper"
TITLE = "ace-minesweeper"


def start(timeout: float = 30.0) -> ClientWindow:
    """Start the client on the current display, in a home of its own."""
    if shutil.which(COMMAND) is None:
        raise ClientStartError(f"{COMMAND} is not installed (Debian: apt-get install ace-of-penguins)",
                               client="ace-minesweeper")
    home = temp_home("ace-minesweeper")
    return launch_client("ace-minesweeper", [COMMAND], client_env(home, HOME=str(home)), home, timeout, TITLE)
