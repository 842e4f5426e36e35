"""The one-step lookahead's score of a cell, with one enumeration for all the numbers it could show.

Opening cell c shows v = (flags around c) + (mines among its covered neighbours N). Instead of solving
the board again for every v, the components that N or c touch are merged with one extra "tracked"
constraint on N whose count is not fixed but recorded: one search gives, for every v at once, the
solutions where c is safe and shows v. The other components and the cells off the frontier are as in
the model. Each v then needs only the combination (``combine.combine_with_total`` or
``combine_with_density``), not a deduction, a split and an enumeration of its own.

The result is what solving each revealed board would give (tests compare them), computed with a
fraction of the work; which cells are certain is still decided on exact integer counts.
"""

from __future__ import annotations

import math

from .constraints import Constraint, make_constraint
from .enumeration import Component, ComponentSolutions, build_component, enumerate_by_count
from .grid import neighbour_masks, popcount
from .combine import combine_with_density, combine_with_total
from .probability import Model


def survival_two_moves(
    model: Model, index: int, budget: list[int], deadline: float = math.inf, blend: float = 0.0
) -> tuple[float, float, bool]:
    """(P(cell is safe) * E[safety of the following move | the number it shows],
    P(the board after it has a certain safe cell | it is safe), live): the chance to survive two moves,
    the chance that the number it shows lets the game go on without another guess ("progress"), and
    whether it can show more than one number at all (a "dead" cell tells nothing when opened).

    The safety of a following guess is (1 - ``blend``) x the best cell's + ``blend`` x the second
    best's: a position with two good guesses is worth more than one with a single good one, since the
    guess after that one is taken from what is left.

    ``budget``: search nodes left (a one-item list, decreased by what this uses); ``BudgetExceeded``
    when it runs out, ``OutOfTime`` past ``deadline``."""
    system = model.system
    bit = 1 << index
    around = neighbour_masks(system.rows, system.cols)[index]
    settled = model.deduction.safe | model.deduction.mines
    seen = around & system.unknown & ~settled  # the covered neighbours whose state is open
    # Components that the new number or the opened cell touch are merged; the others stay as they are.
    reach = seen | bit
    touched, kept = split_touched(model, reach)
    constraints = fixed_constraints(touched, 0, bit)
    if constraints is None:
        return 0.0, 0.0, False  # a number that needs this very cell to be a mine: it cannot be safe
    floating = model.floating & ~reach
    # A cell the cheap pass proved safe stays safe whatever the number: the next move is then free.
    free_next = bool(model.deduction.safe & ~bit)
    by_count = _enumerate_tracked(constraints, seen, index, budget, deadline)
    outcomes = []  # (log weight of the board after the reveal, safety of the next move, progress: 1 or 0)
    for tracked, found in sorted(by_count.items()):
        solutions = kept + ([found] if found.component.groups else [])
        if model.mines_left is not None:
            combined = combine_with_total(solutions, popcount(floating), model.mines_left)
            if combined is None:
                continue  # this number cannot show with the board's mine total
        else:
            assert model.density is not None  # solved without a total: with a density
            combined = combine_with_density(solutions, model.density)
        group_probs, floating_prob, log_weight = combined
        if log_weight == -math.inf:
            continue
        # No covered cell left but certain mines: the game is won, the next move certainly survived.
        safety = 1.0 if free_next else _next_safety(solutions, group_probs, floating, floating_prob, blend)
        outcomes.append((log_weight, safety, 1.0 if safety == 1.0 else 0.0))
    if not outcomes:
        return 0.0, 0.0, False
    top = max(w for w, _, _ in outcomes)
    total = sum((math.exp(w - top) for w, _, _ in outcomes), 0.0)
    survival = sum((math.exp(w - top) * safety for w, safety, _ in outcomes), 0.0) / total
    progress = sum((math.exp(w - top) * moved for w, _, moved in outcomes), 0.0) / total
    return (1.0 - model.probabilities[index]) * survival, progress, len(outcomes) > 1


def _next_safety(
    solutions: list[ComponentSolutions], group_probs: list[list[float]], floating: int, floating_prob: float, blend: float
) -> float:
    """The safety of the next guess on a board (1.0 if a cell is certainly safe or none is left but
    certain mines): the best cell's, blended with the second best's (``survival_two_moves``)."""
    best = second = 1.0  # the two lowest mine chances of covered cells that are not certain mines
    for found, probs in zip(solutions, group_probs):
        for group, p in zip(found.component.groups, probs):
            if p < second and p != 1.0:
                if p < best:
                    best, second = p, (p if group.size > 1 else best)
                else:
                    second = p
    if floating and floating_prob != 1.0 and floating_prob < second:
        if floating_prob < best:
            best, second = floating_prob, (floating_prob if popcount(floating) > 1 else best)
        else:
            second = floating_prob
    if best == 1.0:  # nothing left but certain mines: the game is won
        return 1.0
    if best == 0.0 or second == 1.0:  # a free move, or a single covered cell left to guess
        return 1.0 - best
    return 1.0 - ((1.0 - blend) * best + blend * second)


def split_touched(model: Model, cells: int) -> tuple[list[ComponentSolutions], list[ComponentSolutions]]:
    """The model's components that ``cells`` touch, and the others."""
    touched: list[ComponentSolutions] = []
    kept: list[ComponentSolutions] = []
    for found in model.solutions:
        (touched if found.component.cells & cells else kept).append(found)
    return touched, kept


def fixed_constraints(touched: list[ComponentSolutions], mines: int, safe: int) -> list[Constraint] | None:
    """The constraints of the ``touched`` components once the cells of ``mines`` are fixed as mines and
    those of ``safe`` as safe: those cells left out, the counts reduced by the mines among them. None
    when a constraint can then no longer be met."""
    fixed = mines | safe
    constraints = []
    for found in touched:
        for cells, count, source in constraints_of(found.component):
            rest = cells & ~fixed
            left = count - popcount(cells & mines)
            if left < 0 or left > popcount(rest):
                return None
            if rest:
                constraints.append(make_constraint((rest, left, source)))
    return constraints


def constraints_of(component: Component):
    """The component's constraints as (cells, mines, source)."""
    for (members, mines), source in zip(component.constraints, component.sources):
        cells = 0
        for g in members:
            cells |= component.groups[g].cells
        yield cells, mines, source


def _enumerate_tracked(
    constraints: list[Constraint], tracked: int, index: int, budget: list[int], deadline: float
) -> dict[int, ComponentSolutions]:
    """Every placement over the merged constraints and the ``tracked`` cells, split by how many
    mines the tracked cells hold: one ``ComponentSolutions`` per count (the tracked cells form groups
    of the component; their count is recorded, not constrained)."""
    virtual = make_constraint((tracked, 0, index))
    parts = sorted(constraints) + ([virtual] if tracked else [])
    if not parts:
        return {0: ComponentSolutions(Component((), (), ()))}
    component = build_component(parts)
    # The virtual constraint is the last one: build_component keeps the constraints' order.
    return enumerate_by_count(component, budget, len(parts) - 1 if tracked else None, deadline)
