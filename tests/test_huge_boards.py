"""Big valid boards are answered, never called impossible, and an approximate answer says so.

Boards come from real mine layouts: a 60x60 lattice of numbers (every other row and column shown, as
on a half-played board whose frontier is one huge component), and boards reached by playing random
games (random safe clicks, some mines flagged). The seed is drawn at random on every run and printed
(and in every failure message): replay with SCREENBOT_RANDOM_SEED=<seed> pytest tests/test_huge_boards.py
"""

from __future__ import annotations

import json
import random

import pytest

from screenbot.cli import main
from solver.board import Board, format_board
from solver.game import Game
from solver.policy import PolicyConfig, decide
from solver.probability import analyze

from .seeds import REPLAY, SEED, with_regressions

pytestmark = pytest.mark.unit

print(f"\ntests/test_huge_boards.py: {REPLAY}")


def lattice_board(rng: random.Random, rows: int, cols: int, density: float) -> tuple[Board, set[tuple[int, int]]]:
    """Numbers at every (even row, even col) of a random layout, everything else covered."""
    mines = {
        (r, c) for r in range(rows) for c in range(cols) if not (r % 2 == 0 and c % 2 == 0) and rng.random() < density
    }
    grid = []
    for r in range(rows):
        row = []
        for c in range(cols):
            if r % 2 == 0 and c % 2 == 0:
                row.append(str(sum((rr, cc) in mines for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2))))
            else:
                row.append("#")
        grid.append("".join(row))
    return Board(tuple(grid), len(mines)), mines


