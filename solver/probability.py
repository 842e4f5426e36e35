"""Exact mine probabilities for every covered cell.

``analyze`` reads as the algorithm:

1. build constraints from the numbers (``constraints.build_constraints``);
2. settle what the cheap rules can (``constraints.deduce``);
3. group equivalent cells and split the rest of the frontier into independent components
   (``enumeration.split_components``);
4. enumerate each component, keeping exact integer counts per mine count
   (``enumeration.enumerate_component``);
5. combine the components with the global mine count: a choice of m_i mines in each component is
   weighted by C(floating cells, mines left for them), where floating cells are the covered cells that
   touch no number (``combine_with_total``);
6. divide once, at the end, into probabilities.

Unknown total: some clients place each mine independently with a fixed chance (the browser client does).
Then components are independent, a placement with m mines among n cells weighs p^m (1-p)^(n-m), and
floating cells have probability p. ``density`` gives p; without it p is estimated as the fixed point of
"p = expected mines / covered cells", starting from 0.15 (``estimate_density``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
import math
from fractions import Fraction
from math import comb

from .board import Board
from .constraints import ConstraintSystem, Deduction, build_constraints, deduce
from .enumeration import (
    DEFAULT_NODE_BUDGET,
    BudgetExceeded,
    ComponentSolutions,
    approximate,
    enumerate_component,
    split_components,
)
from .errors import InconsistentBoardError
from .grid import bits


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the solver knows about a board. Coordinates are (row, col)."""

    rows: int
    cols: int
    probabilities: tuple[tuple[float | None, ...], ...]  # None for revealed and flagged cells
    safe: frozenset[tuple[int, int]]  # certainly safe covered cells
    mines: frozenset[tuple[int, int]]  # certain mines that are not flagged yet
    exact: bool  # False when a component was too large and was approximated
    mines_total: int | None
    density: float | None  # the per-cell prior used when the total is unknown

    def probability(self, row: int, col: int) -> float | None:
        return self.probabilities[row][col]


@dataclass(frozen=True)
class Model:
    """The engine's full result, by flat cell index; the policy reads this, users read ``Analysis``."""

    system: ConstraintSystem
    deduction: Deduction
    solutions: tuple[ComponentSolutions, ...]
    floating: int  # bitmask of covered cells touching no open constraint
    # Cells that share one probability, as (probability, bitmask): one class per cell group, one for
    # the floating cells, one each for the cells the cheap pass settled. Exact Fractions with a mine
    # total, floats with a density.
    classes: tuple[tuple[Fraction | float, int], ...]
    # How many mine placements fit the board (with a density: their total prior weight). Ratios of
    # weights of boards over the same covered cells give the chance of seeing each board.
    weight: int | float
    nodes: int  # search nodes the enumeration used
    exact: bool
    mines_left: int | None  # mines not yet shown or proven, None if the total is unknown
    density: float | None

    @cached_property
    def probabilities(self) -> dict[int, Fraction | float]:
        """Probability per covered cell index."""
        return {i: p for p, mask in self.classes for i in bits(mask)}

    @property
    def safe(self) -> int:
        return self._mask(0)

    @property
    def mines(self) -> int:
        return self._mask(1)

    def _mask(self, value: int) -> int:
        mask = 0
        for probability, cells in self.classes:
            if probability == value:
                mask |= cells
        return mask

    def safest(self) -> Fraction | float:
        """The lowest probability of a cell that is not a certain mine (1 if there is none)."""
        return min((p for p, _ in self.classes if p != 1), default=1)


def analyze(board: Board, *, density: float | None = None, node_budget: int = DEFAULT_NODE_BUDGET) -> Analysis:
    """Exact probabilities for every covered cell. Raises InconsistentBoardError if none can exist."""
    return to_analysis(solve(board, density=density, node_budget=node_budget))


def solve(
    board: Board,
    *,
    density: float | None = None,
    node_budget: int = DEFAULT_NODE_BUDGET,
    system: ConstraintSystem | None = None,
    deduction: Deduction | None = None,
    deadline: float = math.inf,
) -> Model:
    """The full model of ``board``; ``system``/``deduction`` may be passed when already computed."""
    return solve_system(system or build_constraints(board), board.mines, density, node_budget, deduction, deadline)


