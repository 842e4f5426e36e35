"""Start the real Minesweeper clients on the current X display and hand back their window.

    with VirtualDisplay():
        game = start_gnome_mines(level="medium", window_size=(600, 400))
        try:
            game.geometry()        # Rect of the window's client area on screen (live query)
            ...
        finally:
            game.close()

Eight clients are supported: ``start_gnome_mines``, ``start_xdemineur``, ``start_react_minesweeper``
(the npm demo page in Chromium, in ``browser``), ``start_sgt_mines`` (Simon Tatham's "mines", taught to the reader
with ``screenbot new-skin``), ``start_minegauler`` (Qt, from PyPI, in a venv of its own: ``minegauler``) and
``start_xbomb`` (Athena widgets), ``start_winemine`` (Wine's Minesweeper, in ``winemine``) and ``start_kmines``
(KDE's, in ``kmines``). ``start_client(name, **options)`` dispatches by skin name. Each returns
a ``ClientWindow`` (``processes``); ``close()`` stops every process the start function launched (and nothing else).
Clients write settings under XDG dirs: each start gets its own temporary folder, removed on close.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import time
from pathlib import Path
from typing import Iterable

from ..errors import ClientStartError
from ..geometry import Rect
from .browser import start_react_minesweeper
from .install import ensure_debian_packages
from .launch import launch_for
from .kmines import start_kmines
from .minegauler import BUTTON_SIZES, LAUNCHER, LEVELS, ensure_minegauler_venv
from .processes import ClientWindow, client_env, launch_client, temp_home
from ..platforms.x11.keys import click as xtest_click, press_key as xtest_key
from .winemine import start_winemine
from .xbomb import XBOMB_LEVELS, xbomb_lattice

log = logging.getLogger(__name__)

GNOME_MINES_LEVELS = {"small": (8, 8, 10), "medium": (16, 16, 40), "big": (30, 16, 99)}


def start_client(name: str, **options: object) -> ClientWindow:
    """Start a client by its skin name: "gnome-mines", "xdemineur", "react-minesweeper", "sgt-mines", "minegauler",
    "xbomb", "winemine" or "kmines"."""
    starters = {
        "gnome-mines": start_gnome_mines,
        "xdemineur": start_xdemineur,
        "react-minesweeper": start_react_minesweeper,
        "sgt-mines": start_sgt_mines,
        "minegauler": start_minegauler,
        "xbomb": start_xbomb,
        "winemine": start_winemine,
        "kmines": start_kmines,
    }
    if name not in starters:
        raise ClientStartError(f"unknown client; known: {', '.join(starters)}", client=name)
    return starters[name](**options)  # type: ignore[operator]


# --- gnome-mines -------------------------------------------------------------------------------------


def start_gnome_mines(
    level: str = "small",
    window_size: tuple[int, int] = (600, 400),
    custom: tuple[int, int, int] | None = None,
    question_marks: bool = True,
    theme: str | None = None,
    unbeaten_best_times: bool = False,
    timeout: float = 30.0,
    gtk_theme: str | None = None,
    desktop_scale: int | None = None,
) -> ClientWindow:
    """Start gnome-mines with a game already running.

    ``level`` is "small" (8x8/10), "medium" (16x16/40) or "big" (30x16/99). ``custom=(cols, rows,
    mines)`` starts a custom game instead (the gsettings key ``nmines`` is the number of mines: 150 on a
    16x16 board gave 150 mines on the lost screen).
    ``window_size`` is (width, height) of the window; cells scale with it. ``question_marks`` controls
    whether right-click cycles flag -> "?" -> covered. ``theme`` is the tile theme (gsettings ``theme``:
    a folder name under /usr/share/gnome-mines/themes, "bgcolors" by default, also "classic" and
    "default"); None keeps the client's default. ``unbeaten_best_times``: no win opens the best-times
    dialog (``gnome_mines_home``). ``gtk_theme``: the desktop's GTK theme the window is drawn in
    (``GTK_THEME``, e.g. "Adwaita:dark", which a dark desktop gives it); None keeps the environment's.
    ``desktop_scale``: the desktop's integer scale GTK draws at (``GDK_SCALE``: 2 is what a desktop at
    200% gives it; ``window_size`` is then in its unscaled pixels, the window on screen twice as large).
    """
    launch = launch_for("gnome-mines")
    ensure_debian_packages(launch.packages, why="the gnome-mines client")
    home, args = gnome_mines_home(level, window_size, custom, question_marks, theme, unbeaten_best_times)
    env = client_env(home, GSETTINGS_BACKEND="keyfile", **({"GTK_THEME": gtk_theme} if gtk_theme else {}),
                     **({"GDK_SCALE": str(int(desktop_scale))} if desktop_scale else {}))
    # A custom game is set up on the client's start page once its window is there.
    then = None if custom is None else functools.partial(_gnome_mines_play_custom, percent=_custom_percent_to_type(*custom))
    handle = launch_client("gnome-mines", [*launch.command, *args], env, home, timeout, launch.window_title, then)
    log.info("gnome-mines started: window 0x%x at %s", handle.window, handle.geometry())
    return handle


def gnome_mines_home(
    level: str = "small",
    window_size: tuple[int, int] = (600, 400),
    custom: tuple[int, int, int] | None = None,
    question_marks: bool = True,
    theme: str | None = None,
    unbeaten_best_times: bool = False,
) -> tuple[Path, list[str]]:
    """A new home folder holding gnome-mines' settings (``start_gnome_mines`` says which), and the
    command-line arguments that start its game. Run it with ``GSETTINGS_BACKEND=keyfile``.
    ``unbeaten_best_times``: the three levels' best times are ten of 0 s (its scores files, under the
    home's ``data``), which no game beats, so a win opens no best-times dialog over the board."""
    if custom is None and level not in GNOME_MINES_LEVELS:
        raise ClientStartError(f"unknown level {level!r}; use small, medium or big", client="gnome-mines")
    home = temp_home("gnome-mines")
    settings = home / "config" / "glib-2.0" / "settings"
    settings.mkdir(parents=True)
    lines = [
        "[org/gnome/Mines]",
        f"window-width={int(window_size[0])}",
        f"window-height={int(window_size[1])}",
        f"use-question-marks={'true' if question_marks else 'false'}",
        "use-animations=false",  # animations would show half-drawn cells to the recognizer
    ]
    if theme is not None:
        if not re.fullmatch(r"[A-Za-z0-9_-]+", theme):
            raise ClientStartError(f"theme {theme!r} is not a theme folder name", client="gnome-mines")
        lines.append(f"theme='{theme}'")  # a GVariant string in the keyfile
    if custom is not None:
        cols, rows, mines = custom
        lines += [f"xsize={int(cols)}", f"ysize={int(rows)}", f"nmines={int(mines)}", "mode=3"]
    # The keyfile backend reads settings from a file we write: no dconf service, nothing outside `home`.
    (settings / "keyfile").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if unbeaten_best_times:
        scores = home / "data" / "gnome-mines" / "scores"
        scores.mkdir(parents=True)
        for cols, rows, mines in GNOME_MINES_LEVELS.values():  # a file per level: "COLS-ROWS-MINES"
            (scores / f"{cols}-{rows}-{mines}").write_text("0 1700000000 screenbot\n" * 10, encoding="utf-8")
    return home, ([] if custom is not None else [f"--{level}"])


