"""How much of a cell's risk is owed anyway: the chance that it ends in a 50/50 nothing can resolve.

Two covered cells side by side whose outer flank (the three cells beyond each end) is all mines can
never be told apart: every number that sees one sees the other, so one of them must some day be
guessed at 1/2. So can a 2x2 box whose four diagonal outer corners are mines. A cell that may end in
such a pattern carries that future guess with it; opening it now takes that risk while it also gives
a number, so the risk is partly credited back when guesses are compared (D. Hill's "long-term risk").

``owed_risk(model, i)`` is the chance, over the placements that fit the board, that cell i is a mine
of such a pattern: the sum over the pairs holding i, and the largest over the boxes holding it, of
P(the pattern's missing flank cells are mines, i is a mine and its partner(s) are safe). By symmetry
that is half the chance the pattern occurs. Each probability is one exact count with the pattern's
cells fixed (``joint_probability``), made only for patterns that the board leaves possible and that
need at most ``MISSING_LIMIT`` more mines.
"""

from __future__ import annotations

import functools
import math

from .combine import combine_with_total
from .enumeration import ComponentSolutions, build_component, enumerate_by_count
from .grid import popcount
from .lookahead import fixed_constraints, split_touched
from .probability import Model

# Patterns whose flank still needs more covered cells to be mines than this are not counted: they are
# unlikely, and each costs an enumeration.
MISSING_LIMIT = 3


def owed_risk(model: Model, index: int, budget: list[int], deadline: float = math.inf) -> float:
    """The chance that cell ``index`` is the mine of a 2-cell or 2x2 50/50 (see the module), at most
    the smaller of its chances to be a mine and to be safe. 0 without a mine total or on an
    approximate model. ``budget`` and ``deadline`` as for the enumeration (``BudgetExceeded`` when the
    budget is spent, ``OutOfTime`` past the deadline)."""
    if model.mines_left is None or not model.exact:
        return 0.0
    masks = _board_masks(model)
    pairs = boxes = 0.0
    for mines, safe, flank, box in _patterns(index, model.system.rows, model.system.cols):
        missing = _missing(masks, mines, safe, flank)
        chance = 0.0 if missing < 0 else joint_probability(model, mines | missing, safe, budget, deadline)
        if box:
            boxes = max(boxes, chance)
        else:
            pairs += chance
    p = model.probabilities[index]
    return min(pairs + boxes, p, 1.0 - p)


def closed_pattern(model: Model, index: int) -> bool:
    """Whether cell ``index`` is in a pattern whose whole flank is already mines or the board's edge:
    with it a mine, nothing could then tell it from its partner(s)."""
    masks = _board_masks(model)
    return any(_missing(masks, mines, safe, flank) == 0
               for mines, safe, flank, _ in _patterns(index, model.system.rows, model.system.cols))


# The masks the pattern tests read, for the last model asked about: a guess asks about many cells of
# one model. (model, (cells no pattern cell may be, flank cells that tell, covered cells not certain
# mines, certain safe cells))
_last_masks: tuple[Model, tuple[int, int, int, int]] | None = None


def _board_masks(model: Model) -> tuple[int, int, int, int]:
    global _last_masks
    if _last_masks is None or _last_masks[0] is not model:
        system = model.system
        covered = system.unknown
        certain_mines, certain_safe = model.mines, model.safe
        # A pattern cell may not be open, flagged or certain; an open flank cell shows a number.
        masks = (~covered | certain_mines | certain_safe, ~(covered | system.shown_mines), covered & ~certain_mines,
                 certain_safe)
        _last_masks = (model, masks)
    return _last_masks[1]


def _missing(masks: tuple[int, int, int, int], mines: int, safe: int, flank: int) -> int:
    """The pattern's flank cells not yet known to be mines, or -1 when the board already rules the
    pattern out or it needs more than ``MISSING_LIMIT`` more mines. ``masks``: ``_board_masks``."""
    blocked, telling, uncertain, certain_safe = masks
    if (mines | safe) & blocked:
        return -1  # a pattern cell is open, flagged or certain: no 50/50 here
    if flank & telling:
        return -1  # an open flank cell shows a number that tells the pattern's cells apart
    missing = flank & uncertain
    if popcount(missing) > MISSING_LIMIT or missing & certain_safe:
        return -1
    return missing


