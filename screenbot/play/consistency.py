"""Does a new reading agree with the previous one and with what the bot just did? (pure)

A screen bot must never act on a board it misread: a half-drawn frame, a popup over the board, a moved
window. The rules here are the ones every client obeys while a game is in progress:
- a revealed number never changes and never becomes covered again;
- a flag stays a flag unless the bot removed it (or the game was lost and it shows as a wrong flag);
- a cell the bot opened is no longer covered;
- a cell the bot flagged shows a flag.
"""

from __future__ import annotations

from typing import Iterable

from solver.board import FLAG, NUMBERS, UNKNOWN_CHARS, WRONG_FLAG, Board

from .observer import Action


def reading_problems(before: Board | None, after: Board, actions: Iterable[Action] = ()) -> list[str]:
    """Human-readable reasons why ``after`` cannot follow ``before`` + ``actions``; empty when fine."""
    if before is None:
        return []
    if (before.rows, before.cols) != (after.rows, after.cols):
        return [f"board size changed from {before.rows}x{before.cols} to {after.rows}x{after.cols}"]
    problems: list[str] = []
    lost = after.is_over
    for r, c, old in before.cells():
        new = after[r, c]
        if old in NUMBERS and new != old:
            problems.append(f"revealed {old} at ({r},{c}) now reads {new!r}")
        elif old == FLAG and new != FLAG and not (lost and new == WRONG_FLAG):
            problems.append(f"flag at ({r},{c}) now reads {new!r}")
    for action in actions:
        new = after[action.row, action.col]
        if action.kind == "open" and new in UNKNOWN_CHARS | {FLAG}:
            problems.append(f"opened ({action.row},{action.col}) but it still reads {new!r}")
        elif action.kind == "flag" and new != FLAG and not lost:
            problems.append(f"flagged ({action.row},{action.col}) but it reads {new!r}")
    return problems