def _custom_percent_to_type(cols: int, rows: int, mines: int) -> int | None:
    """The "Percent mines" value to type on the custom page, or None when the page keeps ``nmines``.

    The page's spin button counts percent, from round(100 / cells) up. On a board under 67 cells
    that lower bound is 2, and raising the button's initial value to it rewrites ``nmines`` to 1%
    of the board: a custom 8x8 game then has one mine whatever was asked. Typing the percent back
    gives round(percent * cells / 100) mines, the count asked for whenever that rounding allows."""
    cells = cols * rows
    if round(100 / cells) < 2:
        return None
    percent = round(100 * mines / cells)
    if round(percent * cells / 100) != mines:
        log.warning("gnome-mines: %d mines on %dx%d is not a whole percent; the game gets %d",
                    mines, cols, rows, round(percent * cells / 100))
    return percent


def _gnome_mines_play_custom(handle: ClientWindow, percent: int | None = None) -> None:
    """From the start screen: key 4 opens the custom page, then click its blue "Play Game" button.
    With ``percent``, type it into the "Percent mines" field first (the white entry just above the
    button) and leave the field with Tab, which is when GTK takes the typed value."""
    import numpy as np

    from ..capture import MssScreen

    time.sleep(0.5)  # the window maps before GTK has drawn and focused its start page
    xtest_key("4")
    deadline = time.monotonic() + 10
    with MssScreen() as screen:
        while time.monotonic() < deadline:
            time.sleep(0.3)
            rect = handle.geometry()
            frame = screen.grab(rect.as_region()).astype(np.int16)
            # The suggested-action button is the only saturated blue area on the page.
            blue = (frame[:, :, 0] > 180) & (frame[:, :, 2] < 120) & (frame[:, :, 0] - frame[:, :, 2] > 100)
            ys, xs = np.nonzero(blue)
            if len(xs) > 200:
                if percent is not None:
                    _type_percent(frame, rect, xs, ys, percent)
                xtest_click(rect.left + int(xs.mean()), rect.top + int(ys.mean()))
                time.sleep(0.5)
                return
    raise ClientStartError("the custom game page did not show its Play Game button", client="gnome-mines")


