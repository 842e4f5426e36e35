"""Real screenshots drawn at random, each with its true board, to judge the board reader on cases
nobody tuned for.

    python3 -m tests.random_cases --out DIR [--n N] [--seed S] [--client gnome-mines|react]
                                  [--tile-theme classic|default] [--desktop-scale 2]

Every case is drawn from ``random.Random(seed)`` (without ``--seed`` a fresh seed is drawn from the
system and printed): the client, its window size or device scale, how far the game is played, the
flags, where the pointer rests, and for gnome-mines the desktop's theme (a third of its windows are
drawn as under a dark GTK theme, which colours the window round the cells, one in six under GTK's
HighContrast or HighContrastInverse) and the game's own tile theme (a quarter in its "classic" or
"default" theme instead of "bgcolors", its default: these draw their opened cells, numbers and icons
otherwise, and after a loss dim every covered tile and give the opened cells another grey, which the
truth takes into account), and a sixth of the small and
medium boards as on a desktop at 200% (GTK's ``GDK_SCALE=2``: gaps, tiles and glyphs twice as large,
the window, in the client's own pixels, fitting the screen twice over). The clients place their
mines themselves, so a replay with the same seed makes the same kinds of cases on other mine
layouts. Each case is written as

- ``DIR/<name>.png``: the whole 1280x1024 Xvfb screen (mss, BGR, written with OpenCV);
- ``DIR/<name>.txt``: the true board in the board text format (``mines: N`` first), only when the
  board must be read;
- ``DIR/<name>.json``: what was drawn and what is true: client, level, window, pointer, the true
  lattice (origin, pitch and, for gnome-mines, each column's and row's first pixel), the seed, and
  ``expect``: ``"read"`` (exit 0 with exactly the board of the .txt, or a refusal) or ``"refuse"``
  (the board is not wholly on the screen: any exit 0 is wrong).

Truth never comes from the recognizer (``screenbot.vision`` locates nothing here):

- gnome-mines: the lattice is measured on the fresh all-covered board from the window's own pixels
  (``lab.shots.sessions.gnome_mines_lattice``). Every game that is not fresh is played on to a
  loss, where gnome-mines shows every mine; the numbers are computed from the mines
  (``lab.shots.labels.label_final``), and an earlier board is labelled from the lost one (an
  opened cell must be the same picture as at the end: ``label_earlier``). A cell is covered when it
  is the same picture as that very cell on the fresh board; the one cell lit under the pointer is
  labelled from the shot taken just before the pointer moved onto it (everything else must be
  unchanged). The lost board must show exactly the level's mine count (mines, the exploded one and
  the right flags).
- react-minesweeper: the page's own React state through the DevTools protocol, read just before and
  just after the screenshot (a page that changed in between is refused).

A game that does not pass these checks, or is won by a random click, is thrown away and drawn again.
Needs Xvfb, openbox and the client (gnome-mines; chromium and npm for the browser client): see
README "Quick start". The display is a new Xvfb on a free display number.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from solver.board import NUMBERS, Board, format_board, neighbours, parse_board
from solver.errors import BoardFormatError

log = logging.getLogger("random_cases")

SCREEN = (1280, 1024)
CLIENTS = ("gnome-mines", "react")
# rows, cols, mines of the three levels (gnome-mines' own flags: --small, --medium, --big).
GM_LEVELS = {"small": (8, 8, 10), "medium": (16, 16, 40), "big": (16, 30, 99)}
GM_TRUTH = ("rules: the game played on to a loss, every mine on screen, numbers computed from the mines; "
            "covered = the same picture as on the fresh board (or, after a loss in the classic and default tile "
            "themes, one flat colour)")
RM_TRUTH = "page state: React state read through DevTools just before and just after the screenshot"
ATTEMPTS = 4  # draws of one case before giving up (a won game, a failed truth check)


class DiscardCase(Exception):
    """This draw cannot become a case with a trustworthy truth (e.g. won by a random click): draw again.
    ``frames`` (name -> frame) are kept for a look with ``--discarded DIR``."""

    def __init__(self, message: str, frames: dict[str, np.ndarray] | None = None) -> None:
        super().__init__(message)
        self.frames = frames or {}


@dataclass
class Case:
    """One screenshot and its truth. ``board`` is None when the reader must refuse the picture."""

    frame: np.ndarray
    board: Board | None
    meta: dict = field(default_factory=dict)

    def write(self, folder: Path, name: str) -> Path:
        import cv2

        folder.mkdir(parents=True, exist_ok=True)
        png = folder / f"{name}.png"
        cv2.imwrite(str(png), self.frame)
        if self.board is not None:
            (folder / f"{name}.txt").write_text(format_board(self.board), encoding="utf-8")
        (folder / f"{name}.json").write_text(json.dumps(self.meta, indent=1) + "\n", encoding="utf-8")
        return png


def missing_tools(client: str) -> list[str]:
    """Programs a client's cases need that are not installed (empty when all are there)."""
    needed = ["Xvfb", "openbox"]
    if client == "gnome-mines":
        needed += ["gnome-mines", "dbus-run-session"]
    else:
        needed += ["npm"] if not _react_dist_cached() else []
        needed.append("chromium")
    games = os.pathsep.join([os.environ.get("PATH", ""), "/usr/games"])  # Debian's games are off root's PATH
    return [tool for tool in needed if not shutil.which(tool, path=games)]


def _react_dist_cached() -> bool:
    from screenbot.desktop.client_venv import cache_folder

    return any(cache_folder("").glob("react-minesweeper-*/package/demo/dist/index.html"))


# --- small helpers on live frames ------------------------------------------------------------------


def _stable_grab(screen, region=None, timeout: float = 3.0) -> np.ndarray:
    """A full-screen frame whose ``region`` (left, top, width, height; the whole screen when None)
    looks the same in two grabs 60 ms apart: no half-drawn board. (gnome-mines' clock ticks outside
    the board, so the board alone is compared once it is known.)"""
    from lab.shots.sessions import settled_grab

    frame, settled = settled_grab(screen, region=region, pause=0.06, timeout=timeout)
    if not settled:
        raise DiscardCase("the screen did not settle")
    return frame


