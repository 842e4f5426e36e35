"""Pure pieces of the locator, checked on small made-up inputs (no screenshots)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from screenbot.vision.align import sample_lines
from screenbot.vision.clipped import cut_sides
from screenbot.vision.structure import find_edges, find_grids

from .seeds import REPLAY, with_regressions

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


def _runs_line_by_line(view, pieces, origins, least):
    """``beyond._runs`` as its docstring says it, one origin and one line at a time (slow): per piece,
    the most lines from the first on that repeat the block at some origin."""
    from screenbot.vision.beyond import REPEAT_MEAN, REPEAT_PEAK, REPEAT_SHARE

    runs = []
    for piece in pieces:
        height, width = piece.shape[:2]
        best = 0
        for y, x in origins:
            j = 0
            while j < height:
                apart = np.abs(view[y + j, x : x + width].astype(np.int16) - piece[j].astype(np.int16)).sum(axis=1)
                if apart.sum() >= 3 * REPEAT_MEAN * width or (apart >= 3 * REPEAT_PEAK).mean() > 0.05:
                    break
                j += 1
            best = max(best, j)
        runs.append(best)
    if sum(run < least for run in runs) > len(pieces) * (1 - REPEAT_SHARE):
        return None
    return runs


@pytest.mark.parametrize("case", range(12))
def test_repeating_lines_count_as_comparing_every_origin_line_by_line(case):
    """``_runs`` compares the first lines of each piece deepest first and drops a block at its first
    unlike line: the runs it gives are those of comparing every origin line by line, where a piece
    repeats ``least`` lines or more (fewer are only said to be fewer), and it refuses the same sides."""
    from screenbot.vision.beyond import REPEAT_LINES, _blocks, _runs

    rng = np.random.default_rng(case)
    # A board of tiles drawn from a few, each a plain top band (a bevel's colour) over random detail,
    # and pieces cut from the tiles' tops for a few lines, then from elsewhere; in some, one of those
    # lines unlike the tile's (the run ends there, whatever follows).
    size, count = int(rng.integers(8, 20)), int(rng.integers(3, 6))
    tiles = rng.integers(0, 256, (count, size, size, 3), dtype=np.uint8)
    tiles[:, : int(rng.integers(1, 4))] = 200
    grid = rng.integers(0, count, (6, 8))
    view = np.concatenate([np.concatenate([tiles[t] for t in row], axis=1) for row in grid], axis=0)
    origins = np.array([(r * size + dy, c * size + dx) for r in range(5) for c in range(7) for dy in (0, 1) for dx in (0, 1)])
    pieces = []
    for _ in range(8):
        tile, keep = tiles[int(rng.integers(0, count))], int(rng.integers(0, size + 1))
        piece = rng.integers(0, 256, (size, size, 3), dtype=np.uint8)
        piece[:keep] = tile[:keep]
        if keep and rng.random() < 0.5:
            piece[int(rng.integers(0, keep))] = 255 - tile[0]
        pieces.append(piece)
    least = int(rng.integers(1, REPEAT_LINES + 3))
    fast, slow = _runs(pieces, _blocks(view, origins, size), least), _runs_line_by_line(view, pieces, origins, least)
    assert (fast is None) == (slow is None), (fast, slow)
    if fast is not None:
        assert [f if s >= least else -1 for f, s in zip(fast, slow)] == [s if s >= least else -1 for s in slow]
        assert all(f < least for f, s in zip(fast, slow) if s < least)


@pytest.mark.parametrize("case", range(16))
def test_a_side_left_unfollowed_is_one_whose_runs_show_no_detail(case):
    """``_pieces_past`` follows no run past a side whose pieces show detail only from a line no piece
    repeats any block at (a plain margin, then a window's border): it finds cut exactly the sides that
    following every piece's run finds cut."""
    from screenbot.vision.beyond import _blocks, _detailed, _pieces_and_origins, _pieces_past, _runs

    rng = np.random.default_rng(case)
    # A board of tiles drawn from a few, each a plain band (its gaps' colour) a few lines deep over
    # random detail; past its bottom side, per cell a piece of some tile's first lines, then its
    # margin's colour, then a border of another colour, or random detail.
    size, count, rows, cols = int(rng.integers(8, 16)), int(rng.integers(2, 5)), 5, 7
    tiles = rng.integers(0, 256, (count, size, size, 3), dtype=np.uint8)
    for tile in tiles:
        tile[: int(rng.integers(1, size - 2))] = 200
    grid = rng.integers(0, count, (rows, cols))
    board = np.concatenate([np.concatenate([tiles[t] for t in row], axis=1) for row in grid], axis=0)
    past = np.full((size, cols * size, 3), 200, dtype=np.uint8)
    border = int(rng.integers(2, size))
    past[border:] = rng.integers(0, 256, 3, dtype=np.uint8)
    # A third of the sides are the margin and border alone; in the others some pieces repeat a
    # tile's first lines, and some end in random detail.
    for c in range(cols):
        keep = int(rng.integers(0, size + 1)) if case % 3 and rng.random() < 0.5 else 0
        past[:keep, c * size : (c + 1) * size] = tiles[int(rng.integers(0, count))][:keep]
        if case % 3 == 2 and rng.random() < 0.3:
            past[keep:, c * size : (c + 1) * size] = rng.integers(0, 256, (size - keep, size, 3), dtype=np.uint8)
    view = np.concatenate([board, past, np.zeros((size, cols * size, 3), dtype=np.uint8)])
    along, across = [c * size for c in range(cols + 1)], [r * size for r in range(rows + 1)]
    found = _pieces_past(view, along, across, size)
    pieces, origins = _pieces_and_origins(view, along, across, size)
    runs = _runs(pieces, _blocks(view, origins, size))
    assert (found is not None and _detailed(*found)) == (runs is not None and _detailed(pieces, runs))


@pytest.mark.parametrize("case, pitch", enumerate([(10.5, 12.3), (28.7, 17.4), (11.7, 16.3), (24.0, 24.0), (38.2, 24.9),
                                                  (15.2, 9.6), (33.9, 34.0), (20.0, 13.5), (2.6, 3.4), (5.0, 2.0)]))
def test_boxes_scaled_together_are_each_as_scaled_alone(case, pitch):
    """``canonical_crops`` (the locator's sample of cells, the cells past a board's side) scales boxes of
    one size in one call: each is, pixel for pixel, what scaling its own box gives, at pitches whole or
    not, above and below the canonical size, down to the 2 px boxes the side check still reads."""
    import cv2

    from screenbot.geometry import Lattice
    from screenbot.vision.cells import canonical_crops
    from screenbot.vision.skins import CANONICAL

    rng = np.random.default_rng(case)
    lattice = Lattice("any", (float(rng.uniform(0, 5)), float(rng.uniform(0, 5))), pitch, 9, 11)
    frame = rng.integers(0, 256, (int(9 * pitch[1]) + 10, int(11 * pitch[0]) + 10, 3), dtype=np.uint8)
    rects = [lattice.cell_rect(*divmod(int(index), lattice.cols)) for index in rng.choice(99, size=24, replace=False)]
    alone = [cv2.resize(frame[r.top : r.bottom, r.left : r.right], (CANONICAL, CANONICAL), interpolation=cv2.INTER_AREA)
             for r in rects]
    assert np.array_equal(canonical_crops(frame, rects), np.stack(alone))


@pytest.mark.parametrize("case", range(6))
def test_separators_judged_at_once_as_one_at_a_time(case):
    """``separated`` (many separators, one span) says of each what ``separator_share`` says of it alone,
    near the picture's edges too."""
    from screenbot.vision.separators import separated, separator_share

    rng = np.random.default_rng(case)
    steps = rng.random((int(rng.integers(20, 80)), int(rng.integers(20, 80)))) < rng.uniform(0.01, 0.15)
    pitch = float(rng.uniform(6, 30))
    ats = rng.uniform(-10, steps.shape[1] + 10, 25)
    span = tuple(sorted(rng.uniform(-5, steps.shape[0] + 5, 2)))
    one_at_a_time = [separator_share(steps, at, [span], pitch) == 1.0 for at in ats]
    assert separated(steps, ats, span, pitch).tolist() == one_at_a_time
    assert separated(steps.T, ats, span, pitch).tolist() == [separator_share(steps.T, at, [span], pitch) == 1.0 for at in ats]


# px: how far a piece of a face split by a mark (a flag's pole) in the line cut may still pull a pitch
# fitted over a few lines: such a piece is squarish and linked to its neighbour's like piece. Pieces
# cut by the picture's edge pulled it 0.05-0.3 px on these draws, 1.5 px on the React page.
PIECES_PULL = 0.15


@pytest.mark.parametrize("seed", with_regressions())
def test_faces_cut_by_the_picture_s_edge_do_not_pull_the_pitch(seed):
    """A board cut by the picture's edge through a line of cells (a page scrolled, a window partly off
    screen) shows pieces of that line's faces, ending where the picture ends: their centres are off the
    faces'. The lattice is fitted to whole faces: the pieces do not move its pitch. (Fitted with the pieces,
    the React page's 60 px columns came out 58.5 px, the board's last whole column ended 6 px short,
    what lay past it no longer repeated a cell, and a board cut through its fifth column read as 4
    columns wide.) Boards drawn at random, cut at random on every run."""
    from screenbot.testing.classic_board import draw, random_game

    rng = random.Random(seed)
    off, checked = [], 0
    for case in range(12):
        rows, cols, pitch = rng.randint(5, 12), rng.randint(5, 12), rng.randint(12, 48)
        image, (ox, oy) = draw(random_game(rng, rows, cols, lost=False), pitch, grid_line=rng.random() < 0.6)
        side, share = rng.choice(["left", "right", "top", "bottom"]), rng.uniform(0.3, 0.8)
        count, origin = (cols, ox) if side in ("left", "right") else (rows, oy)
        if side in ("left", "top"):  # the picture begins in line j, 4 or more whole lines after it
            j = rng.randint(0, count - 5)
            at, line_end = round(origin + (j + 1 - share) * pitch), origin + (j + 1) * pitch
        else:  # the picture ends in line j, 4 or more whole lines before it
            j = rng.randint(4, count - 1)
            at, line_end = round(origin + (j + share) * pitch), origin + j * pitch
        # The same picture with the pieces painted over in a colour of no cell's: whole lines only.
        plain = image.copy()
        lo, hi = sorted((at, line_end))
        if side in ("left", "right"):
            plain[:, lo:hi] = (255, 0, 255)
        else:
            plain[lo:hi] = (255, 0, 255)

        def pitch_found(picture: np.ndarray) -> tuple[float, float] | None:
            cut = {"left": picture[:, at:], "right": picture[:, :at], "top": picture[at:], "bottom": picture[:at]}[side]
            grids = find_grids(np.ascontiguousarray(cut))
            return grids[0].pitch if grids else None

        # A grid of a few lines whose faces come in two kinds (a covered cell's inside its bevel, an
        # opened one's between grid lines, centred half a pixel apart) is fitted a little off by them,
        # pieces or not: what is asked is that the pieces add nothing to that. A board with no grid on
        # its whole lines (an open area with no grid line leaves too few faces) is not counted, nor one
        # whose grid the pieces leave unfound (a refusal, not a pitch pulled).
        whole = pitch_found(plain)
        if whole is None:
            continue
        checked += 1
        found = pitch_found(image)
        if found is not None and max(abs(found[0] - whole[0]), abs(found[1] - whole[1])) > PIECES_PULL:
            off.append(f"case {case}: {rows}x{cols} at {pitch} px cut at its {side} in line {j}, {share:.2f} of it "
                       f"showing: pitch {found}, {whole} with whole lines only")
    assert checked >= 6, f"{REPLAY}: only {checked} of 12 boards show a grid on their whole lines"
    assert not off, f"{REPLAY}:\n" + "\n".join(off)
