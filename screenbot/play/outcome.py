"""Is the game over, judged from the board read off the screen (pure)."""

from __future__ import annotations

from solver.board import FLAG, NUMBERS, UNKNOWN_CHARS, Board, neighbours
from solver.probability import analyze

PLAYING, WON, LOST = "playing", "won", "lost"


def game_status(board: Board, *, mines: int | None, win_requires_all_flags: bool = False,
                win_requires_all_open: bool = False) -> str:
    """``lost`` when the board shows a mine, an explosion or a wrong flag; ``won`` when, with a known
    mine total, only mines are left covered; for clients like xdemineur that count flags instead, when
    every mine is flagged (xdemineur declares the win as soon as its flag counter reaches zero with all
    flags right, even with safe cells still covered; the bot only ever flags proven mines); otherwise
    ``playing``. ``win_requires_all_open`` (xbomb) asks for both: every mine flagged and no other cell
    left covered.

    With an unknown total the board alone cannot prove a win: the loop detects that differently (see
    ``loop.Player``)."""
    if board.is_over:
        return LOST
    if mines is None:
        return PLAYING
    flags = board.count(FLAG)
    if win_requires_all_flags:
        if win_requires_all_open and board.count(UNKNOWN_CHARS):
            return PLAYING
        return WON if flags == mines else PLAYING
    return WON if board.count(UNKNOWN_CHARS) + flags == mines else PLAYING


def every_covered_may_be_a_mine(board: Board) -> bool:
    """Whether the board could be a won game's: every number has exactly as many covered or flagged
    cells around it as it counts (a won game's covered cells are all mines)."""
    for r, c, ch in board.cells():
        if ch in NUMBERS:
            around = [board[p] for p in neighbours(board.rows, board.cols, r, c)]
            if sum(1 for there in around if there in UNKNOWN_CHARS or there == FLAG) != int(ch):
                return False
    return True


def is_fresh(board: Board) -> bool:
    """Nothing opened yet: every cell covered (a just-restarted game)."""
    return board.count(UNKNOWN_CHARS) == board.rows * board.cols


def only_mines_left(board: Board) -> bool:
    """With an unknown total: every covered cell is proven a mine by the numbers around it, so every
    safe cell is open and the game is won. Cheap to rule out (a covered cell with no number next to it
    could be anything), so the full analysis runs only near the end of a game. A board with no covered
    cell left and flags on it is won too: the bot flags only proven mines, and some clients flag every
    mine left at a win (sgt-mines)."""
    covered = [(r, c) for r, c, ch in board.cells() if ch in UNKNOWN_CHARS]
    if not covered:
        return board.count(FLAG) > 0
    for r, c in covered:
        if not any(board[p] in NUMBERS for p in neighbours(board.rows, board.cols, r, c)):
            return False
    return set(covered) <= analyze(board.with_mines(None)).mines
