"""What a learning session sees and how it looks and clicks: the board found by structure alone, the
frames kept and every cell as a cluster id (``Seen``), and the ``Watcher`` that grabs, waits for the
picture to settle and clicks through a ``BoardMouse`` on that board (``session`` plays the games).

The desk (screen, mouse and keyboard, window, clock) comes in from outside, so this module opens no
display itself (but for the desktop's focus probe, a window of ours that takes the keyboard for a moment).
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from ..errors import BoardNotFoundError, ScreenError, WindowGoneError
from ..geometry import Lattice, Rect, whole_pixel
from ..mouse import BoardMouse, ScreenScale
from ..play.profile import ControlAction
from .clusters import Clusters
from .naming import LostGame

log = logging.getLogger(__name__)

# s a picture must stay the same to count as drawn: gnome-mines draws a clicked cell pressed within 20 ms
# and its result up to 130 ms later (a first click), so a shorter wait takes the pressed cell for the result.
SETTLE = 0.25
DOUBLE_CLICK = 0.6  # s between two clicks on one cell, more than a toolkit's double-click time (GTK: 0.4)
REDRAW_TIMEOUT = 1.0  # s a click may take to show before it counts as ignored


class LearnError(ScreenError):
    """Learning cannot go on (the message says why); ``code`` is the exit code to end with."""

    def __init__(self, message: str, /, *, code: int = 1, **context: object) -> None:
        super().__init__(message, **context)
        self.code = code


@dataclass
class Desk:
    """What the session works with: ``screen.grab(region)``, ``mouse`` (move, click, press),
    ``window`` (the game's ``screenbot.platforms.GameWindow``, or None), ``scale`` (pixels per click
    point), ``desktop`` (the ``screenbot.platforms.Desktop`` it is on, or None: its focus probe)."""

    screen: object
    mouse: object
    window: object | None = None
    scale: ScreenScale = ScreenScale()
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.monotonic
    desktop: object | None = None


@dataclass
class Frame:
    """A kept screenshot (the window, or the board with some room around it) and its cells as ids."""

    image: np.ndarray
    ids: np.ndarray  # (rows, cols)
    what: str
    # What the bot did and saw, that any naming of the frame must agree with: the cells its left clicks
    # opened in this game so far (each changed the board), and whether the frame shows every mine of a
    # lost game (its numbers then count the mines shown around them), with the cells the bot flagged
    # (a wrong flag may show as an opened cell at a loss, xbomb's as a 0, and counts for nothing).
    opened: frozenset = frozenset()
    all_mines_shown: bool = False
    flagged: frozenset = frozenset()


@dataclass
class Seen:
    """Everything one learning session saw."""

    lattice: Lattice
    crop: Rect  # where kept frames were cut from the screen
    clusters: Clusters
    covered: set[int] = field(default_factory=set)
    lit: int | None = None  # the covered cell's picture under the pointer, when it has another
    flag: int | None = None
    # The flag as drawn in boxes of other sizes, each alike ``flag`` (``Clusters.alike``): lines of two
    # widths draw the one flag two ways, and a flag the bot placed must be known as one at the loss.
    more_flags: set[int] = field(default_factory=set)
    question: int | None = None
    # The keys held around a left click that flags, for a client that takes no right click (found when
    # a right click placed no flag and this click placed one and took it off again): play's flag_keys.
    flag_keys: tuple[str, ...] = ()
    names: dict[int, str] = field(default_factory=dict)
    frames: list[Frame] = field(default_factory=list)
    opened: set = field(default_factory=set)  # cells the bot opened in the game on (``Frame.opened``)
    restart: tuple[str, ControlAction] | None = None
    restarts_tried: list[str] = field(default_factory=list)
    first_clicks: list[str] = field(default_factory=list)  # per game: "opening", "number", "lost", "ignored"
    mine_counts: list[int] = field(default_factory=list)  # mines shown, per named lost board
    # Cells left covered, per won board the client showed won (its dialog, its flags): its mines.
    won_mine_counts: list[int] = field(default_factory=list)
    games_played: int = 0
    games_named: int = 0
    refused: list[str] = field(default_factory=list)  # why games were not used
    dropped_clicks: int = 0
    latencies: list[float] = field(default_factory=list)
    # Per named game, which neighbours of a 0 the client opened itself before the loss (``flood_seen``).
    floods: list[str] = field(default_factory=list)
    window_title: str | None = None
    wins: int = 0
    unclear_wins: int = 0  # wins whose board changed in a way no win explains (nothing learnt from them)
    pauses_on_focus_loss: bool = False  # the board is hidden while the window has not the keyboard
    preopened: bool = False  # the client opens an area of each new game itself (xdemineur)
    after_win: tuple[str, ControlAction] | None = None
    # A window the client brings over the board at a loss (KMines asks "Reset the game?"), and the key
    # that closed it.
    after_loss: tuple[str, ControlAction] | None = None
    # The longest a mark drawn over the board's opened cells at the end of a game took to go (KMines
    # writes "You have lost." across the board for 4 s); 0: none seen.
    end_mark_seconds: float = 0.0
    # Every safe cell open left the mines covered and the client took a flag on each of them: it wants
    # them all flagged for a win (xbomb, xdemineur). None: never seen at a win.
    flags_to_win: bool | None = None

    def flags(self) -> set[int]:
        """Every picture of the flag: none before one was seen."""
        return set() if self.flag is None else {self.flag} | self.more_flags

    def shows_flag(self, cid: int) -> bool:
        """Whether ``cid``, shown by a flag click on a covered cell, is the flag: one of its pictures, or
        a new picture alike the first (the flag in a box of another size), known as the flag from then on."""
        if cid in self.flags():
            return True
        if self.flag is None or cid in self.covered or cid == self.question or cid in self.names:
            return False
        if self.clusters.alike(cid, self.flag):
            self.more_flags.add(cid)
            return True
        return False

    def closed_ids(self) -> list[int]:
        """The pictures of a cell not opened: covered (any look of it), flagged or marked "?"."""
        return list(self.covered) + sorted(self.flags()) + ([] if self.question is None else [self.question])

    def all_names(self) -> dict[int, str]:
        """Every picture's name: those the rules gave, and the covered, flag and question pictures."""
        names = dict(self.names)
        names.update({cid: "#" for cid in self.covered})
        for cid in self.flags():
            names.setdefault(cid, "F")
        if self.question is not None:
            names.setdefault(self.question, "?")
        return names


