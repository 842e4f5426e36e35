import random

import pytest

from solver.board import neighbours, parse_board
from solver.endgame import best_endgame_move, list_placements
from solver.probability import solve

from .seeds import REPLAY, SEED
from .test_probability import random_position

pytestmark = pytest.mark.unit


def test_listed_placements_are_exactly_the_consistent_ones():
    rng = random.Random(5)
    checked = 0
    for _ in range(400):
        rows, cols = rng.randint(2, 4), rng.randint(2, 5)
        board = random_position(rng, rows, cols, rng.randint(1, min(5, rows * cols // 2)), reveal=0.5, flag=0.2)
        model = solve(board)
        placements = list_placements(model)
        if placements is None:
            continue
        assert len(placements) == len(set(placements)) == round(model.weight)
        for placement in placements:
            # Each placement, with the flags, must give every number its count.
            for r, c, ch in board.cells():
                if ch.isdigit():
                    around = [(rr, cc) for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2) if (rr, cc) != (r, c)]
                    count = sum(
                        1
                        for rr, cc in around
                        if 0 <= rr < board.rows and 0 <= cc < board.cols
                        and (board[rr, cc] == "F" or placement >> (rr * board.cols + cc) & 1)
                    )
                    assert count == int(ch)
        checked += 1
    assert checked > 100


def test_a_true_fifty_fifty_wins_half_the_time():
    board = parse_board("mines: 1\n##\n11\n00\n")
    model = solve(board)
    cell, chance = best_endgame_move(model, list_placements(model))
    assert chance == 0.5 and cell in (0, 1)


def test_information_is_worth_more_than_luck():
    # One mine in three cells: an end cell is safe 2/3 of the time and then its number says where the
    # mine is (win 2/3); the middle cell always shows 1 and leaves a 50/50 (win 1/3).
    board = parse_board("mines: 1\n###\n")
    model = solve(board)
    placements = list_placements(model)
    assert len(placements) == 3
    cell, chance = best_endgame_move(model, placements)
    assert cell in (0, 2) and abs(chance - 2 / 3) < 1e-12


def test_search_past_its_deadline_gives_up():
    board = parse_board("mines: 1\n###\n")
    model = solve(board)
    assert best_endgame_move(model, list_placements(model), deadline=0.0) is None


def _reference_win(board, placements: list[int]) -> dict[int, float]:
    """Each covered cell's win chance over ``placements``, by the plain game tree: every cell tried at
    every node, no pruning; a zero shows the whole area the game opens around it."""
    rows, cols = board.rows, board.cols
    covered = [r * cols + c for r, c, ch in board.cells() if ch == "#"]
    covered_set = set(covered)
    flags = {r * cols + c for r, c, ch in board.cells() if ch == "F"}
    # The same answers as without them, only not worked out twice (the tree asks each many times).
    around = [[rr * cols + cc for rr, cc in neighbours(rows, cols, *divmod(i, cols))] for i in range(rows * cols)]
    shown_memo: dict[tuple[int, int], tuple] = {}
    parts_memo: dict[tuple[int, frozenset], list[frozenset]] = {}

    def shows(cell: int, placement: int):
        if (cell, placement) in shown_memo:
            return shown_memo[cell, placement]

        def number(i: int) -> int:
            return sum(1 for j in around[i] if j in flags or placement >> j & 1)
        seen, todo, out = {cell}, [cell], []
        while todo:
            i = todo.pop()
            n = number(i)
            out.append((i, n))
            if n == 0:
                fresh = [j for j in around[i] if j in covered_set and j not in seen]
                seen.update(fresh)
                todo.extend(fresh)
        shown_memo[cell, placement] = tuple(sorted(out))
        return shown_memo[cell, placement]

    memo: dict[frozenset, float] = {}

    def parts(cell: int, group: frozenset) -> list[frozenset]:
        if (cell, group) not in parts_memo:
            shown: dict = {}
            for p in group:
                if not p >> cell & 1:
                    shown.setdefault(shows(cell, p), set()).add(p)
            parts_memo[cell, group] = [frozenset(part) for part in shown.values()]
        return parts_memo[cell, group]

    def outcome(cell: int, group: frozenset) -> float:
        return sum(len(part) * value(part) for part in parts(cell, group)) / len(group)

    def value(group: frozenset) -> float:
        if len(group) == 1:
            return 1.0
        if group not in memo:
            # Every cell that changes what is known: a possible mine, or a safe cell that tells.
            memo[group] = max(outcome(cell, group) for cell in covered
                              if any(p >> cell & 1 for p in group) or len(parts(cell, group)) > 1)
        return memo[group]

    whole = frozenset(placements)
    return {cell: outcome(cell, whole) for cell in covered if not all(p >> cell & 1 for p in whole)}


def test_the_search_finds_the_best_move_of_the_plain_game_tree():
    # Random small positions, new on every run: the pruned search must reach the plain tree's best
    # win chance, with a move that has it.
    print(REPLAY)
    rng = random.Random(SEED)
    checked = 0
    while checked < 60:
        rows, cols = rng.randint(2, 4), rng.randint(3, 5)
        board = random_position(rng, rows, cols, rng.randint(1, rows * cols // 3), reveal=rng.uniform(0.2, 0.6), flag=0.1)
        model = solve(board)
        placements = list_placements(model, limit=60)
        if not placements or len(placements) < 3:
            continue
        expected = _reference_win(board, placements)
        cell, chance = best_endgame_move(model, placements)
        assert chance == pytest.approx(max(expected.values()), abs=1e-12), (SEED, board)
        assert expected[cell] == pytest.approx(chance, abs=1e-12), (SEED, board)
        checked += 1
