import random

import pytest

from solver.board import Board, parse_board
from solver.errors import InconsistentBoardError
from solver.probability import analyze

from .bruteforce import brute_force

pytestmark = pytest.mark.unit


def random_position(rng: random.Random, rows: int, cols: int, mines: int, reveal: float, flag: float) -> Board:
    """A real game position: a random layout with a random subset of safe cells shown."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    layout = set(rng.sample(cells, mines))
    grid = []
    for r in range(rows):
        row = []
        for c in range(cols):
            if (r, c) in layout:
                row.append("F" if rng.random() < flag else "#")
            elif rng.random() < reveal:
                n = sum((rr, cc) in layout for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2))
                row.append(str(n))
            else:
                row.append("#")
        grid.append("".join(row))
    return Board(tuple(grid), mines)


def check_against_brute_force(board: Board, density: float | None = None) -> None:
    expected = brute_force(board, density)
    assert expected is not None
    analysis = analyze(board, density=density)
    assert analysis.exact
    for (r, c), p in expected.items():
        assert analysis.probability(r, c) == pytest.approx(p, abs=1e-9), (r, c)
    assert analysis.safe == {cell for cell, p in expected.items() if p == 0}
    assert analysis.mines == {cell for cell, p in expected.items() if p == 1}
    for r, c, ch in board.cells():
        if (r, c) not in expected:
            assert analysis.probability(r, c) is None


# Four seeds of 600 positions with a total (about 2,100 small enough for brute force) and three of 500
# without (about 1,400): thousands of random boards in all.
@pytest.mark.parametrize("seed", range(4))
def test_matches_brute_force_with_total(seed):
    rng = random.Random(seed)
    checked = 0
    for _ in range(600):
        rows, cols = rng.randint(2, 5), rng.randint(2, 6)
        mines = rng.randint(0, rows * cols // 3)
        board = random_position(rng, rows, cols, mines, reveal=rng.uniform(0.2, 0.8), flag=rng.uniform(0, 0.4))
        if sum(ch == "#" for row in board.grid for ch in row) > 14:
            continue
        check_against_brute_force(board)
        checked += 1
    assert checked >= 500


@pytest.mark.parametrize("seed", range(3))
def test_matches_brute_force_with_density(seed):
    rng = random.Random(100 + seed)
    checked = 0
    for _ in range(500):
        rows, cols = rng.randint(2, 4), rng.randint(2, 5)
        mines = rng.randint(0, rows * cols // 3)
        board = random_position(rng, rows, cols, mines, reveal=rng.uniform(0.3, 0.8), flag=0.2).with_mines(None)
        if sum(ch == "#" for row in board.grid for ch in row) > 11:
            continue
        check_against_brute_force(board, density=rng.uniform(0.05, 0.5))
        checked += 1
    assert checked >= 400


def test_known_patterns():
    # A 1-2-1 along a wall: the two ends are mines, the middle is safe.
    analysis = analyze(parse_board("###\n121\n000\n"))
    assert analysis.mines == {(0, 0), (0, 2)} and analysis.safe == {(0, 1)}
    # A lone 1 in a corner with a total of one mine: three equally likely cells.
    analysis = analyze(parse_board("mines: 1\n1#\n##\n"))
    assert analysis.probability(1, 1) == pytest.approx(1 / 3)


def test_floating_cells_share_the_remaining_mines():
    # The flag satisfies both 1s and the 0 clears its side: one mine is left for the 6 cells beyond.
    analysis = analyze(parse_board("mines: 2\nF1###\n11###\n00###\n"))
    settled = {(0, 2), (1, 2), (2, 2)}
    floating = [analysis.probability(r, c) for r in range(3) for c in range(2, 5) if (r, c) not in settled]
    assert all(analysis.probability(r, c) == 0 for r, c in settled)
    assert len(floating) == 6 and all(p == pytest.approx(1 / 6) for p in floating)


def test_estimated_density_without_total():
    analysis = analyze(parse_board("########\n########\n###1####\n########\n"))
    assert 0.01 <= analysis.density <= 0.9
    assert analysis.mines_total is None


@pytest.mark.parametrize(
    "text",
    ["1#\n#2\n#0\n", "mines: 1\n2#\n##\n", "mines: 3\n0#\n##\n", "12\n##\n11\n"],
    ids=["numbers-disagree", "total-too-small", "total-too-large", "pair-conflict"],
)
def test_impossible_boards_name_cells(text):
    with pytest.raises(InconsistentBoardError) as info:
        analyze(parse_board(text))
    assert info.value.cells, "the error names the cells involved"


def test_over_budget_component_is_approximated_not_hung():
    from solver.game import Game

    # Real openings on an expert board leave frontiers that 5 search nodes cannot cover, which forces
    # the fallback; take the first such position.
    for seed in range(20):
        game = Game.new(16, 30, 99, rules="opening", seed=seed)
        game.open(8, 15)
        board = game.board()
        approx = analyze(board, node_budget=5)
        if not approx.exact:
            break
    assert not approx.exact and analyze(board).exact
    for r in range(board.rows):
        for c in range(board.cols):
            p = approx.probability(r, c)
            assert p is None or 0 <= p <= 1
