"""Labelled screenshots of sgt-mines (Simon Tatham's "mines"), a client the reader is taught with
``screenbot new-skin`` rather than tuned for.

sgt-mines takes its mine layout in the game id, so the truth here is exact and needs no picture at
all: the session deals a layout it chose, simulates the game's own rules for every click it makes
(an opened zero opens its eight neighbours; a loss shows only the mine that was hit until Solve,
Ctrl+S, shows every mine and crosses the wrong flags) and writes the board that follows. The lattice
is measured on the fresh board: every covered tile starts with a two-pixel white bevel on its top and
left edges, so the runs of white columns and rows give the tiles' starts.

    python3 -m lab.shots.sgt_mines fixtures/screens     # the committed sgt-mines fixtures
                                                              # (sm-small-lost was then moved to
                                                              # fixtures/screens-unsupported)
"""

from __future__ import annotations

import logging
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from solver.board import Board, parse_board

from screenbot.capture import MssScreen
from screenbot.desktop.clients import sgt_mines_game_id, start_sgt_mines
from screenbot.desktop.processes import ClientWindow
from screenbot.errors import ScreenError
from screenbot.geometry import Lattice
from .sessions import LabelledShot, click_at, move_pointer, settled_grab

log = logging.getLogger(__name__)

CLIENT = "sgt-mines"
AROUND = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def sgt_lattice(frame: np.ndarray, client: ClientWindow, rows: int, cols: int, tile: int) -> Lattice:
    """The lattice of a fresh (all covered) board: the starts of the white bevel runs."""
    rect = client.geometry()
    white = (frame[rect.top : rect.bottom, rect.left : rect.right] == 255).all(axis=2)

    def starts(profile: np.ndarray, count: int) -> int:
        on = profile > 0.5 * profile.max()
        edges = np.flatnonzero(on[1:] & ~on[:-1]) + 1
        # The tiles' bevels, then the right/bottom highlight of the board's recessed frame.
        if len(edges) < count or not np.all(np.diff(edges[:count]) == tile):
            raise ScreenError(f"sgt-mines: expected {count} tiles of {tile} px, found starts {edges.tolist()}")
        return int(edges[0])

    x0 = starts(white.sum(axis=0), cols)
    y0 = starts(white.sum(axis=1), rows)
    return Lattice(CLIENT, (float(rect.left + x0), float(rect.top + y0)), (float(tile), float(tile)), rows, cols)


