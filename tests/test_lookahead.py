"""The lookahead's figures for a cell equal the brute-force ones on small random boards, with a mine total
and with a density: P(safe) * sum over the numbers v it could show of P(v | safe) * (safety of the
next move on the board showing v: the best cell's, blended with the second best's), P(the board
showing v has a certain safe cell | safe), and whether more than one v can show. They come from one
enumeration for all v; here every placement is tried and every board after a reveal is solved by
brute force.
"""

from __future__ import annotations

import random
from itertools import combinations, product

import pytest

from solver.board import MINE_LIKE_CHARS, NUMBERS, UNKNOWN_CHARS, Board, neighbours
from solver.errors import InconsistentBoardError
from solver.lookahead import survival_two_moves
from solver.probability import solve

from .bruteforce import brute_force
from .test_probability import random_position

pytestmark = pytest.mark.unit


def _placements(board: Board, density: float | None):
    """(mines, weight) for every placement of mines that fits the numbers (and the total)."""
    unknown = [(r, c) for r, c, ch in board.cells() if ch in UNKNOWN_CHARS]
    shown = sum(1 for _, _, ch in board.cells() if ch in MINE_LIKE_CHARS)
    numbers = [(int(ch), list(neighbours(board.rows, board.cols, r, c))) for r, c, ch in board.cells() if ch in NUMBERS]
    if density is None:
        left = board.mines - shown
        candidates = ((set(p), 1.0) for p in combinations(unknown, left)) if left >= 0 else iter(())
    else:
        candidates = (
            ({cell for cell, bit in zip(unknown, pick) if bit}, density ** sum(pick) * (1 - density) ** (len(unknown) - sum(pick)))
            for pick in product((0, 1), repeat=len(unknown))
        )
    for mines, weight in candidates:
        if all(sum(1 for n in nbrs if n in mines or board[n] in MINE_LIKE_CHARS) == v for v, nbrs in numbers):
            yield mines, weight


def blended_safety(probabilities: list[float], blend: float) -> float:
    """The next move's safety on a board with these mine chances (certain mines left out)."""
    ordered = sorted(probabilities)
    if not ordered:
        return 1.0  # nothing left to open: won
    if ordered[0] < 1e-12 or len(ordered) == 1:
        return 1 - ordered[0]
    return 1 - ((1 - blend) * ordered[0] + blend * ordered[1])


def brute_score(board: Board, cell: tuple[int, int], density: float | None, blend: float = 0.0) -> tuple[float, float, bool]:
    by_value: dict[int, float] = {}
    total = 0.0
    for mines, weight in _placements(board, density):
        total += weight
        if cell not in mines:
            v = sum(1 for n in neighbours(board.rows, board.cols, *cell) if n in mines or board[n] in MINE_LIKE_CHARS)
            by_value[v] = by_value.get(v, 0.0) + weight
    score = progress = 0.0
    for v, weight in by_value.items():
        grid = [list(row) for row in board.grid]
        grid[cell[0]][cell[1]] = str(v)
        after = brute_force(Board(tuple("".join(row) for row in grid), board.mines), density)
        uncertain = [p for p in after.values() if p < 1 - 1e-12]
        score += weight * blended_safety(uncertain, blend)
        progress += weight * (not uncertain or min(uncertain) < 1e-12)
    safe = sum(by_value.values())
    # P(safe) * E[next safety | safe] = sum over v of P(v and safe) * safety; progress given safe.
    return score / total, progress / safe, len(by_value) > 1


@pytest.mark.parametrize("with_total", [True, False], ids=["total", "density"])
def test_score_equals_brute_force(with_total):
    rng = random.Random(17 + with_total)
    checked = progressed = dead = 0
    for _ in range(400):
        rows, cols = rng.randint(2, 4), rng.randint(2, 5)
        board = random_position(rng, rows, cols, rng.randint(1, rows * cols // 3), reveal=rng.uniform(0.3, 0.7), flag=0.2)
        if sum(ch in UNKNOWN_CHARS for row in board.grid for ch in row) > (12 if with_total else 9):
            continue
        density = None if with_total else rng.uniform(0.1, 0.4)
        if not with_total:
            board = board.with_mines(None)
        try:
            model = solve(board, density=density)
        except InconsistentBoardError:
            continue
        for p, mask in model.classes:
            if 0 < p < 1:
                index = (mask & -mask).bit_length() - 1
                cell = divmod(index, board.cols)
                blend = rng.choice((0.0, 0.2, rng.random()))
                survival, progress, live = brute_score(board, cell, density, blend)
                got = survival_two_moves(model, index, [10**9], blend=blend)
                assert got[:2] == pytest.approx((survival, progress), abs=1e-9), (board, cell, blend)
                assert got[2] == live, (board, cell)
                progressed += 0 < progress < 1
                dead += not live
                checked += 1
    assert checked >= 150
    assert progressed >= 10  # cells whose number may or may not give a free move were among them
    assert 5 <= dead < checked  # and cells that can show one number only