def _type_percent(frame, rect: Rect, xs, ys, percent: int) -> None:
    """Click into the white entry just above the Play Game button (spans ``xs``, ``ys`` in the
    window's ``frame``), clear it and type ``percent``."""
    import numpy as np

    top, left, right = int(ys.min()), int(xs.min()), int(xs.max())
    band = frame[max(0, top - 60) : top, left : right + 1]
    white = (band > 250).all(axis=2)
    rows = np.flatnonzero(white.sum(axis=1) > 10)
    if len(rows) == 0:
        raise ClientStartError("no percent field above the Play Game button on the custom page", client="gnome-mines")
    # The lowest run of white rows is the percent field; its white columns are the entry's text area.
    first = len(rows) - 1
    while first > 0 and rows[first - 1] == rows[first] - 1:
        first -= 1
    field_rows = rows[first:]
    cols = np.flatnonzero(white[field_rows].any(axis=0))
    y = rect.top + max(0, top - 60) + int(field_rows.mean())
    x = rect.left + left + int(cols.min()) + 10
    xtest_click(x, y)
    time.sleep(0.2)
    for key in ["End"] + ["BackSpace"] * 4 + list(str(percent)) + ["Tab"]:
        xtest_key(key)
        time.sleep(0.05)
    time.sleep(0.3)


# --- xdemineur ---------------------------------------------------------------------------------------


def start_xdemineur(
    cols: int = 16, rows: int = 16, mines: int = 40, position: tuple[int, int] | None = None,
    timeout: float = 20.0,
) -> ClientWindow:
    """Start xdemineur with a ``cols`` x ``rows`` board (at least 12 columns) and ``mines`` mines.

    The game opens a random zero region by itself at launch. ``position`` places the window's top-left.
    """
    launch = launch_for("xdemineur")
    ensure_debian_packages(launch.packages, why="the xdemineur client")
    if cols < 12:
        raise ClientStartError(f"xdemineur needs at least 12 columns, got {cols}", client="xdemineur")
    home = temp_home("xdemineur")
    geometry = f"{cols}x{rows}" + (f"+{position[0]}+{position[1]}" if position else "")
    # The title is Latin-1 "xdémineur": the profile's title matches the ASCII tail only.
    handle = launch_client("xdemineur", [*launch.command, "-geometry", geometry, "-m", str(mines)], client_env(home), home,
                     timeout, launch.window_title)
    time.sleep(0.3)  # first expose: the board is drawn just after the window maps
    log.info("xdemineur started: window 0x%x at %s", handle.window, handle.geometry())
    return handle


