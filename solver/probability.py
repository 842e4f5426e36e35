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

from collections import OrderedDict
from dataclasses import dataclass, field
import math

from .board import Board
from .approximate import approximate
from .combine import combine_tilted, combine_with_density, combine_with_total, estimate_density
from .constraints import ConstraintSystem, Deduction, build_constraints, deduce
from .enumeration import (
    DEFAULT_NODE_BUDGET,
    BudgetExceeded,
    OutOfTime,
    ComponentSolutions,
    build_component,
    component_key,
    enumerate_component,
    partition,
)
from .errors import InconsistentBoardError
from .grid import bits, popcount


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
    # the floating cells, one each for the cells the cheap pass settled. Probabilities are floats;
    # 0.0 and 1.0 are given only to cells proven safe or mines (decided on exact integer supports,
    # never by rounding), so ``p == 0`` means certainly safe.
    classes: tuple[tuple[float, int], ...]
    # Natural log of how many mine placements fit the board (with a density: of their total prior
    # weight). Differences of log weights of boards over the same covered cells give the odds of
    # seeing each board. Logs, because these numbers pass 1e308 on big boards.
    log_weight: float
    nodes: int  # search nodes the enumeration used
    exact: bool
    mines_left: int | None  # mines not yet shown or proven, None if the total is unknown
    density: float | None
    # Probability per covered cell index (``classes`` cell by cell). Made with the model, not on first
    # use: compiled, a cached_property is computed again at every use.
    probabilities: dict[int, float] = field(compare=False, repr=False)

    @property
    def weight(self) -> float:
        """How many placements fit (with a density: their prior weight); inf when past float range."""
        return math.exp(self.log_weight) if self.log_weight < 700 else math.inf

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

    def safest(self) -> float:
        """The lowest probability of a cell that is not a certain mine (1 if there is none)."""
        return min((p for p, _ in self.classes if p != 1), default=1.0)


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


# Search nodes every component may use even after the shared budget is spent: small components stay
# exact when one huge component has eaten the budget (they are enumerated smallest first anyway).
# Never more than the whole budget.
COMPONENT_FLOOR = 500


# Exact solutions of components seen lately, by their constraints (``component_key``), with the search
# nodes they took. A move changes one component: the others come from here on the next decision and
# in the lookahead's re-solves. A hit is charged the nodes the search took and counts only if the
# search would have finished within the allowance, so every result, budget included, is exactly what
# enumerating again would give: decisions do not depend on what was played before (nor on how games
# are split across worker processes).
_SOLVED: OrderedDict[frozenset[tuple[int, int]], tuple[ComponentSolutions, int]] = OrderedDict()
_SOLVED_SIZE = 512


def solve_system(
    system: ConstraintSystem,
    mines_total: int | None,
    density: float | None = None,
    node_budget: int = DEFAULT_NODE_BUDGET,
    deduction: Deduction | None = None,
    deadline: float = math.inf,
    strict: bool = False,
) -> Model:
    """Past ``deadline`` a component is approximated; with ``strict``, ``OutOfTime`` is raised instead
    (a lookahead would rather drop a candidate than score it on an approximation)."""
    deduction = deduction or deduce(system, deadline=deadline)
    # Smallest first (they share the budget); ties by their cells, not by which number each constraint
    # is credited to, so the order is the same however the deduction was reached.
    parts = sorted(partition(deduction.constraints), key=lambda part: (len(part), min(c.cells for c in part)))
    budget = [node_budget]
    solutions = []
    frontier = 0
    for part in parts:
        allowance = max(budget[0], min(COMPONENT_FLOOR, node_budget))
        key = component_key(part)
        known = _SOLVED.get(key)
        if known is not None and known[1] <= allowance:
            _SOLVED.move_to_end(key)
            found, used = known
        else:
            # Sorted, so the component (its group order, hence the nodes its search takes) depends
            # on the key alone.
            component = build_component(sorted(part))
            left = [allowance]
            try:
                found = enumerate_component(component, left, deadline=deadline)
            except OutOfTime:
                if strict:
                    raise
                found = approximate(component, deadline)
            except BudgetExceeded:
                found = approximate(component, deadline)
            used = allowance - max(left[0], 0)
            if not found.counts:
                raise InconsistentBoardError(
                    "no placement of mines fits these numbers",
                    cells=tuple(system.cell(i) for i in found.component.sources),
                )
            if found.exact:
                _SOLVED[key] = (found, used)
                if len(_SOLVED) > _SOLVED_SIZE:
                    _SOLVED.popitem(last=False)
        budget[0] = budget[0] - used
        solutions.append(found)
        frontier |= found.component.cells
    floating = system.unknown & ~(frontier | deduction.safe | deduction.mines)
    tilted = False  # the total's coupling approximated for time
    if mines_total is not None:
        mines_left = mines_total - system.flags - popcount(deduction.mines)
        if mines_left < 0:
            raise InconsistentBoardError(
                f"the total of {mines_total} mines is fewer than the mines shown or proven",
                cells=system.cells(deduction.mines),
            )
        try:
            combined = combine_with_total(solutions, popcount(floating), mines_left, deadline)
        except OutOfTime:
            if strict:
                raise
            combined = combine_tilted(solutions, popcount(floating), mines_left)
            tilted = True
        if combined is None and not all(s.exact for s in solutions):
            # The approximations' windows of mine counts miss the total: widen them to every count.
            solutions = [
                s if s.exact else approximate(s.component, deadline, full_range=True) for s in solutions
            ]
            combined = combine_with_total(solutions, popcount(floating), mines_left)  # no clock: must answer
        if combined is None:
            low = sum(min(s.counts) for s in solutions)
            high = sum(max(s.counts) for s in solutions) + popcount(floating)
            raise InconsistentBoardError(
                f"the covered cells can hold {low} to {high} more mines, but the total of {mines_total} leaves {mines_left}",
                cells=system.cells(system.unknown),
            )
        used_density = None
    else:
        mines_left = None
        used_density = density if density is not None else estimate_density(system, deduction, solutions, floating)
        combined = combine_with_density(solutions, used_density)
    group_probs, floating_prob, log_weight = combined
    classes = [(0.0, deduction.safe), (1.0, deduction.mines), (floating_prob, floating)]
    for found, probs in zip(solutions, group_probs):
        classes.extend((probability, group.cells) for group, probability in zip(found.component.groups, probs))
    nodes = node_budget - budget[0]  # may pass the budget by the per-component floors
    return Model(
        system,
        deduction,
        tuple(solutions),
        floating,
        tuple((p, mask) for p, mask in classes if mask),
        log_weight,
        nodes,
        all(s.exact for s in solutions) and not tilted,
        mines_left,
        used_density,
        {i: p for p, mask in classes for i in bits(mask)},
    )


def to_analysis(model: Model) -> Analysis:
    system = model.system
    rows, cols = system.rows, system.cols
    flat: list[float | None] = [None] * (rows * cols)
    for probability, mask in model.classes:  # (not through ``probabilities``: no dict to make)
        probability = float(probability)
        for i in bits(mask):
            flat[i] = probability
    return Analysis(
        rows=rows,
        cols=cols,
        probabilities=tuple(tuple(flat[r * cols : (r + 1) * cols]) for r in range(rows)),
        safe=frozenset(system.cells(model.safe)),
        mines=frozenset(system.cells(model.mines)),
        exact=model.exact,
        mines_total=None if model.mines_left is None else model.mines_left + system.flags + popcount(model.deduction.mines),
        density=model.density,
    )
