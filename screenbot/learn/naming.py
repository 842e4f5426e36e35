"""Name clusters of cell pictures by the rules of the game, from the board of a lost game.

A loss shows every mine. On the lost board, with what was on screen just before the losing click:

- the clicked cell is the mine that was hit (its picture: the exploded mine, or the plain mine when the
  client does not mark the hit one);
- covered cells that changed at the loss into a picture never seen on an opened cell are mines (one
  picture: the one on the most such cells, when there are several);
  covered cells that changed into a known opened picture were opened by the client at the loss (clients
  that show the whole board);
- a flag that stayed a flag is a mine; a flag that changed is a wrong flag, unless it changed into the
  picture of the hit mine (a client that draws every flagged mine so at a loss: xbomb), then it was on a
  mine, or into a picture seen on opened cells before (a client that draws a wrong flag as an opened
  cell: xbomb's look like a 0), then it keeps that picture's name and is left out of the counts;
- every opened cell then shows the count of mines around it, so each cluster of opened pictures must
  get exactly one count, and two clusters never the same one: that count is its name (``0`` the
  opened cell with no mine around, never beside a covered cell: clients open round a 0). A client
  that draws its cells see-through makes several clusters of one state (``Clusters.alike``): those
  may share a count, and its mines are the new pictures alike one another.

A clustering that does not fit (one cluster with two counts, a number that changed, a mine picture on
a cell that was open) is refused with ``NamingError``: the game is not used.

A client that shows only the mine hit (sgt-mines) leaves the other mines covered: its numbers are then
named by the one naming that the board before the loss fits (``_name_by_fit``), or the game is not used. Nothing here looks at
pixels; the clusters come in as ids.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from solver.board import COVERED, EXPLODED, FLAG, MINE, WRONG_FLAG, Board, neighbours

# Pictures first seen at one loss among which mines drawn in two looks or more are looked for: the
# combinations grow as 2^n. More are still named with the mine in one look (a client that shows the
# whole board at a loss after a single opening shows up to 8 numbers and its mine for the first time).
MAX_NEW_CLUSTERS = 6


class NamingError(ValueError):
    """The pictures of a lost board cannot be named consistently by the rules."""


@dataclass(frozen=True)
class LostGame:
    """A lost game as cluster ids: the board just before the losing click and the lost board."""

    before: np.ndarray  # (rows, cols) int
    after: np.ndarray  # (rows, cols) int
    clicked: tuple[int, int]
    covered: frozenset[int]  # ids of covered cells (plain, and lit under the pointer)
    flags: frozenset[int] = frozenset()  # ids a right click on a covered cell showed
    opened_before: frozenset[int] = frozenset()  # ids seen on opened cells before this loss
    # Whether two ids may be one state drawn over different backgrounds (a see-through client); None:
    # every id is a state of its own.
    alike: Callable[[int, int], bool] | None = None
    # Cells flagged in this game: flags whatever they show before the loss (react-minesweeper's flood
    # opens a flagged cell beside a 0 and draws the flag over the opened cell, a picture of its own).
    flagged: frozenset[tuple[int, int]] = frozenset()


@dataclass(frozen=True)
class Naming:
    names: dict[int, str]  # cluster id -> board character
    board: Board  # the lost board as text
    mines: int | None  # mines on the board (shown, hit, or under a correct flag); None: not all shown


def name_lost_board(game: LostGame) -> Naming:
    """The names of the clusters on ``game``'s lost board and its board text; NamingError if the
    clusters cannot be named consistently."""
    before, after = np.asarray(game.before), np.asarray(game.after)
    if before.shape != after.shape or before.ndim != 2:
        raise NamingError(f"boards of different shapes {before.shape} and {after.shape}")
    rows, cols = after.shape
    cr, cc = game.clicked
    if not (0 <= cr < rows and 0 <= cc < cols):
        raise NamingError(f"the losing click {game.clicked} is off the {rows}x{cols} board")
    covered, flags = game.covered, game.flags
    was_covered = np.isin(before, list(covered))
    was_flag = np.isin(before, list(flags))
    for cell in game.flagged:
        was_flag[cell] = True
    is_covered = np.isin(after, list(covered))
    if not was_covered[cr, cc] or before[cr, cc] == after[cr, cc]:
        raise NamingError("the losing click was not on a covered cell that changed")
    # Open cells never change (a number stays that number; a loss only uncovers).
    opened = ~was_covered & ~was_flag
    if (before[opened] != after[opened]).any():
        r, c = np.argwhere(opened & (before != after))[0]
        raise NamingError(f"the opened cell ({r}, {c}) changed at the loss")
    hit = int(after[cr, cc])
    if hit in game.opened_before:
        # A mine that went off never looks like a cell opened in the same game: the last click opened a
        # safe cell, and the game went on (clicks after it that showed nothing were late, not ignored:
        # a client stalled under load, xdemineur in CI).
        raise NamingError("the last click showed a picture seen on opened cells before, not a mine going off: "
                          "the game was not lost")
    changed_flag = was_flag & (before != after)
    uncovered = was_covered & ~is_covered
    uncovered[cr, cc] = False
    # Flags that changed into the hit mine's picture were on mines; into an opened picture, on no mine.
    # An opened picture is one seen opened before, or one that cells uncovered at this loss show too: a
    # client that uncovers the whole board at a loss uncovers a wrong flag's number with it
    # (react-minesweeper), where a wrong flag drawn as a picture of its own shows on flags only.
    flag_shown_as_hit = changed_flag & (after == hit)
    shown_uncovered = set(after[uncovered].tolist())
    disguised = changed_flag & ~flag_shown_as_hit & np.isin(after, [*game.opened_before, *shown_uncovered])
    wrong = changed_flag & ~flag_shown_as_hit & ~disguised
    wrong_ids = set(after[wrong].tolist())
    flag_mines = was_flag & ~changed_flag
    new = sorted(shown_uncovered - set(game.opened_before) - set(covered) - set(flags))
    families = _families(new, game.alike)
    if wrong_ids & (set(covered) | set(new) | set(game.opened_before)) or hit in wrong_ids:
        raise NamingError("a wrong flag looks like another kind of cell")
    last_error = "no mines"
    # A client draws every mine it shows the same way: one new picture (or family of alike ones) is the
    # mine, the one on the most cells first (a client that shows the whole board at a loss also shows
    # numbers never seen before, on fewer cells; taken for mines they can fit the counts too). Then two
    # or more, then none.
    cells_of = [int(np.isin(after[uncovered], family).sum()) for family in families]
    order = sorted(range(len(families)), key=lambda i: -cells_of[i])
    singles = [(families[i],) for i in order]
    larger = [combo for size in range(2, len(families) + 1) for combo in itertools.combinations(families, size)] \
        if len(families) <= MAX_NEW_CLUSTERS else []
    for chosen in [*singles, *larger, ()]:
        mine_ids = {cid for family in chosen for cid in family}
        try:
            return _name(after, uncovered, flag_mines, flag_shown_as_hit, wrong, disguised, (cr, cc), hit,
                         mine_ids, set(covered), set(flags), wrong_ids, game.alike)
        except NamingError as exc:
            last_error = str(exc)
    if not uncovered.any() and not changed_flag.any():
        # Only the hit mine is shown (sgt-mines), and the counts around it alone do not name the numbers:
        # they are named by which naming the board fits.
        return _name_by_fit(before, opened, (cr, cc), hit, set(covered), set(flags))
    if len(families) > MAX_NEW_CLUSTERS:
        raise NamingError(f"{len(families)} pictures never seen before appeared at the loss, and none of them as "
                          f"the mines fits the board ({last_error})")
    raise NamingError(last_error)


def _name(after: np.ndarray, uncovered: np.ndarray, flag_mines: np.ndarray, flag_shown_as_hit: np.ndarray,
          wrong: np.ndarray, disguised: np.ndarray, clicked: tuple[int, int], hit: int, mine_ids: set[int],
          covered: set[int], flags: set[int], wrong_ids: set[int],
          alike: Callable[[int, int], bool] | None = None) -> Naming:
    rows, cols = after.shape
    is_mine_picture = np.isin(after, list(mine_ids))
    # A client that does not mark the hit mine draws it, and flagged mines, like the others.
    misplaced = is_mine_picture & ~uncovered & ~flag_shown_as_hit
    misplaced[clicked] = False
    if misplaced.any():
        r, c = np.argwhere(misplaced)[0]
        raise NamingError(f"cell ({r}, {c}) looks like the mines but was not uncovered at the loss")
    mines = (is_mine_picture & uncovered) | flag_mines | flag_shown_as_hit
    mines[clicked] = True
    special = covered | flags | wrong_ids | mine_ids | {hit}
    counts: dict[int, set[int]] = {}
    chars = np.full(after.shape, "", dtype=object)
    for r in range(rows):
        for c in range(cols):
            cid = int(after[r, c])
            if (r, c) == clicked or flag_shown_as_hit[r, c]:
                chars[r, c] = MINE if hit in mine_ids else EXPLODED
            elif disguised[r, c]:
                continue  # named after the counts, by the picture it copies
            elif wrong[r, c]:
                chars[r, c] = WRONG_FLAG
            elif flag_mines[r, c]:
                chars[r, c] = FLAG
            elif mines[r, c]:
                chars[r, c] = MINE
            elif cid in covered:
                chars[r, c] = COVERED
            elif cid in special:
                raise NamingError(f"cell ({r}, {c}) is not a mine but looks like a mine, flag or covered cell")
            else:
                around = list(neighbours(rows, cols, r, c))
                n = sum(bool(mines[rr, cc]) for rr, cc in around)
                if n == 0 and any(int(after[rr, cc]) in covered for rr, cc in around):
                    # Clients open every cell around a 0 themselves: a 0 beside a covered cell is a
                    # picture taken for the wrong thing (a mine taken for an opened cell, say).
                    raise NamingError(f"cell ({r}, {c}) would be a 0 beside a covered cell")
                counts.setdefault(cid, set()).add(n)
                chars[r, c] = str(n)
    names: dict[int, str] = {cid: COVERED for cid in covered}
    names.update({cid: FLAG for cid in flags})
    for cid, found in counts.items():
        if len(found) != 1:
            raise NamingError(f"one picture stands for the counts {sorted(found)}: the pictures are not "
                              "grouped the way the game's rules need")
        names[cid] = str(found.pop())
    for a, b in itertools.combinations(counts, 2):
        if names[a] == names[b] and (alike is None or not alike(a, b)):
            # A client draws a number the same way all over one board (see-through ones: alike pictures):
            # two pictures with one count mean a picture was taken for the wrong thing (a mine taken for an
            # opened cell, say).
            raise NamingError("two different pictures get the same count")
    names.update({cid: MINE for cid in mine_ids})
    names.update({cid: WRONG_FLAG for cid in wrong_ids})
    names[hit] = MINE if hit in mine_ids else EXPLODED
    for r, c in np.argwhere(disguised):
        cid = int(after[r, c])
        if cid not in names:
            raise NamingError(f"the wrong flag at ({r}, {c}) looks like a picture with no count on this board")
        chars[r, c] = names[cid]
    board = Board(tuple("".join(chars[r, c] for c in range(cols)) for r in range(rows)))
    return Naming(names, board, int(mines.sum()))


def _name_by_fit(before: np.ndarray, opened: np.ndarray, clicked: tuple[int, int], hit: int, covered: set[int],
                 flags: set[int]) -> Naming:
    """Names for a lost board that shows only the mine hit. The 0 is the picture no cell of which has a
    covered (or flagged) neighbour; each other opened picture is a number no larger than the covered
    neighbours of any of its cells, two pictures never the same number, and the board before the loss
    with those numbers and the hit mine must be one some placement of mines fits. Exactly one naming
    must fit, or the game is not used: a board of many numbers leaves one."""
    from solver.errors import InconsistentBoardError
    from solver.probability import analyze

    rows, cols = before.shape
    unknown = ~opened
    cells_of: dict[int, list[tuple[int, int]]] = {}
    for r, c in np.argwhere(opened):
        cells_of.setdefault(int(before[r, c]), []).append((int(r), int(c)))
    beside = {cell: sum(bool(unknown[n]) for n in neighbours(rows, cols, *cell)) for cells in cells_of.values()
              for cell in cells}
    zeros = [cid for cid, cells in cells_of.items() if all(beside[cell] == 0 for cell in cells)]
    if len(zeros) != 1:
        raise NamingError("the loss shows only the mine hit, and no one picture is the opened cell with nothing "
                          "covered around it (the 0)")
    numbers = sorted((cid for cid in cells_of if cid != zeros[0]), key=lambda cid: -len(cells_of[cid]))
    bound = {cid: min(8, *(beside[cell] for cell in cells_of[cid])) for cid in numbers}
    if any(b < 1 for b in bound.values()):
        raise NamingError("the loss shows only the mine hit, and a picture other than the 0 has a cell with nothing "
                          "covered around it")

    def board_for(digits: dict[int, int]) -> Board:
        chars = [[COVERED] * cols for _ in range(rows)]
        for cid, cells in cells_of.items():
            for r, c in cells:
                chars[r][c] = str(digits.get(cid, 0))
        chars[clicked[0]][clicked[1]] = FLAG  # a mine known to be there
        return Board(tuple("".join(row) for row in chars))

    fits = []
    for digits in itertools.permutations(range(1, 9), len(numbers)):
        if any(d > bound[cid] for d, cid in zip(digits, numbers)):
            continue
        naming = dict(zip(numbers, digits))
        try:
            analyze(board_for(naming))
        except InconsistentBoardError:
            continue
        fits.append(naming)
        if len(fits) > 1:
            raise NamingError("the loss shows only the mine hit, and more than one naming of the numbers fits "
                              "the board")
    if not fits:
        raise NamingError("the loss shows only the mine hit, and no naming of the numbers fits the board")
    names: dict[int, str] = {cid: COVERED for cid in covered}
    names.update({cid: FLAG for cid in flags})
    names[zeros[0]] = "0"
    names.update({cid: str(d) for cid, d in fits[0].items()})
    names[hit] = EXPLODED
    board = board_for(fits[0])
    shown = [list(row) for row in board.grid]
    shown[clicked[0]][clicked[1]] = EXPLODED
    return Naming(names, Board(tuple("".join(row) for row in shown)), None)


def _families(ids: list[int], alike: Callable[[int, int], bool] | None) -> list[tuple[int, ...]]:
    """``ids`` grouped into families of pictures alike one another (each alike the family's first), in
    the order of their first ids; singles when ``alike`` is None."""
    families: list[list[int]] = []
    for cid in ids:
        home = next((f for f in families if alike is not None and alike(f[0], cid)), None)
        if home is None:
            families.append([cid])
        else:
            home.append(cid)
    return [tuple(f) for f in families]


def merge(known: dict[int, str], new: dict[int, str]) -> dict[int, str]:
    """Names from one more game added to those known; NamingError when a cluster gets two names."""
    out = dict(known)
    for cid, name in new.items():
        if out.get(cid, name) != name:
            raise NamingError(f"one picture was named {out[cid]!r} in one game and {name!r} in another")
        out[cid] = name
    return out


def label(ids: np.ndarray, names: dict[int, str]) -> Board | None:
    """The board text of a frame whose cells have cluster ``ids``; None when a cluster has no name."""
    ids = np.asarray(ids)
    if not all(int(i) in names for i in np.unique(ids)):
        return None
    return Board(tuple("".join(names[int(i)] for i in row) for row in ids))
