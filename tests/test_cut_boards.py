"""Screenshots of a board that runs off the page (react-minesweeper in Chromium, bigger than its
viewport): a few pixels of a further line of cells show at the edge, then the window's frame or the
screen's edge. Drawn by the random real-screenshot generator (``tests/random_cases``), read short with
no error before ``beyond.cut_at_frame``: they must be refused."""

from __future__ import annotations

from pathlib import Path

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
