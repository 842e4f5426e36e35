"""Exhaustive search of the endgame: the move with the highest chance to win, found by trying them all.

When few mine placements remain (``Model.weight`` at most ``PLACEMENT_LIMIT``), every placement is
listed explicitly and the game tree is searched: the win chance of a set S of placements still possible
is 1 when one placement is left; otherwise, if a safe cell would tell placements apart, it is opened
(free information); else it is the best over covered cells c of the average, over what c could show,
of the win chance of the placements that agree. A zero shows the whole area the game opens around it.
Sets of placements are memoised; a node budget stops the search, and the caller then falls back to
the lookahead.
"""

from __future__ import annotations

import math
import time
from functools import reduce
from itertools import combinations
from operator import and_, or_

from .enumeration import BudgetExceeded, enumerate_component
from .grid import bits, dilate, neighbour_masks
from .probability import Model

# Up to 1,000 placements (200 before): see docs/benchmarks.md, "Blend, dead cells, 50/50s, longer endgame".
PLACEMENT_LIMIT = 1000
# Placements split and cells shown by openings, in all, before the search gives up and the lookahead
# chooses (deterministic, unlike a clock). A search that gives up has spent it for nothing, so it is
# kept small: counting the splits alone, one beginner decision took 0.6 s in openings; 100,000 won
# about as often as 40,000 on the same games, for 0.5-1 ms more CPU per expert game.
WORK_BUDGET = 40_000
NODE_BUDGET = 20_000  # for listing the solutions of each component


def list_placements(model: Model, limit: int = PLACEMENT_LIMIT) -> list[int] | None:
    """Every placement of the mines left, as bitmasks over covered cells, or None if over ``limit``."""
    if model.mines_left is None or not model.exact or model.weight > limit + 0.5:
        return None
    per_component: list[list[tuple[int, int]]] = []  # (mines, cell mask) choices per component
    for found in model.solutions:
        solutions: list[tuple[int, ...]] = []
        try:
            enumerate_component(found.component, [NODE_BUDGET], solutions)
        except BudgetExceeded:
            return None
        groups = found.component.groups
        options = []
        for chosen in solutions:
            partial = [(0, 0)]
            for group, k in zip(groups, chosen):
                cells = bits(group.cells)
                partial = [(m + k, mask | _mask(combo)) for m, mask in partial for combo in combinations(cells, k)]
                if len(partial) > limit:
                    return None
            options.extend(partial)
        per_component.append(options)
    placements = [(0, 0)]
    for options in per_component:
        placements = [(m + om, mask | omask) for m, mask in placements for om, omask in options if m + om <= model.mines_left]
        if len(placements) > limit:
            return None
    floating = bits(model.floating)
    out = []
    for m, mask in placements:
        for combo in combinations(floating, model.mines_left - m):
            out.append(mask | _mask(combo) | model.deduction.mines)
            if len(out) > limit:
                return None
    return out


def _mask(cells) -> int:
    mask = 0
    for i in cells:
        mask |= 1 << i
    return mask


