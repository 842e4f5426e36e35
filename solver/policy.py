"""Which cells to click: every certain move first, otherwise the best guess.

``decide`` is the one entry point for players (the simulator, the screen bot): it runs the cheap
deterministic pass and stops there when it finds safe cells; only when it finds none does it pay for the
full probability analysis and a guess (``guess.choose_guess``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .board import Board
from .constraints import build_constraints, deduce
from .enumeration import DEFAULT_NODE_BUDGET
from .grid import bits
from .probability import Analysis, solve, to_analysis
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
    # Wall-clock cap on one decision. The node budgets keep benchmark runs deterministic; this only
    # bites on a slow or busy machine: past it the enumeration is approximated (reported as not
    # exact) and guessing settles for what it has, so live play never waits a second.
    time_limit: float = 0.6


@dataclass(frozen=True, slots=True)
class Decision:
    moves: tuple[Move, ...]
    # The full analysis, or None when the cheap pass found the moves and full_analysis was off.
    analysis: Analysis | None
    guessed: bool  # True when the move is a guess (probability above zero)


def decide(board: Board, config: PolicyConfig = PolicyConfig()) -> Decision:
    deadline = time.perf_counter() + config.time_limit
    system = build_constraints(board)
    untouched = not system.constraints and system.unknown.bit_count() == board.rows * board.cols
    # An untouched board that is all mines has nothing to open: the general path below says so.
    if untouched and (board.mines is None or board.mines < board.rows * board.cols):
        row, col = config.first_click or (0, 0)
        # A first click meant for a bigger board moves to the nearest cell of this one.
        row, col = min(row, board.rows - 1), min(col, board.cols - 1)
        probability = (board.mines or 0) / (board.rows * board.cols) if board.mines is not None else 0.0
        analysis = to_analysis(solve(board, density=config.density, system=system)) if config.full_analysis else None
        return Decision((Move(OPEN, row, col, probability),), analysis, guessed=True)
    deduction = deduce(system)
    model = None
    safe, mines = deduction.safe, deduction.mines
    if config.full_analysis or not safe:
        model = solve(
            board,
            density=config.density,
            node_budget=config.node_budget,
            system=system,
            deduction=deduction,
            deadline=deadline,
        )
        safe, mines = model.safe, model.mines
    cols = board.cols
    moves = [Move(OPEN, *divmod(i, cols), 0.0) for i in bits(safe)]
    if config.flag_mines:
        moves += [Move(FLAG, *divmod(i, cols), 1.0) for i in bits(mines)]
    guessed = False
    # When every covered cell is a certain mine there is nothing left to open: the board is solved
    # (a client that wants all mines flagged gets them through flag_mines).
    if not safe and system.unknown & ~mines:
        index = choose_guess(board, model, config.guess, deadline)
        moves.append(Move(OPEN, *divmod(index, cols), float(model.probabilities[index])))
        guessed = True
    return Decision(tuple(moves), to_analysis(model) if model is not None else None, guessed)