def board_lattice(frame: np.ndarray, name: str) -> Lattice:
    """The largest cell grid on ``frame``, found by structure alone. Each box is centred on its cell's
    face and splits the gap or lines between two faces evenly: a client that draws each cell's own
    border (xbomb: green round the cells the player opened, black round the rest at a loss) then has
    that border, and none of its neighbour's, in the box. (The reader's locator places a skin's
    templates by where the face sits in its covered picture, so any consistent cut reads back.)"""
    from ..vision.structure import find_grids

    grids = find_grids(frame)
    if not grids:
        raise BoardNotFoundError("no grid of cells on the screen: start the client with a fresh game showing",
                                 reason="no grid")
    grid = grids[0]
    cx, cy = grid.centres
    px, py = grid.pitch

    def edges(centres: np.ndarray, pitch: float) -> tuple[float, ...]:
        starts = centres - pitch / 2
        return (*map(float, starts), float(starts[-1] + pitch))

    return Lattice.from_edges(name, edges(cx, px), edges(cy, py))


# Mean grey-level difference (0-255) under which an outer cell of a fresh board looks like an inner one,
# and under which it looks the same.
SAME_LOOK = 3.0
EXACT_LOOK = 0.5


def fresh_phase(frame: np.ndarray, lattice: Lattice) -> Lattice:
    """``lattice`` shifted so that every cell of a fresh board (all covered) shows the same picture.

    A face found by structure is the flat part of a cell: with a bevel around it (a raised button,
    minegauler's), boxes that start at the face reach into the next cell, and the last row and column
    into the frame, so a fresh board seems to hold four kinds of cell. Only the boxes in phase with the
    cells make the outer rows and columns look like the inner ones: that shift is found one axis at a
    time, the smallest one when several fit (a frame drawn like the cells' edges)."""
    gray = frame if frame.ndim == 2 else frame.mean(axis=2)
    height, width = gray.shape

    def mismatch(xs: tuple[float, ...], ys: tuple[float, ...], axis: int) -> float:
        def crop(r: int, c: int) -> np.ndarray | None:
            x0, y0 = whole_pixel(xs[c]), whole_pixel(ys[r])  # as learn cuts its boxes (Watcher.cells)
            w, h = int(round(xs[1] - xs[0])), int(round(ys[1] - ys[0]))
            if x0 < 0 or y0 < 0 or x0 + w > width or y0 + h > height:
                return None
            return gray[y0:y0 + h, x0:x0 + w]

        rows, cols = len(ys) - 1, len(xs) - 1
        lines = (0, cols // 2, cols - 1) if axis == 0 else (0, rows // 2, rows - 1)
        crops = [[crop(r, line) if axis == 0 else crop(line, r) for r in range(rows if axis == 0 else cols)]
                 for line in lines]
        if any(c is None for line in crops for c in line):
            return float("inf")
        middle = np.median(np.stack(crops[1]), axis=0)
        # The median over each outer line: one lit cell under the pointer does not count.
        return max(float(np.median([np.abs(c - middle).mean() for c in line])) for line in (crops[0], crops[2]))

    xs, ys = lattice.col_edges(), lattice.row_edges()
    for axis, pitch in ((0, lattice.pitch[0]), (1, lattice.pitch[1])):
        reach = int(pitch // 2)
        shifts = sorted(range(-reach, reach + 1), key=abs)
        scores = []
        for d in shifts:
            moved_x = tuple(x + d for x in xs) if axis == 0 else xs
            moved_y = tuple(y + d for y in ys) if axis == 1 else ys
            scores.append(mismatch(moved_x, moved_y, axis))
        # A phase where the outer cells look exactly like the inner ones is the cells' own (a look with
        # no gap between cells, the classic one), even where the one found looks nearly as good: a box a
        # pixel off holds a pixel of the next cell, and an opened cell then changes picture when its
        # neighbour does (minegauler at 24 px: 2.25 levels off at a 1-pixel shift). Where none does (gaps
        # between cells show the window's background round the board), the boxes found stay unless
        # another phase looks alike and they do not. Of equal phases the smallest shift.
        exact = [d for d, score in zip(shifts, scores) if score <= EXACT_LOOK]
        if exact:
            best = exact[0]
        elif scores[0] <= SAME_LOOK:
            best = 0
        else:
            best = shifts[int(np.argmin(scores))]
        if axis == 0:
            xs = tuple(x + best for x in xs)
        else:
            ys = tuple(y + best for y in ys)
    return Lattice.from_edges(lattice.skin, xs, ys)


class Watcher:
    """Looks at and clicks the board of one client window, keeping what it sees in ``seen``."""

    def __init__(self, desk: Desk, name: str, rng: random.Random | None = None) -> None:
        self.desk = desk
        self.name = name
        self.rng = rng or random.Random()
        self.seen: Seen | None = None
        self.mouse: BoardMouse | None = None

    # -- looking -------------------------------------------------------------------------------------

    def _check_window(self) -> None:
        window = self.desk.window
        if window is None:
            return
        try:
            window.geometry()
        except WindowGoneError:
            # Gone is all the window system says: closed, or destroyed by a client that draws its
            # end screens in a new window. Said as such, not guessed.
            raise LearnError("the client's window went away while learning (closed, or replaced by another window "
                             "of the program): nothing was written", code=1) from None

    def grab(self) -> np.ndarray:
        """The screen rectangle kept for the skin (the window, or the board with room around it)."""
        self._check_window()
        return self.desk.screen.grab(self.seen.crop.as_region())

    def cells(self, image: np.ndarray) -> np.ndarray:
        from ..vision.cells import box_sizes
        from .clusters import cell_pictures

        # On whole pixels: a box cut a pixel off here and there holds a line of its neighbour, and an
        # opened cell then changes picture when the one beside it opens (xdemineur's 21 px boxes,
        # found with edges at x.5, changed at every loss).
        lat = self.seen.lattice.translated(-self.seen.crop.left, -self.seen.crop.top).on_whole_pixels()
        flat = cell_pictures(image, lat)
        if flat is None:
            raise LearnError("the board is no longer where it was found (the window moved or shrank)", code=4)
        return self.seen.clusters.assign_board(flat, lat.rows, lat.cols, box_sizes(lat))

    def settled(self, previous: np.ndarray | None = None, timeout: float = REDRAW_TIMEOUT) -> tuple[np.ndarray, np.ndarray]:
        """(image, ids) once the picture has stopped changing; with ``previous`` (ids), waits up to
        ``timeout`` for the board to differ from it first (returns the unchanged board after that)."""
        start = self.desk.clock()
        deadline = start + timeout
        last = self.grab()
        changed_at = start
        while True:
            self.desk.sleep(0.005)
            now = self.grab()
            if not np.array_equal(now, last):
                last, changed_at = now, self.desk.clock()
                continue
            if self.desk.clock() - changed_at < SETTLE:
                continue
            ids = self.cells(now)
            if previous is None or not np.array_equal(ids, previous) or self.desk.clock() > deadline:
                if previous is not None and not np.array_equal(ids, previous):
                    self.seen.latencies.append(changed_at - start)
                return now, ids

    def keep(self, image: np.ndarray, ids: np.ndarray, what: str, opened: set | None = None,
             all_mines_shown: bool = False, flagged: set | None = None) -> None:
        """Keep a frame, with the cells opened so far (``opened``, else the game's ``seen.opened``)."""
        opened = self.seen.opened if opened is None else opened
        self.seen.frames.append(Frame(image.copy(), ids.copy(), what, frozenset(opened), all_mines_shown,
                                      frozenset(flagged or ())))

    # -- acting --------------------------------------------------------------------------------------

    def park(self) -> None:
        self.mouse.park()

    def control(self, action: ControlAction) -> None:
        if action.keys:
            if self.desk.window is not None and action.focus:
                self.desk.window.activate()
                self.desk.sleep(0.05)
            self.desk.mouse.press(*action.keys)
        if action.click is not None:
            point = self.control_click_point(action)
            if point is None:
                return  # a candidate restart that would click the board or past the window: not tried
            self.desk.mouse.click(*self.desk.scale.to_points(*point), "left")
        if action.wait:
            self.desk.sleep(action.wait)
        self.park()

    def control_click_point(self, action: ControlAction) -> tuple[float, float] | None:
        """Where ``action``'s click lands, or None where it may not click (``guarded_click_point``)."""
        window = self.desk.window.geometry() if self.desk.window is not None else self.mouse.screen
        return action.guarded_click_point(self.seen.lattice, window)

    def covered_cells(self, ids: np.ndarray) -> list[tuple[int, int]]:
        return [(int(r), int(c)) for r, c in np.argwhere(np.isin(ids, list(self.seen.covered)))]

    def open(self, ids: np.ndarray, cell: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        self.mouse.open(*cell)
        self.park()
        return self.settled(previous=ids)

    def right(self, ids: np.ndarray, cell: tuple[int, int], again: bool = False,
              others_may_change: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """A right click; ``again`` on the cell just right-clicked waits first, so the toolkit does not
        take the two for a double click (gnome-mines ignores the second one then). Other cells must not
        change, unless ``others_may_change`` (the flag that may win a game and show it on the board)."""
        if again:
            self.desk.sleep(DOUBLE_CLICK)
        self.mouse.flag(*cell)
        self.park()
        image, after = self.settled(previous=ids)
        if not others_may_change and not only_cell_changed(ids, after, cell):
            # Still being drawn, or something opened over the board (a context menu). No key is pressed
            # to close it: a key may quit the client (Escape quits xdemineur).
            self.desk.sleep(SETTLE)
            image, after = self.settled()
            if not only_cell_changed(ids, after, cell):
                others = [(int(r), int(c)) for r, c in np.argwhere(ids != after) if (r, c) != cell]
                raise LearnError(f"a right click on cell {cell} changed other cells too ({len(others)}, e.g. "
                                 f"{others[:3]}: a menu or window over the board?): nothing was written", code=1)
        return image, after


def only_cell_changed(before: np.ndarray, after: np.ndarray, cell: tuple[int, int]) -> bool:
    changed = before != after
    changed[cell] = False
    return not changed.any()


def debug_dump(game: int, lost: LostGame, before: np.ndarray, after: np.ndarray, exc: object) -> None:
    """With SCREENBOT_LEARN_DEBUG=DIR, each lost game is saved there to look at, with how it was named
    or why it was not."""
    import os

    folder = os.environ.get("SCREENBOT_LEARN_DEBUG")
    if not folder:
        return
    import cv2

    os.makedirs(folder, exist_ok=True)
    cv2.imwrite(os.path.join(folder, f"game{game}-before.png"), before)
    cv2.imwrite(os.path.join(folder, f"game{game}-after.png"), after)
    with open(os.path.join(folder, f"game{game}.txt"), "w", encoding="utf-8") as out:
        out.write(f"{exc}\nclicked {lost.clicked}\ncovered {sorted(lost.covered)} flags {sorted(lost.flags)} "
                  f"opened before {sorted(lost.opened_before)}\nbefore\n{lost.before}\nafter\n{lost.after}\n")


def debug_keep_skin(stage_skin: Path, frames: list) -> None:
    """With SCREENBOT_LEARN_DEBUG=DIR, a skin that failed its check is kept there (``failed-skin``) with
    the labelled frames it was checked on (``frame<i>-<what>.png`` and ``.txt``)."""
    import os
    import shutil

    folder = os.environ.get("SCREENBOT_LEARN_DEBUG")
    if not folder:
        return
    import cv2

    target = Path(folder) / "failed-skin"
    shutil.rmtree(target, ignore_errors=True)
    if stage_skin.is_dir():
        shutil.copytree(stage_skin, target)
    target.mkdir(parents=True, exist_ok=True)
    for i, (image, board, what) in enumerate(frames):
        cv2.imwrite(str(target / f"frame{i}-{what}.png"), image)
        (target / f"frame{i}-{what}.txt").write_text("\n".join(board.grid) + "\n", encoding="utf-8")


def opened_ids(seen: Seen, ids: np.ndarray) -> set[int]:
    return {int(i) for i in np.unique(ids)} - set(seen.closed_ids())


def crop_around(lattice: Lattice, window, width: int, height: int) -> Rect:
    """The window holding the board, when known, else the board with three cells of room around it.
    The skin needs a cell's width of what surrounds the board on some side: a window that leaves less
    (xbomb's big cells fill it) is widened by a cell and a half onto the screen around it."""
    screen = Rect(0, 0, width, height)
    board = lattice.board_rect()
    px, py = lattice.pitch
    if window is not None:
        try:
            rect = window.geometry().clipped(screen)
        except WindowGoneError:
            raise LearnError("the client's window went away while learning (closed, or replaced by another window "
                             "of the program): nothing was written", code=1) from None
        if rect.contains_rect(board):
            room = max(board.left - rect.left, rect.right - board.right, board.top - rect.top, rect.bottom - board.bottom)
            if room >= max(px, py):
                return rect
            return board.expanded(int(1.5 * px), int(1.5 * py)).clipped(screen)
    return board.expanded(int(3 * px), int(3 * py)).clipped(screen)
