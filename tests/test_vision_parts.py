"""Pure pieces of the locator, checked on small made-up inputs (no screenshots)."""

from __future__ import annotations

import numpy as np
import pytest

from screenbot.vision.align import sample_lines
from screenbot.vision.clipped import cut_sides
from screenbot.vision.structure import find_edges, find_grids

pytestmark = pytest.mark.integration


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


def test_the_axis_walk_goes_down_its_valley_and_judges_nothing_past_it():
    from screenbot.geometry import Lattice
    from screenbot.vision.align import _walk

    frame = np.zeros((200, 200, 3), np.uint8)
    start = Lattice("x", (50.0, 50.0), (10.0, 10.0), 4, 4)
    for best_x, reach, expected in ((52, 2, 52), (49, 2, 49), (50, 2, 50), (53, 2, 52), (47, 2, 48)):
        judged = []

        def error(lattice):
            judged.append(lattice.origin[0])
            return abs(lattice.origin[0] - best_x)

        assert _walk(frame, start, error, (1, 0), reach).origin == (expected, 50.0)
        # Each side once, then only onwards down the valley: never both ways past the first pixel.
        assert all(abs(x - 50) <= reach for x in judged)
        assert len(set(judged)) <= 2 + reach  # the start, a pixel each way, onwards (refine caches the error)


def _drawn_board(rows: int, cols: int, pitch: int, face: int, at: tuple[int, int], size=(400, 500)) -> np.ndarray:
    """A plain picture of a board: grey square faces on a light background, ``pitch`` apart."""
    frame = np.full((*size, 3), 240, dtype=np.uint8)
    for r in range(rows):
        for c in range(cols):
            top, left = at[1] + r * pitch, at[0] + c * pitch
            frame[top : top + face, left : left + face] = (180, 185, 182)
    return frame


def test_grid_is_found_from_structure_alone():
    frame = _drawn_board(7, 9, 21, 17, (40, 30))
    grids = find_grids(frame)
    assert len(grids) == 1
    grid = grids[0]
    assert (grid.rows, grid.cols) == (7, 9)
    assert grid.pitch == pytest.approx((21, 21), abs=0.01)
    assert grid.centre == pytest.approx((40 + 8.5, 30 + 8.5), abs=0.01)  # the first face's centre (pixel edges)
    assert cut_sides(grid, find_edges(frame)) == []


def test_a_board_cut_by_a_window_edge_is_reported_cut():
    frame = _drawn_board(7, 9, 21, 17, (40, 30))
    frame[:, 40 + 8 * 21 + 6 :] = 240  # the last column cut through its faces: only 6 px of them show
    grid = find_grids(frame)[0]
    assert grid.cols == 8
    assert cut_sides(grid, find_edges(frame)) == ["right"]


def test_no_grid_on_a_plain_frame():
    assert find_grids(np.full((300, 300, 3), 90, dtype=np.uint8)) == []


def test_a_board_ending_on_a_window_edge_that_runs_on_is_reported_cut():
    """A scrolled page or a window edge can cut a board exactly between two columns: then only the
    long straight edge right at the board's side shows it (a board's own frame stops with the board)."""
    frame = _drawn_board(7, 9, 21, 17, (40, 80))
    edge = 40 + 8 * 21 - 2  # between the 8th and 9th columns, in the gap after the 8th column's faces
    frame[:, edge:] = 240
    frame[:, edge : edge + 2] = 90  # the window's border, from the top of the picture to the bottom
    grid = find_grids(frame)[0]
    assert grid.cols == 8
    assert cut_sides(grid, find_edges(frame)) == ["right"]
    frame[:, edge : edge + 2] = 240  # no window border: the board just ends there, as a whole one does
    assert cut_sides(find_grids(frame)[0], find_edges(frame)) == []


def _template(char: str, image: np.ndarray):
    from pathlib import Path

    from screenbot.vision.skins import Template, to_canonical

    return Template(char, (float(image.shape[1]), float(image.shape[0])), to_canonical(image), image,
                    Path(f"{char}-{image.shape[1]}-0.png"))


def test_a_mark_is_known_on_each_look_of_the_covered_tile_and_nothing_else_is():
    from screenbot.vision.skins import on_each_tile

    pitch = 24
    covered = np.full((pitch, pitch, 3), 186, np.uint8)
    covered[:2], covered[:, :2] = 246, 246  # the gap around the tile, the same on every look
    lit = covered.copy()
    lit[2:, 2:] = 222  # the tile under the pointer
    flag = covered.copy()
    flag[6:18, 8:12] = 30  # the mark, drawn over the tile as it is
    one = np.full((pitch, pitch, 3), 221, np.uint8)  # a number on a background of its own
    one[6:18, 10:13] = 40
    question_off_tile = one.copy()  # a mark a client draws on a background of its own
    question_off_tile[:, :, 0] = 90
    derived = on_each_tile([_template("#", covered), _template("#", lit), _template("F", flag),
                            _template("1", one), _template("?", question_off_tile)])
    assert [t.char for t in derived] == ["F"]
    expected = lit.copy()
    expected[6:18, 8:12] = 30
    assert (derived[0].image == expected).all()
    assert derived[0].path.name == "F-24-0+tile1.png"
    # One look of the tile only: nothing to derive.
    assert on_each_tile([_template("#", covered), _template("F", flag)]) == ()


def test_pictures_cut_again_keep_the_name_of_a_look_under_the_pointer(tmp_path):
    """The labels do not say which cell the pointer lit: a skin's pictures cut again (``python3 -m lab
    templates``) keep the ``lit`` name of the old picture of the same state in the same colour."""
    import cv2

    from screenbot.vision.cut import write_cells

    cells = tmp_path / "cells"
    cells.mkdir()
    grey = lambda level, size=20: np.full((size, size, 3), level, np.uint8)  # noqa: E731
    cv2.imwrite(str(cells / "covered-20-0.png"), grey(120))
    cv2.imwrite(str(cells / "covered-20-1lit.png"), grey(160))
    write_cells({("#", 20.0, 20.0): [grey(120), grey(161)], ("#", 30.0, 30.0): [grey(160, 30)],
                 ("0", 20.0, 20.0): [grey(160)]}, tmp_path)
    assert sorted(p.name for p in cells.glob("*.png")) == ["0-20-0.png", "covered-20-0.png", "covered-20-1lit.png",
                                                            "covered-30-0lit.png"]