def same_picture(a: np.ndarray, b: np.ndarray) -> bool:
    """The capture sessions' strict "same picture" (for two pictures of one cell)."""
    from lab.shots.labels import same

    return same(a, b)


def _integer_pitch(pitch) -> bool:
    return all(abs(p - round(p)) < 0.02 for p in pitch)


def _runs(profile: np.ndarray) -> list[tuple[int, int]]:
    """(start, length) of the runs where ``profile`` is above half its maximum."""
    on = profile > 0.5 * profile.max() if profile.max() > 0 else np.zeros(len(profile), bool)
    edges = np.flatnonzero(np.diff(np.concatenate([[0], on.astype(np.int8), [0]])))
    return [(int(a), int(b - a)) for a, b in zip(edges[::2], edges[1::2])]


def _configure(window: int, **values: int) -> None:
    """Move or resize an X window (x, y, width, height), as a user dragging it would."""
    from Xlib import display as xdisplay

    conn = xdisplay.Display()
    try:
        conn.create_resource_object("window", window).configure(**values)
        conn.sync()
    finally:
        conn.close()


def _wait_geometry(client, want, timeout: float = 3.0):
    """Wait until the client's window geometry satisfies ``want(rect)``, or has changed and then
    stayed the same for half a second (GTK keeps a window from sizes under its minimum); return it."""
    start = last = client.geometry()
    deadline = time.monotonic() + timeout
    steady_since = time.monotonic()
    while time.monotonic() < deadline:
        rect = client.geometry()
        if want(rect):
            break
        if rect != last:
            last, steady_since = rect, time.monotonic()
        elif rect != start and time.monotonic() - steady_since > 0.5:
            break
        time.sleep(0.05)
    time.sleep(0.4)  # GTK lays the board out again after a change of size
    return client.geometry()


def _check_openings(board: Board) -> None:
    """gnome-mines opens every neighbour of a 0 (flood fill): a 0 next to a covered cell means the
    covered/opened pictures were told apart wrongly."""
    from solver.board import neighbours

    for r, c, ch in board.cells():
        if ch == "0" and any(board[n] in "#?" for n in neighbours(board.rows, board.cols, r, c)):
            raise DiscardCase(f"the truth has a 0 at ({r}, {c}) next to a covered cell")


# --- gnome-mines -------------------------------------------------------------------------------------


def draw_gnome_mines(rng: random.Random) -> dict:
    """What one gnome-mines case will be: every choice is made here, from ``rng``."""
    level = rng.choice(list(GM_LEVELS))
    state = rng.choices(["fresh", "mid", "lost"], weights=[3, 4, 3])[0]
    plan = {
        "level": level,
        "window": [rng.randint(500, SCREEN[0]), rng.randint(400, SCREEN[1])],
        # A quarter of the windows start at another size and are then resized (through X, as a user's
        # drag would), which makes GTK lay the board out again.
        "resized_from": [rng.randint(500, SCREEN[0]), rng.randint(400, SCREEN[1])] if rng.random() < 0.25 else None,
        "state": state,
        # Opened cells after the first click (before the shot of a "mid" game).
        "moves": rng.randint(0, 6) if state != "fresh" else 0,
        # Flags on random covered cells: after a loss the right ones show as flags, the others as
        # wrong flags; a dozen now and then (a won game shows every mine flagged, and a flag drawn
        # at a size no capture has must not stop it). "?" marks only on mid-game shots (they are
        # taken off before the game goes on).
        "flags": (rng.choice([0, 0, 1, 2, 3, 5, 12]) if state != "fresh" else 0),
        "question": rng.randint(1, 3) if state == "mid" and rng.random() < 0.6 else 0,
        "pointer": rng.choices(["cell", "corner", "off-board"], weights=[2, 1, 1])[0],
        # A few boards are pushed partly off the screen by moving the window: the reader must refuse them.
        "offscreen": rng.random() < 0.08,
        "offscreen_side": rng.choice(["left", "right", "top", "bottom"]),
        "offscreen_cells": round(rng.uniform(0.3, 4.0), 2),
        # The desktop's theme colours the window round the cells: a third are drawn as under a dark one,
        # and one in twelve under each of GTK's high-contrast themes (white, or black, round the cells).
        "gtk_theme": rng.choices([None, "Adwaita:dark", "HighContrast", "HighContrastInverse"], weights=[6, 4, 1, 1])[0],
        # The game's own tile theme (its Appearance dialog): three in four keep its default, bgcolors; the
        # others are refused (no skin has their pictures), never misread.
        "tile_theme": rng.choice([None] * 6 + ["classic", "default"]),
        # Set for a sixth of the small and medium boards (below): drawn as on a desktop at 200%.
        "desktop_scale": None,
    }
    return at_desktop_scale(plan, rng) if level != "big" and rng.random() < 1 / 6 else plan


