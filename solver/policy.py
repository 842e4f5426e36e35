"""Which cells to click: every certain move first, otherwise the best guess.

``decide`` is the one entry point for players (the simulator, the screen bot): it runs the cheap
deterministic pass and stops there when it finds safe cells; only when it finds none does it pay for the
full probability analysis and a guess (``guess.choose_guess``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import lru_cache

from .board import Board
from .constraints import build_constraints, deduce_next
from .endgame import forget
from .enumeration import DEFAULT_NODE_BUDGET
from .grid import bits, popcount
from .probability import Analysis, Model, solve, solve_system, to_analysis
from .guess import GuessConfig, choose_guess

OPEN, FLAG = "open", "flag"


@dataclass(frozen=True, slots=True)
class Move:
    action: str  # "open" or "flag"
    row: int
    col: int
    probability: float  # chance that the cell is a mine


@dataclass(frozen=True, slots=True)
class PolicyConfig:
    first_click: tuple[int, int] | None = None  # where to open an untouched board; None = top-left corner
    flag_mines: bool = False  # also return flag moves for certain mines
    density: float | None = None  # per-cell mine chance when the total is unknown (None = estimate)
    node_budget: int = DEFAULT_NODE_BUDGET
    full_analysis: bool = False  # always compute the Analysis, even when the cheap pass finds moves
    guess: GuessConfig = GuessConfig()
    # Wall-clock limit on one decision, for live play: every stage checks it (the cheap pass, each
    # component's enumeration, the lookahead's re-solves, the endgame search), the enumeration gives
    # way to the approximation at 45% of it and guessing settles for the candidates it has scored at
    # 75%, so the answer comes within the limit and says it is approximate (``Decision.approximate``).
    # None: no clock at all, only the work budgets decide, so a benchmark gives the same results for
    # the same seed however loaded the machine is.
    time_limit: float | None = 1.0


@dataclass(frozen=True, slots=True)
class Decision:
    moves: tuple[Move, ...]
    # The model solved for the decision, or None when the cheap pass found the moves and
    # full_analysis was off. Its ``analysis`` is made only when asked for: the benchmark never does.
    # (Left out of ==: a model holds caches; compare the analyses.)
    model: Model | None = field(repr=False, compare=False)
    guessed: bool  # True when the move is a guess (probability above zero)
    # True when the answer is not the full policy's: a component was approximated (over its work
    # budget or out of time) or the guess search was cut short by the time limit.
    approximate: bool = False

    @property
    def analysis(self) -> Analysis | None:
        """The full analysis (probabilities per cell, certain cells), or None with ``model``."""
        return None if self.model is None else to_analysis(self.model)


@lru_cache(maxsize=4096)
def _open_safe(row: int, col: int) -> Move:
    """The move that opens a certain cell, made once per cell: a decision lists every safe cell, and
    a frozen dataclass takes near a microsecond to build (a Move is immutable, so sharing it is safe)."""
    return Move(OPEN, row, col, 0.0)


def decide(board: Board, config: PolicyConfig = PolicyConfig()) -> Decision:
    start = time.perf_counter()
    if config.time_limit is None:
        solve_by = guess_by = math.inf
    else:
        solve_by = start + 0.45 * config.time_limit
        guess_by = start + 0.75 * config.time_limit
    system = build_constraints(board)
    untouched = not system.constraints and popcount(system.unknown) == board.rows * board.cols
    # An untouched board that is all mines has nothing to open: the general path below says so.
    if untouched and (board.mines is None or board.mines < board.rows * board.cols):
        forget()  # a new game: its moves must not depend on the games played before it
        row, col = config.first_click or (0, 0)
        # A first click meant for a bigger board moves to the nearest cell of this one.
        row, col = min(row, board.rows - 1), min(col, board.cols - 1)
        probability = (board.mines or 0) / (board.rows * board.cols) if board.mines is not None else 0.0
        model = solve(board, density=config.density, system=system) if config.full_analysis else None
        return Decision((Move(OPEN, row, col, probability),), model, guessed=True)
    deduction = deduce_next(system, deadline=solve_by)
    model = None
    safe, mines = deduction.safe, deduction.mines
    if config.full_analysis or not safe:
        model = solve_system(system, board.mines, config.density, config.node_budget, deduction, solve_by)
        safe, mines = model.safe, model.mines
    cols = board.cols
    moves = [_open_safe(*divmod(i, cols)) for i in bits(safe)]
    if config.flag_mines:
        moves += [Move(FLAG, *divmod(i, cols), 1.0) for i in bits(mines)]
    guessed = False
    approximate = model is not None and not model.exact
    # When every covered cell is a certain mine there is nothing left to open: the board is solved
    # (a client that wants all mines flagged gets them through flag_mines).
    if not safe and system.unknown & ~mines:
        assert model is not None  # solved above: nothing was safe
        guess = choose_guess(board, model, config.guess, guess_by)
        moves.append(Move(OPEN, *divmod(guess.index, cols), float(model.probabilities[guess.index])))
        guessed = True
        approximate = approximate or not guess.complete
    return Decision(tuple(moves), model, guessed, approximate)
