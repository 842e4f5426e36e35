"""Drive a real client under X, take screenshots, and label them with their true board.

The lattice of each session is measured without the recognizer: from the client's known layout
(xdemineur), from a freshly started all-covered board (gnome-mines), or from the page itself through
the DevTools protocol (react-minesweeper). Truth comes from ``labels`` (rules of the game) for the
desktop clients and from the page's React state for the browser client.

Clicks go through XTEST (python-xlib), as a user's would; the pointer is moved off the board before
each screenshot unless a shot deliberately hovers a cell.
"""

from __future__ import annotations

import base64
import logging
import random
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from solver.board import Board

from screenbot.capture import MssScreen
from screenbot.desktop.processes import ClientWindow
from .devtools import REACT_MINESWEEPER_STATE_JS, DevToolsPage
from screenbot.errors import ScreenError
from screenbot.geometry import Lattice
from .labels import Looks, TruthCheckError, canonical_cells, label_earlier, label_final

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True, eq=False)
class LabelledShot:
    """A full-screen frame, the true lattice on it (screen pixels), its true board, and what it shows."""

    client: str
    name: str
    frame: np.ndarray
    lattice: Lattice
    board: Board
    window: tuple[int, int, int, int]  # the client's window on screen (left, top, width, height)
    tags: tuple[str, ...] = ()


def _xtest(action: Callable) -> None:
    from screenbot.platforms.x11.windows import connect

    conn = connect()
    try:
        action(conn)
        conn.sync()
    finally:
        conn.close()


def move_pointer(x: int, y: int) -> None:
    from Xlib import X
    from Xlib.ext import xtest

    _xtest(lambda conn: xtest.fake_input(conn, X.MotionNotify, x=int(x), y=int(y)))


def click_at(x: float, y: float, button: int = 1, holding: str | None = None) -> None:
    """A click at (x, y); ``holding``: the X keysym name of a key held down meanwhile ("Control_L")."""
    from Xlib import XK, X
    from Xlib.ext import xtest

    def key(kind):
        return lambda conn: xtest.fake_input(conn, kind, conn.keysym_to_keycode(XK.string_to_keysym(holding)))

    move_pointer(int(x), int(y))
    time.sleep(0.03)
    if holding:
        _xtest(key(X.KeyPress))
    _xtest(lambda conn: xtest.fake_input(conn, X.ButtonPress, button))
    time.sleep(0.03)
    _xtest(lambda conn: xtest.fake_input(conn, X.ButtonRelease, button))
    if holding:
        _xtest(key(X.KeyRelease))


