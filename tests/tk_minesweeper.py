"""A clone built of Tk's widgets (``tests/tk_minesweeper_client.py``), started as a user would start one:
the look hobby clones written in Python have, drawn by a real toolkit on a real X server, which no skin
was taught on and no code of ours names. Its look is drawn at random by the tests: cell size, the
buttons' bevel (Tk's default is one pixel), the highlight ring round them, the opened cells' relief,
the flag's glyph, the font's weight.

Tk comes with most Pythons; where the test's own has no ``tkinter``, Debian's ``python3`` with the
``python3-tk`` package runs the client (CI installs it).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from screenbot.desktop.processes import ClientWindow, client_env, launch_client, temp_home
from screenbot.errors import ClientStartError

CLIENT = Path(__file__).with_name("tk_minesweeper_client.py")
TITLE = "Tk Minesweeper"
BOARDS = ((9, 9, 10), (16, 16, 40), (12, 20, 36))


def random_look(rng: random.Random) -> dict:
    """A look such a clone may have, drawn at random, and a board that fits a 1280x1024 screen.

    Not drawn: a two-pixel bevel inside the highlight ring in cells of 16 px, which the classic look
    refuses ("no raised cells"; 2 looks of 3): the ring and the bevel fill the cell's edge. Nor
    opened cells drawn as a groove, a raised frame inside a sunken one: a number's cell then looks
    raised, and is refused by name."""
    rows, cols, mines = rng.choice(BOARDS)
    bevel, ring = rng.choice([1, 1, 2]), rng.choice([0, 1])
    least = 17 if bevel == 2 and ring else 16
    return {"rows": rows, "cols": cols, "mines": mines, "cell": rng.randint(least, min(48, 1000 // cols)),
            "bevel": bevel, "ring": ring, "opened": rng.choice(["sunken", "flat", "solid"]),
            "flag": rng.choice(["\u2691", "F"]), "weight": rng.choice(["bold", "normal"])}


def python_with_tk() -> str:
    """A Python that imports tkinter: this one, else Debian's."""
    for python in (sys.executable, "/usr/bin/python3"):
        try:
            if subprocess.run([python, "-c", "import tkinter"], capture_output=True, timeout=30).returncode == 0:
                return python
        except OSError:
            continue
    raise ClientStartError("no Python here imports tkinter (Debian: apt-get install python3-tk)", client="tk-minesweeper")


def start(look: dict, state_file: Path, timeout: float = 30.0) -> ClientWindow:
    """Start the clone drawn as ``look`` (``random_look``) on the current display; it writes its state
    to ``state_file``."""
    home = temp_home("tk-minesweeper")
    config = json.dumps({**look, "state_file": str(state_file)})
    return launch_client("tk-minesweeper", [python_with_tk(), str(CLIENT), config], client_env(home), home, timeout, TITLE)
