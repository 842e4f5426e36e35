"""Labelled screenshots of xbomb, truth by the rules of the game.

xbomb reveals the whole board when a game is lost: every bomb on red, every other cell with its
number. The mines are taken from that lost picture by colour alone (a bomb cell is mostly pure red;
no template), every number is then *computed* from them, and two checks must pass or the game is
thrown away: cells given the same label look alike (a client that drew a 3 where the rules say 2
fails), and the green borders xbomb gives at the end to the cells the player got right are exactly on
the cells this session opened or flagged on a bomb. Earlier screenshots of the game are labelled from
the last: a cell still showing the fresh board's covered picture is covered, a cell the session flagged
is a flag, any other cell shows its computed number.

Labels of the lost board: the bomb hit is ``X`` (a bomb with a green border), and so is a bomb the
session had flagged: xbomb draws the two exactly alike (green borders mark the cells the player
touched: opened, flagged right, or hit). Every other bomb is ``*`` (black border), a wrong flag is
``0``: xbomb draws it as an empty open cell with a black border, exactly as an opened 0 during play
(its true number is not shown), every other cell its number.

    python3 -m lab.shots.xbomb OUT_DIR --level 1 --games 3 [--seed S] [--held-back]

plays games of random clicks (the first in the middle: always an opening) with a few random flags.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np

from solver.board import Board, neighbours

from screenbot.geometry import Lattice

from .sessions import LabelledShot, click_at, move_pointer
from .store import TRUTH_SOURCES, save_shot

TRUTH_SOURCES["xbomb"] = ("rules: the bombs on the lost board found by colour, numbers computed from them and checked "
                          "against the pictures and the end-of-game green borders")

LEVELS = {1: (8, 8, 10), 2: (16, 16, 40), 3: (30, 16, 99)}


def measure_lattice(frame: np.ndarray, window) -> Lattice:
    """The grid from its black lines (2 px each, one per cell side) inside the window."""
    left, top, width, height = window
    region = frame[top : top + height, left : left + width, :3].astype(int)
    dark = region.sum(axis=2) < 100
    cols_dark = np.flatnonzero(dark.mean(axis=0) > 0.6)
    rows_dark = np.flatnonzero(dark.mean(axis=1) > 0.6)

    def lines(idx):
        groups, start = [], None
        for i, v in enumerate(idx):
            if start is None:
                start = v
            if i + 1 == len(idx) or idx[i + 1] != v + 1:
                groups.append((start, v))
                start = None
        return groups

    xs, ys = lines(cols_dark), lines(rows_dark)
    return xs, ys, left, top


class Session:
    def __init__(self, level: int) -> None:
        from screenbot.capture import MssScreen
        from screenbot.desktop.clients import start_xbomb

        self.cols, self.rows, self.mines = LEVELS[level]
        self.client = start_xbomb(level, position=(150, 100))
        self.screen = MssScreen()
        time.sleep(0.5)
        self.new_game()

    def new_game(self) -> None:
        frame = self.screen.grab()
        rect = self.client.geometry()
        self.window = (rect.left, rect.top, rect.width, rect.height)
        self.lattice = _lattice(frame, self.window, self.rows, self.cols)
        self.flags: set[tuple[int, int]] = set()

    def close(self) -> None:
        self.screen.close()
        self.client.close()

    def centre(self, r: int, c: int) -> tuple[int, int]:
        (ox, oy), (px, py) = self.lattice.origin, self.lattice.pitch
        return int(ox + (c + 0.5) * px), int(oy + (r + 0.5) * py)

    def cells(self, frame: np.ndarray) -> np.ndarray:
        (ox, oy), (px, py) = self.lattice.origin, self.lattice.pitch
        out = np.zeros((self.rows, self.cols, int(py), int(px), 3), np.uint8)
        for r in range(self.rows):
            for c in range(self.cols):
                x, y = int(round(ox + c * px)), int(round(oy + r * py))
                out[r, c] = frame[y : y + int(py), x : x + int(px), :3]
        return out

    def click(self, r: int, c: int, button: int = 1) -> None:
        x, y = self.centre(r, c)
        click_at(x, y, button)
        move_pointer(5, 5)  # off the board: no pressed look in the shot
        time.sleep(0.15)
        if button == 3:
            self.flags ^= {(r, c)}

    def key(self, name: str) -> None:
        from screenbot.platforms.x11.keys import press_key

        press_key(name)
        time.sleep(0.3)


def _lattice(frame, window, rows, cols) -> Lattice:
    xs, ys, left, top = measure_lattice(frame, window)
    # The grid: cols + 1 vertical line groups, the cell box from the first pixel after one line group
    # to the first pixel after the next (each cell draws its own border inside).
    xs = [g for g in xs if g[1] - g[0] <= 3]
    ys = [g for g in ys if g[1] - g[0] <= 3]
    xs, ys = _regular_run(xs, cols + 1), _regular_run(ys, rows + 1)
    if len(xs) != cols + 1 or len(ys) != rows + 1:
        raise ValueError(f"grid lines: {len(xs)} vertical, {len(ys)} horizontal for {rows}x{cols} cells")
    pitch_x = (xs[-1][0] - xs[0][0]) / cols
    pitch_y = (ys[-1][0] - ys[0][0]) / rows
    x0, y0 = left + xs[0][0] + 1, top + ys[0][0] + 1
    return Lattice("xbomb", (float(x0), float(y0)), (float(pitch_x), float(pitch_y)), rows, cols)


def _regular_run(groups: list, count: int) -> list:
    """The ``count`` consecutive line groups that are evenly spaced (the grid's, not the buttons')."""
    for i in range(len(groups) - count + 1):
        run = groups[i : i + count]
        steps = [b[0] - a[0] for a, b in zip(run, run[1:])]
        if max(steps) - min(steps) <= 1:
            return run
    return groups


def is_bomb(cell: np.ndarray) -> bool:
    b, g, r = cell[..., 0].astype(int), cell[..., 1].astype(int), cell[..., 2].astype(int)
    return ((r > 200) & (g < 60) & (b < 60)).mean() > 0.3


def border_green(cell: np.ndarray) -> bool:
    ring = np.concatenate([cell[0, 2:-2], cell[-1, 2:-2], cell[2:-2, 0], cell[2:-2, -1]]).astype(int)
    return ((ring[:, 1] > 200) & (ring[:, 0] < 80) & (ring[:, 2] < 80)).mean() > 0.5


def label_game(frames: list[tuple[str, np.ndarray, tuple[str, ...], set]], session: Session, opened_by_us) -> list[LabelledShot]:
    """Label every frame of one lost game from its last frame (see the module's doc)."""
    name, last, tags, flags = frames[-1]
    cells = session.cells(last)
    rows, cols = session.rows, session.cols
    mines = {(r, c) for r in range(rows) for c in range(cols) if is_bomb(cells[r, c])}
    if len(mines) != session.mines:
        raise ValueError(f"{len(mines)} bombs on the lost board, the level has {session.mines}")
    counts = {(r, c): sum((p in mines) for p in neighbours(rows, cols, r, c)) for r in range(rows) for c in range(cols)}
    final = [["X" if (r, c) in mines and (r, c) in flags else "*" if (r, c) in mines
              else "0" if (r, c) in flags else str(counts[r, c])
              for c in range(cols)] for r in range(rows)]
    # Check 1: the green borders are the cells the player got right.
    for r in range(rows):
        for c in range(cols):
            right = (r, c) in opened_by_us or ((r, c) in flags and (r, c) in mines) or (r, c) == session.hit
            if border_green(cells[r, c]) != right:
                raise ValueError(f"cell ({r}, {c}): green border {border_green(cells[r, c])}, player right {right}, mine {(r, c) in mines}, flag {(r, c) in flags}, opened {(r, c) in opened_by_us}; flags {sorted(flags)}")
    hit = session.hit
    if hit in flags or hit not in mines:
        raise ValueError(f"the last click {hit} is not an unflagged bomb")
    final[hit[0]][hit[1]] = "X"
    # Check 2: same label and same border -> the same picture (pixel-exact: whole-pixel grid).
    groups: dict = {}
    for r in range(rows):
        for c in range(cols):
            groups.setdefault((final[r][c], border_green(cells[r, c])), []).append(cells[r, c].astype(int))
    for key, pics in groups.items():
        for pic in pics[1:]:
            if np.abs(pic - pics[0]).mean() > 3:
                raise ValueError(f"cells labelled {key} do not look alike")
    shots = []
    fresh_cells = session.fresh_cells
    for name, frame, tags, flags_then in frames:
        now = session.cells(frame)
        grid = []
        for r in range(rows):
            row = ""
            for c in range(cols):
                if frame is last:
                    row += final[r][c]
                elif (r, c) in flags_then:
                    row += "F"
                elif np.abs(now[r, c].astype(int) - fresh_cells[r, c].astype(int)).mean() < 2:
                    row += "#"
                else:
                    if (r, c) in mines:
                        raise ValueError(f"{name}: ({r}, {c}) is open before the loss but is a bomb")
                    row += str(counts[r, c])
            grid.append(row)
        shots.append(LabelledShot("xbomb", name, frame, session.lattice, Board(tuple(grid)), session.window, tags))
    return shots


def one_game(session: Session, stem: str, rng: random.Random) -> list[LabelledShot]:
    rows, cols = session.rows, session.cols
    session.new_game()
    frames = []
    fresh = session.screen.grab()
    session.fresh_cells = session.cells(fresh)
    frames.append((f"{stem}-fresh", fresh, ("fresh",), set()))
    session.click(rows // 2, cols // 2)
    opened: set = set()
    covered_pic = session.fresh_cells

    def opened_now(frame):
        now = session.cells(frame)
        return {(r, c) for r in range(rows) for c in range(cols)
                if (r, c) not in session.flags and np.abs(now[r, c].astype(int) - covered_pic[r, c].astype(int)).mean() >= 2}

    frame = session.screen.grab()
    for (r, c) in rng.sample([(r, c) for r in range(rows) for c in range(cols)], 3):
        if (r, c) not in opened_now(frame):
            session.click(r, c, 3)
    mid_taken = False
    for _ in range(rows * cols):
        frame = session.screen.grab()
        cells = session.cells(frame)
        if any(is_bomb(cells[r, c]) for r in range(rows) for c in range(cols)):
            break
        opened = opened_now(frame)
        if not mid_taken and len(opened) > rows * cols * (0.25 if rows * cols < 100 else 0.06):
            frames.append((f"{stem}-mid", frame, ("mid-game", "flagged"), set(session.flags)))
            mid_taken = True
        choices = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in opened and (r, c) not in session.flags]
        # Cells next to an open cell first: more of the board gets opened before the loss.
        near = [p for p in choices if any(q in opened for q in neighbours(rows, cols, *p))]
        session.hit = rng.choice(near or choices)
        session.click(*session.hit)
    last = session.screen.grab()
    for _ in range(50):  # until the reveal is drawn whole: two grabs 0.3 s apart alike
        time.sleep(0.3)
        again = session.screen.grab()
        if np.array_equal(again, last):
            break
        last = again
    frames.append((f"{stem}-lost", last, ("lost",), set(session.flags)))
    shots = label_game(frames, session, opened)
    session.key("s")
    session.flags = set()
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--level", type=int, default=1)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--held-back", action="store_true")
    parser.add_argument("--prefix", default="xb")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    session = Session(args.level)
    kept = tries = 0
    try:
        while kept < args.games and tries < args.games * 4:
            tries += 1
            stem = f"{args.prefix}-l{args.level}-s{args.seed}-g{tries}"
            try:
                shots = one_game(session, stem, rng)
            except ValueError as exc:
                print(f"{stem}: thrown away: {exc}")
                session.key("s")
                continue
            for shot in shots:
                print(save_shot(shot, args.out, for_templates=not args.held_back, margin=64))
            kept += 1
    finally:
        session.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
