"""Is a board read off a picture one that a game could show (``vision.plausible``): pure, on boards.

Lost games are drawn at random on every run (the seed is printed; replay with
``SCREENBOT_RANDOM_SEED=<seed>``): every real lost board passes, and the same board with its covered
cells read as open 0s (what a picture turned over gave, with exit 0) is refused.
"""

from __future__ import annotations

import random

import pytest

from screenbot.vision.plausible import blank_area, implausible, numbers_below_their_mines
from solver.board import NUMBERS, Board, neighbours
from solver.game import LOST, PLAYING, Game

from .seeds import REPLAY, SEED

pytestmark = pytest.mark.unit


def _lost_board(rng: random.Random, flags: int = 0) -> Board:
    """The board a random game shows once lost: clicks at random until one hits a mine (a game that
    opens every safe cell first, which a small board's openings can, is drawn again). ``flags``:
    flags put on covered cells at random on the way, right or wrong, as a player does."""
    while True:
        rows, cols = rng.randint(5, 16), rng.randint(5, 30)
        game = Game(rows, cols, rng.randint(rows * cols // 8, rows * cols // 4), seed=rng.randrange(10**9))
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        rng.shuffle(cells)
        for r, c in cells:
            if game.status != PLAYING:
                break
            if game.board().grid[r][c] != "#":
                continue
            if flags and game.board().count("#") < rows * cols and rng.random() < 0.4:
                game.flag(r, c)
                flags -= 1
            else:
                game.open(r, c)
        if game.status == LOST:
            return game.board()


def test_lost_boards_pass_and_their_covered_cells_read_as_open_0s_are_refused():
    """Every covered cell read as an open 0, as a picture turned half round gave (the raised cells'
    bevels the other way round look flat): no covered cell is left for the solver to find wrong, but
    the 0s beside the shown mines cannot be."""
    rng = random.Random(SEED)
    refused = 0
    for _ in range(40):
        board = _lost_board(rng)
        assert implausible(board, pictures_mean_states=True) == "", f"a real lost board refused:\n{board}\n{REPLAY}"
        misread = Board(tuple(row.replace("#", "0") for row in board.grid), None)
        beside = numbers_below_their_mines(misread)
        if "#" not in "".join(board.grid):
            continue
        assert beside and implausible(misread, pictures_mean_states=True) == beside, f"{misread}\n{REPLAY}"
        r, c = (int(v) for v in beside[1 : beside.index(")")].split(","))
        assert board.grid[r][c] == "#" and beside.startswith(f"({r},{c}) shows 0 but"), REPLAY
        refused += 1
    assert refused >= 10, REPLAY  # most lost boards still have covered cells


def test_a_covered_cell_of_a_lost_board_read_as_an_open_0_is_refused_where_the_client_crosses_out_wrong_flags():
    """A lost sgt-mines board shrunk (its bevels blurred) read two covered cells as open 0s, exit 0:
    no mine beside them to give them away. A client that crosses out its wrong flags at a loss draws an
    opened 0 only where one is, and a 0 opens its neighbours: its lost boards are held to the zero rule.
    xbomb draws a wrong flag as an opened 0 at a loss, beside covered cells: it is not."""
    rng = random.Random(SEED)
    refused = 0
    for _ in range(40):
        board = _lost_board(rng, flags=rng.randint(0, 4))
        assert implausible(board, wrong_flags_shown=True) == "", f"a real lost board refused:\n{board}\n{REPLAY}"
        covered = [(r, c) for r, c, ch in board.cells() if ch == "#"
                   and any(board[n] == "#" for n in neighbours(board.rows, board.cols, r, c))]
        if not covered:
            continue
        r, c = rng.choice(covered)
        misread = Board(tuple(row if i != r else row[:c] + "0" + row[c + 1:] for i, row in enumerate(board.grid)), None)
        assert implausible(misread, wrong_flags_shown=True).startswith(f"0 at ({r},{c}) next to an unopened cell"), \
            f"{misread}\n{REPLAY}"
        assert "next to an unopened cell" not in implausible(misread, wrong_flags_shown=False), REPLAY
        refused += 1
    assert refused >= 10, REPLAY  # most lost boards keep covered cells side by side


def test_a_number_is_compared_with_shown_mines_only():
    """Flags may be wrong (a player's), covered cells may hide anything: neither counts."""
    assert numbers_below_their_mines(Board(("1F#", "FF#", "###"), None)) == ""
    assert numbers_below_their_mines(Board(("1*#", "*##", "###"), None)) == "(0,0) shows 1 but 2 mines are shown around it"
    assert numbers_below_their_mines(Board(("2*#", "X##", "###"), None)) == ""


def test_a_wrong_flag_read_as_a_flag_on_a_lost_board_is_refused_where_a_number_counts_it():
    """A client that crosses out wrong flags at a loss draws the one under the pointer plainly
    (gnome-mines): read as a flag, it stands beside a number that its mines already fill. Every real
    lost board with flags right and wrong passes; each wrong flag beside a number, read as a plain
    flag, is refused, naming the number; a client that shows no wrong flags is not held to it."""
    rng = random.Random(SEED)
    refused = 0
    for _ in range(40):
        board = _lost_board(rng, flags=rng.randint(2, 8))
        assert implausible(board, wrong_flags_shown=True) == "", f"a real lost board refused:\n{board}\n{REPLAY}"
        for r, c, ch in board.cells():
            if ch != "W":
                continue
            misread = Board(tuple(row if i != r else row[:c] + "F" + row[c + 1:] for i, row in enumerate(board.grid)), None)
            numbers = [n for n in neighbours(board.rows, board.cols, r, c) if board[n] in NUMBERS]
            why = implausible(misread, wrong_flags_shown=True)
            # Told only once the mines are revealed (every one flagged: none shows, nothing is told).
            assert bool(why) == (bool(numbers) and board.count("*") > 0), f"{why!r}\n{misread}\n{REPLAY}"
            if why:
                assert "a flag beside it or the number is misread" in why, why
                refused += 1
            assert implausible(misread, wrong_flags_shown=False) == "", REPLAY
    print(f"{refused} wrong flags read as flags refused")
    assert refused >= 10, REPLAY  # most wrong flags lie beside a number by the time a game is lost


def test_flags_count_as_mines_only_on_a_lost_board_with_its_mines_revealed():
    """While the game goes on, a flag says only what the player thinks; so it does on a lost board that
    shows only the mine hit (sgt-mines, before it reveals the rest), whose wrong flags are not crossed
    out yet."""
    playing = Board(("1F#", "F##", "##*"), None)
    assert implausible(playing, wrong_flags_shown=True) == ""
    dead = Board(("1F#", "F##", "##X"), None)
    assert implausible(dead, wrong_flags_shown=True) == ""
    lost = Board(("1F#", "F##", "#*X"), None)
    assert implausible(lost, wrong_flags_shown=True).startswith("(0,0) shows 1 but 2 mines and flags are shown around it")


def test_wrong_flags_on_a_board_that_shows_no_mine_are_refused_and_every_lost_board_shows_one():
    """A wrong flag shows only once a game is lost, and a lost game shows the mine that was hit: a
    board of wrong flags and no mine is a misreading (a web client's black-and-white mode draws its
    covered cells as a stipple, which read as crossed-out flags, every cell a "W", exit 0). Random lost
    games with flags, right and wrong, all show a mine; the same boards with every mine read as covered
    are refused, in ``implausible`` and in the play loop's reading checks."""
    from screenbot.play.consistency import reading_problems, wrong_flags_without_a_mine

    rng = random.Random(f"{SEED}-no-mine")
    refused = 0
    for _ in range(30):
        board = _lost_board(rng, flags=rng.randint(2, 8))
        assert not wrong_flags_without_a_mine(board), f"{board}\n{REPLAY}"
        hidden = Board(tuple(row.replace("*", "#").replace("X", "#") for row in board.grid), None)
        if "W" not in "".join(hidden.grid):
            continue
        assert "but no mine" in implausible(hidden), f"{hidden}\n{REPLAY}"
        assert any("but no mine" in p for p in reading_problems(None, hidden)), REPLAY
        refused += 1
    assert refused >= 3, REPLAY
    assert "but no mine" in implausible(Board(("WWW", "WWW", "WWW"), None))


@pytest.mark.parametrize("cells, blank", [
    (["000", "000", "000"], True),
    (["000", "0~0", "000"], True),  # one cell unreadable, every neighbour an open 0: it holds no mine
    (["0000", "0000", "000#"], True),  # a covered cell beside a 0 holds no mine either
    (["00000", "00000", "0000#"] , True),
    (["0001#", "00011", "00000"], False),  # the covered corner cell can
    (["000", "0*0", "000"], False),  # a mine shown: the rules that count mines say what is wrong
    (["~~", "~~"], False),
])
def test_a_reading_with_no_room_for_a_mine_is_a_blank_area(cells, blank):
    import numpy as np

    assert blank_area(np.array([list(row) for row in cells])) is blank
