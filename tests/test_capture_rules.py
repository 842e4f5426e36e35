"""What the capture sessions rely on to label real games: the gnome-mines custom page gives the mine
count asked for, and no number (an 8 is drawn on red) is taken for the exploded mine (a red icon)."""

from __future__ import annotations

import shutil
import time

import numpy as np
import pytest

from lab.shots.sessions import Session, gnome_mines_exploded
from screenbot.desktop.clients import _custom_percent_to_type
from screenbot.geometry import Lattice
from screenbot.vision.skins import TEMPLATES_DIR


@pytest.mark.integration
@pytest.mark.parametrize(
    ("board", "percent"),
    [((8, 8, 46), 72), ((8, 8, 10), 16), ((16, 16, 206), None), ((12, 10, 95), None), ((30, 16, 99), None)],
)
def test_custom_page_percent_is_typed_only_where_the_page_would_lose_the_count(board, percent):
    assert _custom_percent_to_type(*board) == percent
    if percent is not None:
        cols, rows, mines = board
        assert round(percent * cols * rows / 100) == mines


@pytest.mark.integration
def test_only_the_exploded_mine_ends_a_game_as_lost():
    """Every picture an opening click can show in gnome-mines' default theme: an 8 is drawn on red, the
    exploded mine is a red icon on grey."""
    import cv2

    pictures = [(path, path.stem.split("-")[0]) for path in sorted((TEMPLATES_DIR / "gnome-mines" / "cells").glob("*.png"))]
    pictures = [(path, state) for path, state in pictures if state in {*"12345678", "exploded"}]
    assert {state for _, state in pictures} >= {*"12345678", "exploded"}
    for path, state in pictures:
        picture = cv2.imread(str(path))
        h, w = picture.shape[:2]
        frame = np.full((h * 3, w * 3, 3), 245, dtype=np.uint8)
        frame[h : 2 * h, w : 2 * w] = picture
        session = Session(None, Lattice("gnome-mines", (w, h), (w, h), 1, 1), None,  # type: ignore[arg-type]
                          **gnome_mines_exploded(None))
        assert session.exploded(frame, 0, 0) == (state == "exploded"), path.name


@pytest.mark.e2e
def test_custom_small_board_gets_the_mines_asked_for():
    """A custom 8x8 board with 46 mines (the page alone would give it one): the first click opens only
    the mine-free 3x3 block around it (and seldom a cell or two more), not the whole board."""
    if not shutil.which("Xvfb"):
        pytest.skip("Xvfb is not installed (CI installs it)")
    from screenbot.capture import MssScreen
    from screenbot.desktop import VirtualDisplay, start_gnome_mines
    from lab.shots.labels import canonical_cells, same
    from lab.shots.sessions import click_at, gnome_mines_lattice, move_pointer

    with VirtualDisplay(), MssScreen() as screen:
        with start_gnome_mines(custom=(8, 8, 46), window_size=(600, 400)) as game:
            width, height = screen.size
            move_pointer(width - 1, height - 1)
            time.sleep(0.3)
            fresh = screen.grab()
            lattice, starts = gnome_mines_lattice(fresh, game, 8, 8)
            click_at(*lattice.cell_center(1, 1))
            move_pointer(width - 1, height - 1)
            time.sleep(0.5)
            before, after = canonical_cells(fresh, lattice, starts), canonical_cells(screen.grab(), lattice, starts)
    opened = sum(not same(after[r, c], before[r, c]) for r in range(8) for c in range(8))
    assert 9 <= opened <= 20