@dataclass
class Session:
    """One running client with its true lattice (screen coordinates)."""

    client: ClientWindow
    lattice: Lattice
    screen: MssScreen
    settle: float = 0.25
    won: Callable[[np.ndarray], bool] | None = None  # the client's own "you won" sign, if it has one
    # Share of pure-red pixels in an opened cell that means "exploded mine": gnome-mines paints a red
    # mine icon (~10%), xdemineur a red background (~80%, its red "3" covers ~15%).
    exploded_red_fraction: float = 0.4
    # ... and the share above which the red is something else: gnome-mines draws an 8 on a red
    # background (#FF323C, 60-77% of the cell), which must not end the game as a loss.
    exploded_red_limit: float = 1.0
    # The colour of that paint: gnome-mines' classic theme draws its exploded mine as a yellow star
    # (about 3% of a 46 px cell, an orange dot at 23 px; its 3s and flags are red), so that is what
    # ends a game there.
    exploded_ink: str = "red"
    dismiss_win: Callable[[], None] | None = None  # closes the client's "you won" dialog
    mines: int | None = None  # the mine total, where known: it settles flags a loss leaves in doubt
    # Exact cell starts (columns, rows) when the client's layout is uneven; None: the lattice's.
    starts: tuple[list[int], list[int]] | None = None
    # Share of the pitch left out on each side when comparing pictures: GTK moves borders by a pixel
    # from cell to cell, so gnome-mines compares middles; xdemineur's covered and open cells differ
    # only in their bevelled borders, so it compares whole cells.
    inset: float = 0.2

    def frame(self) -> np.ndarray:
        return self.screen.grab()

    def exploded(self, frame: np.ndarray, r: int, c: int) -> bool:
        """Whether cell (r, c) of ``frame`` shows the exploded mine (see ``exploded_red_fraction``)."""
        import cv2

        rect = self.lattice.cell_rect(r, c)
        cell = frame[rect.top : rect.bottom, rect.left : rect.right]
        if self.exploded_ink == "yellow":  # yellow to orange, strong (a pale yellow 7 is not)
            hsv = cv2.cvtColor(cell, cv2.COLOR_BGR2HSV)
            ink = (hsv[:, :, 0] >= 12) & (hsv[:, :, 0] <= 35) & (hsv[:, :, 1] > 180) & (hsv[:, :, 2] > 130)
        else:
            cell = cell.astype(np.int16)
            ink = (cell[:, :, 2] > 180) & (cell[:, :, 1] < 90) & (cell[:, :, 0] < 90)
        return bool(self.exploded_red_fraction < ink.mean() <= self.exploded_red_limit)

    def window(self) -> tuple[int, int, int, int]:
        return self.client.geometry().as_region()

    def click(self, r: int, c: int, button: int = 1) -> None:
        x, y = self.lattice.cell_center(r, c)
        click_at(x, y, button)
        self.away()

    def away(self) -> None:
        """Pointer off the board (to the screen's bottom-right corner, outside every client window)."""
        width, height = self.screen.size
        move_pointer(width - 1, height - 1)
        time.sleep(self.settle)

    def hover(self, r: int, c: int) -> None:
        x, y = self.lattice.cell_center(r, c)
        move_pointer(int(x), int(y))
        time.sleep(self.settle)

    def cells(self, frame: np.ndarray) -> np.ndarray:
        return canonical_cells(frame, self.lattice, self.starts, self.inset)


# --- lattices measured without the recognizer ------------------------------------------------------


def xdemineur_lattice(client: ClientWindow, rows: int, cols: int) -> Lattice:
    """xdemineur draws 20 px cells and a 1 px black line at a fixed offset in its window."""
    rect = client.geometry()
    return Lattice("xdemineur", (rect.left + 16.0, rect.top + 81.0), (21.0, 21.0), rows, cols)


def gnome_mines_lattice(frame: np.ndarray, client: ClientWindow, rows: int, cols: int
                        ) -> tuple[Lattice, tuple[list[int], list[int]]]:
    """On a fresh board every cell is a covered square of one colour with gaps between: the runs of
    that colour along a row and a column give each cell's start. Returns the best evenly spaced
    lattice and the exact starts (GTK hands out whole pixels unevenly: 30 px cells, then 29 px)."""
    rect = client.geometry()
    window = frame[rect.top : rect.bottom, rect.left : rect.right].astype(np.int16)
    covered = (np.abs(window - np.array([182, 189, 186])).sum(axis=2) < 12)  # BGR of (186,189,182)

    def starts(profile: np.ndarray, count: int) -> np.ndarray:
        on = profile > 0.5 * profile.max()
        edges = np.flatnonzero(on[1:] & ~on[:-1]) + 1
        if on[0]:
            edges = np.concatenate([[0], edges])
        if len(edges) != count:
            raise ScreenError(f"expected {count} cell runs on the fresh board, found {len(edges)}")
        return edges

    xs = starts(covered.sum(axis=0), cols) + rect.left
    ys = starts(covered.sum(axis=1), rows) + rect.top
    px, ox = np.polyfit(np.arange(cols), xs, 1) if cols > 1 else (1.0, xs[0])
    py, oy = np.polyfit(np.arange(rows), ys, 1) if rows > 1 else (1.0, ys[0])
    lattice = Lattice("gnome-mines", (float(ox), float(oy)), (float(px), float(py)), rows, cols)
    return lattice, ([int(x) for x in xs], [int(y) for y in ys])


