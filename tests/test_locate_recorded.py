"""The locator finds minegauler's and xbomb's boards by itself, where their recorded lattices say.

Every minegauler and xbomb screenshot in ``fixtures/screens`` and ``fixtures/screens-at-lattice`` holds
its true lattice (from the game: minegauler's own state file, xbomb's grid lines), measured apart from
the locator. Located with no hint, each must be found with that lattice: the same rows and columns,
the same pitch, and an origin within ORIGIN_SLACK of it (the skin's pictures may sit a pixel from the
recorded grid line: compared with the recorded lattice nudged to where the pictures fit, as play does).
Then read at the found lattice, it must read exactly its true board.

Also the pieces that make this work, on made-up pictures: a stippled grid (xbomb's covered cells) is
seen as cells, and a lattice found short of its board grows back to the whole board.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from screenbot.labelled_shots import load_shots
from screenbot.play.live import load_skins, refined_lattice
from screenbot.vision import locate_board, read_board
from screenbot.vision.beyond import cells_beyond, grow
from screenbot.vision.structure import find_grids, flatten_stipple

pytestmark = pytest.mark.integration

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SHOTS = [s for folder in ("screens", "screens-at-lattice") for s in load_shots(FIXTURES / folder)
         if s.client in ("minegauler", "xbomb")]
ORIGIN_SLACK = 1.0  # px


@pytest.fixture(scope="module")
def skins():
    return load_skins()


def test_there_are_shots_of_both_clients_at_several_sizes():
    assert {s.client for s in SHOTS} == {"minegauler", "xbomb"}
    assert len({s.lattice.pitch for s in SHOTS if s.client == "minegauler"}) >= 4
    assert {s.lattice.pitch for s in SHOTS if s.client == "xbomb"} == {(20.0, 20.0), (50.0, 50.0)}


@pytest.mark.parametrize("shot", SHOTS, ids=[s.name for s in SHOTS])
def test_found_at_the_recorded_lattice_and_read_exactly(shot, skins):
    image = shot.image()
    found = locate_board(image, skins)
    truth = refined_lattice(image, skins, shot.lattice)
    assert found.skin == shot.client
    assert (found.rows, found.cols) == (shot.lattice.rows, shot.lattice.cols)
    assert found.pitch == pytest.approx(shot.lattice.pitch, rel=0.005)
    assert abs(found.origin[0] - truth.origin[0]) <= ORIGIN_SLACK and abs(found.origin[1] - truth.origin[1]) <= ORIGIN_SLACK
    assert read_board(image, found, skins).board.grid == shot.board.grid


def _stippled_board(rows: int, cols: int, pitch: int, line: int, at: tuple[int, int]) -> np.ndarray:
    """A board drawn the Athena way: black grid lines ``line`` px wide around cells filled with a
    one-pixel checkerboard of white and grey."""
    frame = np.full((300, 400, 3), 255, dtype=np.uint8)
    yy, xx = np.mgrid[0 : rows * pitch + line, 0 : cols * pitch + line]
    board = np.where(((yy + xx) % 2 == 0)[..., None], 255, 127).astype(np.uint8).repeat(3, axis=2)
    for k in range(rows + 1):
        board[k * pitch : k * pitch + line] = 0
    for k in range(cols + 1):
        board[:, k * pitch : k * pitch + line] = 0
    frame[at[1] : at[1] + board.shape[0], at[0] : at[0] + board.shape[1]] = board
    return frame


def test_a_stippled_board_is_found_from_its_structure():
    (grid,) = find_grids(_stippled_board(6, 8, 20, 2, (30, 40)))
    # 6x8 cells 20 px apart, centred between the grid lines (cell 0's inside is x 32..49, y 42..59).
    assert (grid.rows, grid.cols, *np.round(grid.pitch, 2), *np.round(grid.centre)) == (6, 8, 20, 20, 41, 51)


def test_flattening_leaves_a_picture_without_stipple_as_it_is():
    rng = np.random.default_rng(3)
    frame = np.full((60, 80, 3), 200, dtype=np.uint8)
    frame[10:30, 10:40] = 90
    frame[40:44, 50:52] = rng.integers(0, 255, (4, 2, 3), dtype=np.uint8)  # a small noisy spot
    assert flatten_stipple(frame) is frame or np.array_equal(flatten_stipple(frame), frame)


def test_a_lattice_short_of_its_board_grows_back_to_the_whole_board(skins):
    shot = next(s for s in SHOTS if s.name == "mg-24-16x16-mid")
    image, whole = shot.image(), refined_lattice(shot.image(), skins, shot.lattice)
    piece = whole.block(2, 1, whole.rows - 3, whole.cols - 2)  # two rows and a column short on three sides
    assert max(count for count, _ in cells_beyond(image, piece, skins["minegauler"]).values()) >= 2
    grown, going_on = grow(image, piece, skins["minegauler"])
    assert going_on == []
    assert (grown.rows, grown.cols) == (whole.rows, whole.cols)
    assert grown.origin == pytest.approx(whole.origin, abs=0.01)


def test_past_a_whole_board_no_cell_reads_as_one(skins):
    for shot in SHOTS:
        lattice = refined_lattice(shot.image(), skins, shot.lattice)
        assert all(count == 0 for count, _ in cells_beyond(shot.image(), lattice, skins[shot.client]).values()), shot.name
