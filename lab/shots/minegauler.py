"""Labelled screenshots of minegauler, truth from the game itself.

minegauler is started with a state file (``screenbot.desktop.minegauler``): every 20 ms the client
writes its own board (what each cell shows), its mine layout and where its cells are on the screen. A
screenshot is kept only when the state read just before it and just after it agree and the board has
been unchanged for 0.2 s, so the picture shows that state. The clicks come from the mine layout: open
safe cells, flag mines, flag one safe cell (a wrong flag), then open a mine (the loss shows every mine,
the hit one, the wrong flag crossed).

    python3 -m lab.shots.minegauler OUT_DIR --sizes 16,24,32 [--seed S] [--desktop-scale 1.25]

makes, per button size, a dense custom game (every number up to 7 or 8 shows on such boards) with a
``fresh``, ``mid`` and ``lost`` shot, named ``mg-<size>-<board>-<stage>`` (``mg-<size>-x<scale>-...``
at a desktop scale). ``won_game`` makes a won game's shot.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from solver.board import Board

from .sessions import LabelledShot, click_at, move_pointer
from .store import TRUTH_SOURCES, save_shot

# Picture kept around the window: the locator must see more than a cell's width beyond the board.
MARGIN = 64

TRUTH_SOURCES["minegauler"] = "game state: the client's own board and mine layout, written by the client itself"

# What minegauler's CellContents reprs show, in the board text format.
CHARS = {"#": "#", "M1": "*", "!1": "X", "F1": "F", "X1": "W"}


def board_text(state: dict) -> Board:
    rows = ["".join(CHARS.get(cell, cell) for cell in row) for row in state["board"]]
    return Board(tuple(rows))


class Session:
    """A started minegauler with its state file, on the current display."""

    def __init__(self, cols: int, rows: int, mines: int, button_size: int, folder: Path,
                 desktop_scale: float | None = None) -> None:
        from screenbot.capture import MssScreen
        from screenbot.desktop.clients import start_minegauler

        self.state_file = folder / f"state-{button_size}-{time.monotonic_ns()}.json"
        self.client = start_minegauler(custom=(cols, rows, mines), button_size=button_size, position=(150, 100),
                                       state_file=str(self.state_file), desktop_scale=desktop_scale)
        self.screen = MssScreen()
        self.button_size = button_size
        time.sleep(0.5)
        # Where the client's cells are on the screen: its own coordinates are Qt's, before its scale.
        self.lattice = self.client.lattice
        # At a fractional scale minegauler may size its window short of its board and scroll it.
        self.scrolled = bool(self.state().get("scrolled"))

    def close(self) -> None:
        self.screen.close()
        self.client.close()
        self.state_file.unlink(missing_ok=True)

    def state(self) -> dict:
        for _ in range(100):
            try:
                return json.loads(self.state_file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                time.sleep(0.02)
        raise RuntimeError("minegauler wrote no state")

    def click(self, r: int, c: int, button: int = 1) -> None:
        """Click a cell's centre through XTEST and wait until the game's board changes (clicks sent back
        to back can crash minegauler)."""
        before = self.state()["board"]
        click_at(*(int(v) for v in self.lattice.cell_center(r, c)), button)
        move_pointer(5, 5)  # off the board: no pressed look in the shot
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and self.state()["board"] == before:
            time.sleep(0.02)

    def open_covered(self, cells) -> None:
        """Click each of ``cells`` that is still covered (an earlier click's flood may have opened it)."""
        for r, c in cells:
            if self.state()["board"][r][c] == "#":
                self.click(r, c)

    def shot(self, name: str, tags: tuple[str, ...]) -> LabelledShot:
        """A screenshot that shows the state read around it (retried until both reads agree)."""
        for _ in range(50):
            time.sleep(0.2)
            before = self.state()
            frame = self.screen.grab()
            after = self.state()
            if before["board"] == after["board"]:
                rect = self.client.geometry()
                return LabelledShot("minegauler", name, frame, self.lattice, board_text(after),
                                    (rect.left, rect.top, rect.width, rect.height), tags)
        raise RuntimeError("the board kept changing")


def _around(rows: int, cols: int, r: int, c: int) -> list[tuple[int, int]]:
    return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols]


def _mines_around(mines: set, rows: int, cols: int, r: int, c: int) -> int:
    return sum(n in mines for n in _around(rows, cols, r, c))


