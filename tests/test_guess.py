"""Forced 50/50s (``guess._forced_pair``): found where they are, and on random boards every pair found
is one by brute force (exactly one mine in every placement, and swapping it keeps every number)."""

from __future__ import annotations

import random

from solver.board import MINE_LIKE_CHARS, UNKNOWN_CHARS, Board, neighbours
from solver.errors import InconsistentBoardError
from solver.guess import GuessConfig, _forced_pair
from solver.policy import PolicyConfig, decide
from solver.probability import solve

from .seeds import REPLAY, SEED
from .test_lookahead import _placements
from .test_probability import random_position

import pytest

pytestmark = pytest.mark.unit


def test_a_pair_walled_by_flags_is_found():
    board = Board(("##F2", "13F2", "0111"), 3)
    pair = _forced_pair(solve(board))
    assert pair is not None and set(pair) == {0, 1}
    # The wall may be a mine the solver proved, not a flag.
    assert set(_forced_pair(solve(Board(("##F2", "13#2", "0111"), 3)))) == {0, 1}


def test_the_pair_is_guessed_first_by_default():
    board = Board(("##F2", "13F2", "0111"), 3)
    decision = decide(board)
    (move,) = decision.moves
    assert (move.row, move.col) in {(0, 0), (0, 1)}
    assert GuessConfig().fifty_fifty


def test_pairs_found_on_random_boards_are_forced():
    rng = random.Random(2024)
    found = 0
    for _ in range(3000):
        rows, cols = rng.randint(2, 5), rng.randint(2, 5)
        mines = rng.randint(1, rows * cols // 2)
        board = random_position(rng, rows, cols, mines, reveal=0.6, flag=0.5)
        try:
            model = solve(board)
        except InconsistentBoardError:
            continue
        pair = _forced_pair(model)
        if pair is None:
            continue
        found += 1
        a, b = (divmod(i, cols) for i in pair)
        placements = [frozenset(m) for m, _ in _placements(board, None)]
        assert all((a in m) != (b in m) for m in placements), board
        known = set(placements)
        unknown = [(r, c) for r, c, ch in board.cells() if ch in UNKNOWN_CHARS]
        sure_mines = set.intersection(*(set(m) for m in placements)) | {
            (r, c) for r, c, ch in board.cells() if ch in MINE_LIKE_CHARS
        }
        for m in placements:
            swapped = m ^ {a, b}
            assert swapped in known, board  # the numbers shown cannot tell them apart
        for cell in unknown:
            if cell in (a, b) or cell in sure_mines:
                continue
            near = set(neighbours(rows, cols, *cell))
            assert (a in near) == (b in near), (board, cell)  # nor can any number still to show
    assert found >= 5


def test_dense_boards_never_guess_a_certain_mine():
    """When even the safest cell is likely a mine (over 90%), the candidates' limit reaches past 1: a
    certain mine must still never be a candidate (scoring one divided by its zero chance to be safe).
    Boards drawn anew on every run; the seed is printed and named in every failure."""
    print(REPLAY)
    rng = random.Random(SEED)
    checked = 0
    for _ in range(4000):
        rows, cols = rng.randint(3, 6), rng.randint(3, 6)
        board = random_position(rng, rows, cols, rng.randint(rows * cols // 2, rows * cols - 2), reveal=rng.uniform(0.5, 1), flag=0)
        try:
            model = solve(board)
        except InconsistentBoardError:
            continue
        if not 0.9 < model.safest() < 1 or not model.mines:
            continue
        checked += 1
        (move,) = decide(board, PolicyConfig(time_limit=None)).moves
        assert 0.9 < move.probability < 1, (SEED, board)
    assert checked >= 20, SEED
