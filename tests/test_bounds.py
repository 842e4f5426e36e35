"""Benchmarks are decided by work budgets alone; live play by a deadline that every stage honours.

The clock is replaced by a fake one (no timing in these tests): a benchmark must play exactly the
same games on a clock that races (a very loaded machine) as on the real one, and a live decision on a
clock that has already run out must still come back with a legal move that says it is approximate.
"""

from __future__ import annotations

import itertools
import time
import pytest

from solver.bench import BenchConfig, play_game
from solver.board import Board
from solver.game import Game
from solver.policy import PolicyConfig, decide

pytestmark = pytest.mark.unit


def _racing_clock(monkeypatch, step: float) -> None:
    """time.perf_counter advancing by ``step`` seconds at every call."""
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) * step)


def _moves_of_games(config: BenchConfig) -> list[tuple]:
    out = []
    for index in range(config.games):
        result = play_game(config, index)
        out.append((result.won, result.guesses, result.approximate, len(result.decision_seconds)))
    return out


@pytest.mark.parametrize("rules,first", [("safe", (0, 0)), ("opening", (3, 3))])
def test_benchmark_games_do_not_depend_on_the_clock(monkeypatch, rules, first):
    config = BenchConfig(16, 30, 99, rules, first, games=6, seed=11)
    calm = _moves_of_games(config)
    _racing_clock(monkeypatch, 5.0)  # every decision would be far past any wall-clock limit
    assert _moves_of_games(config) == calm


def _guessing_position() -> Board:
    """An expert position where the cheap pass finds nothing and a guess is needed."""
    for seed in range(200):
        game = Game(16, 30, 99, rules="opening", seed=seed)
        game.open(8, 15)
        board = game.board()
        decision = decide(board, PolicyConfig(time_limit=None))
        if decision.guessed and game.status == "playing":
            return board
    raise AssertionError("no guessing position in 200 openings")


def test_a_live_decision_past_its_deadline_is_legal_and_flagged(monkeypatch):
    board = _guessing_position()
    full = decide(board, PolicyConfig(time_limit=None))
    assert not full.approximate
    _racing_clock(monkeypatch, 10.0)  # past the deadline at the first look at the clock
    late = decide(board, PolicyConfig(time_limit=1.0))
    assert late.approximate and late.guessed
    (move,) = late.moves
    assert board[move.row, move.col] == "#"
    # Out of time the guess falls back to the safest cell, never to a worse one than the search's range.
    best = min(p for row in full.analysis.probabilities for p in row if p is not None)
    assert move.probability <= best * 1.1 + 0.005 + 1e-9


def test_a_live_decision_in_time_is_the_benchmark_decision():
    board = _guessing_position()
    assert decide(board, PolicyConfig(time_limit=1000.0)).moves == decide(board, PolicyConfig(time_limit=None)).moves


def test_benchmark_and_bench_command_run_without_a_clock(monkeypatch, capsys):
    from screenbot.cli import main
    from screenbot.commands import bench
    from solver.bench import BenchResult

    assert BenchConfig(9, 9, 10).policy.time_limit is None
    seen = []

    def fake_run(config, *args, **kwargs):
        seen.append(config)
        return BenchResult(config), 1.0

    monkeypatch.setattr(bench, "run_benchmark", fake_run)
    assert main(["bench", "--level", "beginner", "--games", "1", "--json"]) == 0
    capsys.readouterr()
    assert seen and seen[0].policy.time_limit is None
