import pytest

from solver.board import Board, format_board, parse_board
from solver.errors import BoardFormatError

pytestmark = pytest.mark.unit

ROUND_TRIP = {
    "with-total": "mines: 3\n##1F\n#210\n0000\n",
    "no-total": "#?\nF1\n",
    "lost": "mines: 2\nX1\nW*\n",
}


@pytest.mark.parametrize("text", ROUND_TRIP.values(), ids=ROUND_TRIP.keys())
def test_round_trip(text):
    assert format_board(parse_board(text)) == text


def test_dot_means_zero_and_total_is_read():
    board = parse_board("mines: 1\n..\n1#\n")
    assert board.grid == ("00", "1#") and board.mines == 1


MALFORMED = {
    "unknown-char": ("##\n#a\n", 2, 2),
    "ragged": ("###\n##\n", 2, None),
    "empty": ("\n\n", None, None),
    "number-too-big": ("4#\n##\n", 1, 1),
    "more-flags-than-mines": ("mines: 1\nFF\n##\n", 1, None),
    "bad-total": ("mines: many\n##\n", 1, None),
    "blank-inside": ("##\n\n##\n", 2, None),
}


@pytest.mark.parametrize("text,line,column", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_is_rejected_with_position(text, line, column):
    with pytest.raises(BoardFormatError) as info:
        parse_board(text)
    assert info.value.line == line
    assert info.value.column == column
    if line is not None:
        assert f"line {line}" in str(info.value)


def test_board_helpers():
    board = Board.covered(2, 3, mines=1)
    assert (board.rows, board.cols, board[1, 2]) == (2, 3, "#")
    assert not board.is_over and parse_board("X#\n##\n").is_over
