"""Does a new reading agree with the previous one and with what the bot just did? (pure)

A screen bot must never act on a board it misread: a half-drawn frame, a popup over the board, a moved
window. The rules here are the ones every client obeys while a game is in progress:
- a revealed number never changes and never becomes covered again (a number read as unread, one the
  skin has no picture of, may be read as a number later: that is the same number named);
- a flag stays a flag unless the bot removed it (or the game was lost and it shows as a wrong flag);
- a cell the bot opened is no longer covered (unless the client is known to drop a click now and then,
  ``allow_dropped``: such a cell simply stays covered and is chosen again; a flag likewise);
- a cell the bot flagged shows a flag, or, where it showed "?", a flag or a covered cell: many clients
  (gnome-mines, xdemineur, Windows') take a right click from flag to "?" and from "?" to covered, so a
  "?" takes two right clicks to a flag. A covered cell is less known, never wrongly known: it is
  flagged again at the next look;
- a revealed 0 has no covered or flagged neighbour, because the client opens around a zero by itself
  (all 8 neighbours in most clients, the 4 orthogonal ones in react-minesweeper). A frame caught
  between the "pressed" look of a clicked cell and its reveal (gnome-mines and Chromium draw the two
  one display frame apart) tends to show exactly that, so this rule catches half-drawn frames too.
"""

from __future__ import annotations

from typing import Iterable

from solver.board import (COVERED, EXPLODED, FLAG, MINE, NUMBERS, QUESTION, REVEALED_CHARS, UNKNOWN_CHARS, UNREAD,
                          WRONG_FLAG, Board)

from .observer import Action


# What a problem is about: an open or a flag of the last batch the board does not show (yet), a cell
# that changed as no game changes it, a zero beside an unopened cell, another board size; and, from
# the callers, a board that could not be read or that no mine layout fits.
OPEN_UNSHOWN, FLAG_UNSHOWN, CHANGED, ZERO, SIZE = "open unshown", "flag unshown", "changed", "zero", "size"
NO_MINE = "no mine"
UNREADABLE, INCONSISTENT = "unreadable", "inconsistent"


class Problem(str):
    """One reason a reading cannot be right, in words (the text is what logs and errors show), with
    its ``kind``, which is what callers decide by."""

    kind: str

    def __new__(cls, text: str, kind: str) -> Problem:
        problem = super().__new__(cls, text)
        problem.kind = kind
        return problem


ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))
AROUND = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)