def at_desktop_scale(plan: dict, rng: random.Random, scale: int = 2) -> dict:
    """``plan`` drawn as on a desktop at ``scale`` (x100%): a small or medium board (the expert one does
    not fit the screen twice over) in a window of its own pixels that does, neither resized nor moved."""
    part = (SCREEN[0] // scale, SCREEN[1] // scale)
    level = plan["level"] if plan["level"] != "big" else "medium"
    window = [rng.randint(min(500, part[0]), part[0]), rng.randint(min(400, part[1]), part[1])]
    return {**plan, "level": level, "window": window, "resized_from": None, "offscreen": False, "desktop_scale": scale}


class _GnomeMinesGame:
    """One gnome-mines client with the session machinery of ``lab.shots`` around it."""

    def __init__(self, client, screen, rows: int, cols: int, mines: int, tile_theme: str | None = None) -> None:
        from lab.shots.sessions import Session, gnome_mines_exploded

        self.client, self.screen = client, screen
        self.rows, self.cols, self.mines = rows, cols, mines
        # ``settle`` after each pointer move or click is short because every frame used is taken by
        # _stable_grab, and every click is checked to have changed its cell.
        self.session = Session(client, None, screen, settle=0.12,  # type: ignore[arg-type]
                               **gnome_mines_exploded(tile_theme))
        self.look = None
        self.flagged: set[tuple[int, int]] = set()
        self.questioned: set[tuple[int, int]] = set()

    # The board's own region (plus a pitch around it) is what must settle between two grabs.
    def frame(self) -> np.ndarray:
        lattice = self.session.lattice
        region = lattice.board_rect().expanded(int(max(lattice.pitch))).as_region() if lattice else \
            self.client.geometry().as_region()
        return _stable_grab(self.screen, region)

    def cells(self, frame):
        return self.session.cells(frame)

    def covered(self, frame, exclude=()) -> list[tuple[int, int]]:
        cells = self.cells(frame)
        return [(r, c) for r in range(self.rows) for c in range(self.cols)
                if (r, c) not in exclude and self.look.is_covered(cells[r, c], r, c)]

    def exploded(self, frame, r: int, c: int) -> bool:
        return self.session.exploded(frame, r, c)

    def click(self, r: int, c: int, button: int = 1) -> np.ndarray:
        """Click the cell and return the frame once the client has redrawn it. A stable picture alone
        is not proof (a busy client may not have drawn anything yet), so wait for the cell to change,
        for up to a second and a half. gnome-mines now and then ignores a left click altogether (under Xvfb,
        mostly the one right after a game's first click; one in six of those, cause not found): then
        click once more, a left click only: a right click taken late and sent again turns a flag into
        a "?" (seen on a loaded machine at 200%, the truth then wrong). The callers check what the
        click did."""
        old = self.cells(self.frame())[r, c]
        for attempt in range(2 if button == 1 else 1):
            self.session.click(r, c, button=button)
            deadline = time.monotonic() + 1.5
            while time.monotonic() < deadline:
                frame = self.frame()
                if not same_picture(self.cells(frame)[r, c], old):
                    if attempt:
                        log.info("the click on (%d, %d) was taken the second time", r, c)
                    return frame
                time.sleep(0.05)
        return frame

    def right_click(self, r: int, c: int) -> np.ndarray:
        return self.cells(self.click(r, c, button=3))[r, c]

    def flag(self, rng) -> None:
        options = self.covered(self.frame(), self.flagged | self.questioned)
        if not options:
            return
        r, c = rng.choice(options)
        picture = self.right_click(r, c)
        if self.look.is_covered(picture, r, c):
            raise DiscardCase(f"the right-click on ({r}, {c}) placed no flag")
        self.flagged.add((r, c))
        self.look.flag[(r, c)] = picture

    def question(self, rng) -> None:
        options = self.covered(self.frame(), self.flagged | self.questioned)
        if not options:
            return
        r, c = rng.choice(options)
        self.look.flag[(r, c)] = self.right_click(r, c)  # flag, then "?" (gnome-mines' cycle)
        picture = self.right_click(r, c)
        if self.look.is_covered(picture, r, c) or same_picture(picture, self.look.flag[(r, c)]):
            raise DiscardCase(f"the second right-click on ({r}, {c}) did not show a '?'")
        self.questioned.add((r, c))
        self.look.question[(r, c)] = picture

    def unquestion(self) -> None:
        """Take every "?" off again (one more right-click): how a "?" over a mine is drawn after a loss
        is not what the rules check should depend on."""
        for r, c in sorted(self.questioned):
            if not self.look.is_covered(self.right_click(r, c), r, c):
                raise DiscardCase(f"the '?' at ({r}, {c}) did not go back to covered")
        self.questioned.clear()

    def open(self, rng, before: np.ndarray) -> tuple[str, np.ndarray, tuple[int, int]]:
        """Open a random covered cell; ("lost"|"open", frame after, cell)."""
        options = self.covered(before, self.flagged | self.questioned)
        if not options:
            raise DiscardCase("no covered cell left to open")
        r, c = rng.choice(options)
        after = self.click(r, c)
        if self.exploded(after, r, c):
            return "lost", after, (r, c)
        now = self.cells(after)
        if self.look.is_covered(now[r, c], r, c):
            raise DiscardCase(f"the click on ({r}, {c}) opened nothing", {"before": before, "after": after})
        # An opening may uncover a flagged cell (gnome-mines does): it is no longer flagged.
        self.flagged = {(fr, fc) for fr, fc in self.flagged if self.look.is_flag(now[fr, fc], fr, fc)}
        self.questioned = {(qr, qc) for qr, qc in self.questioned if self.look.is_question(now[qr, qc], qr, qc)}
        if len(self.covered(after)) + len(self.flagged) + len(self.questioned) <= self.mines:
            # Won by a random click (gnome-mines then opens a dialog over the board): not a case.
            raise DiscardCase("the game was won")
        return "open", after, (r, c)


def _board_extent(frame: np.ndarray, window, rows: int, cols: int) -> tuple[bool, list, list]:
    """Is the whole fresh board on the screen? Judged from the covered squares' runs inside the
    window's visible part (not from the recognizer): a window smaller than the board's minimum size
    clips the board (fewer runs than cells, or a cut last square). Returns (whole, runs across, runs
    down) in screen pixels."""
    visible = window.clipped(_screen_rect())
    part = frame[visible.top : visible.bottom, visible.left : visible.right].astype(np.int16)
    covered = np.abs(part - np.array([182, 189, 186])).sum(axis=2) < 12  # BGR of (186, 189, 182)
    across = [(visible.left + s, n) for s, n in _runs(covered.sum(axis=0))]
    down = [(visible.top + s, n) for s, n in _runs(covered.sum(axis=1))]
    if len(across) > cols or len(down) > rows:
        raise DiscardCase(f"{len(down)}x{len(across)} runs of covered squares on a {rows}x{cols} board")

    def whole(runs, count, low, high):
        lengths = [n for _, n in runs]
        return (len(runs) == count and max(lengths) - min(lengths) <= 2
                and runs[0][0] > low and runs[-1][0] + runs[-1][1] < high)

    ok = whole(across, cols, visible.left, visible.right) and whole(down, rows, visible.top, visible.bottom)
    return ok, across, down


def _screen_rect():
    from screenbot.geometry import Rect

    return Rect(0, 0, *SCREEN)


def _pointer_spot(rng: random.Random, where: str, lattice, cells: list[tuple[int, int]], board_rect):
    """Where the pointer rests for the shot: ("cell", (r, c), (x, y)) on a random cell from ``cells``
    (somewhere in its middle, where gnome-mines lights it), a screen corner, or a random point of
    the screen at least a cell away from the board (it may rest on a button, which lights up)."""
    width, height = SCREEN
    if where == "cell" and cells:
        r, c = rng.choice(cells)
        rect = lattice.cell_rect(r, c)
        x = rect.left + rect.width * rng.uniform(0.3, 0.7)
        y = rect.top + rect.height * rng.uniform(0.3, 0.7)
        return "cell", (r, c), (int(x), int(y))
    if where == "off-board":
        margin = int(max(lattice.pitch)) if lattice else 30
        keep_off = board_rect.expanded(margin)
        for _ in range(200):
            x, y = rng.randrange(width), rng.randrange(height)
            if not keep_off.contains(x, y):
                return "off-board", None, (x, y)
    return "corner", None, rng.choice(_corners())


def make_gnome_mines_case(plan: dict, rng: random.Random, screen) -> Case:
    """Start gnome-mines as ``plan`` says, bring the game to the planned state and take the shot."""
    from screenbot.desktop import start_gnome_mines
    from lab.shots.labels import Looks, TruthCheckError, label_earlier, label_final
    from lab.shots.sessions import gnome_mines_lattice

    rows, cols, mines = GM_LEVELS[plan["level"]]
    want = tuple(plan["window"])
    meta = {"client": "gnome-mines", "level": plan["level"], "rows": rows, "cols": cols, "mines": mines,
            "window_requested": list(want), "resized_from": plan["resized_from"],
            "gtk_theme": plan["gtk_theme"] or os.environ.get("GTK_THEME"), "tile_theme": plan["tile_theme"],
            "desktop_scale": plan["desktop_scale"]}
    with start_gnome_mines(level=plan["level"], window_size=tuple(plan["resized_from"] or want),
                           gtk_theme=plan["gtk_theme"], theme=plan["tile_theme"],
                           desktop_scale=plan["desktop_scale"]) as client:
        if plan["resized_from"]:
            _configure(client.window, width=want[0], height=want[1])
            _wait_geometry(client, lambda rect: (rect.width, rect.height) == want)
        game = _GnomeMinesGame(client, screen, rows, cols, mines, plan["tile_theme"])
        session = game.session
        session.away()
        fresh = game.frame()
        whole, across, down = _board_extent(fresh, client.geometry(), rows, cols)
        if not whole:
            return _clipped_case(game, rng, plan, meta, across, down)

        session.lattice, session.starts = gnome_mines_lattice(fresh, client, rows, cols)
        lattice = session.lattice
        # At a desktop's scale a cell is drawn as at the pitch divided by it, then enlarged.
        session.inset = _inset([p / (plan["desktop_scale"] or 1) for p in lattice.pitch])
        look = game.look = Looks(session.cells(fresh), strict=_integer_pitch(lattice.pitch))
        state = plan["state"]
        if state == "fresh":
            (shot, pointer), board = _pointer_shot(game, rng, plan["pointer"], fresh), Board.covered(rows, cols, mines)
            meta.update(flags=0, questions=0)
        else:
            first = (rng.randrange(rows), rng.randrange(cols))
            before = game.click(*first)  # gnome-mines' first click always opens an area
            if game.exploded(before, *first) or look.is_covered(game.cells(before)[first], *first):
                raise DiscardCase("the first click lost or opened nothing", {"after": before})
            # ``moves`` more random cells are opened, with the flags placed at random moments in
            # between, and the "?" last. The mid-game shot is of the board reached, or, when one of
            # these clicks loses, of the board just before it: so a pointer shot is taken before
            # each click.
            steps = ["open"] * plan["moves"] + ["flag"] * plan["flags"]
            rng.shuffle(steps)
            steps += ["question"] * plan["question"]
            final = mid = None
            for step in steps:
                if step == "open":
                    if state == "mid":
                        mid = (_pointer_shot(game, rng, plan["pointer"], before), before,
                               frozenset(game.flagged), frozenset(game.questioned))
                    outcome, after, clicked = game.open(rng, before)
                    if outcome == "lost":
                        final, last_click = after, clicked
                        break
                    before = after
                else:
                    (game.flag if step == "flag" else game.question)(rng)
                    before = game.frame()
            if final is None:
                if state == "mid":
                    mid = (_pointer_shot(game, rng, plan["pointer"], before), before,
                           frozenset(game.flagged), frozenset(game.questioned))
                # On to a loss, which shows every mine: the truth of every earlier board comes from it.
                game.unquestion()
                before = game.frame()
                for _ in range(rows * cols):
                    outcome, after, clicked = game.open(rng, before)
                    if outcome == "lost":
                        final, last_click = after, clicked
                        break
                    before = after
            # No "?" is on the lost board: its pictures must not be matched there.
            questions, look.question = look.question, {}
            try:
                lost = label_final(final, before, lattice, look, outcome="lost", flagged=frozenset(game.flagged),
                                   last_click=last_click, starts=session.starts, inset=session.inset, mine_total=mines)
            except TruthCheckError as exc:
                raise DiscardCase(f"the lost board failed the rules check: {exc}",
                                  {"final": final, "before": before, "fresh": fresh}) from None
            look.question = questions
            lost = lost.with_mines(mines)
            shown = lost.count("*XF")
            if shown != mines or lost.count("X") != 1:
                raise DiscardCase(f"the lost board shows {shown} mines (the level has {mines}) and "
                                  f"{lost.count('X')} exploded ones", {"final": final, "before": before})
            if state == "lost":
                # gnome-mines draws a wrong flag under the pointer as a lit plain flag (its cross
                # gone): no picture tells it from a flag on a mine. Beside a number, which its
                # mines already fill, it is refused (vision.plausible); elsewhere nothing tells
                # (docs/reading.md, known limits), so the pointer never rests there.
                wrong = frozenset((r, c) for r, c, ch in lost.cells() if ch == "W" and not any(
                    lost[n] in NUMBERS for n in neighbours(lost.rows, lost.cols, r, c)))
                (shot, pointer), board = _pointer_shot(game, rng, plan["pointer"], final, wrong), lost
                meta.update(flags=len(game.flagged), questions=0)
            else:
                (shot, pointer), away, flagged, questioned = mid
                try:
                    board = label_earlier(away, final, lost, lattice, look, flagged=flagged, questioned=questioned,
                                          starts=session.starts, inset=session.inset).with_mines(mines)
                except TruthCheckError as exc:
                    raise DiscardCase(f"the mid-game board failed the rules check: {exc}",
                                      {"mid": away, "final": final, "fresh": fresh}) from None
                meta.update(flags=len(flagged), questions=len(questioned))
        try:
            parse_board(format_board(board))  # the truth must be a well-formed board (every number fits)
        except BoardFormatError as exc:
            # e.g. more flags placed than the level has mines: the game draws them, a board text with
            # the mine count cannot hold them.
            raise DiscardCase(f"the truth is no well-formed board: {exc}", {"shot": shot}) from None
        try:
            _check_openings(board)
        except DiscardCase as exc:
            raise DiscardCase(str(exc), {"shot": shot}) from None
        meta.update(window=list(client.geometry().as_region()), board_visible=True, expect="read", state=state,
                    pointer=pointer, lattice=_lattice_json(lattice, session.starts))
        if plan["offscreen"]:
            # What is on the screen now is the game's last board: the fresh one or the lost one.
            meta["state"] = "fresh" if state == "fresh" else "lost"
            shot, meta = _push_off_screen(game, rng, meta, plan["offscreen_side"], plan["offscreen_cells"])
            return Case(shot, None, meta)
        return Case(shot, board, meta)


def _inset(pitch) -> float:
    """The share of the pitch left out on each side when cells are compared (``Session.inset``).

    The rules check of ``label_final`` wants cells of one label to look alike. With 0.2 (the capture
    sessions' value) it refused right boards at large cells (the icon is 2/3 of the cell, so the crop
    cuts into a digit, and a one-pixel shift between 72 and 71 px wide cells halved a "1"'s ink),
    with 0.1 at small cells (the crop takes in the rounded corners). Measured on 32 lost boards of
    23 to 99 px: 0.2 under 30 px and 0.14 above refused none."""
    return 0.2 if min(pitch) < 30 else 0.14


def _clipped_case(game: _GnomeMinesGame, rng, plan, meta, across, down) -> Case:
    """The window is too small for the board and GTK clips it: the reader must refuse the picture.
    Unless the plan is a fresh board, one visible square is clicked first (an opening to look at)."""
    from lab.shots.sessions import click_at, move_pointer

    centres = [(x + n // 2, y + m // 2) for x, n in across for y, m in down]
    window = game.client.geometry()
    state = "fresh"
    if plan["state"] != "fresh" and centres:
        click_at(*rng.choice(centres))
        state = "opened"
    if plan["pointer"] == "cell" and centres:
        x, y = rng.choice(centres)
        pointer = {"where": "cell", "on_board": True, "cell": None, "xy": [x, y]}
    else:
        x, y = rng.choice(_corners())
        pointer = {"where": "corner", "on_board": False, "cell": None, "xy": [x, y]}
    move_pointer(x, y)
    time.sleep(0.3)
    frame = _stable_grab(game.screen, window.clipped(_screen_rect()).as_region())
    meta.update(window=list(window.as_region()), board_visible=False, expect="refuse",
                why="the window is smaller than the board's minimum size: GTK clips the board",
                state=state, pointer=pointer, lattice=None)
    return Case(frame, None, meta)


def _lattice_json(lattice, starts=None) -> dict:
    out = {"origin": [round(lattice.origin[0], 2), round(lattice.origin[1], 2)],
           "pitch": [round(lattice.pitch[0], 3), round(lattice.pitch[1], 3)],
           "rows": lattice.rows, "cols": lattice.cols}
    if starts is not None:
        # GTK hands out whole pixels unevenly: each column's left and each row's top pixel.
        out["col_starts"], out["row_starts"] = list(starts[0]), list(starts[1])
    return out


def _pointer_shot(game: _GnomeMinesGame, rng, where: str, away: np.ndarray, avoid=frozenset()):
    """The shot with the pointer ``where`` the plan says ("cell", "corner", "off-board"), and what
    the JSON says of it. ``away`` shows the same board with the pointer off it (the one labelled):
    every cell but the one under the pointer (gnome-mines lights it) must look exactly as there.
    The pointer never rests on the cells ``avoid``."""
    from lab.shots.sessions import move_pointer

    lattice = game.session.lattice
    cells = [(r, c) for r in range(game.rows) for c in range(game.cols) if (r, c) not in avoid]
    marked = sorted((game.flagged | game.questioned) - set(avoid))
    # Half the pointers on a board with flags or "?" marks rest on one of them: the client lights
    # their tile too, which few of the other cells would show.
    spots = marked if marked and rng.random() < 0.5 else cells
    kind, cell, (x, y) = _pointer_spot(rng, where, lattice, spots, lattice.board_rect())
    before = game.cells(away)
    move_pointer(x, y)
    time.sleep(0.15)
    frame = game.frame()
    if cell is not None and game.look.is_covered(before[cell], *cell):
        # A covered cell lights up under the pointer: give a busy client a moment to draw it.
        deadline = time.monotonic() + 1.0
        while same_picture(game.cells(frame)[cell], before[cell]) and time.monotonic() < deadline:
            time.sleep(0.05)
            frame = game.frame()
    now = game.cells(frame)
    changed = [rc for rc in cells if rc != cell and not same_picture(now[rc], before[rc])]
    game.session.away()
    if changed:
        raise DiscardCase(f"with the pointer at {(x, y)} other cells changed too: {changed[:4]}")
    return frame, {"where": kind, "on_board": cell is not None, "cell": list(cell) if cell else None, "xy": [x, y]}


def _push_off_screen(game: _GnomeMinesGame, rng, meta: dict, side: str, cells: float):
    """Move the window so that ``cells`` pitches of the board are off the screen's ``side`` edge; the
    truth becomes "refuse". The lattice moves with the window."""
    from lab.shots.sessions import move_pointer

    client, lattice = game.client, game.session.lattice
    window, board = client.geometry(), lattice.board_rect()
    px, py = lattice.pitch
    dx = {"left": -(board.left + cells * px), "right": SCREEN[0] - board.right + cells * px}.get(side, 0)
    dy = {"top": -(board.top + cells * py), "bottom": SCREEN[1] - board.bottom + cells * py}.get(side, 0)
    target = (window.left + int(dx), window.top + int(dy))
    _configure(client.window, x=target[0], y=target[1])
    moved = _wait_geometry(client, lambda rect: (rect.left, rect.top) == target)
    shifted = lattice.translated(moved.left - window.left, moved.top - window.top)
    if _screen_rect().contains_rect(shifted.board_rect()):
        raise DiscardCase(f"the window manager kept the board on the screen (window at {moved})")
    on_screen = [(r, c) for r in range(lattice.rows) for c in range(lattice.cols)
                 if _screen_rect().contains_rect(shifted.cell_rect(r, c))]
    if meta["pointer"]["on_board"] and on_screen:
        r, c = rng.choice(on_screen)
        x, y = map(int, shifted.cell_center(r, c))
        pointer = {"where": "cell", "on_board": True, "cell": [r, c], "xy": [x, y]}
    else:
        x, y = rng.choice(_corners())
        pointer = {"where": "corner", "on_board": False, "cell": None, "xy": [x, y]}
    move_pointer(x, y)
    time.sleep(0.3)
    frame = _stable_grab(game.screen, shifted.board_rect().clipped(_screen_rect()).as_region())
    meta = dict(meta, window=list(moved.as_region()), board_visible=False, expect="refuse",
                why=f"the window was moved: the board runs off the {side} edge of the screen",
                pointer=pointer, lattice=_lattice_json(shifted))
    return frame, meta


def _corners() -> list[tuple[int, int]]:
    width, height = SCREEN
    return [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)]


# --- react-minesweeper in Chromium -----------------------------------------------------------------


def draw_react(rng: random.Random) -> dict:
    """What one react-minesweeper case will be. The board's size is drawn as a share of what fits
    in the browser's viewport at that scale (known once the browser runs); one board in ten is made
    a few cells too tall or too wide for it, and must be refused."""
    return {
        "scale": round(rng.uniform(0.8, 2.5), 2),
        "fill": [round(rng.uniform(0.15, 1.0), 2), round(rng.uniform(0.1, 1.0), 2)],  # rows, cols
        "too_big": rng.choice(["rows", "cols"]) if rng.random() < 0.1 else None,
        "too_big_by": rng.randint(1, 5),
        "chance": rng.randint(8, 25),
        "state": rng.choices(["fresh", "mid", "lost", "won"], weights=[2, 4, 3, 1])[0],
        "opens": rng.randint(1, 6), "flags": rng.choice([0, 1, 2, 3]), "wrong_flags": rng.choice([0, 0, 1]),
        "pointer": rng.choices(["cell", "corner", "off-board"], weights=[2, 1, 1])[0],
    }


def _react_size(plan: dict, page) -> tuple[int, int]:
    """Rows and columns for ``plan`` in this browser: 30 CSS px a cell, a margin for the table's
    border and the page's padding."""
    width, height = page.evaluate("[document.documentElement.clientWidth, document.documentElement.clientHeight]")
    fit = [max(4, int((height - 40) / 30)), max(4, int((width - 40) / 30))]
    size = [max(4, min(limit, round(share * limit))) for share, limit in zip(plan["fill"], [min(fit[0], 24),
                                                                                              min(fit[1], 40)])]
    if plan["too_big"]:
        axis = 0 if plan["too_big"] == "rows" else 1
        size[axis] = fit[axis] + plan["too_big_by"]
    return size[0], size[1]


def make_react_case(plan: dict, rng: random.Random, screen) -> Case:
    from screenbot.desktop import start_react_minesweeper
    from lab.shots.devtools import (
        REACT_MINESWEEPER_STATE_JS,
        DevToolsPage,
        page_websocket_url,
        react_minesweeper_board_text,
    )
    from lab.shots.recipes import _click_until, _react_setup
    from lab.shots.sessions import click_at, move_pointer

    with start_react_minesweeper(scale=plan["scale"], devtools=True) as client:
        with DevToolsPage(page_websocket_url(client.devtools_port, client.url)) as page:
            rows, cols = _react_size(plan, page)
            _react_setup(page, rows, cols, plan["chance"])

            def state():
                return page.evaluate(REACT_MINESWEEPER_STATE_JS)

            where = [_react_lattice(screen, page, rows, cols)]  # measured again if the page moves

            def click(r, c, done, button=1):
                # Chromium drops clicks sent back to back: wait until the page took each one.
                for _ in range(2):
                    if _click_until(page, lambda: click_at(*where[0].cell_center(r, c), button=button), done):
                        move_pointer(SCREEN[0] - 1, SCREEN[1] - 1)
                        return
                    where[0] = _react_lattice(screen, page, rows, cols)
                raise DiscardCase(f"the page did not take the click on ({r}, {c})")

            board = state()["board"]
            if len(board) != rows or len(board[0]) != cols:
                raise DiscardCase(f"the page made a {len(board)}x{len(board[0])} board, not {rows}x{cols}")
            safe = [(r, c) for r in range(rows) for c in range(cols) if not board[r][c]["b"]]
            mines = [(r, c) for r in range(rows) for c in range(cols) if board[r][c]["b"]]
            if not safe or not mines:
                raise DiscardCase("a board with no mine or no safe cell")
            visible = _react_board_visible(page)
            if plan["state"] != "fresh" and visible:
                # The page's state only steers the game (a zero first, for an opening); the truth is
                # read from it afterwards like for any state.
                zeros = [rc for rc in safe if board[rc[0]][rc[1]]["n"] == 0]
                order = (rng.sample(zeros, 1) if zeros else []) + rng.sample(safe, min(plan["opens"], len(safe)))
                for r, c in order:
                    cell = state()["board"][r][c]
                    if not cell["r"] and not cell["f"]:
                        click(r, c, lambda s, r=r, c=c: s["board"][r][c]["r"])
                for r, c in rng.sample(mines, min(plan["flags"], len(mines))):
                    click(r, c, lambda s, r=r, c=c: s["board"][r][c]["f"], button=3)
                # A wrong flag only while a mine is left unflagged: the truth's mine total (the page's)
                # must bound the flags shown, or the truth itself is no valid board.
                if plan["wrong_flags"] and len(mines) > min(plan["flags"], len(mines)):
                    hidden = [(r, c) for r, c in safe if not state()["board"][r][c]["r"]]
                    for r, c in rng.sample(hidden, min(1, len(hidden))):
                        click(r, c, lambda s, r=r, c=c: s["board"][r][c]["f"], button=3)
                if plan["state"] == "lost":
                    left = [(r, c) for r, c in mines if not state()["board"][r][c]["f"]]
                    if not left:
                        raise DiscardCase("every mine is flagged: cannot lose")
                    r, c = rng.choice(left)
                    click(r, c, lambda s: s["lost"])
                elif plan["state"] == "won":
                    for r, c in safe:
                        cell = state()["board"][r][c]
                        if cell["f"]:
                            click(r, c, lambda s, r=r, c=c: not s["board"][r][c]["f"], button=3)
                        if not state()["board"][r][c]["r"]:
                            click(r, c, lambda s, r=r, c=c: s["board"][r][c]["r"])
                    if not state()["won"]:
                        raise DiscardCase("opening every safe cell did not win")
            lattice = _react_lattice(screen, page, rows, cols)
            board_rect = lattice.board_rect()
            cells = [(r, c) for r in range(rows) for c in range(cols)
                     if _screen_rect().contains_rect(lattice.cell_rect(r, c))]
            kind, cell, (x, y) = _pointer_spot(rng, plan["pointer"], lattice, cells, board_rect)
            move_pointer(x, y)
            time.sleep(0.3)
            before = state()
            frame = _stable_grab(screen, board_rect.clipped(_screen_rect()).as_region())
            after = state()
            if before != after:
                raise DiscardCase("the page changed while the screenshot was taken")
            visible = visible and _react_board_visible(page)
            shown = "lost" if after["lost"] else "won" if after["won"] else \
                "mid" if any(f["r"] or f["f"] for row in after["board"] for f in row) else "fresh"
            meta = {
                "client": "react-minesweeper", "scale": plan["scale"], "rows": rows, "cols": cols,
                "bomb_chance": plan["chance"], "mines": len(mines), "window": list(client.geometry().as_region()),
                "state": shown,
                "board_visible": visible, "expect": "read" if visible else "refuse",
                "pointer": {"where": kind, "on_board": cell is not None, "cell": list(cell) if cell else None,
                            "xy": [x, y]},
                "lattice": {"origin": [round(lattice.origin[0], 2), round(lattice.origin[1], 2)],
                            "pitch": [round(lattice.pitch[0], 3), round(lattice.pitch[1], 3)],
                            "rows": rows, "cols": cols},
            }
            if not visible:
                meta["why"] = "the board does not fit in the browser's viewport"
                return Case(frame, None, meta)
            # The client fixes no mine total; the count on the board is the page's.
            board = parse_board(f"mines: {len(mines)}\n" + react_minesweeper_board_text(after))
            meta["flags"] = board.count("F")  # as shown: a lost board shows no flags
            return Case(frame, board, meta)


def _react_lattice(screen, page, rows: int, cols: int, attempts: int = 4):
    """``sessions.react_lattice`` (the cells from the DOM, the page found on the screen by its own
    screenshot), tried again when the screen and the page's screenshot differ for a moment (a frame
    grabbed while the page was still painting)."""
    from screenbot.errors import ScreenError
    from lab.shots.sessions import react_lattice

    for attempt in range(attempts):
        try:
            return react_lattice(screen.grab(), page, rows, cols)
        except ScreenError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.3)


def _react_board_visible(page) -> bool:
    """Every cell wholly inside the browser's viewport (CSS pixels, from the page itself). The
    table's outer border may be cut: the reader may then refuse or read, both are allowed."""
    state = page.evaluate(REACT_VIEWPORT_JS)
    left, top, right, bottom = state["cells"]
    return left >= 0 and top >= 0 and right <= state["width"] and bottom <= state["height"]


REACT_VIEWPORT_JS = """
(() => {
  const tds = document.querySelectorAll('table.minesweeper td');
  const first = tds[0].getBoundingClientRect(), last = tds[tds.length - 1].getBoundingClientRect();
  // clientWidth/Height: the viewport without its scroll bars (innerWidth/Height include them)
  const root = document.documentElement;
  return {cells: [first.left, first.top, last.right, last.bottom], width: root.clientWidth, height: root.clientHeight};
})()
"""


# --- the generator -----------------------------------------------------------------------------------


def generate(out: Path, n: int, seed: int, client: str = "gnome-mines", report=print,
             discarded: Path | None = None, tile_theme: str | None = None,
             desktop_scale: int | None = None) -> list[Path]:
    """Make ``n`` cases of ``client`` into ``out`` (a new virtual display is started and stopped);
    returns the JSON paths. Raises RuntimeError when a case cannot be made in ATTEMPTS draws. The
    frames of discarded draws go to ``discarded`` when given (to see why a check failed).
    ``tile_theme``: every gnome-mines case in that tile theme; ``desktop_scale``: every one drawn as on a
    desktop at that scale (``at_desktop_scale``); the other draws as they come."""
    if client not in CLIENTS:
        raise ValueError(f"client must be one of {', '.join(CLIENTS)}, not {client!r}")
    from screenbot.capture import MssScreen
    from screenbot.errors import ScreenError

    from screenbot.desktop import VirtualDisplay

    master = random.Random(seed)
    written: list[Path] = []
    with _xauthority(), VirtualDisplay(size=SCREEN):
        with MssScreen() as screen:
            if screen.size != SCREEN:
                raise RuntimeError(f"the display is {screen.size}, not {SCREEN}")
            for index in range(n):
                case_seed = master.randrange(2**32)
                rng = random.Random(case_seed)
                errors = []
                for attempt in range(ATTEMPTS):
                    plan = draw_gnome_mines(rng) if client == "gnome-mines" else draw_react(rng)
                    if tile_theme is not None and client == "gnome-mines":
                        plan["tile_theme"] = tile_theme
                    if desktop_scale is not None and client == "gnome-mines" and plan["desktop_scale"] != desktop_scale:
                        plan = at_desktop_scale(plan, rng, desktop_scale)
                    draw = f"{'gm' if client == 'gnome-mines' else 'rm'}-{index:03d}-draw{attempt + 1}"
                    started = time.monotonic()
                    try:
                        if client == "gnome-mines":
                            case = make_gnome_mines_case(plan, rng, screen)
                        else:
                            case = make_react_case(plan, rng, screen)
                    except (DiscardCase, ScreenError) as exc:  # ScreenError: e.g. a client that did not start
                        errors.append(str(exc))
                        log.info("%s discarded: %s", draw, exc)
                        if discarded is not None:
                            _keep_discarded(discarded, draw, exc)
                        continue
                    name = _case_name(index, case.meta)
                    case.meta.update(name=name, seed=seed, index=index, case_seed=case_seed, attempt=attempt,
                                     plan=plan, truth=GM_TRUTH if client == "gnome-mines" else RM_TRUTH)
                    written.append(case.write(out, name).with_suffix(".json"))
                    report(f"  {name}: {_describe(case.meta)} ({time.monotonic() - started:.1f} s)")
                    break
                else:
                    raise RuntimeError(f"case {index} ({client}, seed {seed}): no draw out of {ATTEMPTS} "
                                       f"gave a checked truth: {errors}")
    return written


def _keep_discarded(folder: Path, stem: str, exc: Exception) -> None:
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.txt").write_text(f"{exc}\n", encoding="utf-8")
    for label, frame in getattr(exc, "frames", {}).items():
        cv2.imwrite(str(folder / f"{stem}-{label}.png"), frame)


def _case_name(index: int, meta: dict) -> str:
    """e.g. gm-003-big-1128x902-lost, rm-001-s1p31-9x14-mid (what the case shows, not what was planned)."""
    if meta["client"] == "gnome-mines":
        return f"gm-{index:03d}-{meta['level']}-{meta['window'][2]}x{meta['window'][3]}-{meta['state']}"
    scale = f"{meta['scale']:.2f}".replace(".", "p")  # no dot in names: Path.with_suffix keeps working
    return f"rm-{index:03d}-s{scale}-{meta['rows']}x{meta['cols']}-{meta['state']}"


def _describe(meta: dict) -> str:
    pointer = meta["pointer"]
    where = f"pointer on cell {tuple(pointer['cell'])}" if pointer.get("cell") else f"pointer {pointer['where']}"
    size = f"window {meta['window'][2]}x{meta['window'][3]}" if meta["client"] == "gnome-mines" else \
        f"scale {meta['scale']}"
    expect = "expect a refusal: " + meta["why"] if meta["expect"] == "refuse" else "expect the board"
    return f"{meta['rows']}x{meta['cols']}, {size}, {meta['state']}, {where}; {expect}"


class _xauthority:
    """python-xlib prints a warning to stdout on every connection when the Xauthority file is empty
    (pyautogui needs one to exist, so machines often have an empty ~/.Xauthority). The Xvfb started
    here has no access control and needs no cookie: point XAUTHORITY at a file that does not exist
    while it runs, which Xlib and the clients take quietly as "no authorization"."""

    def __enter__(self):
        self.folder = tempfile.mkdtemp(prefix="screenbot-noauth-")
        self.saved = os.environ.get("XAUTHORITY")
        os.environ["XAUTHORITY"] = os.path.join(self.folder, "none")
        return self

    def __exit__(self, *exc_info):
        if self.saved is None:
            os.environ.pop("XAUTHORITY", None)
        else:
            os.environ["XAUTHORITY"] = self.saved
        shutil.rmtree(self.folder, ignore_errors=True)


def read_case(png: Path):
    """A case kept as a fixture (``png`` and its .json and .txt) read as ``screenbot read`` reads it, in
    this process: (its meta, its true board, the reading). A refusal fails with the reader's message."""
    import contextlib
    import io

    import cv2

    from screenbot.commands.screenshot import read_screenshot
    from screenbot.vision import load_skins

    meta = json.loads(png.with_suffix(".json").read_text(encoding="utf-8"))
    truth = parse_board(png.with_suffix(".txt").read_text(encoding="utf-8"))
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        reading = read_screenshot(png, cv2.imread(str(png)), load_skins(), "auto")
    assert not isinstance(reading, int), said.getvalue()
    return meta, truth, reading


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tests.random_cases", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, type=Path, help="folder for the cases (created)")
    parser.add_argument("--n", type=int, default=10, help="number of cases (default 10)")
    parser.add_argument("--seed", type=int, help="seed of the draws (default: a fresh one, printed)")
    parser.add_argument("--client", choices=CLIENTS, default="gnome-mines")
    parser.add_argument("-v", "--verbose", action="store_true", help="log why draws are discarded")
    parser.add_argument("--discarded", type=Path, help="folder for the frames of discarded draws (why a check failed)")
    parser.add_argument("--tile-theme", choices=["classic", "default"],
                        help="gnome-mines: every window in this tile theme of the game (default: drawn, mostly its default)")
    parser.add_argument("--desktop-scale", type=int, choices=[2],
                        help="gnome-mines: every window as on a desktop at 200%% (GDK_SCALE=2; default: drawn, a sixth of the "
                             "small and medium boards)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    missing = missing_tools(args.client)
    if missing:
        print(f"random_cases: missing {', '.join(missing)} (see README 'Quick start')", file=sys.stderr)
        return 3
    print(f"random {args.client} cases, seed {seed} (replay: --seed {seed})", flush=True)
    started = time.monotonic()
    try:
        paths = generate(args.out, args.n, seed, args.client, report=lambda line: print(line, flush=True),
                         discarded=args.discarded, tile_theme=args.tile_theme, desktop_scale=args.desktop_scale)
    except RuntimeError as exc:
        print(f"random_cases: {exc}", file=sys.stderr)
        return 1
    print(f"{len(paths)} cases in {args.out} ({time.monotonic() - started:.0f} s), seed {seed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
