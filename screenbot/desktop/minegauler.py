"""minegauler (a Qt 6 Minesweeper from PyPI): its own virtual environment, and how it is started.

minegauler needs PyQt6 (about 300 MB), which screenbot itself must not depend on, so it lives in a
venv of its own, made on first use in a cache folder::

    ${SCREENBOT_MINEGAULER_VENV:-${XDG_CACHE_HOME:-~/.cache}/screenbot/minegauler-4.2.0}

``ensure_minegauler_venv()`` makes it (``python -m venv`` with the Python running screenbot, then
``pip install minegauler==4.2.0``, the version the skin was taught on) after the Debian libraries Qt
needs under X (the profile's ``launch.packages``) are there: installed when running as root, named
otherwise. ``python3 -m screenbot.desktop.prepare minegauler`` does it ahead of time (CI does).

minegauler keeps its settings (``settings.cfg``) and high scores inside its own package folder, and
posts a won game's time to its author's web server. ``LAUNCHER`` (run with the venv's Python) points
both at the start's own folder and turns the post off, so starts never share or leave settings and
nothing leaves the machine, and keeps the high-scores window from opening over the game after a win
(every first win of a fresh start is a new best); it writes the start's settings (board, button size, skin) first. With a
state file it also writes the game's own board and mine layout, and where its cells are on the screen, there every 20 ms (the truth of the
fixtures and of the tests' reading checks: never the screen).
"""

from __future__ import annotations

import os
from pathlib import Path

from .client_venv import cache_folder, ensure_client_venv

VERSION = "4.2.0"
LEVELS = {"beginner": (8, 8, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}  # cols, rows, mines
BUTTON_SIZES = range(16, 41)  # the client's own limits, in px (its default is 16)

LAUNCHER = r'''
import json, os, pathlib, sys
options = json.loads(sys.argv[1])
home = pathlib.Path(options["home"])
os.chdir(home)  # minegauler writes its runtime.log into the working folder
from minegauler.app import paths, shared
paths.SETTINGS_FILE = home / "settings.cfg"
paths.DATA_DIR = home / "data"
paths.HIGHSCORES_FILE = paths.DATA_DIR / "highscores.db"
paths.DATA_DIR.mkdir(parents=True, exist_ok=True)
from minegauler.app import highscores
highscores._default_local_db = highscores.SQLiteDB(paths.HIGHSCORES_FILE)
highscores._post_highscore_to_remote = lambda highscore: None
if not options.get("highscores_window"):
    highscores.is_highscore_new_best = lambda highscore, scores: None
settings = shared.AllOptsStruct(**{k: v for k, v in options["settings"].items() if k != "style"})
style = options["settings"].get("style", "Standard")
settings.styles = {kind: style for kind in settings.styles}
shared.write_settings_to_file(settings, paths.SETTINGS_FILE)
from minegauler.app import __main__ as app
if options.get("state_file"):
    from PyQt6.QtCore import QTimer
    import minegauler.app.frontend as frontend
    state_file = pathlib.Path(options["state_file"])
    def write_state():
        if app.ctrlr is None or app.gui is None:
            return
        ctrlr = app.ctrlr._active_ctrlr
        board, game = ctrlr.board, ctrlr.game
        rows = [[repr(board[(x, y)]) for x in range(board.x_size)] for y in range(board.y_size)]
        mines = [[y, x] for x, y in game.mf.mine_coords] if game.mf.populated else None
        view = app.gui._mf_widget
        corner = view.viewport().mapToGlobal(view.mapFromScene(0.0, 0.0))
        scrolled = view.horizontalScrollBar().maximum() > 0 or view.verticalScrollBar().maximum() > 0
        text = json.dumps({"board": rows, "mines": mines, "state": game.state.name,
                           "origin": [corner.x(), corner.y()], "pitch": view.btn_size, "scrolled": scrolled})
        tmp = state_file.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(state_file)
    run_app = frontend.run_app
    def run_with_state(gui):
        timer = QTimer()
        timer.timeout.connect(write_state)
        timer.start(20)
        gui._screenbot_state_timer = timer
        return run_app(gui)
    frontend.run_app = run_with_state
sys.exit(app.main())
'''


def venv_dir() -> Path:
    """Where minegauler's venv is (or will be made)."""
    given = os.environ.get("SCREENBOT_MINEGAULER_VENV")
    if given:
        return Path(given).expanduser()
    return cache_folder(f"minegauler-{VERSION}")


def ensure_minegauler_venv(packages: tuple[str, ...] = ()) -> Path:
    """The Python of minegauler's venv, made first when missing (see the module's doc). ``packages``
    are the Debian libraries Qt needs (installed as root, else MissingPackagesError names them)."""
    from .install import ensure_debian_packages

    ensure_debian_packages(packages, why="the minegauler client (Qt 6 under X)")
    return ensure_client_venv(venv_dir(), (f"minegauler=={VERSION}",), "minegauler.app, PyQt6.QtWidgets",
                              "minegauler", "about 300 MB with PyQt6")
