import random

from solver.board import parse_board
from solver.endgame import best_endgame_move, list_placements
from solver.probability import solve

from .test_probability import random_position


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