class _Search:
    def __init__(self, model: Model, placements: list[int], deadline: float, work: int) -> None:
        system = model.system
        self.neighbours = neighbour_masks(system.rows, system.cols)
        self.shown = system.shown_mines
        self.unknown = system.unknown
        self.size = system.rows, system.cols
        self.memo: dict[tuple[int, ...], float] = {}
        # What a zero opens, by (cell, placement): most are asked again under other sets of placements.
        self.areas: dict[tuple[int, int], int | tuple[tuple[int, int], ...]] = {}
        self.work = work
        self.deadline = deadline
        # The cells a guess may be (a mine in some placements), safest first over all placements.
        self.ranked = _safest_first(system.unknown & ~reduce(and_, placements, -1), placements)
        self.order = [cell for cell, _ in self.ranked]

    def reveal(self, cell: int, placement: int) -> int | tuple[tuple[int, int], ...]:
        """What opening ``cell`` shows under ``placement``: its number, or for a zero the numbers of the
        whole area the game opens by itself (as (cell, number) pairs, in cell order)."""
        key = (cell, placement)
        known = self.areas.get(key)
        if known is None:
            known = self.areas[key] = self._open(cell, placement)
        return known

    def _open(self, cell: int, placement: int) -> int | tuple[tuple[int, int], ...]:
        neighbours = self.neighbours
        mines = placement | self.shown
        value = (neighbours[cell] & mines).bit_count()
        if value:
            return value
        seen = 1 << cell
        stack = [cell]
        shown = []
        while stack:
            c = stack.pop()
            v = (neighbours[c] & mines).bit_count()
            shown.append((c, v))
            if v == 0:
                fresh = neighbours[c] & self.unknown & ~seen
                seen |= fresh
                stack.extend(bits(fresh))
        # Each cell an opening shows is work too: on a board of wide empty areas the openings, not
        # the splits, are most of a search (split checks the budget).
        self.work -= len(shown)
        return tuple(sorted(shown))

    def split(self, cell: int, group: list[int]) -> dict[int | tuple[tuple[int, int], ...], list[int]]:
        """The placements where ``cell`` is safe, grouped by what opening it would show."""
        out: dict[int | tuple[tuple[int, int], ...], list[int]] = {}
        bit = 1 << cell
        self.work -= len(group)
        if self.work < 0 or time.perf_counter() > self.deadline:
            raise BudgetExceeded
        near = self.neighbours[cell]
        flags = (near & self.shown).bit_count()
        for p in group:
            if not p & bit:
                # The number itself when it is not a zero (most cells): no call for the common case.
                value = (near & p).bit_count() + flags or self.reveal(cell, p)
                part = out.get(value)
                if part is None:
                    out[value] = [p]
                else:
                    part.append(p)
        return out

    def win(self, group: list[int]) -> float:
        if len(group) == 1:
            return 1.0
        # A tuple: a set of placements always comes in the same order (split keeps the order of the
        # full list), and a tuple is cheaper to make and hash than a frozenset.
        key = tuple(group)
        known = self.memo.get(key)
        if known is not None:
            return known
        union = reduce(or_, group)
        common = reduce(and_, group)
        varying = union & ~common
        fixed = common | self.shown
        rows, cols = self.size
        # The safe cells worth trying: next to a varying cell, or with no fixed mine around (it may be
        # a zero, whose opening reaches further). Any other shows the same number under every
        # placement and tells nothing. Found with bit operations, not a loop over every covered cell;
        # lowest first, as that loop went.
        telling = self.unknown & ~union & (dilate(varying, rows, cols) | ~dilate(fixed, rows, cols))
        while telling:  # (lowest first; the first cell tells more often than not: no list of them all)
            low = telling & -telling
            telling ^= low
            parts = self.split(low.bit_length() - 1, group)
            if len(parts) > 1:  # a safe cell that tells placements apart: open it for free
                result = sum((len(part) * self.win(part) for part in parts.values()), 0.0) / len(group)
                self.memo[key] = result
                return result
        result = 0.0
        n = len(group)
        for cell in self.order:  # safest over all placements first: a good score early skips more
            bit = 1 << cell
            if not varying & bit:
                continue
            # A cell wins at most as often as it is safe: skip it when that cannot beat the best (its
            # count costs a fraction of the split and search it saves).
            if n - sum(1 for p in group if p & bit) <= result * n:
                continue
            score = sum((len(part) * self.win(part) for part in self.split(cell, group).values()), 0.0) / n
            if score > result:
                result = score
        self.memo[key] = result
        return result


def best_endgame_move(
    model: Model, placements: list[int], deadline: float = math.inf, work: int = WORK_BUDGET
) -> tuple[int, float] | None:
    """The covered cell with the highest win chance and that chance, or None if the search is too big
    (over its ``work`` budget, or still running at ``deadline``, a ``time.perf_counter()`` value)."""
    search = _Search(model, placements, deadline, work)
    best: tuple[float, int] | None = None
    try:
        for cell, safe in search.ranked:
            if best is not None and safe < best[0]:
                break  # no cell from here on can win more often than it is safe (see _Search.win)
            score = sum((len(part) * search.win(part) for part in search.split(cell, placements).values()), 0.0) / len(placements)
            # The lowest cell among the best, as when every cell was tried in order.
            if best is None or score > best[0] or (score == best[0] and cell < best[1]):
                best = (score, cell)
    except BudgetExceeded:
        return None
    return None if best is None else (best[1], best[0])


def _safest_first(cells: int, placements: list[int]) -> list[tuple[int, float]]:
    """(cell, chance that it is safe over ``placements``), safest first, lower cells first among equals."""
    n = len(placements)
    ranked = [(cell, 1.0 - sum(1 for p in placements if p >> cell & 1) / n) for cell in bits(cells)]
    ranked.sort(key=lambda cs: -cs[1])  # stable: lower cells stay first among equals
    return ranked
