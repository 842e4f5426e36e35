"""The board: a grid of cell states plus the mine total, and its text format.

Text format (the contract every command and test uses):

    mines: 10        <- optional; total mines including flagged ones. Absent = unknown total.
    ##1F
    #210
    ....

One character per cell: ``#`` covered, ``?`` question mark (covered), ``F`` flag, ``0``-``8`` revealed
number (``.`` is read as ``0``), ``n`` a revealed number whose value is not known (no mine; it tells
nothing about its neighbours), ``*`` mine shown after a loss, ``X`` the exploded mine, ``W`` a wrong flag
shown after a loss.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from .errors import BoardFormatError

COVERED = "#"
QUESTION = "?"
FLAG = "F"
MINE = "*"
EXPLODED = "X"
WRONG_FLAG = "W"
NUMBERS = "012345678"
# A revealed number the screen reader has no picture of (a skin learnt by playing that never saw a 6):
# the cell is open, so no mine, and constrains nothing. Every deduction stays sound without it.
UNREAD = "n"
CELL_CHARS = frozenset(NUMBERS + UNREAD + COVERED + QUESTION + FLAG + MINE + EXPLODED + WRONG_FLAG)
# Revealed cells: they never change again while a game goes on.
REVEALED_CHARS = frozenset(NUMBERS + UNREAD)
# Cells a player may still open.
UNKNOWN_CHARS = frozenset(COVERED + QUESTION)
# Cells that count as mines for the numbers around them.
MINE_LIKE_CHARS = frozenset(FLAG + MINE + EXPLODED)


def neighbours(rows: int, cols: int, r: int, c: int) -> Iterator[tuple[int, int]]:
    for dr in (-1, 0, 1):
        rr = r + dr
        if 0 <= rr < rows:
            for dc in (-1, 0, 1):
                cc = c + dc
                if (dr or dc) and 0 <= cc < cols:
                    yield rr, cc


@dataclass(frozen=True, slots=True)
class Board:
    """An immutable board. ``grid`` holds one string per row; ``mines`` is the total or None."""

    grid: tuple[str, ...]
    mines: int | None = None

    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def cols(self) -> int:
        return len(self.grid[0])

    def __getitem__(self, rc: tuple[int, int]) -> str:
        r, c = rc
        return self.grid[r][c]

    def cells(self) -> Iterator[tuple[int, int, str]]:
        for r, row in enumerate(self.grid):
            for c, ch in enumerate(row):
                yield r, c, ch

    def count(self, chars: str | frozenset[str]) -> int:
        return sum(row.count(ch) for row in self.grid for ch in set(chars))

    @property
    def is_over(self) -> bool:
        """True when the board shows a lost game (a mine, an explosion or a wrong flag)."""
        return any(ch in row for row in self.grid for ch in (MINE, EXPLODED, WRONG_FLAG))

    def with_mines(self, mines: int | None) -> Board:
        return Board(self.grid, mines)

    @classmethod
    def covered(cls, rows: int, cols: int, mines: int | None = None) -> Board:
        return cls(tuple(COVERED * cols for _ in range(rows)), mines)


def parse_board(text: str) -> Board:
    """Parse the text format. Raises BoardFormatError naming the line and column of the fault."""
    lines = text.splitlines()
    mines: int | None = None
    first = 0
    while first < len(lines) and not lines[first].strip():
        first += 1
    if first < len(lines) and lines[first].strip().lower().startswith("mines"):
        key, sep, value = lines[first].partition(":")
        if not sep or key.strip().lower() != "mines":
            raise BoardFormatError("expected 'mines: N'", line=first + 1)
        try:
            mines = int(value.strip())
        except ValueError:
            raise BoardFormatError(f"mine total {value.strip()!r} is not a whole number", line=first + 1) from None
        if mines < 0:
            raise BoardFormatError("mine total is negative", line=first + 1)
        first += 1
    rows: list[str] = []
    line_numbers: list[int] = []
    for index in range(first, len(lines)):
        line = lines[index].strip()
        if not line:
            # Blank lines may trail the board, but not split it.
            if any(rest.strip() for rest in lines[index + 1 :]):
                raise BoardFormatError("blank line inside the board", line=index + 1)
            break
        row = line.replace(".", "0")
        for col, ch in enumerate(row):
            if ch not in CELL_CHARS:
                raise BoardFormatError(f"unknown cell character {ch!r}", line=index + 1, column=col + 1)
        if rows and len(row) != len(rows[0]):
            raise BoardFormatError(
                f"row has {len(row)} cells, the first row has {len(rows[0])}", line=index + 1
            )
        rows.append(row)
        line_numbers.append(index + 1)
    if not rows:
        raise BoardFormatError("the board is empty")
    board = Board(tuple(rows), mines)
    _check_numbers(board, line_numbers)
    if mines is not None:
        flagged = board.count(MINE_LIKE_CHARS)
        if flagged > mines:
            raise BoardFormatError(f"{flagged} flags or mines shown but the total is {mines}", line=first)
        if mines > board.rows * board.cols:
            raise BoardFormatError(f"{mines} mines do not fit on {board.rows}x{board.cols} cells", line=first)
    return board


def _check_numbers(board: Board, line_numbers: list[int]) -> None:
    for r, c, ch in board.cells():
        if ch in NUMBERS:
            room = sum(
                1
                for rr, cc in neighbours(board.rows, board.cols, r, c)
                if board.grid[rr][cc] in UNKNOWN_CHARS or board.grid[rr][cc] in MINE_LIKE_CHARS
            )
            if int(ch) > room:
                raise BoardFormatError(
                    f"number {ch} at row {r}, col {c} has only {room} covered or flagged neighbours",
                    line=line_numbers[r],
                    column=c + 1,
                )


def format_board(board: Board) -> str:
    head = f"mines: {board.mines}\n" if board.mines is not None else ""
    return head + "\n".join(board.grid) + "\n"
