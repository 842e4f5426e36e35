"""Exact enumeration of the frontier, one independent component at a time.

Cells that touch exactly the same numbers are interchangeable, so they form a ``CellGroup`` and the search
chooses only *how many* mines each group holds (weighting by ``C(size, k)``). Groups linked by numbers form
a ``Component``; components are enumerated separately and combined later with the global mine count.
Counts are exact Python integers, kept per number of mines in the component.
"""

from __future__ import annotations

import functools
import heapq
import math
import sys
import time
from dataclasses import dataclass, field
from math import comb
from typing import Any, NamedTuple

from .constraints import Constraint
from .grid import bits, popcount

# Search nodes allowed per analysis before a component is approximated instead (``approximate.approximate``).
# About 0.3 s of pure Python on a slow core; typical expert positions need a few hundred.
DEFAULT_NODE_BUDGET = 200_000


class CellGroup(NamedTuple):
    cells: int  # bitmask
    size: int


# Made in C, as constraints are (``constraints.make_constraint``).
_cell_group = functools.partial(tuple.__new__, CellGroup)


@dataclass(frozen=True, slots=True)
class Component:
    groups: tuple[CellGroup, ...]
    # Each constraint as (indices into ``groups``, mines among those groups).
    constraints: tuple[tuple[tuple[int, ...], int], ...]
    sources: tuple[int, ...]  # the number cells behind the constraints, for error messages

    @property
    def cells(self) -> int:
        mask = 0
        for group in self.groups:
            mask |= group.cells
        return mask


@dataclass(slots=True)
class ComponentSolutions:
    """For each mine count m: how many placements, and per group the sum over placements of its mines."""

    component: Component
    counts: dict[int, int] = field(default_factory=dict)
    group_mines: dict[int, list[int]] = field(default_factory=dict)
    exact: bool = True
    # Approximations only: each group's mine density per mine count, in place of ``group_mines``
    # (which would be as big as the component times its range of counts).
    tilt: Tilt | None = None
    # The combination's view of these counts (``combine._Poly``), made once: remembered components
    # are combined again and again by the lookahead.
    combined_view: Any = None


@dataclass(frozen=True, slots=True)
class Tilt:
    """An approximation's densities given m mines in the component: ``base + (m - mean) * slope`` per
    group (this sums to m exactly), except at the counts in ``exceptions`` where that leaves (0, 1)
    and the exact tilt was computed instead."""

    base: tuple[float, ...]
    slope: tuple[float, ...]
    mean: float
    exceptions: dict[int, list[float]]

    def densities(self, m: int) -> list[float]:
        given = self.exceptions.get(m)
        if given is not None:
            return given
        step = m - self.mean
        return [p + step * k for p, k in zip(self.base, self.slope)]


def split_components(constraints: tuple[Constraint, ...]) -> list[Component]:
    """Group equivalent cells, then split the groups into independent components."""
    return [build_component(part) for part in partition(constraints)]


