"""Choosing a cell to open when no cell is certainly safe.

Strategies (``GuessConfig.strategy``), kept side by side so the benchmark can compare them:

- ``lowest``: the lowest mine probability, first in reading order. The plain baseline.
- ``lowest-corner``: the lowest probability; ties go to the cell with the fewest neighbours and then
  the fewest covered neighbours (corners and edges are likelier to show a zero and open an area).
- ``lookahead`` (default): a one-step lookahead over the near-safest candidates. For each candidate and each
  number it could show, the board is solved again; the candidate's score is the chance to survive it
  *and* the next move: P(safe) * sum over values v of P(v | safe) * (1 if the new board has a certain
  safe cell else the safety of its best guess). Candidates are the cells within ``tolerance`` of the best
  probability, at most ``max_candidates`` of them, best tie-break first.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from .board import Board
from .endgame import PLACEMENT_LIMIT, best_endgame_move, list_placements
from .errors import InconsistentBoardError
from .grid import bits, neighbour_masks, neighbour_table
from .probability import Model, solve_system

STRATEGIES = ("lookahead", "lowest-corner", "lowest")


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


def choose_guess(board: Board, model: Model, config: GuessConfig = GuessConfig(), deadline: float = math.inf) -> int:
    """The cell to open. Past ``deadline`` (a ``time.perf_counter()`` value) the endgame search gives
    up and the lookahead stops at the candidates it has scored."""
    best = model.safest()
    safest_cells = bits(sum(mask for p, mask in model.classes if p == best))
    if config.strategy == "lowest":
        return safest_cells[0]
    key = _tie_break(model)
    if config.strategy == "lowest-corner" or best == 0 or best == 1:
        return min(safest_cells, key=key)
    if config.endgame:
        placements = list_placements(model, config.endgame_limit)
        if placements:
            found = best_endgame_move(model, placements, deadline)
            if found is not None:
                return found[0]
    limit = float(best) * (1 + config.tolerance) + 0.005
    near = [(p, i) for p, mask in model.classes if p <= limit for i in bits(mask)]
    candidates = [i for _, i in sorted(near, key=lambda pi: (pi[0], key(pi[1])))]
    candidates = _spread(candidates, model)[: config.max_candidates]
    if len(candidates) == 1:
        return candidates[0]
    budget = [config.node_budget]
    scored = []
    for rank, i in enumerate(candidates):
        if scored and (budget[0] <= 0 or time.perf_counter() > deadline):
            break
        # Equal scores go to the earlier candidate: safer, then the better tie-break.
        scored.append((survival_two_moves(board, model, i, budget), -rank, i))
    return max(scored)[-1]


def _tie_break(model: Model):
    system = model.system
    table = neighbour_table(system.rows, system.cols)
    unknown = system.unknown

    def key(i: int) -> tuple[int, int, int]:
        return (len(table[i]), sum(1 for j in table[i] if unknown >> j & 1), i)

    return key


def _spread(candidates: list[int], model: Model) -> list[int]:
    """Keep one floating cell per shape class: floating cells of equal probability differ only by
    their position (corner, edge, inside), so evaluating several of the same kind is wasted work."""
    floating = model.floating
    table = neighbour_table(model.system.rows, model.system.cols)
    unknown = model.system.unknown
    seen: set[tuple[int, int]] = set()
    out = []
    for i in candidates:
        if floating >> i & 1:
            shape = (len(table[i]), sum(1 for j in table[i] if unknown >> j & 1))
            if shape in seen:
                continue
            seen.add(shape)
        out.append(i)
    return out


def survival_two_moves(board: Board, model: Model, index: int, budget: list[int]) -> float:
    """P(cell is safe) * E[safety of the following move | the number it shows]."""
    system = model.system
    around = neighbour_masks(system.rows, system.cols)[index]
    shown = (around & system.shown_mines).bit_count()
    covered = (around & system.unknown).bit_count()
    total_weight = 0
    score = 0.0
    for value in range(shown, shown + covered + 1):
        try:
            after = solve_system(system.reveal(index, value), board.mines, model.density, max(budget[0], 1))
        except InconsistentBoardError:
            continue
        budget[0] -= after.nodes + 1
        weight = after.weight
        if not weight:
            continue
        total_weight += weight
        # When every covered cell left is a mine the game is won: the next move is certainly survived.
        won = not after.system.unknown & ~after.mines
        next_safety = 1.0 if won else 1.0 - float(after.safest())
        score += float(weight) * next_safety
    if not total_weight:
        return 0.0
    return (1.0 - float(model.probabilities[index])) * score / float(total_weight)

