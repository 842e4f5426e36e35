"""The browser skin at each device scale Chromium is used at: every state it shows has a picture,
and the labelled shots the locator cannot find a board on yet still read right at their true lattice
(the play loop reads a lost board at the lattice it located on the fresh one)."""

from __future__ import annotations

from pathlib import Path

import pytest

from screenbot.labelled_shots import load_shots
from screenbot.vision import load_skins, read_board
from screenbot.vision.skins import CHAR_STATES, TEMPLATES_DIR

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]
UNSUPPORTED = [s for s in load_shots(ROOT / "fixtures" / "screens-unsupported") if s.client == "react-minesweeper"]
# react-minesweeper draws covered cells, flags, 0-8 and one mine picture; no "?", no exploded mine and
# no wrong flag (see templates/react-minesweeper/profile.json).
STATES = {CHAR_STATES[ch] for ch in "#F012345678*"}


@pytest.mark.parametrize("scale", [1.0, 1.25, 1.5, 2.0])
def test_every_state_has_a_picture_at_each_device_scale(scale):
    size = f"{30 * scale:g}"  # the page's cells are 30 CSS px
    pictures = (TEMPLATES_DIR / "react-minesweeper" / "cells").glob(f"*-{size}-*.png")
    assert STATES <= {p.stem.split("-")[0] for p in pictures}


@pytest.mark.parametrize("shot", UNSUPPORTED, ids=[s.name for s in UNSUPPORTED])
def test_shots_the_locator_misses_read_right_at_their_true_lattice(shot):
    reading = read_board(shot.image(), shot.lattice, load_skins())
    assert reading.board.grid == shot.board.grid
