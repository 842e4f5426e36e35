"""Pure pieces of the locator, checked on small made-up inputs (no screenshots)."""

from __future__ import annotations

import numpy as np

from screenbot.vision.align import sample_lines
from screenbot.vision.rectangles import extend, largest_rectangle


def test_sample_lines_spread_over_the_board_with_both_ends():
    # 16 rows of 30 cells: about 64 cells means 3 rows, the first and the last among them.
    assert sample_lines(16, 30) == [0, 8, 15]
    # 30 columns of 16 cells: 4 columns.
    assert sample_lines(30, 16) == [0, 10, 19, 29]
    assert sample_lines(16, 30, cells=96) == [0, 5, 10, 15]
    # Never fewer than 3 lines, never more than there are, no repeats.
    assert sample_lines(9, 200) == [0, 4, 8]
    assert sample_lines(4, 4) == [0, 1, 2, 3]
    assert sample_lines(2, 1) == [0, 1]


def test_largest_rectangle_and_extend():
    good = np.zeros((9, 10), dtype=bool)
    good[1:8, 2:9] = True  # a 7x7 board
    good[2, 5] = False  # one poorly matched cell on it
    block = largest_rectangle(good)
    assert block == (3, 2, 5, 7)  # below the weak cell: 5x7 beats every other all-good rectangle
    # Mostly-good rows and columns join the block again: the weak cell does not cut the board.
    assert extend(good, block) == (1, 2, 7, 7)
    assert largest_rectangle(np.ones((3, 10), dtype=bool)) == (0, 0, 0, 0)  # fewer than 4 rows
