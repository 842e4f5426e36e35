"""Exhaustive search of the endgame: the move with the highest chance to win, found by trying them all.

When few mine placements remain (``Model.weight`` at most ``PLACEMENT_LIMIT``), every placement is
listed explicitly and the game tree is searched: the win chance of a set S of placements still possible
is 1 when one placement is left; otherwise, if a safe cell would tell placements apart, it is opened
(free information); else it is the best over covered cells c of the average, over what c could show,
of the win chance of the placements that agree. A zero shows the whole area the game opens around it.

It is a branch and bound: cells are tried safest first, and a cell stops being searched as soon as
it cannot beat the best found (a cell wins at most as often as it is safe, and each outcome searched
lowers that by what it loses); each outcome is asked only whether it beats what keeps its cell in the
running, and answers with a bound when it does not. Sets of placements are memoised, and the memo is
kept for the next decision of the same game (the position after a move leaves a part of the
placements). A work budget stops the search, and the caller then falls back to the lookahead.
"""

from __future__ import annotations

import math
import time
from functools import reduce
from itertools import combinations
from operator import and_, or_

from .enumeration import BudgetExceeded, enumerate_component
from .grid import bit_length, bits, dilate, neighbour_masks, popcount
from .probability import Model

# Up to 250 placements: past that the search mostly runs out of work (on expert, 24 of the 27
# searches of 250-400 placements in 1,500 games gave up; 3 of 112 of 400-1,000 placements ended in
# 11,000 games of all levels), and a search that gives up costs its whole budget. Searching up to 400
# took 6% more CPU per expert game and won no more (9 of 40,000 games changed: 6 won only with 400,
# 3 only with 250; docs/benchmarks.md, "The endgame search").
PLACEMENT_LIMIT = 250
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


def _mask(cells: tuple[int, ...]) -> int:
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
        self.placements = frozenset(placements)
        # Win chances by set of placements (in increasing order: see ``best_endgame_move``). They
        # depend on nothing else, so they hold for later moves of the same game too (``_search_for``).
        self.memo: dict[tuple[int, ...], float] = {}
        # Upper bounds of win chances for the sets of placements whose search stopped once it was
        # sure to fall short of what its caller needed.
        self.bounds: dict[tuple[int, ...], float] = {}
        # What a zero opens, by (cell, placement): most are asked again under other sets of placements.
        self.areas: dict[tuple[int, int], int | tuple[tuple[int, int], ...]] = {}
        self.work = work
        self.deadline = deadline

    def carries_on(self, model: Model, placements: list[int]) -> bool:
        """Whether ``placements`` are what is left of this search's after moves of the same game."""
        system = model.system
        return (self.size == (system.rows, system.cols) and self.shown == system.shown_mines
                and system.unknown & ~self.unknown == 0 and self.placements.issuperset(placements))

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
        value = popcount(neighbours[cell] & mines)
        if value:
            return value
        seen = 1 << cell
        stack = [cell]
        shown = []
        while stack:
            c = stack.pop()
            v = popcount(neighbours[c] & mines)
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
        flags = popcount(near & self.shown)
        for p in group:
            if not p & bit:
                # The number itself when it is not a zero (most cells): no call for the common case.
                value = popcount(near & p) + flags or self.reveal(cell, p)
                part = out.get(value)
                if part is None:
                    out[value] = [p]
                else:
                    part.append(p)
        return out

    def win(self, group: list[int], need: float = -1.0) -> float:
        """The chance to win with the placements ``group`` left, when it is above ``need``; when it
        is not, any value at most ``need`` that is at least the chance (the caller only needed to
        know that it does not beat ``need``, and stops there)."""
        if len(group) == 1:
            return 1.0
        # A tuple: a set of placements always comes in the same order (split keeps the order of the
        # full list), and a tuple is cheaper to make and hash than a frozenset.
        key = tuple(group)
        known = self.memo.get(key)
        if known is not None:
            return known
        above = self.bounds.get(key)  # the chance is known to be at most this
        if above is not None and above <= need:
            return above
        n = len(group)
        floor = need * n
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
            parts = self.split(bit_length(low) - 1, group)
            if len(parts) > 1:  # a safe cell that tells placements apart: open it for free
                result = self.score(parts, n, n, floor)
                break
        else:
            result = 0.0
            for safe, cell in self.rank(varying, group):
                # A cell wins at most as often as it is safe: once that cannot beat the best, no
                # cell after it (they are safer first) can.
                if safe <= max(result * n, floor):
                    break
                score = self.score(self.split(cell, group), safe, n, max(result * n, floor))
                if score > result:
                    result = score
        if result <= need:
            # Every move fell short of ``need``: the chance is at most ``need``, not known exactly.
            self.bounds[key] = need
            return need
        self.memo[key] = result
        return result

    def rank(self, cells: int, group: list[int]) -> list[tuple[int, int]]:
        """(placements of ``group`` where the cell is safe, cell) for each of ``cells``, safest first
        (lower cells first among equals): a good score found early lets more cells be skipped."""
        mines: dict[int, int] = {}
        for p in group:  # (a placement's mines among the cells are fewer than the cells)
            for cell in bits(p & cells):
                mines[cell] = mines.get(cell, 0) + 1
        n = len(group)
        ranked = [(n - mines.get(cell, 0), cell) for cell in bits(cells)]
        ranked.sort(key=lambda sc: (-sc[0], sc[1]))
        return ranked

    def score(self, parts: dict[int | tuple[tuple[int, int], ...], list[int]], safe: int, n: int, floor: float) -> float:
        """The win chance of a move whose outcomes split the ``n`` placements left into ``parts``
        (``safe`` placements in all), or -1 as soon as it is sure not to beat ``floor`` / n.
        Optimistically every part is won; each part searched lowers that by what it loses, so each
        is asked only to say whether it beats what keeps the move above ``floor`` (the largest first:
        they lose the most)."""
        reachable = float(safe)
        total = 0.0
        for part in sorted(parts.values(), key=len, reverse=True):
            size = len(part)
            need = (floor - reachable + size) / size
            won = self.win(part, need)
            if won <= need:
                return -1.0
            total += size * won
            reachable -= size * (1.0 - won)
        return total / n