@dataclass
class SgtGame:
    """One running game with a known layout; ``grid`` is what the screen shows, by the rules."""

    client: ClientWindow
    screen: MssScreen
    lattice: Lattice
    mines: frozenset[tuple[int, int]]
    grid: list[list[str]] = field(default_factory=list)
    settle: float = 0.25

    @property
    def rows(self) -> int:
        return self.lattice.rows

    @property
    def cols(self) -> int:
        return self.lattice.cols

    def count(self, r: int, c: int) -> int:
        return sum((r + dr, c + dc) in self.mines for dr, dc in AROUND)

    def neighbours(self, r: int, c: int):
        return [(r + dr, c + dc) for dr, dc in AROUND if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols]

    def away(self) -> None:
        width, height = self.screen.size
        move_pointer(width - 1, height - 1)
        time.sleep(self.settle)

    def _click(self, r: int, c: int, button: int) -> None:
        # Every click here changes the board: wait for the change to start before settling, or a
        # machine under load shoots the board before the game took the click (the truth already moved on).
        before = self.screen.grab()
        x, y = self.lattice.cell_center(r, c)
        click_at(x, y, button)
        self._changed_from(before)
        self.away()

    def _changed_from(self, before: np.ndarray, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while np.array_equal(self.screen.grab(), before):
            if time.monotonic() > deadline:
                raise ScreenError("sgt-mines: the board did not change after a click")
            time.sleep(0.02)

    def open(self, r: int, c: int) -> bool:
        """Left-click a covered cell; False when it was a mine (the game is lost)."""
        if self.grid[r][c] != "#":
            raise ValueError(f"({r}, {c}) is not a covered cell")
        self._click(r, c, 1)
        if (r, c) in self.mines:
            self.grid[r][c] = "X"
            time.sleep(1.0)  # the board flashes red a few times
            return False
        todo = [(r, c)]
        while todo:
            y, x = todo.pop()
            if self.grid[y][x] != "#":
                continue
            self.grid[y][x] = str(self.count(y, x))
            if self.grid[y][x] == "0":
                todo += [(ny, nx) for ny, nx in self.neighbours(y, x) if self.grid[ny][nx] == "#"]
        if sum(ch in "#F" for row in self.grid for ch in row) == len(self.mines):
            # A win: the game marks every remaining cell as a mine (drawn as a flag).
            self.grid = [["F" if ch == "#" else ch for ch in row] for row in self.grid]
            time.sleep(1.0)
        return True

    def flag(self, r: int, c: int) -> None:
        if self.grid[r][c] not in "#F":
            raise ValueError(f"({r}, {c}) cannot be flagged")
        self._click(r, c, 3)
        self.grid[r][c] = "F" if self.grid[r][c] == "#" else "#"

    def overflagged(self, extra: tuple[int, int] | None = None) -> bool:
        """Would a number see more flags than its value (sgt-mines then paints it on pink, a picture
        that is not a board state)?"""
        flags = {(r, c) for r in range(self.rows) for c in range(self.cols) if self.grid[r][c] in "FW"}
        if extra:
            flags.add(extra)
        return any(self.grid[r][c].isdigit() and sum(n in flags for n in self.neighbours(r, c)) > int(self.grid[r][c])
                   for r in range(self.rows) for c in range(self.cols))

    def solve(self) -> None:
        """After a loss, Solve (Ctrl+S) shows every mine and crosses out the wrong flags."""
        before = self.screen.grab()
        _press("Control_L", "s")
        self._changed_from(before)
        for r in range(self.rows):
            for c in range(self.cols):
                if self.grid[r][c] == "#" and (r, c) in self.mines:
                    self.grid[r][c] = "*"
                elif self.grid[r][c] == "F" and (r, c) not in self.mines:
                    self.grid[r][c] = "W"

    def _settled(self, timeout: float = 5.0, still: int = 3) -> np.ndarray:
        """A frame equal to the ``still`` grabbed before it, 0.1 s apart (the game has finished drawing,
        its loss flashes too)."""
        frame, settled = settled_grab(self.screen, still=still, timeout=timeout)
        if not settled:
            raise ScreenError("sgt-mines: the screen did not settle")
        return frame

    def board(self) -> Board:
        return parse_board("\n".join("".join(row) for row in self.grid))

    def shot(self, name: str, *tags: str) -> LabelledShot:
        if self.overflagged():
            raise ScreenError(f"{name}: a number has more flags around it than its value")
        self.away()
        frame = self._settled()
        return LabelledShot(CLIENT, name, frame, self.lattice, self.board(), self.client.geometry().as_region(), tags)


def _press(*keys: str) -> None:
    """Press ``keys`` together through XTEST (sgt-mines, like GTK, ignores synthetic key events)."""
    from Xlib import X, XK
    from screenbot.platforms.x11.windows import connect
    from Xlib.ext import xtest

    conn = connect()
    try:
        codes = [conn.keysym_to_keycode(XK.string_to_keysym(key)) for key in keys]
        for event, order in ((X.KeyPress, codes), (X.KeyRelease, codes[::-1])):
            for code in order:
                xtest.fake_input(conn, event, code)
                conn.sync()
                time.sleep(0.03)
    finally:
        conn.close()


def random_layout(rng: random.Random, rows: int, cols: int, count: int,
                  keep_free: set[tuple[int, int]] = frozenset()) -> set[tuple[int, int]]:
    cells = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in keep_free]
    return set(rng.sample(cells, count))


def every_number_layout(rng: random.Random, rows: int = 16, cols: int = 30, extra: int = 60
                        ) -> tuple[set[tuple[int, int]], list[tuple[int, int]]]:
    """A layout where cell (2, 2 + 3k) has exactly k + 1 mines around it (k = 0..7; their
    neighbourhoods do not overlap), plus ``extra`` random mines below row 5. Returns the mines and
    those eight cells, which opened show every number 1 to 8."""
    mines: set[tuple[int, int]] = set()
    probes = [(2, 2 + 3 * k) for k in range(8)]
    for k, (r, c) in enumerate(probes):
        around = [(r + dr, c + dc) for dr, dc in AROUND]
        mines |= set(rng.sample(around, k + 1))
    low = [(r, c) for r in range(6, rows) for c in range(cols)]
    mines |= set(rng.sample(low, extra))
    return mines, probes


