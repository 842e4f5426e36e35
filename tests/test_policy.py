import pytest

from solver.board import Board, parse_board
from solver.guess import STRATEGIES, GuessConfig
from solver.policy import FLAG, OPEN, PolicyConfig, decide

pytestmark = pytest.mark.unit


def test_untouched_board_opens_the_configured_first_cell():
    board = Board.covered(16, 30, 99)
    first = decide(board).moves[0]
    assert (first.row, first.col) == (0, 0)
    decision = decide(board, PolicyConfig(first_click=(3, 3)))
    assert [(m.action, m.row, m.col) for m in decision.moves] == [(OPEN, 3, 3)]
    assert decision.guessed
    small = decide(Board.covered(2, 3, 1), PolicyConfig(first_click=(3, 3))).moves[0]
    assert (small.row, small.col) == (1, 2)


def test_every_certain_move_is_returned_without_a_guess():
    board = parse_board("mines: 2\n###\n121\n000\n")
    decision = decide(board, PolicyConfig(flag_mines=True))
    assert not decision.guessed
    assert {(m.action, m.row, m.col) for m in decision.moves} == {(OPEN, 0, 1), (FLAG, 0, 0), (FLAG, 0, 2)}
    assert all(m.probability == (1.0 if m.action == FLAG else 0.0) for m in decision.moves)


def test_safe_cell_only_enumeration_can_find_is_opened():
    # No single number or pair settles anything here, but the mine total does: 1 mine, and the 1
    # already needs it among (0,0),(0,1), so every other covered cell is safe.
    board = parse_board("mines: 1\n####\n1###\n")
    decision = decide(board)
    assert not decision.guessed and decision.analysis is not None
    assert {(m.row, m.col) for m in decision.moves} == {(0, 2), (0, 3), (1, 2), (1, 3)}


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_guess_is_among_the_safest(strategy):
    board = parse_board("mines: 10\n#########\n#########\n###1#####\n#########\n#########\n")
    decision = decide(board, PolicyConfig(guess=GuessConfig(strategy=strategy)))
    (move,) = decision.moves
    best = min(p for row in decision.analysis.probabilities for p in row if p is not None)
    assert decision.guessed and move.action == OPEN
    assert move.probability <= best * 1.1 + 0.005
    if strategy != "lookahead":
        assert move.probability == best


def test_corner_preferred_among_equal_floating_cells():
    board = parse_board("mines: 30\n" + "\n".join(["#" * 9] * 9))
    board = Board(board.grid[:4] + ("####8####",) + board.grid[5:], 30)
    decision = decide(board, PolicyConfig(guess=GuessConfig(strategy="lowest-corner"), first_click=(4, 4)))
    (move,) = decision.moves
    assert (move.row, move.col) in {(0, 0), (0, 8), (8, 0), (8, 8)}


def test_unknown_total_uses_the_density():
    board = parse_board("###\n#1#\n###\n")
    low = decide(board, PolicyConfig(density=0.05, full_analysis=True)).analysis
    high = decide(board, PolicyConfig(density=0.4, full_analysis=True)).analysis
    assert low.mines_total is None and low.density == 0.05
    assert low.probability(0, 0) == pytest.approx(1 / 8)
    assert high.probability(0, 0) == pytest.approx(1 / 8)


def test_a_decision_out_of_time_still_makes_a_legal_move():
    from solver.game import Game

    game = Game.new(16, 30, 99, rules="opening", seed=0)
    game.open(8, 15)
    board = game.board()
    decision = decide(board, PolicyConfig(time_limit=0.0))
    assert decision.moves
    for move in decision.moves:
        assert board[move.row, move.col] == "#"


def test_nothing_is_opened_when_only_mines_are_left():
    board = parse_board("mines: 1\n#1\n11\n")
    assert decide(board).moves == ()
    decision = decide(board, PolicyConfig(flag_mines=True))
    assert [(m.action, m.row, m.col) for m in decision.moves] == [(FLAG, 0, 0)]
    assert not decision.guessed
