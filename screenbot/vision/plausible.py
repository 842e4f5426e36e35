"""Is a board read off a picture one that a game could show? (pure: the rules, no pixels)

Every cell may match its template and the whole still be wrong: a blank area read as open cells,
a lit cell under the pointer read as an open 0, a board cut by its window. A one-shot reading
(``screenbot read``, ``hint --image``) is refused with the reason when:

- no mine shows and no cell could hold one, each being an open empty cell or beside one: a board
  always has mines, so this is a blank area (every cell read as an open empty cell, or the few others
  each beside one; the locator asks the same of a skin's pictures, ``locate``);
- wrong flags show but no mine: a wrong flag shows only on a lost game, which shows the mine hit;
- a revealed 0 has a covered neighbour in a client that opens around zeros by itself (the
  signature of a covered cell read as open, such as one lit under the pointer); on a finished
  game's board too where the client crosses out wrong flags (it draws an opened 0 only where one is);
- read as the classic look, a number is smaller than the mines the board shows around it (a lost
  board's mines, "*" and the hit one): a covered cell turned over reads as an open 0, and the mines
  beside it give it away (a skin's own pictures are not held to it: xbomb draws a wrong flag at a
  loss as an opened 0);
- on a lost board with its mines revealed, in a client that crosses out wrong flags then (its skin or
  look has a wrong flag), a number is smaller than the mines and flags around it: each flag drawn
  plainly there stands on a mine, so one beside it is misread (gnome-mines draws the wrong flag under
  the pointer plainly);
- read as a look of its own colours (told by its faces: ``classic._read_by_faces``), a lost board shows
  a flag drawn in red: such a look may draw its wrong flag as its flag in red (gnome-mines' "default"
  tiles draw the flag dark and the wrong flag red, the "classic" tiles their flag red), and a lone
  screenshot does not show which it is (a flag drawn plainly, dark, is a flag: a wrong one is marked);
- no placement of mines satisfies the numbers (flags and "?" taken as unknown: players flag wrongly).

The play loop applies the same rules through its own reading checks (``screenbot.play.consistency``).
"""

from __future__ import annotations

import numpy as np

from solver.board import EXPLODED, FLAG, MINE, NUMBERS, WRONG_FLAG, Board
from solver.errors import InconsistentBoardError

from ..errors import ImplausibleBoardError
from ..play.consistency import unopened_zeros, wrong_flags_without_a_mine


def implausible(board: Board, flood: str = "8", *, pictures_mean_states: bool = False,
                wrong_flags_shown: bool = False, red_flags_own_colours: bool = False) -> str:
    """Why ``board`` cannot be what a game shows ('' when it can). ``flood`` is the client's rule for
    opening around a zero ("8", "4" or "none", as in its profile's "play" section).
    ``pictures_mean_states``: the board was read as a look (the classic family), whose flat empty cell
    is an opened 0, so its numbers must count the mines shown; a skin of a client's own pictures reads
    what the client draws, and a client may draw an opened 0's picture for something else at a loss
    (xbomb: a wrong flag). ``wrong_flags_shown``: the client crosses out each wrong flag when a game is
    lost and its mines revealed, so on such a board its numbers must count the plain flags too.
    ``red_flags_own_colours``: the board was read as a look of its own colours, and a flag on it is red."""
    from solver import analyze

    if blank_area(np.array([list(row) for row in board.grid])):
        return "no cell could hold a mine (each reads as an open empty cell or lies beside one): a blank area, not a board"
    no_mine = wrong_flags_without_a_mine(board)
    if no_mine:
        return no_mine[0]
    # A client that crosses out wrong flags at a loss draws an opened 0 only where one is (xbomb, which
    # draws a wrong flag as one, does not): its lost boards are held to the rule too.
    zeros = unopened_zeros(board, flood, flags=False, over=wrong_flags_shown)
    if zeros:
        return f"{zeros[0]}: the client opens around a zero, so a cell next to it is misread"
    below = numbers_below_their_mines(board) if pictures_mean_states else ""
    if below:
        return below
    shown = "".join(board.grid)
    if red_flags_own_colours and FLAG in shown and (EXPLODED in shown or MINE in shown):
        return ("a lost board in a look of its own colours shows a red flag, which may be a wrong flag (gnome-mines' "
                "\"default\" tiles draw the wrong flag as their flag in red): not told on a lone picture")
    if wrong_flags_shown and EXPLODED in shown and MINE in shown:
        # Lost, with the mines revealed: the moment such a client crosses out its wrong flags (sgt-mines
        # first shows only the mine hit, flags as they were, and reveals the rest later).
        below = numbers_below_their_mines(board, flags=True)
        if below:
            return (f"{below}: this client crosses out wrong flags on a lost board, so a flag beside it or the "
                    "number is misread (a wrong flag under the pointer is drawn plainly: move the pointer off the board)")
    unknown = Board(tuple(row.replace("F", "#").replace("?", "#") for row in board.grid), None)
    try:
        analyze(unknown)
    except InconsistentBoardError as exc:
        return f"no placement of mines fits the numbers read ({exc})"
    return ""


def blank_area(cells: np.ndarray) -> bool:
    """Whether a reading ((rows, cols) of states) shows no mine and leaves no cell where one could be:
    every cell an open empty one or beside one (a mine's neighbours never are; a game always has a
    mine). Where mines show, the rules that count them say what is wrong."""
    if np.isin(cells, (MINE, EXPLODED)).any():
        return False
    empty = cells == "0"
    return not (~empty & (around(empty) == 0)).any()


def around(cells: np.ndarray) -> np.ndarray:
    """For each cell of a (rows, cols) bool array, how many of its eight neighbours are True (past the
    board's edge none)."""
    padded = np.pad(cells, 1).astype(np.int32)
    rows, cols = cells.shape
    return sum(padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols] for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)


def numbers_below_their_mines(board: Board, *, flags: bool = False) -> str:
    """The first number that is smaller than the mines shown around it ('' for none). The solver does
    not ask this of a 0 (it looks only at numbers that can tell it something), and only a lost board
    shows mines; flags are left out, as a player may have put them wrongly, unless ``flags`` (a lost
    board whose client crosses out the wrong ones)."""
    cells = np.array([list(row) for row in board.grid])
    shown = around(np.isin(cells, [MINE, EXPLODED, FLAG] if flags else [MINE, EXPLODED]))
    values = np.char.find(NUMBERS, cells)  # the number's value, -1 for any other cell
    wrong = np.argwhere((values >= 0) & (shown > values))
    if not len(wrong):
        return ""
    r, c = (int(v) for v in wrong[0])
    return f"({r},{c}) shows {values[r, c]} but {shown[r, c]} mines{' and flags' if flags else ''} are shown around it"


def check_plausible(board: Board, skin, red_flags_own_colours: bool = False) -> None:
    """Raise ImplausibleBoardError naming why ``board``, read with ``skin`` (``red_flags_own_colours``: as a
    look of its own colours, with a red flag), cannot be right."""
    why = implausible(board, (skin.profile.get("play") or {}).get("flood", "8"), pictures_mean_states=bool(skin.family),
                      wrong_flags_shown=bool(skin.family) or WRONG_FLAG in skin.chars,
                      red_flags_own_colours=red_flags_own_colours)
    if why:
        raise ImplausibleBoardError(f"the {board.rows}x{board.cols} {skin.name} board read cannot be right: {why}")