def zeros_beside(grid: tuple[str, ...], flood: str, blocked: frozenset[str] | set[str],
                 cells: Iterable[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """The cells (of ``cells``, default all) that read as a 0 next to a cell in ``blocked``, by the
    client's ``flood`` ("8" or "4" neighbours; "none": no rule, nothing returned)."""
    if flood == "none":
        return []
    rows, cols = len(grid), len(grid[0])
    steps = ORTHOGONAL if flood == "4" else AROUND
    candidates = cells if cells is not None else ((r, c) for r in range(rows) for c in range(cols))
    return [
        (r, c)
        for r, c in candidates
        if grid[r][c] == "0"
        and any(0 <= r + dr < rows and 0 <= c + dc < cols and grid[r + dr][c + dc] in blocked for dr, dc in steps)
    ]


def unopened_zeros(board: Board, flood: str = "8", *, flags: bool = True, over: bool = False) -> list[Problem]:
    """Zeros next to a covered or flagged cell, which a client that floods (``flood`` "8" or "4"
    neighbours) never shows once it has finished drawing. ``flood`` "none" disables the rule.
    ``flags=False`` lets flags and "?" marks stand next to a zero: the flood goes around them, and a
    player's wrong flag can sit there (the bot's own flags never do). A finished game's board is held
    to it only with ``over``: a client may draw a wrong flag as an opened 0 at a loss (xbomb)."""
    if board.is_over and not over:
        return []
    blocked = UNKNOWN_CHARS | {FLAG} if flags else {"#"}
    return [Problem(f"0 at ({r},{c}) next to an unopened cell", ZERO)
            for r, c in zeros_beside(board.grid, flood, blocked)[:3]]


def wrong_flags_without_a_mine(board: Board) -> list[Problem]:
    """A wrong flag shows only once a game is lost, and a lost game shows the mine that was hit (most
    clients all their mines): wrong flags on a board that shows no mine are misread (a stipple of
    covered cells read as crosses, one on every cell)."""
    shown = "".join(board.grid)
    if WRONG_FLAG not in shown or MINE in shown or EXPLODED in shown:
        return []
    return [Problem(f"{shown.count(WRONG_FLAG)} wrong flag(s) read but no mine: a wrong flag shows only on a lost "
                    f"game, which shows its mines", NO_MINE)]


def newly_unread(before: Board | None, after: Board) -> list[tuple[int, int]]:
    """The cells ``after`` reads as a number the skin has no picture of (``UNREAD``) that ``before``
    did not."""
    return [(r, c) for r, c, char in after.cells() if char == UNREAD and (before is None or before[r, c] != UNREAD)]


def reading_problems(
    before: Board | None,
    after: Board,
    actions: Iterable[Action] = (),
    *,
    flood: str = "none",
    allow_dropped: bool = False,
) -> list[Problem]:
    """The reasons why ``after`` cannot follow ``before`` + ``actions``; empty when fine.

    ``allow_dropped``: an opened or flagged cell that still reads covered is a click the client ignored,
    not a misreading. Acting on such a board is safe: it is the board as it was before that one click."""
    zeros = wrong_flags_without_a_mine(after) + unopened_zeros(after, flood)
    if before is None:
        return zeros
    if (before.rows, before.cols) != (after.rows, after.cols):
        return [Problem(f"board size changed from {before.rows}x{before.cols} to {after.rows}x{after.cols}", SIZE)]
    problems: list[Problem] = []
    lost = after.is_over
    for r, c, old in before.cells():
        new = after[r, c]
        if old in REVEALED_CHARS and new != old and not (old == UNREAD and new in NUMBERS):
            # (An unread number read as a number later is the same number, named: the skin knew its
            # picture, and the cell had been caught drawn otherwise, under load or lit.)
            problems.append(Problem(f"revealed {old} at ({r},{c}) now reads {new!r}", CHANGED))
        elif old == FLAG and new != FLAG and not (lost and new == WRONG_FLAG):
            problems.append(Problem(f"flag at ({r},{c}) now reads {new!r}", CHANGED))
    for action in actions:
        new = after[action.row, action.col]
        if action.kind == "open":
            if new == FLAG or (new in UNKNOWN_CHARS and not allow_dropped):
                problems.append(Problem(f"opened ({action.row},{action.col}) but it still reads {new!r}", OPEN_UNSHOWN))
        elif action.kind == "flag" and new != FLAG and not lost:
            if before[action.row, action.col] == QUESTION and new == COVERED:
                continue  # one step of the right click's cycle: "?" -> covered
            if allow_dropped and new == before[action.row, action.col] == COVERED:
                continue  # a flag click the client ignored: the cell is flagged again at the next look
            problems.append(Problem(f"flagged ({action.row},{action.col}) but it reads {new!r}", FLAG_UNSHOWN))
    return problems + zeros


def clicks_unshown(problems: list[Problem]) -> bool:
    """Whether ``problems`` (of ``reading_problems``) are all clicks of the last batch the board does not
    show yet: what a client that is slow to redraw, not a misreading, gives."""
    return bool(problems) and all(p.kind in (OPEN_UNSHOWN, FLAG_UNSHOWN) for p in problems)


def flags_unshown(problems: list[Problem]) -> bool:
    """Whether ``problems`` are all flag clicks the board does not show: a client that takes no
    right click (its flag is a left click with a key held) gives that."""
    return bool(problems) and all(p.kind == FLAG_UNSHOWN for p in problems)
