"""A Minesweeper game engine for simulation and benchmarks: seeded, reproducible, exact rules.

Rules (where the mines may be, decided at the first click):
- ``safe``: the first click is never a mine; mines are uniform over all other cells.
- ``opening``: the first click and its neighbours are mine-free, so it always opens an area
  (Windows 7, gnome-mines). On boards too crowded for that, it falls back to ``safe``.
- ``none``: mines are placed before the first click, which can lose.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .board import Board
from .grid import neighbour_table

RULES = ("safe", "opening", "none")


@dataclass(frozen=True, slots=True)
class Level:
    rows: int
    cols: int
    mines: int


LEVELS = {
    "beginner": Level(9, 9, 10),
    "intermediate": Level(16, 16, 40),
    "expert": Level(16, 30, 99),
}

PLAYING, WON, LOST = "playing", "won", "lost"


def opening_room(rows: int, cols: int, first: int) -> int:
    """How many mines the ``opening`` rule leaves room for: every cell but the first click (cell index
    ``first``) and its neighbours. With more, a game falls back to ``safe``."""
    return rows * cols - 1 - len(neighbour_table(rows, cols)[first])


class Game:
    """One game. Cells are revealed with ``open``; ``board()`` shows what a player sees."""

    def __init__(self, rows: int, cols: int, mines: int, *, rules: str = "safe", seed: int | None = None) -> None:
        if rules not in RULES:
            raise ValueError(f"unknown rules {rules!r}; expected one of {', '.join(RULES)}")
        if not (rows > 0 and cols > 0 and 0 <= mines < rows * cols):
            raise ValueError(f"a {rows}x{cols} board cannot hold {mines} mines with one safe cell")
        self.rows, self.cols, self.mines, self.rules = rows, cols, mines, rules
        self._rng = random.Random(seed)
        self._nbrs = neighbour_table(rows, cols)
        self._mine: list[bool] | None = None
        self._shows: bytes = b""  # per cell, the character it shows when opened (digit of mines around)
        self._view = bytearray(b"#" * (rows * cols))
        self._hidden_safe = rows * cols - mines
        self.status = PLAYING
        if rules == "none":
            self._place_mines(excluded=())

    @classmethod
    def new(cls, rows: int, cols: int, mines: int, *, rules: str = "safe", seed: int | None = None) -> Game:
        return cls(rows, cols, mines, rules=rules, seed=seed)

    def _place_mines(self, excluded) -> None:
        excluded = set(excluded)
        candidates = [i for i in range(self.rows * self.cols) if i not in excluded]
        self._mine = [False] * (self.rows * self.cols)
        shows = [48] * (self.rows * self.cols)
        for i in self._rng.sample(candidates, self.mines):
            self._mine[i] = True
            # Counted once per mine here, not summed over eight neighbours at every reveal: the
            # benchmark's CPU time per game includes this simulator.
            for k in self._nbrs[i]:
                shows[k] = shows[k] + 1
        self._shows = bytes(shows)

    def open(self, row: int, col: int) -> int:
        """Reveal a cell (opening the area around a zero). Returns how many cells were revealed."""
        if self.status != PLAYING:
            raise RuntimeError("the game is over")
        i = self._index(row, col)
        if self._mine is None:
            excluded = [i]
            if self.rules == "opening" and self.mines <= opening_room(self.rows, self.cols, i):
                excluded += self._nbrs[i]
            self._place_mines(excluded)
        view, mine = self._view, self._mine
        assert mine is not None  # placed above
        if view[i] != ord("#"):
            return 0
        if mine[i]:
            self._lose(i)
            return 0
        revealed = 0
        stack = [i]
        shows, nbrs, covered = self._shows, self._nbrs, ord("#")
        while stack:
            j = stack.pop()
            if view[j] != covered:
                continue
            view[j] = shows[j]
            revealed += 1
            if shows[j] == 48:
                stack.extend(k for k in nbrs[j] if view[k] == covered)
        self._hidden_safe -= revealed
        if self._hidden_safe == 0:
            self.status = WON
        return revealed

    def flag(self, row: int, col: int) -> None:
        i = self._index(row, col)
        if self._view[i] == ord("#"):
            self._view[i] = ord("F")
        elif self._view[i] == ord("F"):
            self._view[i] = ord("#")

    def _lose(self, hit: int) -> None:
        self.status = LOST
        assert self._mine is not None  # a game is lost by opening a cell, which places the mines
        for j, is_mine in enumerate(self._mine):
            if j == hit:
                self._view[j] = ord("X")
            elif is_mine and self._view[j] == ord("#"):
                self._view[j] = ord("*")
            elif not is_mine and self._view[j] == ord("F"):
                self._view[j] = ord("W")

    def _index(self, row: int, col: int) -> int:
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise IndexError(f"cell ({row}, {col}) is off the {self.rows}x{self.cols} board")
        return row * self.cols + col

    def is_mine(self, row: int, col: int) -> bool:
        """The truth, for tests and fakes; None-safe before the mines are placed (returns False)."""
        return bool(self._mine and self._mine[self._index(row, col)])

    def board(self) -> Board:
        text = self._view.decode("ascii")
        c = self.cols
        return Board(tuple(text[r * c : (r + 1) * c] for r in range(self.rows)), self.mines)