def solve_system(
    system: ConstraintSystem,
    mines_total: int | None,
    density: float | None = None,
    node_budget: int = DEFAULT_NODE_BUDGET,
    deduction: Deduction | None = None,
    deadline: float = math.inf,
) -> Model:
    deduction = deduction or deduce(system)
    components = split_components(deduction.constraints)
    budget = [node_budget]
    solutions = []
    for component in components:
        try:
            found = enumerate_component(component, budget, deadline=deadline)
        except BudgetExceeded:
            found = approximate(component)
        if not found.counts:
            raise InconsistentBoardError(
                "no placement of mines fits these numbers",
                cells=tuple(system.cell(i) for i in component.sources),
            )
        solutions.append(found)
    frontier = 0
    for component in components:
        frontier |= component.cells
    floating = system.unknown & ~(frontier | deduction.safe | deduction.mines)
    exact = all(s.exact for s in solutions)
    if mines_total is not None:
        mines_left = mines_total - system.flags - deduction.mines.bit_count()
        if mines_left < 0:
            raise InconsistentBoardError(
                f"the total of {mines_total} mines is fewer than the mines shown or proven",
                cells=system.cells(deduction.mines),
            )
        group_probs, floating_prob, weight = combine_with_total(solutions, floating.bit_count(), mines_left)
        if group_probs is None:
            low = sum(min(s.counts) for s in solutions)
            high = sum(max(s.counts) for s in solutions) + floating.bit_count()
            raise InconsistentBoardError(
                f"the covered cells can hold {low} to {high} more mines, but the total of {mines_total} leaves {mines_left}",
                cells=system.cells(system.unknown),
            )
        used_density = None
    else:
        mines_left = None
        used_density = density if density is not None else estimate_density(system, deduction, solutions, floating)
        group_probs, floating_prob, weight = combine_with_density(solutions, used_density)
    classes = [(0, deduction.safe), (1, deduction.mines), (floating_prob, floating)]
    for found, probs in zip(solutions, group_probs):
        classes.extend((probability, group.cells) for group, probability in zip(found.component.groups, probs))
    nodes = node_budget - max(budget[0], 0)
    return Model(
        system,
        deduction,
        tuple(solutions),
        floating,
        tuple((p, mask) for p, mask in classes if mask),
        weight,
        nodes,
        exact,
        mines_left,
        used_density,
    )


def _convolve(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            out[ma + mb] = out.get(ma + mb, 0) + ca * cb
    return out


def combine_with_total(
    solutions: list[ComponentSolutions], floating: int, mines_left: int
) -> tuple[list[list[Fraction]] | None, Fraction, int]:
    """Exact probability per group of each component, and of a floating cell.

    Also returns the number of placements. Returns (None, 0, 0) when no choice of mines per component leaves a feasible count for the floating
    cells, i.e. the board contradicts its mine total.
    """
    polys = [s.counts for s in solutions]
    everything: dict[int, int] = {0: 1}
    for poly in polys:
        everything = _convolve(everything, poly)
    total = sum(
        count * comb(floating, mines_left - t) for t, count in everything.items() if 0 <= mines_left - t <= floating
    )
    if total == 0:
        return None, Fraction(0), 0
    floating_prob = Fraction(0)
    if floating:
        # Expected mines per floating cell: C(F, k) * k / F == C(F - 1, k - 1).
        floating_prob = Fraction(
            sum(
                count * comb(floating - 1, mines_left - t - 1)
                for t, count in everything.items()
                if 1 <= mines_left - t <= floating
            ),
            total,
        )
    group_probs = []
    for i, found in enumerate(solutions):
        others: dict[int, int] = {0: 1}
        for j, poly in enumerate(polys):
            if j != i:
                others = _convolve(others, poly)
        sums_total = [0] * len(found.component.groups)
        for m, sums in found.group_mines.items():
            rest = sum(
                count * comb(floating, mines_left - m - t)
                for t, count in others.items()
                if 0 <= mines_left - m - t <= floating
            )
            if rest:
                for g, s in enumerate(sums):
                    sums_total[g] += s * rest
        group_probs.append([Fraction(s, g.size * total) for s, g in zip(sums_total, found.component.groups)])
    return group_probs, floating_prob, total


def combine_with_density(solutions: list[ComponentSolutions], p: float) -> tuple[list[list[float]], float, float]:
    """Independent mines with chance p: each component normalises on its own; floating cells get p."""
    group_probs = []
    weight = 1.0
    q = 1.0 - p
    for found in solutions:
        size = sum(g.size for g in found.component.groups)
        weights = {m: count * p**m * q ** (size - m) for m, count in found.counts.items()}
        total = sum(weights.values())
        weight *= total
        group_nums = [0.0] * len(found.component.groups)
        for m, sums in found.group_mines.items():
            scale = p**m * q ** (size - m) / total
            for g, s in enumerate(sums):
                group_nums[g] += s * scale
        group_probs.append([num / group.size for num, group in zip(group_nums, found.component.groups)])
    return group_probs, p, weight


def estimate_density(system: ConstraintSystem, deduction: Deduction, solutions, floating: int) -> float:
    covered = system.unknown.bit_count() + system.flags
    if covered == 0:
        return 0.15
    p = 0.15
    for _ in range(20):
        group_probs, _, _ = combine_with_density(solutions, p)
        expected = system.flags + deduction.mines.bit_count() + p * floating.bit_count()
        for found, nums in zip(solutions, group_probs):
            expected += sum(n * g.size for n, g in zip(nums, found.component.groups))
        new = min(0.9, max(0.01, expected / covered))
        if abs(new - p) < 1e-6:
            break
        p = new
    return p


def to_analysis(model: Model) -> Analysis:
    system = model.system
    rows, cols = system.rows, system.cols
    grid: list[list[float | None]] = [[None] * cols for _ in range(rows)]
    for i, probability in model.probabilities.items():
        r, c = divmod(i, cols)
        grid[r][c] = float(probability)
    return Analysis(
        rows=rows,
        cols=cols,
        probabilities=tuple(tuple(row) for row in grid),
        safe=frozenset(system.cells(model.safe)),
        mines=frozenset(system.cells(model.mines)),
        exact=model.exact,
        mines_total=None if model.mines_left is None else model.mines_left + system.flags + model.deduction.mines.bit_count(),
        density=model.density,
    )