def gnome_mines_exploded(theme: str | None) -> dict:
    """The ``Session`` arguments that tell gnome-mines' exploded mine in its tile ``theme`` (None: its
    default, bgcolors): a red mine icon, 4-21% of the cell by its size, where an 8 is a dark digit on
    red (60-77%); in the classic theme a yellow star (see ``Session.exploded_ink``)."""
    if theme == "classic":
        return {"exploded_red_fraction": 0.01, "exploded_ink": "yellow"}
    return {"exploded_red_fraction": 0.04, "exploded_red_limit": 0.4}


def react_lattice(frame: np.ndarray, page: DevToolsPage, rows: int, cols: int) -> Lattice:
    """Cell rectangles come from the page (CSS px x devicePixelRatio); where the page sits on the
    screen is found by matching the page's own screenshot (``page_on_screen``)."""
    state = page.evaluate(REACT_MINESWEEPER_STATE_JS)
    dpr = float(state["dpr"])
    left, top, right, bottom = (v * dpr for v in state["cells"])
    dx, dy = page_on_screen(frame, page, (left, top, right, bottom))
    pitch = ((right - left) / cols, (bottom - top) / rows)
    return Lattice("react-minesweeper", (left + dx, top + dy), pitch, rows, cols)


def page_on_screen(frame: np.ndarray, page: DevToolsPage, box: tuple[float, float, float, float]) -> tuple[int, int]:
    """Where the page's viewport begins on ``frame`` (dx, dy): found by matching a patch of the page's
    own screenshot (Page.captureScreenshot) around ``box`` (left, top, right, bottom, in device px of
    the viewport). ScreenError when the screen does not show it."""
    import cv2

    shot = page.call("Page.captureScreenshot", format="png")
    viewport = cv2.imdecode(np.frombuffer(base64.b64decode(shot["data"]), np.uint8), cv2.IMREAD_COLOR)
    left, top, right, bottom = box
    # A patch around the board, clipped to the viewport, is distinctive enough to find exactly.
    x0, y0 = max(0, int(left) - 20), max(0, int(top) - 20)
    x1, y1 = min(viewport.shape[1], int(right) + 20), min(viewport.shape[0], int(bottom) + 20)
    patch = viewport[y0:y1, x0:x1]
    result = cv2.matchTemplate(frame, patch, cv2.TM_SQDIFF_NORMED)
    score, _, (mx, my), _ = cv2.minMaxLoc(result)
    if score > 0.01:
        raise ScreenError(f"the page screenshot was not found on the screen (score {score:.3f})")
    return mx - x0, my - y0


# --- desktop games labelled by the rules ---------------------------------------------------------


@dataclass
class _DesktopGame:
    session: Session
    look: Looks
    flagged: set[tuple[int, int]] = field(default_factory=set)
    questioned: set[tuple[int, int]] = field(default_factory=set)
    pending: list[tuple[str, np.ndarray, frozenset, frozenset, tuple[str, ...]]] = field(default_factory=list)

    def snapshot(self, name: str, *tags: str, frame: np.ndarray | None = None) -> np.ndarray:
        frame = self.session.frame() if frame is None else frame
        self.pending.append((name, frame, frozenset(self.flagged), frozenset(self.questioned), tags))
        return frame

    def finish(self, prefix: str, outcome: str, final: np.ndarray, before: np.ndarray,
               last_click: tuple[int, int] | None) -> list[LabelledShot]:
        s = self.session
        final_board = label_final(final, before, s.lattice, self.look, outcome=outcome, flagged=frozenset(self.flagged),
                                  last_click=last_click, starts=s.starts, inset=s.inset, mine_total=s.mines)
        window = s.window()
        shots = [LabelledShot(s.client.client, f"{prefix}-{outcome}", final, s.lattice, final_board, window,
                              (outcome,))]
        previous: Board | None = None
        for name, frame, flagged, questioned, tags in self.pending:
            if "hover" in tags:
                # The hovered cell is lit, so it is no longer the covered picture: the shot shows the
                # same board as the shot taken just before the pointer moved onto the cell.
                if previous is None:
                    continue
                board = previous
            else:
                try:
                    board = label_earlier(frame, final, final_board, s.lattice, self.look,
                                          flagged=flagged, questioned=questioned, starts=s.starts, inset=s.inset)
                except TruthCheckError as exc:
                    raise TruthCheckError(f"{prefix}-{name}: {exc}") from exc
            previous = board
            shots.append(LabelledShot(s.client.client, f"{prefix}-{name}", frame, s.lattice, board, window, tags))
        return shots


