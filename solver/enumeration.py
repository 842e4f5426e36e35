"""Exact enumeration of the frontier, one independent component at a time.

Cells that touch exactly the same numbers are interchangeable, so they form a ``CellGroup`` and the search
chooses only *how many* mines each group holds (weighting by ``C(size, k)``). Groups linked by numbers form
a ``Component``; components are enumerated separately and combined later with the global mine count.
Counts are exact Python integers, kept per number of mines in the component.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from math import comb

from .constraints import Constraint
from .grid import bits

# Search nodes allowed per analysis before a component is approximated instead (see ``approximate``).
# About 0.3 s of pure Python on a slow core; typical expert positions need a few hundred.
DEFAULT_NODE_BUDGET = 200_000


@dataclass(frozen=True, slots=True)
class CellGroup:
    cells: int  # bitmask
    size: int


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


def split_components(constraints: tuple[Constraint, ...]) -> list[Component]:
    """Group equivalent cells, then split the groups into independent components."""
    signature: dict[int, int] = {}
    for k, con in enumerate(constraints):
        mask = con.cells
        while mask:
            low = mask & -mask
            cell = low.bit_length() - 1
            signature[cell] = signature.get(cell, 0) | (1 << k)
            mask ^= low
    groups_by_sig: dict[int, int] = {}
    for cell, sig in signature.items():
        groups_by_sig[sig] = groups_by_sig.get(sig, 0) | (1 << cell)

    # Union-find over constraints: two constraints sharing a group belong to one component.
    parent = list(range(len(constraints)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for sig in groups_by_sig:
        first = (sig & -sig).bit_length() - 1
        rest = sig & (sig - 1)
        while rest:
            low = rest & -rest
            parent[find(low.bit_length() - 1)] = find(first)
            rest ^= low

    by_root: dict[int, list[tuple[int, int]]] = {}
    for sig, cells in groups_by_sig.items():
        root = find((sig & -sig).bit_length() - 1)
        by_root.setdefault(root, []).append((sig, cells))

    components = []
    for members in by_root.values():
        members = _search_order(members)
        groups = tuple(CellGroup(cells, cells.bit_count()) for _, cells in members)
        cons_ids = sorted({k for sig, _ in members for k in bits(sig)})
        cons = tuple(
            (tuple(g for g, (sig, _) in enumerate(members) if sig >> k & 1), constraints[k].mines)
            for k in cons_ids
        )
        components.append(Component(groups, cons, tuple(constraints[k].source for k in cons_ids)))
    return components


def _search_order(members: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Order groups so that each next one shares the most constraints with those already placed.

    Constraints then close early and the search prunes near the top of the tree.
    """
    remaining = sorted(members, key=lambda m: -m[0].bit_count())
    ordered = [remaining.pop(0)]
    touched = ordered[0][0]
    while remaining:
        best = max(range(len(remaining)), key=lambda i: ((remaining[i][0] & touched).bit_count(), remaining[i][0].bit_count()))
        chosen = remaining.pop(best)
        ordered.append(chosen)
        touched |= chosen[0]
    return ordered


class BudgetExceeded(Exception):
    pass


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
    groups = component.groups
    ngroups = len(groups)
    sizes = [g.size for g in groups]
    need = [mines for _, mines in component.constraints]
    capacity = [sum(sizes[g] for g in members) for members, _ in component.constraints]
    touching: list[list[int]] = [[] for _ in range(ngroups)]
    for k, (members, _) in enumerate(component.constraints):
        for g in members:
            touching[g].append(k)
    result = ComponentSolutions(component)
    counts = result.counts
    group_mines = result.group_mines
    chosen = [0] * ngroups
    nodes = budget[0]

    def search(g: int, weight: int, total: int) -> None:
        nonlocal nodes
        if g == ngroups:
            if record is not None:
                record.append(tuple(chosen))
            counts[total] = counts.get(total, 0) + weight
            sums = group_mines.get(total)
            if sums is None:
                sums = group_mines[total] = [0] * ngroups
            for i in range(ngroups):
                if chosen[i]:
                    sums[i] += weight * chosen[i]
            return
        nodes -= 1
        if nodes < 0 or not nodes & 1023 and time.perf_counter() > deadline:
            raise BudgetExceeded
        size = sizes[g]
        low, high = 0, size
        for k in touching[g]:
            # The other unplaced groups of constraint k can hold at most capacity[k] - size mines.
            rest = need[k] - (capacity[k] - size)
            if rest > low:
                low = rest
            if need[k] < high:
                high = need[k]
        if low > high:
            return
        cons = touching[g]
        for k in cons:
            capacity[k] -= size
        for mines in range(low, high + 1):
            for k in cons:
                need[k] -= mines
            chosen[g] = mines
            search(g + 1, weight * comb(size, mines), total + mines)
            for k in cons:
                need[k] += mines
        chosen[g] = 0
        for k in cons:
            capacity[k] += size

    search(0, 1, 0)
    budget[0] = nodes
    return result


def approximate(component: Component) -> ComponentSolutions:
    """Fallback for a component too large to enumerate within the budget.

    Each group gets the mean density its constraints ask for, and the component is treated as holding
    the rounded expected number of mines. Not exact: the analysis reports ``exact=False``.
    """
    sizes = [g.size for g in component.groups]
    density = [0.0] * len(sizes)
    seen = [0] * len(sizes)
    for members, mines in component.constraints:
        cells = sum(sizes[g] for g in members)
        for g in members:
            density[g] += mines / cells
            seen[g] += 1
    expected = [density[g] / seen[g] * sizes[g] for g in range(len(sizes))]
    total = round(sum(expected))
    # Scale to integers so the result has the same shape as an exact enumeration.
    scale = 1 << 32
    return ComponentSolutions(
        component,
        counts={total: scale},
        group_mines={total: [round(e * scale) for e in expected]},
        exact=False,
    )