def start(screen: MssScreen, mines: set[tuple[int, int]], rows: int, cols: int, tile: int) -> SgtGame:
    client = start_sgt_mines(sgt_mines_game_id(cols, rows, mines), tile=tile)
    try:
        game = SgtGame(client, screen, Lattice(CLIENT, (0.0, 0.0), (1.0, 1.0), rows, cols), frozenset(mines),
                       [["#"] * cols for _ in range(rows)])
        game.away()
        game.lattice = sgt_lattice(screen.grab(), client, rows, cols, tile)
        return game
    except BaseException:
        client.close()
        raise


def play(game: SgtGame, prefix: str, rng: random.Random, opens: int = 6, flags: int = 3,
         probes: list[tuple[int, int]] = ()) -> list[LabelledShot]:
    """fresh, opened (a zero's area), mid (more cells opened, some mines flagged and one wrong flag),
    dead (a mine hit: only it is shown) and lost (after Solve: every mine)."""
    shots = [game.shot(f"{prefix}-fresh", "fresh")]
    zeros = [(r, c) for r in range(game.rows) for c in range(game.cols) if (r, c) not in game.mines and game.count(r, c) == 0]
    game.open(*rng.choice(zeros))
    shots.append(game.shot(f"{prefix}-opened", "fresh-opening"))
    for cell in probes:
        if game.grid[cell[0]][cell[1]] == "#":
            game.open(*cell)
    for _ in range(opens):
        safe = [(r, c) for r in range(game.rows) for c in range(game.cols)
                if game.grid[r][c] == "#" and (r, c) not in game.mines]
        game.open(*rng.choice(safe))
    hidden = sorted(m for m in game.mines if game.grid[m[0]][m[1]] == "#")
    for cell in rng.sample(hidden, min(flags, len(hidden))):
        game.flag(*cell)
    wrong = [(r, c) for r in range(game.rows) for c in range(game.cols)
             if game.grid[r][c] == "#" and (r, c) not in game.mines]
    rng.shuffle(wrong)
    for cell in wrong:
        if not game.overflagged(cell):
            game.flag(*cell)
            break
    shots.append(game.shot(f"{prefix}-mid", "mid-game", "flagged"))
    hidden = sorted(m for m in game.mines if game.grid[m[0]][m[1]] == "#")
    game.open(*rng.choice(hidden))
    shots.append(game.shot(f"{prefix}-dead", "lost"))
    game.solve()
    shots.append(game.shot(f"{prefix}-lost", "lost"))
    return shots


# name, rows, cols, mines (None: the every-number layout), tile px, seed, used for the templates
FIXTURE_GAMES = (
    ("sm-teach-30x16", 16, 30, None, 20, 1, True),
    ("sm-big", 16, 30, 99, 20, 3, False),
    ("sm-medium", 16, 16, 40, 20, 4, False),
    ("sm-small", 9, 9, 10, 20, 2, False),
)


def capture(out: Path, games=FIXTURE_GAMES) -> list[Path]:
    """Play the fixture games on a new virtual display and save their shots in ``out``."""
    from screenbot.desktop import VirtualDisplay
    from .store import save_shot

    saved = []
    with VirtualDisplay(), MssScreen() as screen:
        for name, rows, cols, count, tile, seed, for_templates in games:
            rng = random.Random(seed)
            if count is None:
                mines, probes = every_number_layout(rng, rows, cols)
            else:
                mines, probes = random_layout(rng, rows, cols, count), []
            game = start(screen, mines, rows, cols, tile)
            try:
                shots = play(game, name, rng, probes=probes)
            finally:
                game.client.close()
            for shot in shots:
                # The skin is taught from the mid-game and lost boards only (the walkthrough in docs/clients.md).
                taught = for_templates and shot.name.endswith(("-mid", "-lost"))
                saved.append(save_shot(shot, out, for_templates=taught))
                log.info("saved %s", saved[-1])
    return saved


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    for path in capture(Path(sys.argv[1] if len(sys.argv) > 1 else "fixtures/screens")):
        print(path)
