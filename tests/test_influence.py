"""The chance of ending in a 50/50 (``solver.influence``) equals brute force on small random boards:
every placement of mines that fits is listed, and each 2-cell pair and 2x2 box of the board is
checked against the definition in the module's docstring. The boards are drawn anew on every run
(the seed is printed and named in every failure; ``SCREENBOT_RANDOM_SEED=<seed>`` replays it)."""

from __future__ import annotations

import math
import random

import pytest

from solver.board import MINE_LIKE_CHARS, UNKNOWN_CHARS, Board
from solver.errors import InconsistentBoardError
from solver.guess import PSEUDO_SHARE, _pseudo_fifty_fifties
from solver.influence import MISSING_LIMIT, closed_pattern, joint_probability, owed_risk
from solver.probability import solve

from .seeds import REPLAY, SEED
from .test_lookahead import _placements
from .test_probability import random_position

pytestmark = pytest.mark.unit


print(f"\ntests/test_influence.py: {REPLAY}")


@pytest.fixture
def rng() -> random.Random:
    return random.Random(SEED)


def _boards(rng: random.Random, wanted: int):
    """(board, its model, its placements) for ``wanted`` random small boards that fit."""
    made = 0
    while made < wanted:
        rows, cols = rng.randint(2, 4), rng.randint(2, 5)
        board = random_position(rng, rows, cols, rng.randint(1, rows * cols // 2), reveal=rng.uniform(0.2, 0.6), flag=0.2)
        if not 1 <= board.count(UNKNOWN_CHARS) <= 12:
            continue
        try:
            model = solve(board)
        except InconsistentBoardError:
            continue
        made += 1
        yield board, model, [frozenset(mines) for mines, _ in _placements(board, None)]


def test_joint_probability_equals_brute_force(rng):
    for board, model, placements in _boards(rng, 150):
        covered = [(r, c) for r, c, ch in board.cells() if ch in UNKNOWN_CHARS]
        for _ in range(4):
            chosen = rng.sample(covered, rng.randint(1, min(4, len(covered))))
            split = rng.randint(0, len(chosen))
            mines, safe = set(chosen[:split]), set(chosen[split:])
            expected = sum(1 for p in placements if mines <= p and not safe & p) / len(placements)
            got = joint_probability(model, _mask(board, mines), _mask(board, safe), [10**9])
            assert got == pytest.approx(expected, abs=1e-9), (SEED, board, mines, safe)


def test_owed_risk_equals_brute_force(rng):
    seen = shut = 0
    for board, model, placements in _boards(rng, 300):
        for r, c, ch in board.cells():
            if ch in UNKNOWN_CHARS:
                expected, closed = _brute_owed(board, (r, c), placements)
                assert owed_risk(model, r * board.cols + c, [10**9]) == pytest.approx(expected, abs=1e-9), (SEED, board, (r, c))
                assert closed_pattern(model, r * board.cols + c) == closed, (SEED, board, (r, c))
                seen += expected > 0
                shut += closed
    assert seen >= 20, SEED  # cells that may end in a 50/50 were among them
    assert shut >= 5, SEED  # and cells in a pattern already closed


def test_pseudo_fifty_fifties_equal_brute_force(rng):
    # The guess's pseudo-50/50 cells (here with no tolerance, so that every cell may be one) are
    # exactly the frontier cells of P(mine) up to 1/2 that are, if mines, at least 90% sure to be the
    # mine of a closed 50/50, and whose safety plus the credit reaches the safest cell's.
    found = 0
    for board, model, placements in _boards(rng, 300):
        best = model.safest()
        got = set(_pseudo_fifty_fifties(model, 0.0, best, 0.9, {}, [10**9], math.inf))
        for r, c, ch in board.cells():
            i = r * board.cols + c
            if ch not in UNKNOWN_CHARS or model.floating >> i & 1:
                continue
            p = model.probabilities[i]
            risk, closed = _brute_owed(board, (r, c), placements)
            margins = (risk - PSEUDO_SHARE * p, 1 - p + 0.9 * risk - (1 - best))
            if any(abs(m) < 1e-9 for m in margins):
                continue  # on a threshold: rounding decides
            expected = 0 < p <= 0.5 and closed and min(margins) > 0
            assert (i in got) == expected, (SEED, board, (r, c))
            found += expected
    assert found >= 5, SEED


def test_owed_risk_of_an_enclosed_pair():
    # The two cells of the top-left corner are shut in by the board's edges and two flags: whatever
    # happens, one of them is a mine that nothing will tell apart from the other.
    board = Board(("##F", "13F"), 3)
    model = solve(board)
    assert model.probabilities[0] == pytest.approx(0.5)
    assert owed_risk(model, 0, [10**9]) == pytest.approx(0.5)
    assert closed_pattern(model, 0) and closed_pattern(model, 1)
    # Without a total nothing is counted (the chance is not defined on the same footing).
    assert owed_risk(solve(board.with_mines(None)), 0, [10**9]) == 0.0


def _mask(board: Board, cells) -> int:
    return sum(1 << (r * board.cols + c) for r, c in cells)


def _brute_owed(board: Board, cell: tuple[int, int], placements) -> tuple[float, bool]:
    """The owed risk of ``cell``, and whether one of its patterns has its whole flank mines already."""
    n = len(placements)
    closed = False
    chance = {(r, c): sum((r, c) in p for p in placements) / n for r, c, ch in board.cells() if ch in UNKNOWN_CHARS}

    def on_board(cells):
        return [(r, c) for r, c in cells if 0 <= r < board.rows and 0 <= c < board.cols]

    def pattern(mines, safe, flank):
        if any(board[x] not in UNKNOWN_CHARS or chance[x] in (0.0, 1.0) for x in mines | safe):
            return 0.0
        if any(board[x] not in UNKNOWN_CHARS and board[x] not in MINE_LIKE_CHARS for x in flank):
            return 0.0
        missing = {x for x in flank if board[x] in UNKNOWN_CHARS and chance[x] < 1.0}
        if len(missing) > MISSING_LIMIT:
            return 0.0
        nonlocal closed
        closed = closed or not missing
        return sum(1 for p in placements if (mines | missing) <= p and not safe & p) / n

    r, c = cell
    pairs = boxes = 0.0
    # Every horizontal and vertical pair of the board, and every 2x2 box, that holds the cell.
    for y in range(board.rows):
        for x in range(board.cols):
            for a, b, flank in (
                ((y, x), (y, x + 1), [(y + d, x - 1) for d in (-1, 0, 1)] + [(y + d, x + 2) for d in (-1, 0, 1)]),
                ((y, x), (y + 1, x), [(y - 1, x + d) for d in (-1, 0, 1)] + [(y + 2, x + d) for d in (-1, 0, 1)]),
            ):
                if cell in (a, b) and b[0] < board.rows and b[1] < board.cols:
                    other = b if cell == a else a
                    pairs += pattern({cell}, {other}, set(on_board(flank)))
            box = [(y, x), (y, x + 1), (y + 1, x), (y + 1, x + 1)]
            if cell in box and y + 1 < board.rows and x + 1 < board.cols:
                across = {(2 * y + 1 - r, 2 * x + 1 - c)}  # the box cell diagonally opposite
                diagonal = {cell} | across
                corners = on_board([(y - 1, x - 1), (y - 1, x + 2), (y + 2, x - 1), (y + 2, x + 2)])
                boxes = max(boxes, pattern(diagonal, set(box) - diagonal, set(corners)))
    p = chance[cell]
    return min(pairs + boxes, p, 1 - p), closed
