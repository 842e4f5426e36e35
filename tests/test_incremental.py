"""What the solver keeps between calls (the last board's constraints, solved components) only saves
work: every answer is exactly the one a fresh process gives. The endgame search a game carries on
from one decision to the next is the exception, by design (see the decisions' test). Games are drawn
with a random seed on every run, printed: replay with SCREENBOT_RANDOM_SEED=<seed> pytest
tests/test_incremental.py
"""

from __future__ import annotations

import random

import solver.constraints as constraints
import solver.endgame as endgame
import solver.probability as probability
from solver.board import Board
from solver.constraints import build_constraints, deduce, deduce_next
from solver.errors import InconsistentBoardError
from solver.game import PLAYING, Game
from solver.policy import PolicyConfig, decide
from solver.probability import solve

from .seeds import REPLAY, SEED

import pytest

pytestmark = pytest.mark.unit

print(f"\ntests/test_incremental.py: {REPLAY}")


def _fresh(fn, *args):
    """``fn(*args)`` with nothing remembered from earlier calls."""
    saved = constraints._last_built, constraints._last_deduced, probability._SOLVED.copy()
    constraints._last_built = constraints._last_deduced = None
    probability._SOLVED.clear()
    try:
        return fn(*args)
    finally:
        constraints._last_built, constraints._last_deduced = saved[:2]
        probability._SOLVED.clear()
        probability._SOLVED.update(saved[2])


def _positions(rng: random.Random, games: int) -> list[Board]:
    """Boards met while playing random games with the shipped policy, with flags now and then."""
    boards = []
    for _ in range(games):
        rows, cols = rng.randint(5, 16), rng.randint(5, 30)
        game = Game(rows, cols, rng.randint(1, rows * cols // 5), rules=rng.choice(["safe", "opening"]), seed=rng.randrange(2**32))
        game.open(rng.randrange(rows), rng.randrange(cols))
        while game.status == PLAYING:
            board = game.board()
            boards.append(board)
            decision = decide(board, PolicyConfig(time_limit=None, flag_mines=rng.random() < 0.5))
            for move in decision.moves:
                if game.status != PLAYING:
                    break
                if move.action == "flag":
                    game.flag(move.row, move.col)
                else:
                    game.open(move.row, move.col)
    return boards


def test_constraints_built_from_the_last_board_equal_a_fresh_build():
    rng = random.Random(SEED)
    boards = _positions(rng, 12)
    rng.shuffle(boards[: len(boards) // 3])  # also unrelated boards one after the other
    for board in boards:
        assert build_constraints(board) == _fresh(build_constraints, board), f"seed {SEED}"


def test_remembered_components_give_the_fresh_answer_and_budget():
    rng = random.Random(SEED + 1)
    boards = _positions(rng, 8)[:60]
    for board in boards:
        solve(board)  # remembered with the full budget
    for board in boards:
        for budget in (3, 40, 200_000):  # too few nodes for some components, which must then be approximated
            warm = solve(board, node_budget=budget)
            cold = _fresh(lambda: solve(board, node_budget=budget))
            assert warm.classes == cold.classes and warm.nodes == cold.nodes and warm.exact == cold.exact, f"seed {SEED}"


def test_deduction_continued_from_the_last_board_equals_a_fresh_one():
    rng = random.Random(SEED + 2)
    boards = _positions(rng, 12)
    rng.shuffle(boards[: len(boards) // 4])  # unrelated boards in a row must start afresh
    for board in boards:
        system = build_constraints(board)
        went_on = deduce_next(system)
        fresh = _fresh(deduce, system)
        assert (went_on.safe, went_on.mines) == (fresh.safe, fresh.mines), f"seed {SEED}"
        assert {(c.cells, c.mines) for c in went_on.constraints} == {(c.cells, c.mines) for c in fresh.constraints}, f"seed {SEED}"


def test_decisions_do_not_depend_on_what_was_decided_before():
    # The one thing a game carries on by design is its endgame search (``endgame._search_for``): a
    # search that ran out of work leaves its memo to the game's next decision, which may then finish
    # where a search from nothing gives up, and choose otherwise. Both calls here start from the
    # search as the game left it; everything else is warm for one and fresh for the other. (Before
    # this, the fresh call carried on from the warm call's search of the same board: about 7 seeds in
    # 1,000 failed, e.g. 282480.)
    rng = random.Random(SEED + 3)
    boards = _positions(rng, 6)
    for board in boards[::2]:
        kept = _kept_search()
        went_on = decide(board, PolicyConfig(time_limit=None))
        _keep_search(kept)
        fresh = _fresh(decide, board, PolicyConfig(time_limit=None))
        assert went_on == fresh and went_on.analysis == fresh.analysis, f"seed {SEED}"


def _kept_search():
    """The endgame search the game keeps, as it is now (a decision adds to it in place)."""
    search = endgame._last_search
    if search is None:
        return None
    return search, dict(search.memo), dict(search.bounds), dict(search.areas), search.unknown


def _keep_search(kept) -> None:
    """Put back the endgame search ``_kept_search`` saw."""
    if kept is None:
        endgame.forget()
        return
    search, search.memo, search.bounds, search.areas, search.unknown = kept
    endgame._last_search = search


def test_a_number_read_again_differently_is_built_and_deduced_afresh():
    # The screen reader may correct a digit it misread: nothing but that digit changes on the board.
    rng = random.Random(SEED + 4)
    for board in _positions(rng, 4)[::5]:
        numbers = [(r, c) for r, c, ch in board.cells() if ch in "12345678"]
        if not numbers:
            continue
        r, c = rng.choice(numbers)
        for digit in "012345678":
            grid = list(board.grid)
            grid[r] = grid[r][:c] + digit + grid[r][c + 1 :]
            changed = Board(tuple(grid), board.mines)
            for step in (board, changed):  # the change, and back
                built = _outcome(build_constraints, step)
                assert built == _fresh(_outcome, build_constraints, step), f"seed {SEED}"
                if isinstance(built, str):
                    continue  # a digit the cells around cannot show, said alike
                went_on = _outcome(deduce_next, built)
                cold = _fresh(_outcome, deduce, built)
                assert went_on == cold or (went_on.safe, went_on.mines) == (cold.safe, cold.mines), f"seed {SEED}"


def _outcome(fn, *args):
    """``fn(*args)``, or the name of the error it raised."""
    try:
        return fn(*args)
    except InconsistentBoardError as error:
        return type(error).__name__


def test_a_character_of_no_kind_builds_like_a_dot_even_when_not_ascii():
    # A Board made by hand may hold any character; one that is neither covered, a mine nor a number
    # tells nothing, whether it is ASCII or not, and a build after it goes on from it.
    rng = random.Random(SEED + 5)
    for board in _positions(rng, 3)[::4]:
        opened = [(r, c) for r, c, ch in board.cells() if ch == "0"]
        if not opened:
            continue
        r, c = rng.choice(opened)
        for odd in ("é", "\u2603", "."):
            grid = list(board.grid)
            grid[r] = grid[r][:c] + odd + grid[r][c + 1 :]
            dotted = list(board.grid)
            dotted[r] = dotted[r][:c] + "." + dotted[r][c + 1 :]
            expected = _fresh(build_constraints, Board(tuple(dotted), board.mines))
            assert _fresh(build_constraints, Board(tuple(grid), board.mines)) == expected, f"seed {SEED}"
            build_constraints(board)
            assert build_constraints(Board(tuple(grid), board.mines)) == expected, f"seed {SEED}"
