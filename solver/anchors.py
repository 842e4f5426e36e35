"""Published win rates of other solvers, with the exact rules they were measured under, to set
``screenbot bench`` results beside (``screenbot bench-plot``).

Sources: Tu et al.'s MineSweeperProb (PSEQ, and PSEQ-D256 with an exhaustive endgame; 100-500 million
games each); D. Hill's Java solver README and his JSMinesweeper (expert only); minesolve (depth-4
expectimax, C). Coordinates are (row, col), 0-based; expert is 16 rows x 30 columns.
A figure whose rules or first click were not published (such as screen bots') is left out: it could be
set beside no run.
"""

from __future__ import annotations

from dataclasses import dataclass

from .game import LEVELS

CORNER = (0, 0)


@dataclass(frozen=True, slots=True)
class Anchor:
    solver: str
    level: str  # a name of solver.game.LEVELS
    rules: str
    first: tuple[int, int]
    low: float  # win rate; low < high for a published range or a +- margin
    high: float
    games: str  # the sample, as published


def _anchor(solver: str, level: str, rules: str, first: tuple[int, int], rate: float, games: str, margin: float = 0.0) -> Anchor:
    return Anchor(solver, level, rules, first, rate - margin, rate + margin, games)


ANCHORS = (
    _anchor("PSEQ", "beginner", "safe", CORNER, 0.9168, "200-500M"),
    _anchor("PSEQ", "intermediate", "safe", CORNER, 0.7812, "200-500M"),
    _anchor("PSEQ", "expert", "safe", CORNER, 0.3962, "200-500M"),
    _anchor("PSEQ-D256", "beginner", "safe", CORNER, 0.9169, "100M"),
    _anchor("PSEQ-D256", "intermediate", "safe", CORNER, 0.7823, "100M"),
    _anchor("PSEQ-D256", "expert", "safe", CORNER, 0.4005, "100M"),
    _anchor("D. Hill (Java)", "expert", "safe", CORNER, 0.4113, "10M", margin=0.0003),
    _anchor("minesolve depth 4", "expert", "safe", CORNER, 0.4080, "1M"),
    _anchor("PSEQ", "beginner", "opening", (2, 2), 0.9715, "200-500M"),
    _anchor("PSEQ", "intermediate", "opening", (2, 2), 0.8893, "200-500M"),
    _anchor("PSEQ", "expert", "opening", (3, 3), 0.5278, "200-500M"),
    _anchor("PSEQ-D256", "beginner", "opening", (2, 2), 0.9717, "100M"),
    _anchor("PSEQ-D256", "intermediate", "opening", (2, 2), 0.8908, "100M"),
    _anchor("PSEQ-D256", "expert", "opening", (3, 3), 0.5345, "100M"),
    Anchor("D. Hill JSMinesweeper", "expert", "opening", (3, 3), 0.543, 0.546, "1k-10k"),
)


def level_of(rows: int, cols: int, mines: int) -> str | None:
    """The name of the standard level of that size, or None for a custom board."""
    return next((name for name, level in LEVELS.items() if (level.rows, level.cols, level.mines) == (rows, cols, mines)), None)


def anchors_for(rows: int, cols: int, mines: int, rules: str, first: tuple[int, int]) -> list[Anchor]:
    """The published figures measured on this board under these rules with this first click."""
    level = level_of(rows, cols, mines)
    return [a for a in ANCHORS if (a.level, a.rules, a.first) == (level, rules, tuple(first))]