def _started(folder: Path, button_size: int, cols: int, rows: int, mines: int,
             desktop_scale: float | None) -> tuple[Session | None, str]:
    """A session and the stem of its shots' names; no session (the client closed again) where the
    client scrolls its board in its window (at some desktop scales), which no shot may show."""
    session = Session(cols, rows, mines, button_size, folder, desktop_scale)
    scaled = f"-x{desktop_scale:g}".replace(".", "p") if desktop_scale else ""  # no dot: with_suffix keeps working
    stem = f"mg-{button_size}{scaled}-{cols}x{rows}"
    if session.scrolled:
        print(f"{stem}: the client scrolls its board in its window (no shots)")
        session.close()
        return None, stem
    return session, stem


def one_game(folder: Path, out: Path, button_size: int, cols: int, rows: int, mines: int, rng: random.Random,
             for_templates: bool, desktop_scale: float | None = None) -> list[Path]:
    session, stem = _started(folder, button_size, cols, rows, mines, desktop_scale)
    saved: list[Path] = []
    if session is None:
        return saved
    try:
        saved.append(save_shot(session.shot(f"{stem}-fresh", ("fresh",)), out, for_templates=for_templates, margin=MARGIN))
        session.click(rows // 2, cols // 2)
        state = session.state()
        mine_cells = {tuple(m) for m in state["mines"]}
        safe = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in mine_cells and state["board"][r][c] == "#"]
        rng.shuffle(safe)
        # Open most safe cells (each shows its number; zeros open their neighbours), keep a few covered
        # for the wrong flag and the covered picture. One of them, next to no zero, is never clicked,
        # so no flood opens it either: with every safe cell open the game would be won (the draw
        # 8x8 with 10 mines, seed 138816, was), and there would be no covered mine to lose on.
        kept = [cell for cell in safe if not any(_mines_around(mine_cells, rows, cols, *n) == 0
                                                 for n in _around(rows, cols, *cell) if n not in mine_cells)]
        session.open_covered([cell for cell in safe[: int(len(safe) * 0.8)] if cell not in kept[:1]])
        covered = [(r, c) for r, c in safe if session.state()["board"][r][c] == "#"]
        mines_left = sorted(mine_cells)
        rng.shuffle(mines_left)
        for r, c in mines_left[: len(mines_left) // 2]:
            session.click(r, c, 3)
        if covered:
            session.click(*covered[0], 3)  # a flag on a safe cell: crossed out at the loss
        saved.append(save_shot(session.shot(f"{stem}-mid", ("mid-game", "flagged")), out, for_templates=for_templates, margin=MARGIN))
        board = session.state()["board"]
        hit = next((r, c) for r, c in mines_left if board[r][c] == "#")
        session.click(*hit)
        saved.append(save_shot(session.shot(f"{stem}-lost", ("lost",)), out, for_templates=for_templates, margin=MARGIN))
    finally:
        session.close()
    return saved


def won_game(folder: Path, out: Path, button_size: int, cols: int, rows: int, mines: int, rng: random.Random,
             desktop_scale: float | None = None) -> list[Path]:
    """One game won by opening every safe cell in a random order: its ``won`` shot (the client flags
    every mine, face with sunglasses)."""
    session, stem = _started(folder, button_size, cols, rows, mines, desktop_scale)
    if session is None:
        return []
    try:
        session.click(rows // 2, cols // 2)
        mine_cells = {tuple(m) for m in session.state()["mines"]}
        safe = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in mine_cells]
        rng.shuffle(safe)
        session.open_covered(safe)
        return [save_shot(session.shot(f"{stem}-won", ("won",)), out, for_templates=False, margin=MARGIN)]
    finally:
        session.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sizes", default="16,24,32")
    parser.add_argument("--board", default="12x10x45", help="COLSxROWSxMINES of the dense custom game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--desktop-scale", type=float, help="the scale Qt draws at (QT_SCALE_FACTOR, e.g. 1.25)")
    parser.add_argument("--held-back", action="store_true", help="mark the shots as not for templates")
    parser.add_argument("--no-lost", action="store_true", help="keep no lost shot (a dense board's loss is "
                        "mostly mines, a picture the locator need not find: the play loop reads a lost board "
                        "at the place it found the fresh one)")
    args = parser.parse_args(argv)
    cols, rows, mines = (int(v) for v in args.board.split("x"))
    rng = random.Random(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    for size in (int(s) for s in args.sizes.split(",")):
        for path in one_game(args.out, args.out, size, cols, rows, mines, rng, not args.held_back, args.desktop_scale):
            if args.no_lost and path.stem.endswith("-lost"):
                for suffix in (".png", ".txt", ".json"):
                    path.with_suffix(suffix).unlink()
                continue
            print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