def _covered_cells(session: Session, look: Looks, frame: np.ndarray, exclude: set) -> list[tuple[int, int]]:
    cells = session.cells(frame)
    return [
        (r, c)
        for r in range(session.lattice.rows)
        for c in range(session.lattice.cols)
        if (r, c) not in exclude and look.is_covered(cells[r, c], r, c)
    ]


def play_desktop_game(
    session: Session,
    look: Looks,
    prefix: str,
    rng: random.Random,
    first_click: tuple[int, int] | None,
    flags: int = 3,
    question: bool = True,
    hover_shots: int = 1,
    hover_marks: bool = False,
    choose: Callable[[np.ndarray], tuple[str, int, int] | None] | None = None,
    max_moves: int = 400,
    keep_every: int = 4,
) -> list[LabelledShot]:
    """Play one game to its end, snapshotting along the way, and label every snapshot by the rules.

    ``hover_marks``: also a shot with the pointer over a flag, and one over a "?".
    Moves are random covered cells unless ``choose(frame)`` proposes ("open"|"flag", r, c) (a solver
    driving through the recognizer: that only steers the game, the labels still come from the rules).
    """
    game = _DesktopGame(session, look)
    frame = session.frame()
    if first_click is not None:
        session.click(*first_click)
        frame = game.snapshot("opened", "fresh-opening")
    covered = _covered_cells(session, look, frame, set())
    rng.shuffle(covered)
    for r, c in covered[:flags]:
        session.click(r, c, button=3)
        picture = session.cells(session.frame())[r, c]
        if look.is_covered(picture, r, c):
            log.warning("%s: the right-click on (%d, %d) did not place a flag", prefix, r, c)
            continue
        game.flagged.add((r, c))
        look.flag[(r, c)] = picture
    if question and len(covered) > flags:
        r, c = covered[flags]
        session.click(r, c, button=3)
        picture = session.cells(session.frame())[r, c]
        if not look.is_covered(picture, r, c):
            # The flag on its way to "?": the picture of a flag even when no flag stays on the board
            # (a client that flags every mine at a win shows it there).
            look.flag[(r, c)] = picture
        session.click(r, c, button=3)
        cell = session.cells(session.frame())[r, c]
        if not look.is_covered(cell, r, c):  # a client without "?" is back to covered here
            game.questioned.add((r, c))
            look.question[(r, c)] = cell
    frame = game.snapshot("marked", "flagged")
    for i in range(hover_shots):
        hidden = _covered_cells(session, look, frame, game.flagged | game.questioned)
        if hidden:
            r, c = rng.choice(hidden)
            session.hover(r, c)
            game.snapshot(f"hover{i}", "hover")
            session.away()
    if hover_marks:
        # The pointer over a flag and over a "?": a client that lights the tile under the pointer
        # lights these too, under the same mark.
        for name, marked in (("flag", game.flagged), ("question", game.questioned)):
            if marked:
                r, c = rng.choice(sorted(marked))
                session.hover(r, c)
                game.snapshot(f"hover-{name}", "hover", f"hover-{name}")
                session.away()
    for r, c in list(game.questioned):
        # Take the "?" off again (it cycles back to covered): how a client draws a "?" that hid a
        # mine after a loss varies, and the rules check should not depend on it.
        session.click(r, c, button=3)
        game.questioned.discard((r, c))
    moves = 0
    while moves < max_moves:
        before = session.frame()
        move = choose(before) if choose else None
        if move is None:
            options = _covered_cells(session, look, before, game.flagged | game.questioned)
            if not options:
                # The last open may have won, with the client's win dialog over the board by the time
                # the board was looked at: close it and look again.
                shown = _after_win(session, before)
                if session.won is not None and session.dismiss_win is not None and session.won(shown):
                    return game.finish(prefix, "won", shown, before, None)
                raise TruthCheckError(f"{prefix}: no covered cell left but the game did not end")
            move = ("open", *rng.choice(options))
        action, r, c = move
        if action == "flag":
            session.click(r, c, button=3)
            game.flagged.add((r, c))
            look.flag.setdefault((r, c), session.cells(session.frame())[r, c])
            after = session.frame()
            if session.won is not None and session.won(after):  # xdemineur: the last flag wins
                return game.finish(prefix, "won", _after_win(session, after), before, None)
            continue
        session.click(r, c)
        moves += 1
        after = session.frame()
        log.debug("%s: move %d opens (%d, %d)", prefix, moves, r, c)
        outcome = _desktop_outcome(session, look, after, before, (r, c), game)
        if outcome == "won":
            return game.finish(prefix, outcome, _after_win(session, after), before, None)
        if outcome:
            # A loss redraws much of the board (every mine; in gnome-mines' classic and default tile themes
            # every covered tile and opened cell too): label it once it is all drawn.
            return game.finish(prefix, outcome, settled_grab(session.screen, after)[0], before,
                               (r, c) if outcome == "lost" else None)
        # An opening cascade may uncover a flagged cell (gnome-mines does): it is no longer flagged.
        now = session.cells(after)
        game.flagged = {(fr, fc) for fr, fc in game.flagged if look.is_flag(now[fr, fc], fr, fc)}
        if moves % keep_every == 0:
            game.snapshot(f"move{moves}", "mid-game", frame=after)
    raise TruthCheckError(f"{prefix}: the game did not end within {max_moves} moves")


