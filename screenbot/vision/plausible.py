"""Is a board read off a picture one that a game could show? (pure: the rules, no pixels)

Every cell may match its template and the whole still be wrong: a blank area read as open cells,
a lit cell under the pointer read as an open 0, a board cut by its window. A one-shot reading
(``screenbot read``, ``hint --image``) is refused with the reason when:

- every cell reads as an open empty cell: a board always has mines, so this is a blank area;
- a revealed 0 has a covered neighbour in a client that opens around zeros by itself (the
  signature of a covered cell read as open, such as one lit under the pointer);
- no placement of mines satisfies the numbers (flags and "?" taken as unknown: players flag wrongly).

The play loop applies the same rules through its own reading checks (``screenbot.play.consistency``).
"""

from __future__ import annotations

from solver.board import Board
from solver.errors import InconsistentBoardError

from ..errors import ImplausibleBoardError
from ..play.consistency import unopened_zeros


def implausible(board: Board, flood: str = "8") -> str:
    """Why ``board`` cannot be what a game shows ('' when it can). ``flood`` is the client's rule for
    opening around a zero ("8", "4" or "none", as in its profile's "play" section)."""
    from solver import analyze

    if all(ch == "0" for row in board.grid for ch in row):
        return "every cell reads as an open empty cell: a blank area, not a board"
    zeros = unopened_zeros(board, flood, flags=False)
    if zeros:
        return f"{zeros[0]}: the client opens around a zero, so a cell next to it is misread"
    unknown = Board(tuple(row.replace("F", "#").replace("?", "#") for row in board.grid), None)
    try:
        analyze(unknown)
    except InconsistentBoardError as exc:
        return f"no placement of mines fits the numbers read ({exc})"
    return ""


def check_plausible(board: Board, skin) -> None:
    """Raise ImplausibleBoardError naming why ``board``, read with ``skin``, cannot be right."""
    why = implausible(board, (skin.profile.get("play") or {}).get("flood", "8"))
    if why:
        raise ImplausibleBoardError(f"the {board.rows}x{board.cols} {skin.name} board read cannot be right: {why}")
