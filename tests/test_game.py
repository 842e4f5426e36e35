import pytest

from solver.game import LEVELS, LOST, PLAYING, WON, Game
from solver.grid import neighbour_table

pytestmark = pytest.mark.unit


def mine_cells(game: Game) -> set[tuple[int, int]]:
    return {(r, c) for r in range(game.rows) for c in range(game.cols) if game.is_mine(r, c)}


@pytest.mark.parametrize("rules", ["safe", "opening"])
def test_first_click_rules(rules):
    for seed in range(200):
        game = Game.new(9, 9, 10, rules=rules, seed=seed)
        game.open(4, 4)
        assert game.status == PLAYING
        mines = mine_cells(game)
        assert len(mines) == 10 and (4, 4) not in mines
        if rules == "opening":
            assert not mines & {(r, c) for r in range(3, 6) for c in range(3, 6)}
            assert game.board()[4, 4] == "0"


def test_safe_rule_sometimes_shows_a_number_and_none_rule_can_lose():
    numbers = sum(Game.new(9, 9, 10, rules="safe", seed=s).open(0, 0) == 1 for s in range(100))
    assert numbers > 0
    losses = 0
    for seed in range(300):
        game = Game.new(9, 9, 10, rules="none", seed=seed)
        game.open(0, 0)
        losses += game.status == LOST
    assert 0 < losses < 300


def test_seeded_games_repeat():
    a, b = Game.new(16, 30, 99, seed=5), Game.new(16, 30, 99, seed=5)
    a.open(0, 0)
    b.open(0, 0)
    assert mine_cells(a) == mine_cells(b) and a.board() == b.board()


def test_numbers_flood_fill_win_and_loss():
    game = Game.new(16, 16, 40, rules="opening", seed=3)
    game.open(8, 8)
    mines = mine_cells(game)
    table = neighbour_table(16, 16)
    board = game.board()
    for r, c, ch in board.cells():
        if ch.isdigit():
            assert int(ch) == sum(divmod(j, 16) in mines for j in table[r * 16 + c])
            if ch == "0":  # a zero opens all its neighbours
                assert all(board.grid[j // 16][j % 16] != "#" for j in table[r * 16 + c])
    # Open every safe cell: a win.
    for r in range(16):
        for c in range(16):
            if (r, c) not in mines and game.status == PLAYING:
                game.open(r, c)
    assert game.status == WON
    lost = Game.new(16, 16, 40, rules="opening", seed=3)
    lost.open(8, 8)
    hit = sorted(mines)[0]
    covered_safe = [(r, c) for r, c, ch in lost.board().cells() if ch == "#" and (r, c) not in mines]
    lost.flag(*covered_safe[0])
    lost.open(*hit)
    shown = lost.board()
    assert lost.status == LOST and shown[hit] == "X" and shown.is_over
    assert shown.count("W") == 1 and shown.count("*") == 39


def test_bad_sizes_are_refused():
    with pytest.raises(ValueError):
        Game.new(3, 3, 9)
    with pytest.raises(ValueError):
        Game.new(3, 3, 1, rules="lucky")
    assert LEVELS["expert"].rows == 16 and LEVELS["expert"].cols == 30