def partition(constraints: tuple[Constraint, ...]) -> list[list[Constraint]]:
    """The constraints, split into independent sets (no covered cell shared between two sets).

    Cheap (one pass of union-find); callers that keep earlier results can look a set up by
    ``component_key`` before paying for ``build_component`` and its enumeration.
    """
    parent = list(range(len(constraints)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    owner: dict[int, int] = {}  # cell -> a constraint holding it
    for k, con in enumerate(constraints):
        for cell in bits(con.cells):
            other = owner.setdefault(cell, k)
            if other != k:
                a, b = find(other), find(k)
                if a != b:
                    parent[a] = b
    by_root: dict[int, list[Constraint]] = {}
    for k, con in enumerate(constraints):
        by_root.setdefault(find(k), []).append(con)
    return list(by_root.values())


def component_key(part: list[Constraint]) -> frozenset[tuple[int, int]]:
    """What a component's solutions depend on: its constraints as (cells, mines), in any order."""
    return frozenset((con.cells, con.mines) for con in part)


def build_component(part: list[Constraint]) -> Component:
    """The cell groups of one independent set of constraints, in search order."""
    signature: dict[int, int] = {}
    for k, con in enumerate(part):
        for cell in bits(con.cells):
            signature[cell] = signature.get(cell, 0) | (1 << k)
    groups_by_sig: dict[int, int] = {}
    for cell, sig in signature.items():
        groups_by_sig[sig] = groups_by_sig.get(sig, 0) | (1 << cell)
    members = _search_order(list(groups_by_sig.items()), len(part))
    groups = tuple([_cell_group((cells, popcount(cells))) for _, cells in members])
    member_lists: list[list[int]] = [[] for _ in part]
    for g, (sig, _) in enumerate(members):
        for k in bits(sig):
            member_lists[k].append(g)
    cons = tuple((tuple(m), con.mines) for m, con in zip(member_lists, part))
    return Component(groups, cons, tuple(con.source for con in part))


def _search_order(members: list[tuple[int, int]], nconstraints: int) -> list[tuple[int, int]]:
    """Order groups so that each next one shares the most constraints with those already placed.

    Constraints then close early and the search prunes near the top of the tree. A heap with lazy
    updates keeps this at O(n log n) in groups (a plain scan for the best is quadratic, which
    dominated on boards of a few thousand cells).
    """
    n = len(members)
    if n <= 2:
        return sorted(members, key=lambda m: -popcount(m[0]))
    by_constraint: list[list[int]] = [[] for _ in range(nconstraints)]
    for g, (sig, _) in enumerate(members):
        for k in bits(sig):
            by_constraint[k].append(g)
    score = [0] * n
    pops = [popcount(sig) for sig, _ in members]
    # Heap entries are one int, not a tuple (the highest score first, then the most constraints, then
    # the lowest group): (nconstraints - score, nconstraints - pops, group) in fields of ``field``
    # bits each, wide enough that none spills into the next. Made and compared far faster than
    # tuples, in the same order.
    field = max(n, nconstraints + 1).bit_length()
    low = (1 << field) - 1
    heap = [nconstraints << (2 * field) | (nconstraints - pops[g]) << field | g for g in range(n)]
    heapq.heapify(heap)
    placed = [False] * n
    touched = 0
    ordered = []
    while heap:
        entry = heapq.heappop(heap)
        g = entry & low
        if placed[g] or nconstraints - (entry >> (2 * field)) != score[g]:
            continue
        placed[g] = True
        ordered.append(members[g])
        fresh = members[g][0] & ~touched
        touched |= fresh
        for k in bits(fresh):
            for h in by_constraint[k]:
                if not placed[h]:
                    score[h] = score[h] + 1
                    heapq.heappush(heap, (nconstraints - score[h]) << (2 * field) | (nconstraints - pops[h]) << field | h)
    return ordered


class BudgetExceeded(Exception):
    """The work budget ran out (deterministic)."""


class OutOfTime(BudgetExceeded):
    """The clock passed the deadline (live play only)."""


def enumerate_component(
    component: Component,
    budget: list[int],
    record: list[tuple[int, ...]] | None = None,
    deadline: float = math.inf,
) -> ComponentSolutions:
    """Count every placement of mines in ``component`` that satisfies its constraints.

    ``budget`` is a one-item list of search nodes left, shared across the components of one analysis;
    ``BudgetExceeded`` is raised when it runs out, or when the clock passes ``deadline`` (a
    ``time.perf_counter()`` value, checked every 1024 nodes). With ``record``, each solution's mines per group is
    appended to it (the endgame search needs the placements themselves, not only their counts).
    """
    found = enumerate_by_count(component, budget, deadline=deadline, record=record).get(0)
    return found if found is not None else ComponentSolutions(component)


@functools.cache
def _binomials(size: int) -> tuple[int, ...]:
    """C(size, k) for k = 0..size, made once per size: a search enumerates many small components,
    and making these rows afresh for each one cost more than the lookups saved."""
    return tuple(comb(size, k) for k in range(size + 1))


def enumerate_by_count(
    component: Component,
    budget: list[int],
    tracked: int | None = None,
    deadline: float = math.inf,
    record: list[tuple[int, ...]] | None = None,
) -> dict[int, ComponentSolutions]:
    """The one search behind ``enumerate_component`` and the lookahead: every placement of mines in
    ``component`` that satisfies its constraints, as one ``ComponentSolutions`` per number of mines
    in the cells of constraint ``tracked`` (an index into ``component.constraints``).

    The tracked constraint is recorded, not enforced (its ``mines`` is ignored): the lookahead puts
    the covered neighbours of a cell there, and one search gives the solutions for every number the
    cell could show. Its cells are groups of their own (the component was built with it), so the count
    is a sum over groups; a count no solution has is left out (so without ``tracked`` the result is
    empty or has 0 alone). ``budget``, ``deadline`` and ``record`` are as for ``enumerate_component``.
    """
    groups = component.groups
    ngroups = len(groups)
    sizes = [g.size for g in groups]
    enforced = component.constraints
    tracked_groups: tuple[int, ...] = ()
    if tracked is not None:
        enforced = enforced[:tracked] + enforced[tracked + 1 :]
        tracked_groups = component.constraints[tracked][0]
    need: list[int] = [mines for _, mines in enforced]
    touching: list[list[int]] = [[] for _ in range(ngroups)]
    # Per group g, its constraints k with the cells they hold in groups after g: groups are placed
    # in order, so that is all the room k has left once g is placed, whatever the path.
    room: list[list[tuple[int, int]]] = [[] for _ in range(ngroups)]
    for k, (members, _) in enumerate(enforced):
        after = sum(sizes[g] for g in members)
        for g in sorted(members):
            touching[g].append(k)
            after -= sizes[g]
            room[g].append((k, after))
    # C(size, k) looked up rather than computed at every node.
    combs = [_binomials(size) for size in sizes]
    search = _Search(component, tracked_groups, sizes, need, touching, room, combs, budget[0], deadline, record)
    # One level of recursion per group: a frontier of a few thousand cells needs more than Python's
    # default limit (as plain Python, calls do not grow the C stack from 3.11 on; compiled, a level
    # is a small C frame).
    old_limit = sys.getrecursionlimit()
    if ngroups + 100 > old_limit:
        sys.setrecursionlimit(ngroups + 100)
    try:
        if ngroups:
            search.search(0, 1, 0)
        else:
            search.store(1, 0)  # no group: the one empty placement
    finally:
        budget[0] = search.nodes  # also when the budget ran out, so callers can count what was spent
        sys.setrecursionlimit(old_limit)
    return search.results


class _Search:
    """The state of one ``enumerate_by_count`` search: the placement being built (mines per group,
    ``chosen``), the mines each constraint still needs (``need``), the nodes left, and the results.
    A class, not nested functions: compiled, a method calls itself directly, where a nested function
    was a Python call with boxed arguments at every node."""

    def __init__(
        self,
        component: Component,
        tracked_groups: tuple[int, ...],
        sizes: list[int],
        need: list[int],
        touching: list[list[int]],
        room: list[list[tuple[int, int]]],
        combs: list[tuple[int, ...]],
        nodes: int,
        deadline: float,
        record: list[tuple[int, ...]] | None,
    ) -> None:
        self.component = component
        self.tracked_groups = tracked_groups
        self.need = need
        self.touching = touching
        self.room = room
        self.combs = combs
        self.sizes = sizes
        self.last = len(sizes) - 1
        self.chosen = [0] * len(sizes)
        self.nodes = nodes
        self.deadline = deadline
        self.record = record
        self.results: dict[int, ComponentSolutions] = {}

    def store(self, weight: int, total: int) -> None:
        """Add the placement in ``chosen`` (``weight`` ways, ``total`` mines) to its count's result."""
        chosen = self.chosen
        if self.record is not None:
            self.record.append(tuple(chosen))
        # The tracked count is summed here rather than carried down the tree as an argument;
        # without tracking the loop is empty and everything goes under 0.
        count = 0
        for t in self.tracked_groups:
            count += chosen[t]
        found = self.results.get(count)
        if found is None:
            found = self.results[count] = ComponentSolutions(self.component)
        counts = found.counts
        counts[total] = counts.get(total, 0) + weight
        sums = found.group_mines.get(total)
        if sums is None:
            sums = found.group_mines[total] = [0] * len(chosen)
        for i, mines in enumerate(chosen):
            if mines:
                sums[i] = sums[i] + weight * mines

    # The leaves' work is in ``store``, not here, so this recursive method's frames stay small: as
    # plain Python, CPython 3.11 stacks them in fixed-size chunks, and a deep search whose frames
    # cross a chunk's end is up to 45% slower (measured on an expert component; where that happens
    # depends on frame size and call depth).
    def search(self, g: int, weight: int, total: int) -> None:
        self.nodes -= 1
        if self.nodes < 0:
            raise BudgetExceeded
        if not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise OutOfTime
        need = self.need
        low, high = 0, self.sizes[g]
        for k, after in self.room[g]:
            # The later groups of constraint k can hold at most ``after`` mines.
            left = need[k]
            if left - after > low:
                low = left - after
            if left < high:
                high = left
        if low > high:
            return
        row = self.combs[g]
        chosen = self.chosen
        if g == self.last:
            # Every placement from here is a solution: stored without a call per leaf (and
            # ``need`` is read no further, so it is left as it is).
            for mines in range(low, high + 1):
                chosen[g] = mines
                self.store(weight * row[mines], total + mines)
            chosen[g] = 0
            return
        cons = self.touching[g]
        for mines in range(low, high + 1):
            for k in cons:
                need[k] = need[k] - mines
            chosen[g] = mines
            self.search(g + 1, weight * row[mines], total + mines)
            for k in cons:
                need[k] = need[k] + mines
        chosen[g] = 0