def best_endgame_move(
    model: Model, placements: list[int], deadline: float = math.inf, work: int = WORK_BUDGET
) -> tuple[int, float] | None:
    """The covered cell with the highest win chance and that chance, or None if the search is too big
    (over its ``work`` budget, or still running at ``deadline``, a ``time.perf_counter()`` value)."""
    # In increasing order, so that the same set of placements is the same tuple in every search
    # (``split`` keeps the order).
    placements = sorted(placements)
    search = _search_for(model, placements, deadline, work)
    best: tuple[float, int] | None = None
    n = len(placements)
    try:
        for safe, cell in search.rank(search.unknown & ~reduce(and_, placements, -1), placements):
            if best is not None and safe < best[0] * n:
                break  # no cell from here on can win more often than it is safe (see _Search.win)
            # A cell that ties the best still counts (the lowest cell among the best is chosen), so
            # only a cell sure to fall short of the best is dropped early.
            floor = -1.0 if best is None else best[0] * n - 1e-9
            score = search.score(search.split(cell, placements), safe, n, floor)
            # The lowest cell among the best, as when every cell was tried in order.
            if best is None or score > best[0] or (score == best[0] and cell < best[1]):
                best = (score, cell)
    except BudgetExceeded:
        return None
    return None if best is None else (best[1], best[0])


# The last search, for the next decision to carry on: the endgame's next position leaves a part of
# its placements, whose win chances it has mostly worked out already. A search that gave up leaves
# the most: the next one, on fewer placements, starts from all it found.
_last_search: _Search | None = None


def forget() -> None:
    """Drop the last search, at the start of a new game. Carrying on needs the new position to
    continue the last search's, which a new game's cannot do but by chance; without this, a game
    played again right after a search of its own that gave up would find that search's work (and
    could then choose otherwise): a game's moves would depend on what was played before it."""
    global _last_search
    _last_search = None


def _search_for(model: Model, placements: list[int], deadline: float, work: int) -> _Search:
    global _last_search
    search = _last_search
    if search is not None and search.carries_on(model, placements):
        # Cells opened since no longer open areas (what they show is known): what zeros open is
        # found again, while the win chances stand.
        if search.unknown != model.system.unknown:
            search.unknown = model.system.unknown
            search.areas = {}
        search.work, search.deadline = work, deadline
    else:
        search = _last_search = _Search(model, placements, deadline, work)
    return search