# --- sgt-mines (Simon Tatham's Portable Puzzle Collection) ------------------------------------------


def sgt_mines_game_id(cols: int, rows: int, mines: Iterable[tuple[int, int]]) -> str:
    """The game id that makes sgt-mines deal exactly these mines, (row, col) each, with no square
    opened: "<cols>x<rows>n<count>:u<hex>", one bit per cell in row-major order, 4 cells per hex digit
    (the unmasked layout format its own game ids use)."""
    cells = sorted(set(mines))
    bits = [0] * (-(-(cols * rows) // 4) * 4)
    for r, c in cells:
        if not (0 <= r < rows and 0 <= c < cols):
            raise ClientStartError(f"mine ({r}, {c}) is off the {rows}x{cols} board", client="sgt-mines")
        bits[r * cols + c] = 1
    digits = "".join(f"{int(''.join(map(str, bits[i : i + 4])), 2):x}" for i in range(0, len(bits), 4))
    return f"{cols}x{rows}n{len(cells)}:u{digits}"


def start_sgt_mines(game_id: str, tile: int = 20, timeout: float = 20.0) -> ClientWindow:
    """Start the "mines" game of Simon Tatham's puzzles (Debian package sgt-puzzles) on ``game_id``
    (see ``sgt_mines_game_id``; e.g. "16x16n40" for a random game) with ``tile`` px cells.

    The cell size is the game's MINES_TILESIZE setting; the window is sized to fit the board."""
    launch = launch_for("sgt-mines")
    ensure_debian_packages(launch.packages, why="the sgt-mines client")
    if not re.fullmatch(r"[0-9a-zA-Z:#,.-]+", game_id):
        raise ClientStartError(f"game id {game_id!r} has unexpected characters", client="sgt-mines")
    home = temp_home("sgt-mines")
    env = client_env(home, MINES_TILESIZE=str(int(tile)), HOME=str(home))
    handle = launch_client("sgt-mines", [*launch.command, game_id], env, home, timeout, launch.window_title)
    time.sleep(0.5)  # the window maps before the puzzle is first drawn
    log.info("sgt-mines started: window 0x%x at %s", handle.window, handle.geometry())
    return handle




# --- minegauler (PyPI, Qt 6) --------------------------------------------------------------------------


def start_minegauler(
    level: str = "beginner", custom: tuple[int, int, int] | None = None, button_size: int = 16,
    style: str = "Standard", position: tuple[int, int] | None = None, state_file: str | None = None,
    timeout: float = 30.0, desktop_scale: float | None = None,
) -> ClientWindow:
    """Start minegauler (its own venv is made on first use: ``minegauler.ensure_minegauler_venv``).

    ``level`` is "beginner" (8x8/10), "intermediate" (16x16/40) or "expert" (30x16/99); ``custom=(cols,
    rows, mines)`` another board. ``button_size`` is the cell size in px (16-40, the client's own limits;
    16 is its default), ``style`` its skin ("Standard" is the classic Windows look, the one screenbot was
    taught). ``position`` moves the window's top-left there (it opens centred). ``state_file``: the
    client writes its own board and mines there every 20 ms (for tests and fixtures). ``desktop_scale``:
    the scale Qt draws at (``QT_SCALE_FACTOR``; a desktop at 125-200% gives Qt programs such a scale,
    fractional ones included), every button then ``button_size`` x the scale on the screen. At a scale
    minegauler may size its window a little short of its board and scroll the board (its state file
    says so: ``scrolled``)."""
    launch = launch_for("minegauler")
    python = ensure_minegauler_venv(launch.packages)
    if custom is None and level not in LEVELS:
        raise ClientStartError(f"unknown level {level!r}; use {', '.join(LEVELS)}", client="minegauler")
    if int(button_size) not in BUTTON_SIZES:
        raise ClientStartError(f"button size {button_size} is outside minegauler's 16-40 px", client="minegauler")
    cols, rows, mines = custom or LEVELS[level]
    home = temp_home("minegauler")
    state_file = state_file or str(home / "state.json")  # also says where the board is (below)
    options = {"home": str(home), "state_file": state_file,
               "settings": {"x_size": int(cols), "y_size": int(rows), "mines": int(mines),
                            "btn_size": int(button_size), "style": str(style)}}
    env = client_env(home, HOME=str(home), QT_QPA_PLATFORM="xcb",
                     **({"QT_SCALE_FACTOR": str(float(desktop_scale))} if desktop_scale else {}))
    # launch.command is ["python", "-c"]: the venv's Python runs LAUNCHER with the start's options.
    cmd = [str(python), *launch.command[1:], LAUNCHER, json.dumps(options)]
    handle = launch_client("minegauler", cmd, env, home, timeout, launch.window_title)
    if position is not None:
        _move_window(handle, position)
    time.sleep(0.3)  # the first paint follows the map
    try:
        handle.lattice = _minegauler_lattice(state_file, rows, cols, desktop_scale or 1.0)
    except BaseException:
        handle.close()
        raise
    log.info("minegauler started: window 0x%x at %s, board %s", handle.window, handle.geometry(), handle.lattice)
    return handle


def _minegauler_lattice(state_file: str, rows: int, cols: int, scale: float = 1.0, timeout: float = 10.0):
    """Where minegauler's cells are on the screen, as the client itself says in its state file (the
    locator does not find every board it draws: see docs/clients.md); ``scale``: Qt's, by which the
    client's own coordinates are multiplied on the screen."""
    from pathlib import Path

    from ..geometry import Lattice

    deadline = time.monotonic() + timeout
    while True:
        try:
            state = json.loads(Path(state_file).read_text(encoding="utf-8"))
            (x, y), pitch = state["origin"], float(state["pitch"])
            return Lattice("minegauler", (float(x) * scale, float(y) * scale), (pitch * scale, pitch * scale), rows, cols,
                           scale=scale)
        except (OSError, ValueError, KeyError):
            if time.monotonic() > deadline:
                raise ClientStartError("it wrote no state file saying where its board is", client="minegauler") from None
            time.sleep(0.05)


def _move_window(handle: ClientWindow, position: tuple[int, int]) -> None:
    import subprocess

    subprocess.run(["xdotool", "windowmove", str(handle.window), str(int(position[0])), str(int(position[1]))],
                   check=False, capture_output=True)
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:  # the window manager moves the frame asynchronously
        rect = handle.geometry()
        if abs(rect.left - position[0]) < 40 and abs(rect.top - position[1]) < 60:
            return
        time.sleep(0.05)


# --- xbomb (Athena widgets) ----------------------------------------------------------------------------



def start_xbomb(level: int = 1, position: tuple[int, int] | None = None, timeout: float = 20.0) -> ClientWindow:
    """Start xbomb's square grid at ``level`` 1 (8x8/10), 2 (16x16/40) or 3 (30x16/99).

    The cell size is the grid widget's size divided by the cells: 50 px at level 1, 25 px at 2, 20 px at
    3 when started at that level (switching levels inside the client gives other sizes)."""
    launch = launch_for("xbomb")
    ensure_debian_packages(launch.packages, why="the xbomb client")
    if int(level) not in XBOMB_LEVELS:
        raise ClientStartError(f"unknown level {level!r}; use 1, 2 or 3", client="xbomb")
    home = temp_home("xbomb")
    # xbomb writes its high scores under /var/games (Debian) and its settings nowhere.
    handle = launch_client("xbomb", [*launch.command, "-square", f"-{int(level)}"], client_env(home, HOME=str(home)),
                           home, timeout, launch.window_title)
    if position is not None:
        _move_window(handle, position)
    time.sleep(0.3)  # the first expose draws the grid just after the window maps
    cols, rows, _ = XBOMB_LEVELS[int(level)]
    try:
        handle.lattice = xbomb_lattice(handle.geometry(), rows, cols)
    except BaseException:
        handle.close()
        raise
    log.info("xbomb started: window 0x%x at %s, board %s", handle.window, handle.geometry(), handle.lattice)
    return handle
