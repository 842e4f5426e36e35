"""Choosing a cell to open when no cell is certainly safe.

Strategies (``GuessConfig.strategy``), kept side by side so the benchmark can compare them:

- ``lowest``: the lowest mine probability, first in reading order. The plain baseline.
- ``lowest-corner``: the lowest probability; ties go to the cell with the fewest neighbours and then
  the fewest covered neighbours (corners and edges are likelier to show a zero and open an area).
- ``lookahead`` (default): a one-step lookahead over the near-safest candidates. For each candidate and each
  number it could show, the board after it is weighed (``lookahead.survival_two_moves``: one enumeration
  for all the numbers); the candidate's score is the chance to survive it *and* the next move,
  S = P(safe) * sum over values v of P(v | safe) * (1 if the new board has a certain safe cell else the
  safety of its next guess: 0.8 x the best cell's + 0.2 x the second best's, ``blend``), raised for
  progress: S * (1 + ``progress_weight`` * P(a certain safe cell follows | safe)). S alone counts a
  number that leaves the next move a guess at nearly the worth of one that gives a free move, though
  that guess is followed by more; the progress term (D. Hill's solvers weigh it 0.2 too) is worth
  +0.32 points of win rate on expert and +0.90 on intermediate under the ``safe`` rules, nothing
  measurable elsewhere (docs/benchmarks.md, "The progress term"). The score is then multiplied by
  1 + 0.9 x P(the cell is the mine of a 50/50 nothing can resolve) / P(safe) (``owed_credit``,
  ``influence.owed_risk``): that risk is taken some day anyway. A "dead" candidate, which can show one
  number only, is chosen only when every scored candidate is dead (``dead_last``). Those three and the
  longer endgame search gained +0.14 points on expert ``safe`` together, over 70,000 games played by
  both policies (docs/benchmarks.md, "Blend, dead cells, 50/50s, longer endgame").
  Candidates are the cells within ``tolerance`` of the best probability, at most ``max_candidates``
  of them, best tie-break first, and any "pseudo-50/50" cell past the tolerance (``pseudo_fifty``):
  one in a pair or 2x2 box whose flank is all mines already, that is at least 90% sure to be the
  mine of a 50/50 nothing can resolve if it is a mine at all, and whose safety plus the credit
  reaches the safest cell's. Its mine would be guessed some day anyway; opening it now costs
  little and tells more. Over 120,000 expert ``safe`` games played by both policies: +0.04 points
  (docs/benchmarks.md, "Pseudo-50/50s").
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from .board import Board
from .endgame import PLACEMENT_LIMIT, WORK_BUDGET, best_endgame_move, list_placements
from .enumeration import BudgetExceeded, OutOfTime
from .grid import bits, cell_shape, first_of_each_shape, neighbour_masks, neighbour_table, popcount
from .influence import closed_pattern, owed_risk
from .lookahead import survival_two_moves
from .probability import Model

STRATEGIES = ("lookahead", "lowest-corner", "lowest")
# A pseudo-50/50 cell's owed risk is at least this share of its chance to be a mine.
PSEUDO_SHARE = 0.9


@dataclass(frozen=True, slots=True)
class GuessConfig:
    strategy: str = "lookahead"
    tolerance: float = 0.10  # relative: candidates have P(mine) <= best * (1 + tolerance) + 0.005
    max_candidates: int = 6
    # Search nodes the lookahead may spend in all; candidates are tried best first, so running out
    # only drops the least promising ones. Keeps a live decision well under a second.
    node_budget: int = 60_000
    endgame: bool = True  # exhaustive search when few placements remain (see ``endgame``)
    endgame_limit: int = PLACEMENT_LIMIT
    # A forced 50/50 (``_forced_pair``) is guessed as soon as it is found, before any other guess.
    fifty_fifty: bool = True
    # How much the lookahead's score rises with the chance that the cell's number gives a free move.
    progress_weight: float = 0.2
    endgame_work: int = WORK_BUDGET  # the endgame search's work budget (``endgame.WORK_BUDGET``)
    # The next guess's safety, as the lookahead weighs it: (1 - blend) x the best cell's + blend x
    # the second best's (``lookahead.survival_two_moves``).
    blend: float = 0.2
    # A candidate that can show only one number (it tells nothing) is chosen only when every scored
    # candidate is such a "dead" cell.
    dead_last: bool = True
    # How much of the risk of ending in a 50/50 (``influence.owed_risk``) is credited back to a
    # candidate: its score is multiplied by 1 + owed_credit x owed / P(safe).
    owed_credit: float = 0.9
    # Cells past the tolerance that are nearly sure to end in a 50/50 if they are mines join the
    # candidates when their safety plus the credit for that risk reaches the safest cell's safety
    # (``_pseudo_fifty_fifties``: D. Hill's "pseudo-50/50s", guessed early).
    pseudo_fifty: bool = True


@dataclass(frozen=True, slots=True)
class Guess:
    index: int  # the cell to open
    complete: bool  # False when the time limit cut the search short (the choice is approximate)


def choose_guess(board: Board, model: Model, config: GuessConfig = GuessConfig(), deadline: float = math.inf) -> Guess:
    """The cell to open. Past ``deadline`` (a ``time.perf_counter()`` value) the endgame search gives
    up and the lookahead stops at the candidates it has scored."""
    best = model.safest()
    safest_cells = bits(sum(mask for p, mask in model.classes if p == best))
    if config.strategy == "lowest":
        return Guess(safest_cells[0], True)
    key = _tie_break(model)
    if config.strategy == "lowest-corner" or best == 0 or best == 1:
        return Guess(min(safest_cells, key=key), True)
    complete = True
    if config.endgame:
        placements = list_placements(model, config.endgame_limit)
        if placements:
            found = best_endgame_move(model, placements, deadline, config.endgame_work)
            if found is not None:
                return Guess(found[0], True)
            complete = time.perf_counter() <= deadline  # given up for time, not for its work budget
    if config.fifty_fifty:
        pair = _forced_pair(model)
        if pair is not None:
            return Guess(pair[0], complete)
    limit = float(best) * (1 + config.tolerance) + 0.005
    # Of the floating cells only the first of each shape can be a candidate (``_spread``): the others
    # are left out before sorting, which gives the same candidates without sorting hundreds of cells.
    # Never a certain mine, which the limit lets in when the safest cell is a likely mine too.
    classes = [(p, mask) for p, mask in model.classes if p <= limit and p < 1]
    near = [(p, i) for p, mask in classes for i in bits(mask & ~model.floating)]
    rows, cols, unknown = model.system.rows, model.system.cols, model.system.unknown
    near += [(p, i) for p, mask in classes for i in first_of_each_shape(mask & model.floating, unknown, rows, cols)]
    candidates = [i for _, i in sorted(near, key=lambda pi: (pi[0], key(pi[1])))]
    candidates = _spread(candidates, model)[: config.max_candidates]
    budget = [config.node_budget]
    owed: dict[int, float] = {}
    if config.pseudo_fifty and config.owed_credit:
        try:
            candidates += _pseudo_fifty_fifties(model, limit, float(best), config.owed_credit, owed, budget, deadline)
        except OutOfTime:
            complete = False
        except BudgetExceeded:
            pass  # the work budget is spent: the candidates are settled as when scoring spends it
    if len(candidates) == 1:
        return Guess(candidates[0], complete)
    # (live, score, -rank, cell): live cells first, then the higher score; equal scores go to the
    # earlier candidate (safer, then the better tie-break).
    scored: list[tuple[bool, float, int, int]] = []
    best_live = -1.0  # the best score of a live candidate so far (a dead one bounds nothing)
    for rank, i in enumerate(candidates):
        if scored and budget[0] <= 0:
            break
        safe = 1.0 - model.probabilities[i]
        try:
            credit = 1.0
            if config.owed_credit:
                risk = owed.get(i)
                if risk is None:
                    risk = owed_risk(model, i, budget, deadline)
                credit += config.owed_credit * risk / safe
            # A score is at most P(safe) * credit * (1 + progress_weight). Without the credit the
            # candidates come safest first: once that bound cannot beat the best live score, no later
            # candidate can either; with it, a later one may still.
            if scored and safe * credit * (1.0 + config.progress_weight) <= best_live:
                if config.owed_credit:
                    continue
                break
            survival, progress, live = survival_two_moves(model, i, budget, deadline, config.blend)
            score = credit * survival * (1.0 + config.progress_weight * progress)
        except OutOfTime:
            complete = False
            break
        except BudgetExceeded:
            break  # the work budget is spent: settle for the candidates scored (deterministic)
        live = live or not config.dead_last
        if live:
            best_live = max(best_live, score)
        scored.append((live, score, -rank, i))
    if not scored:  # out of time before the first candidate was scored: the safest, best placed
        return Guess(candidates[0], False)
    return Guess(max(scored)[-1], complete)


def _pseudo_fifty_fifties(
    model: Model, limit: float, best: float, credit: float, owed: dict[int, float], budget: list[int], deadline: float
) -> list[int]:
    """Frontier cells past ``limit`` that are nearly sure to end in a 50/50 if they are mines (a
    pattern of theirs is closed already, and their owed risk is at least ``PSEUDO_SHARE`` of
    min(P(mine), P(safe))), and whose safety plus ``credit`` x that risk reaches the safest cell's.
    Their risks are kept in ``owed``."""
    out = []
    for p, mask in model.classes:
        if not limit < p <= 0.5:
            continue
        for i in bits(mask & ~model.floating):
            if 1.0 - p + credit * p < 1.0 - best or not closed_pattern(model, i):
                continue  # (the risk is at most p)
            risk = owed[i] = owed_risk(model, i, budget, deadline)
            if risk >= PSEUDO_SHARE * p and 1.0 - p + credit * risk >= 1.0 - best:
                out.append(i)
    return out


def _tie_break(model: Model):
    system = model.system
    table = neighbour_table(system.rows, system.cols)
    around = neighbour_masks(system.rows, system.cols)
    unknown = system.unknown

    def key(i: int) -> tuple[int, int, int]:
        return (len(table[i]), popcount(around[i] & unknown), i)

    return key


def _spread(candidates: list[int], model: Model) -> list[int]:
    """Keep one floating cell per shape class: floating cells of equal probability differ only by
    their position (corner, edge, inside), so evaluating several of the same kind is wasted work."""
    floating = model.floating
    rows, cols, unknown = model.system.rows, model.system.cols, model.system.unknown
    seen: set[tuple[int, int]] = set()
    out = []
    for i in candidates:
        if floating >> i & 1:
            shape = cell_shape(i, unknown, rows, cols)
            if shape in seen:
                continue
            seen.add(shape)
        out.append(i)
    return out


def _forced_pair(model: Model) -> tuple[int, int] | None:
    """A forced 50/50: two covered cells a and b holding exactly one mine (what a number's cells come
    to once the settled cells are taken out), where every cell next to one of them but not to the
    other (apart from a and b) is a certain mine. Swapping the mine between a and b then keeps every
    number shown and every number that could ever show, so nothing can tell them apart: one of them
    must be guessed at 1/2, and guessing it now gives the safe one's number to the cells around it
    sooner. Returns the pair, first the cell with more covered neighbours (more to tell), or None."""
    system = model.system
    around = neighbour_masks(system.rows, system.cols)
    certain_mines = model.mines | system.shown_mines
    probabilities = model.probabilities
    settled = model.safe | certain_mines
    for con in model.deduction.constraints:
        # Reduced by what the enumeration settled too (the cheap pass's constraints do not know it).
        cells = con.cells & ~settled
        if popcount(cells) != 2 or con.mines - popcount(con.cells & certain_mines) != 1:
            continue
        a, b = bits(cells)
        if probabilities.get(a) != 0.5 or probabilities.get(b) != 0.5:
            continue
        if (around[a] ^ around[b]) & ~cells & ~certain_mines:
            continue  # a cell next to one only may be (or is) a number that tells them apart
        unknown = system.unknown & ~certain_mines
        first = max((a, b), key=lambda i: (popcount(around[i] & unknown), -i))
        return first, a + b - first
    return None