def played_board(rng: random.Random, rows: int, cols: int, density: float) -> tuple[Board, set[tuple[int, int]]]:
    """A game played partway: the first click in the middle, then random safe cells opened until a
    random share of the safe cells shows, then some mines flagged."""
    mines_total = int(rows * cols * density)
    game = Game(rows, cols, mines_total, rules="opening", seed=rng.randrange(2**32))
    game.open(rows // 2, cols // 2)
    mines = {(r, c) for r in range(rows) for c in range(cols) if game.is_mine(r, c)}
    safe = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in mines]
    rng.shuffle(safe)
    target = rng.uniform(0.25, 0.6) * len(safe)
    shown = sum(ch != "#" for row in game.board().grid for ch in row)
    for r, c in safe:
        if shown >= target:
            break
        shown += game.open(r, c)
    for r, c in rng.sample(sorted(mines), rng.randrange(len(mines) // 4 + 1)):
        game.flag(r, c)
    return game.board(), mines


def scattered_board(rng: random.Random, rows: int, cols: int, density: float, share: float) -> tuple[Board, set[tuple[int, int]]]:
    """A random layout with ``share`` of its safe cells shown as their numbers, each on its own (no
    openings): thousands of small components, the case whose scale once overflowed a float."""
    mines = {(r, c) for r in range(rows) for c in range(cols) if rng.random() < density}
    grid = []
    for r in range(rows):
        row = []
        for c in range(cols):
            if (r, c) not in mines and rng.random() < share:
                row.append(str(sum((rr, cc) in mines for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2))))
            else:
                row.append("#")
        grid.append("".join(row))
    return Board(tuple(grid), len(mines)), mines


def check_answer(board: Board, mines: set[tuple[int, int]], out: dict, why: str) -> None:
    """Certain cells must be right whatever else is approximate; probabilities are probabilities."""
    for r, row in enumerate(out["probabilities"]):
        for c, p in enumerate(row):
            if board.grid[r][c] in "#?":
                assert p is not None and 0.0 <= p <= 1.0, (why, r, c, p)
                if p == 0.0:
                    assert (r, c) not in mines, f"{why}: ({r},{c}) called safe but is a mine"
                if p == 1.0:
                    assert (r, c) in mines, f"{why}: ({r},{c}) called a mine but is safe"
            else:
                assert p is None
    move = out["move"]
    assert board.grid[move["row"]][move["col"]] in "#?", why
    assert out["exact"] or out["approximate"], f"{why}: an inexact analysis must be flagged approximate"


def answered(tmp_path, capsys, board: Board, mines: set[tuple[int, int]], with_total: bool, why: str) -> dict:
    """``screenbot solve --json`` on ``board`` (with its mine total or without): exit 0 and a right answer."""
    if not with_total:
        board = board.with_mines(None)
    code, out, err = solve_json(tmp_path, capsys, board)
    assert code == 0, f"{why}: exit {code}: {err}"
    check_answer(board, mines, out, why)
    return out


def solve_json(tmp_path, capsys, board: Board) -> tuple[int, dict | None, str]:
    path = tmp_path / "board.txt"
    path.write_text(format_board(board), encoding="utf-8")
    code = main(["solve", str(path), "--json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if code == 0 else None, captured.err


@pytest.mark.parametrize("with_total", [True, False], ids=["total", "no-total"])
def test_lattice_60x60_is_answered(tmp_path, capsys, with_total):
    rng = random.Random(SEED * 2 + with_total)
    board, mines = lattice_board(rng, 60, 60, rng.uniform(0.15, 0.3))
    why = f"{REPLAY}, lattice, total={with_total}"
    out = answered(tmp_path, capsys, board, mines, with_total, why)
    # This frontier is one component far past the enumeration budget: the answer must say so.
    assert not out["exact"] and out["approximate"], why


@pytest.mark.parametrize("with_total", [True, False], ids=["total", "no-total"])
def test_played_60x60_is_answered(tmp_path, capsys, with_total):
    rng = random.Random(SEED * 2 + with_total + 7)
    board, mines = played_board(rng, 60, 60, rng.uniform(0.17, 0.3))
    answered(tmp_path, capsys, board, mines, with_total, f"{REPLAY}, played game, total={with_total}")


# (200, 200, seed 3, with its total): `OverflowError: math range error` in combine_with_total, where
# the scale of a component's weights (exp of about 800) was raised before the weights were scaled down.
@pytest.mark.parametrize("seed", with_regressions(3))
def test_boards_up_to_the_limit_with_scattered_numbers_are_answered(tmp_path, capsys, seed):
    rng = random.Random(seed)
    if seed == 3:
        rows, cols, density, share, with_total = 200, 200, 0.1, 0.1, True
    else:
        rows, cols, with_total = rng.randint(150, 256), rng.randint(150, 256), rng.random() < 0.5
        density, share = rng.uniform(0.05, 0.25), rng.uniform(0.05, 0.15)
    board, mines = scattered_board(rng, rows, cols, density, share)
    why = f"seed {seed}, {rows}x{cols}, density {density:.2f}, {share:.0%} shown, total={with_total}"
    answered(tmp_path, capsys, board, mines, with_total, why)


def test_many_cells_without_a_total_do_not_underflow():
    # 2,500 covered cells, no total: p^m (1-p)^(n-m) is below the smallest float here.
    rng = random.Random(SEED)
    board, mines = lattice_board(rng, 100, 100, 0.25)
    analysis = analyze(board.with_mines(None), node_budget=2_000)
    assert analysis.mines_total is None and 0.0 < analysis.density < 1.0
    probabilities = [p for row in analysis.probabilities for p in row if p is not None]
    assert len(probabilities) == 7500 and all(0.0 <= p <= 1.0 for p in probabilities)
    assert not analysis.exact
    assert all(cell not in mines for cell in analysis.safe) and analysis.mines <= mines


def test_approximated_total_far_from_the_expected_count_is_still_answered():
    # A mine total far from what the numbers suggest on average (the old fallback fixed the
    # component's count at its rounded mean and then called such boards impossible).
    rng = random.Random(SEED + 1)
    board, mines = lattice_board(rng, 30, 30, 0.2)
    analysis = analyze(board, node_budget=50)
    assert not analysis.exact
    assert all(cell not in mines for cell in analysis.safe) and analysis.mines <= mines


def test_a_live_decision_out_of_time_says_it_is_approximate():
    rng = random.Random(SEED + 2)
    board, mines = lattice_board(rng, 60, 60, 0.2)
    decision = decide(board, PolicyConfig(time_limit=0.0, full_analysis=True))
    assert decision.approximate and not decision.analysis.exact and decision.moves
    for move in decision.moves:
        assert board[move.row, move.col] == "#"
        if move.probability == 0.0:
            assert (move.row, move.col) not in mines
