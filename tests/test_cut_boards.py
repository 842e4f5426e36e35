"""Screenshots of a board that runs off the page (react-minesweeper in Chromium, bigger than its
viewport): a few pixels of a further line of cells show at the edge, then the window's frame or the
screen's edge. Drawn by the random real-screenshot generator (``tests/random_cases``), read short with
no error before ``beyond.cut_at_frame``: they must be refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from screenbot.errors import BoardNotFoundError
from screenbot.vision import load_skins, locate_board

CUT = Path(__file__).resolve().parent.parent / "fixtures" / "cut"


@pytest.mark.parametrize("name", sorted(p.name for p in CUT.glob("*.png")))
def test_a_board_that_goes_on_off_screen_is_refused(name):
    import cv2

    frame = cv2.imread(str(CUT / name))
    with pytest.raises(BoardNotFoundError, match="goes on off screen"):
        locate_board(frame, load_skins())


def _cut_below(shot, line: int, share: float):
    """The shot's frame cut at the bottom ``share`` of a pitch below where row ``line`` starts."""
    ys = shot.lattice.row_edges()
    return np.ascontiguousarray(shot.image()[: round(ys[line] + share * (ys[line + 1] - ys[line]))])


def test_a_cut_line_with_a_cell_unlike_any_above_it_is_refused():
    """A lost sgt-mines board cut through row 5 with a third of it showing: one cell of that row (the
    top of a number) looks like no cell in the five rows above. The rest of the row still repeats the
    board, so the board is refused, not read as 5 rows (a random case that was read short)."""
    from .test_vision import SHOTS

    shot = next(s for s in SHOTS if s.name == "sm-big-dead")
    with pytest.raises(BoardNotFoundError, match="goes on off screen"):
        locate_board(_cut_below(shot, 5, 0.32), load_skins())


def test_a_board_whose_own_border_the_picture_edge_cuts_is_read_whole():
    """The same board with its window cut half a cell below its last row: what shows past the side is
    the client's border, which repeats no cell. Read whole."""
    from .test_vision import SHOTS

    shot = next(s for s in SHOTS if s.name == "sm-big-dead")
    frame = _cut_below(shot, shot.lattice.rows - 1, 1.5)
    lattice = locate_board(frame, load_skins())
    assert (lattice.rows, lattice.cols) == (shot.lattice.rows, shot.lattice.cols)
