"""Naming the numbers a skin has no picture of, once a finished game shows where every mine is (pure).

``play`` reads such a number as UNREAD (``vision.unseen``) and plays on. A lost game that shows every
mine, or a won one whose cells left closed are all mines, tells what each of those numbers is: the
count of mines around it. The pictures are then taught to the skin for the rest of the session.
"""

from __future__ import annotations

from solver.board import EXPLODED, FLAG, MINE, NUMBERS, UNKNOWN_CHARS, UNREAD, Board, neighbours

from .observer import LOST, WON


def name_unread(board: Board, mine_total: int | None, outcome: str) -> dict[tuple[int, int], str]:
    """The number each UNREAD cell of a finished ``board`` shows, where the board tells it and the board
    reads that number nowhere else; {} when it does not (the mines are not all shown, or the total is
    unknown)."""
    cells = [(r, c) for r, c, ch in board.cells() if ch == UNREAD]
    mines = _mines(board, mine_total, outcome) if cells else None
    if mines is None:
        return {}
    # A number the board shows read elsewhere is one the skin knows at this size: a cell of it that did
    # not read was something else (caught mid-redraw, lit under the pointer), and its picture, taught
    # as "the" picture of that number, would make every real one unlike it (CI run 75).
    known = {ch for _, _, ch in board.cells() if ch in NUMBERS[1:]}
    named = {}
    for r, c in cells:
        count = str(sum(p in mines for p in neighbours(board.rows, board.cols, r, c)))
        if count in NUMBERS[1:] and count not in known:
            named[(r, c)] = count
    return named


def _mines(board: Board, mine_total: int | None, outcome: str) -> set[tuple[int, int]] | None:
    """Every mine's cell, when the finished board shows them all; else None. A loss shows mines, the
    exploded one and the right flags (a wrong flag is drawn as such); a win leaves only mines closed,
    or, for a client won by its flags with safe cells still covered, flags exactly on the mines."""
    if mine_total is None:
        return None
    if outcome == LOST:
        shown = {(r, c) for r, c, ch in board.cells() if ch in (MINE, EXPLODED, FLAG)}
        return shown if len(shown) == mine_total else None
    if outcome == WON:
        closed = {(r, c) for r, c, ch in board.cells() if ch in UNKNOWN_CHARS or ch == FLAG}
        if len(closed) == mine_total:
            return closed
        flags = {(r, c) for r, c, ch in board.cells() if ch == FLAG}
        return flags if len(flags) == mine_total else None
    return None


__all__ = ["name_unread"]
