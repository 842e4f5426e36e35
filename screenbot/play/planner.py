"""Turn the solver's moves into mouse actions (pure).

Without ``chord`` every move is one click. With ``chord`` (and flags on the board), safe cells that are
all the covered neighbours of a number whose mines are all flagged are opened with one chord click on
that number instead of one click each — fewer clicks, fewer redraws.
"""

from __future__ import annotations

from typing import Sequence

from solver.board import FLAG, NUMBERS, UNKNOWN_CHARS, Board, neighbours

from .observer import Action

OPEN, FLAG_ACTION, CHORD = "open", "flag", "chord"


def plan_actions(board: Board, moves: Sequence, *, chord: bool = False) -> tuple[Action, ...]:
    flags = [Action(FLAG_ACTION, m.row, m.col) for m in moves if m.action == "flag" and board[m.row, m.col] in UNKNOWN_CHARS]
    opens = [(m.row, m.col) for m in moves if m.action == "open" and board[m.row, m.col] in UNKNOWN_CHARS]
    if not chord or len(opens) < 2:
        return tuple(flags) + tuple(Action(OPEN, r, c) for r, c in opens)
    flagged = {(r, c) for r, c, ch in board.cells() if ch == FLAG} | {(a.row, a.col) for a in flags}
    remaining = set(opens)
    chords: list[Action] = []
    for r, c, ch in board.cells():
        if ch not in NUMBERS or ch == "0":
            continue
        around = list(neighbours(board.rows, board.cols, r, c))
        covered = {(rr, cc) for rr, cc in around if board[rr, cc] in UNKNOWN_CHARS and (rr, cc) not in flagged}
        mines_flagged = sum(1 for cell in around if cell in flagged)
        # A chord opens every covered, unflagged neighbour: only worth it (and only safe) when they
        # are all cells we were going to open anyway and the number's mines are all flagged.
        if len(covered) >= 2 and covered <= remaining and mines_flagged == int(ch):
            chords.append(Action(CHORD, r, c))
            remaining -= covered
    singles = [Action(OPEN, r, c) for r, c in opens if (r, c) in remaining]
    return tuple(flags) + tuple(chords) + tuple(singles)