def settled_grab(screen, first: np.ndarray | None = None, *, region: tuple[int, int, int, int] | None = None,
                 pause: float = 0.1, still: int = 1, timeout: float = 3.0) -> tuple[np.ndarray, bool]:
    """A full-screen frame whose ``region`` (left, top, width, height; the whole screen when None) looks
    the same in the ``still`` grabs before it, ``pause`` s apart (``first``: the earliest, when grabbed
    already), and True; the last grab and False when the screen had not settled after ``timeout`` s."""
    def part(frame: np.ndarray) -> np.ndarray:
        if region is None:
            return frame
        left, top, width, height = region
        return frame[max(0, top) : top + height, max(0, left) : left + width]

    last = screen.grab() if first is None else first
    same = 0
    deadline = time.monotonic() + timeout
    while True:
        time.sleep(pause)
        frame = screen.grab()
        same = same + 1 if np.array_equal(part(frame), part(last)) else 0
        if same >= still:
            return frame, True
        if time.monotonic() > deadline:
            return frame, False
        last = frame


def _after_win(session: Session, frame: np.ndarray) -> np.ndarray:
    """The board after a win, with the client's win dialog (if any) dismissed."""
    if session.dismiss_win is None:
        return frame
    time.sleep(0.8)  # the dialog maps a moment after the last cell opens
    session.dismiss_win()
    time.sleep(0.5)
    session.away()
    return session.frame()


def _desktop_outcome(session: Session, look: Looks, after: np.ndarray, before: np.ndarray,
                     clicked: tuple[int, int], game: _DesktopGame) -> str | None:
    """"lost" when the opened cell shows the exploded mine (both desktop clients paint it in red),
    "won" when ``session.won(frame)`` (a client-specific sign, e.g. a dialog) says so, else None."""
    if session.exploded(after, *clicked):
        return "lost"
    if session.won is not None and session.won(after):
        return "won"
    return None