def joint_probability(model: Model, mines: int, safe: int, budget: list[int], deadline: float = math.inf) -> float:
    """P(every covered cell of ``mines`` is a mine and every one of ``safe`` is safe), over the
    placements that fit the board and its mine total: the placements with those cells fixed, counted
    again (only the components they touch), over all of them."""
    assert model.mines_left is not None
    known_mines, known_safe = model.deduction.mines, model.deduction.safe
    if mines & known_safe or safe & known_mines:
        return 0.0
    mines &= ~known_mines
    safe &= ~known_safe
    fixed = mines | safe
    touched, kept = split_touched(model, fixed)
    constraints = fixed_constraints(touched, mines, safe)
    if constraints is None:
        return 0.0
    solutions: list[ComponentSolutions] = list(kept)
    if constraints:
        found_fixed = enumerate_by_count(build_component(sorted(constraints)), budget, deadline=deadline).get(0)
        if found_fixed is None:
            return 0.0
        solutions.append(found_fixed)
    left = model.mines_left - popcount(mines)
    floating = popcount(model.floating & ~fixed)
    combined = combine_with_total(solutions, floating, left, deadline) if left >= 0 else None
    if combined is None:
        return 0.0
    return math.exp(min(0.0, combined[2] - model.log_weight))  # min first: exp of a large log overflows


@functools.cache
def _patterns(index: int, rows: int, cols: int) -> tuple[tuple[int, int, int, bool], ...]:
    """(mines, safe, flank, is a box) of every pattern holding cell ``index`` with it as a mine,
    made once per cell and board size."""
    r, c = divmod(index, cols)
    pairs = [(1 << index, 1 << partner, flank, False) for partner, flank in _pairs(r, c, rows, cols)]
    boxes = [(mines, safe, corners, True) for mines, safe, corners in _boxes(r, c, rows, cols)]
    return tuple(pairs + boxes)


def _cell_mask(cells: list[tuple[int, int]], rows: int, cols: int) -> int:
    """The cells on the board, as a bitmask (cells off the board are left out: a board edge closes a
    pattern as a mine would)."""
    mask = 0
    for r, c in cells:
        if 0 <= r < rows and 0 <= c < cols:
            mask |= 1 << (r * cols + c)
    return mask


def _pairs(r: int, c: int, rows: int, cols: int) -> list[tuple[int, int]]:
    """(partner, flank) of each side-by-side pair holding (r, c): the partner's index and the six
    cells beyond the pair's two ends."""
    out = []
    for dc in (-1, 1):  # left and right partners: a pair across columns x, x + 1
        x = min(c, c + dc)
        if 0 <= c + dc < cols:
            flank = [(r + dr, col) for dr in (-1, 0, 1) for col in (x - 1, x + 2)]
            out.append((r * cols + c + dc, _cell_mask(flank, rows, cols)))
    for dr in (-1, 1):  # above and below: a pair across rows y, y + 1
        y = min(r, r + dr)
        if 0 <= r + dr < rows:
            flank = [(row, c + dc) for dc in (-1, 0, 1) for row in (y - 1, y + 2)]
            out.append(((r + dr) * cols + c, _cell_mask(flank, rows, cols)))
    return out


def _boxes(r: int, c: int, rows: int, cols: int) -> list[tuple[int, int, int]]:
    """(mines, safe, corners) of each 2x2 box holding (r, c): the diagonal through (r, c) as mines,
    the other diagonal safe, and the box's four outer diagonal corners."""
    out = []
    for y in (r - 1, r):
        for x in (c - 1, c):
            if not (0 <= y and y + 1 < rows and 0 <= x and x + 1 < cols):
                continue
            box = [(y, x), (y, x + 1), (y + 1, x), (y + 1, x + 1)]
            # The diagonal through (r, c): the box cells in the same row-and-column parity.
            diagonal = [(a, b) for a, b in box if (a - r + b - c) % 2 == 0]
            other = [cell for cell in box if cell not in diagonal]
            corners = [(y - 1, x - 1), (y - 1, x + 2), (y + 2, x - 1), (y + 2, x + 2)]
            out.append((_cell_mask(diagonal, rows, cols), _cell_mask(other, rows, cols), _cell_mask(corners, rows, cols)))
    return out
