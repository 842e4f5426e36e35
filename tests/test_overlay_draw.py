"""The pure hint drawing: colours, marks, the move highlight, the FRAME keep-out, the X11 shape maths."""

from __future__ import annotations

import numpy as np
import pytest

from screenbot.geometry import Lattice
from screenbot.overlay.draw import compose, draw_hints, render_layer
from screenbot.overlay.marks import (
    FILL_STYLE,
    FRAME_STYLE,
    MINE_RGB,
    MOVE_RGB,
    SAFE_RGB,
    Hints,
    OverlayStyle,
    percent_label,
    probability_rgb,
)
from screenbot.platforms.x11.overlay_pictures import pack_bitmap
from solver.board import parse_board
from solver.policy import PolicyConfig, decide

pytestmark = pytest.mark.integration

GREY = (182, 189, 186)  # gnome-mines' covered cell colour, BGR


def synthetic(rows: int, cols: int, pitch: float, face: float, origin=(20.0, 30.0)):
    """A flat grey board image and its grid."""
    grid = Lattice("flat", origin, (pitch, pitch), rows, cols, face=(face, face))
    height = int(origin[1] + rows * pitch + 40)
    width = int(origin[0] + cols * pitch + 40)
    image = np.full((height, width, 3), 240, np.uint8)
    for r in range(rows):
        for c in range(cols):
            x0, y0, x1, y1 = grid.face_box(r, c)
            image[int(y0) : int(y1), int(x0) : int(x1)] = GREY
    return image, grid


def hints_for(text: str, move=None) -> Hints:
    board = parse_board(text)
    decision = decide(board, PolicyConfig(full_analysis=True))
    hints = Hints.from_decision(decision)
    return hints if move is None else Hints(hints.probabilities, hints.safe, hints.mines, move)


BOARD = """mines: 3
##1#
#21#
11##
00##
"""


def colour_distance(bgr, rgb) -> float:
    return float(np.abs(np.array(bgr, float) - np.array(rgb[::-1], float)).max())


@pytest.mark.parametrize("p", [0.0, 0.1, 0.3, 0.5, 0.8, 1.0])
def test_scale_goes_from_green_to_red(p):
    r, g, b = probability_rgb(p)
    if p <= 0.1:
        assert g > r and g > b
    if p >= 0.8:
        assert r > g and r > b


@pytest.mark.parametrize(
    "p, label", [(0.0, "0"), (0.004, "<1"), (0.125, "12"), (0.5, "50"), (0.996, ">99"), (1.0, "100")]
)
def test_percent_label_never_rounds_to_certainty(p, label):
    assert percent_label(p) == label


def test_hints_from_solver_decision():
    hints = hints_for(BOARD)
    assert len(hints.probabilities) == 4
    assert hints.move is not None
    assert hints.safe or hints.mines


def test_fill_marks_each_cell_by_its_fate():
    image, grid = synthetic(4, 4, 60, 56)
    hints = hints_for(BOARD)
    out = draw_hints(image, grid, hints, FILL_STYLE)
    layer = render_layer(image.shape[:2], grid, hints, FILL_STYLE)
    assert out.shape == image.shape and out is not image
    for r in range(4):
        for c in range(4):
            x0, y0, x1, y1 = (int(v) for v in grid.face_box(r, c))
            # A pixel inside the tile but off the glyph and text: the corner area of the face.
            px = layer.bgr[y0 + 8, x0 + 12]
            p = hints.probabilities[r][c]
            if p is None:
                assert (out[y0:y1, x0:x1] == image[y0:y1, x0:x1]).all(), (r, c)
                continue
            assert layer.alpha[y0 + 8, x0 + 12] == round(255 * FILL_STYLE.opacity)
            assert (out[y0 + 8, x0 + 12] != image[y0 + 8, x0 + 12]).any()
            if (r, c) in hints.mines:
                assert colour_distance(px, MINE_RGB) <= 2, (r, c, px)
            elif (r, c) in hints.safe:
                assert colour_distance(px, SAFE_RGB) <= 2, (r, c, px)
            else:
                assert colour_distance(px, probability_rgb(p)) <= 2, (r, c, px)


def test_move_is_highlighted_in_blue_around_its_cell_only():
    image, grid = synthetic(4, 4, 60, 56)
    hints = hints_for(BOARD, move=("open", 3, 3))
    layer = render_layer(image.shape[:2], grid, hints, FILL_STYLE)
    blue = np.abs(layer.bgr.astype(int) - np.array(MOVE_RGB[::-1])).max(axis=2) < 10
    blue &= layer.alpha > 200
    ys, xs = np.nonzero(blue)
    assert ys.size > 50
    x0, y0, x1, y1 = grid.face_box(3, 3)
    # The frame hugs the cell: it may spill into the gap, never into a neighbour's middle.
    assert xs.min() >= x0 - 10 and xs.max() <= x1 + 10 and ys.min() >= y0 - 10 and ys.max() <= y1 + 10


def test_percentages_only_where_cells_are_big_enough():
    board = "##\n##\n"
    small_img, small = synthetic(2, 2, 12, 10)
    big_img, big = synthetic(2, 2, 60, 56)
    hints = Hints(((0.3, 0.3), (0.3, 0.3)))
    # Text is white: only big cells get (near-)white pixels.
    small_layer = render_layer(small_img.shape[:2], small, hints, FILL_STYLE)
    big_layer = render_layer(big_img.shape[:2], big, hints, FILL_STYLE)
    assert not (small_layer.bgr.min(axis=2) > 230).any()
    assert (big_layer.bgr.min(axis=2) > 230).sum() > 40
    assert board  # the hints above stand for this all-covered board


@pytest.mark.parametrize("pitch, face, origin", [(23, 19, (371, 353)), (96, 92, (172, 155)), (30.5, 28.25, (10.4, 7.7))])
def test_frame_never_touches_the_middle_of_any_cell(pitch, face, origin):
    image, grid = synthetic(5, 6, pitch, face, origin)
    probabilities = tuple(tuple(0.1 * ((r + c) % 9) for c in range(6)) for r in range(5))
    hints = Hints(probabilities, frozenset({(0, 0)}), frozenset({(1, 1)}), ("open", 2, 2))
    layer = render_layer(image.shape[:2], grid, hints, FRAME_STYLE)
    keep = FRAME_STYLE.keep_out
    for r in range(5):
        for c in range(6):
            cx, cy = grid.face_center(r, c)
            half = pitch * keep / 2.0
            region = layer.alpha[int(np.floor(cy - half)) : int(np.ceil(cy + half)), int(np.floor(cx - half)) : int(np.ceil(cx + half))]
            assert region.size and not region.any(), (r, c)
    # ...while every covered cell does get a visible ring in its band, in its own colour.
    for r in range(5):
        for c in range(6):
            if (r, c) in ((0, 0), (1, 1), (2, 2)):
                continue
            cx, cy = grid.face_center(r, c)
            x = int(cx - pitch * (1 + keep) / 4)  # half-way between the cell's edge and the keep-out
            band = layer.bgr[int(cy), x], layer.alpha[int(cy), x]
            assert band[1] == 255
            assert colour_distance(band[0], probability_rgb(probabilities[r][c])) <= 3, (r, c)


@pytest.mark.parametrize("pitch, face, origin", [(16, 16, (40, 33)), (23, 19, (371, 353)), (40, 40, (12.5, 9.25)), (30.5, 28.25, (10.4, 7.7))])
def test_a_frame_over_a_look_told_by_its_edges_leaves_its_side_windows_clear(pitch, face, origin):
    """With ``side_window`` (the live overlay over the classic look) nothing is drawn on any cell's middle
    or on the windows in its left and right bands, which reach from the cell's edge to the middle (every
    whole pixel of them: what the session watches for changes); every covered cell still carries its
    mark, the move too."""
    import math
    from dataclasses import replace

    from screenbot.overlay.marks import clear_rects

    image, grid = synthetic(5, 6, pitch, face, origin)
    probabilities = tuple(tuple(0.1 * ((r + c) % 9) for c in range(6)) for r in range(5))
    hints = Hints(probabilities, frozenset({(0, 0)}), frozenset({(1, 1)}), ("flag", 2, 2))
    style = replace(FRAME_STYLE, keep_out=0.625 + 2.0 / pitch, side_window=0.3)
    layer = render_layer(image.shape[:2], grid, hints, style)
    for r in range(5):
        for c in range(6):
            rects = clear_rects(grid, style, r, c)
            assert len(rects) == 3 and rects[1][0] <= grid.face_box(r, c)[0] and rects[2][2] >= grid.face_box(r, c)[2]
            for x0, y0, x1, y1 in rects:
                part = layer.alpha[math.ceil(y0):math.floor(y1), math.ceil(x0):math.floor(x1)]
                assert part.size and not part.any(), (r, c, (x0, y0, x1, y1))
            x0, y0, x1, y1 = grid.face_box(r, c)
            assert layer.alpha[math.floor(y0):math.ceil(y1), math.floor(x0):math.ceil(x1)].any(), (r, c)


def test_frame_is_opaque_so_the_window_shape_is_exact():
    image, grid = synthetic(3, 3, 40, 36)
    hints = Hints(((0.2, 0.4, None), (None, 0.9, 0.1), (0.0, 1.0, 0.5)), frozenset({(2, 0)}), frozenset({(2, 1)}))
    layer = render_layer(image.shape[:2], grid, hints, FRAME_STYLE)
    values = set(np.unique(layer.alpha).tolist())
    assert values <= {0, 255}


def test_bad_hints_size_is_refused():
    image, grid = synthetic(3, 3, 40, 36)
    with pytest.raises(ValueError, match="3x3"):
        render_layer(image.shape[:2], grid, Hints(((0.5,),)), FILL_STYLE)


def test_style_validation():
    with pytest.raises(ValueError):
        OverlayStyle(mode="glow")
    with pytest.raises(ValueError):
        OverlayStyle(keep_out=1.5)


def test_compose_leaves_undrawn_pixels_alone():
    image, grid = synthetic(2, 2, 40, 36)
    hints = Hints(((0.5, None), (None, None)))
    layer = render_layer(image.shape[:2], grid, hints, FILL_STYLE)
    out = compose(image, layer)
    untouched = layer.alpha == 0
    assert (out[untouched] == image[untouched]).all()
    assert not (out[~untouched] == image[~untouched]).all()


@pytest.mark.parametrize("lsb_first", [True, False])
def test_bitmap_for_the_window_shape(lsb_first):
    rng = np.random.default_rng(1)
    mask = rng.random((7, 45)) < 0.5
    data = pack_bitmap(mask, 32, lsb_first=lsb_first)
    stride = len(data) // 7
    assert stride == 8  # 45 bits padded to two 32-bit units
    bits = np.unpackbits(np.frombuffer(data, np.uint8).reshape(7, stride), axis=1, bitorder="little" if lsb_first else "big")
    assert (bits[:, :45].astype(bool) == mask).all() and not bits[:, 45:].any()


def test_marks_follow_an_irregular_lattice():
    """GTK gives some cells a pixel more than others: each mark goes on its own cell's box, not on a
    straight lattice's guess."""
    lattice = Lattice.from_edges("gnome-mines", (10.0, 33.0, 57.0, 80.0), (20.0, 43.0, 66.0))
    assert lattice.face_box(1, 2) == (57.0, 43.0, 80.0, 66.0)
    assert lattice.face_center(0, 1) == (45.0, 31.5)
    assert (lattice.rows, lattice.cols) == (2, 3)


def test_mark_colours_follow_the_cells_fate():
    hints = Hints(((0.0, 0.5, None), (1.0, 0.25, 0.004)), safe=frozenset({(0, 0)}), mines=frozenset({(1, 0)}))
    assert hints.mark_rgb(0, 0) == SAFE_RGB
    assert hints.mark_rgb(1, 0) == MINE_RGB
    assert hints.mark_rgb(0, 2) is None
    assert hints.mark_rgb(0, 1) == probability_rgb(0.5)
    assert hints.mark_rgb(1, 2) == probability_rgb(0.005)


def _random_hints(rng, rows, cols):
    probs, safe, mines = [], set(), set()
    for r in range(rows):
        row = []
        for c in range(cols):
            p = [None, float(rng.random()), 0.0, 1.0][rng.integers(4)]
            row.append(p)
            if p == 0.0:
                safe.add((r, c))
            elif p == 1.0:
                mines.add((r, c))
        probs.append(tuple(row))
    covered = [(r, c) for r in range(rows) for c in range(cols) if probs[r][c] is not None]
    move = None
    if covered and rng.random() < 0.8:
        r, c = covered[rng.integers(len(covered))]
        move = (("open", "flag")[rng.integers(2)], r, c)
    return Hints(tuple(probs), frozenset(safe), frozenset(mines), move)


@pytest.mark.parametrize("seed", range(40))
def test_redrawing_the_changed_cells_gives_the_full_drawing(seed):
    """The live overlay redraws only the boxes of cells whose mark changed; the picture must be exactly
    the one a full drawing gives, at any (fractional) pitch and position."""
    from dataclasses import replace

    from screenbot.overlay.draw import cell_marks, dirty_boxes

    rng = np.random.default_rng(seed)
    pitch = float(rng.uniform(15, 100))
    rows, cols = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    pitches = (pitch, pitch * float(rng.uniform(0.98, 1.02)))
    face = None if seed % 2 else (pitch * float(rng.uniform(0.85, 1.0)),) * 2  # a gap between cells, or none
    grid = Lattice("flat", (float(rng.uniform(0, 30)), float(rng.uniform(0, 30))), pitches, rows, cols, face=face)
    style = replace(FRAME_STYLE, keep_out=min(0.95, 0.625 + 2.0 / pitch))
    size = (grid.board_rect().bottom + 8, grid.board_rect().right + 8)
    before, after = _random_hints(rng, rows, cols), _random_hints(rng, rows, cols)
    old = render_layer(size, grid, before, style)
    new = render_layer(size, grid, after, style)
    changed = [
        (r, c) for r in range(rows) for c in range(cols) if cell_marks(before)[r][c] != cell_marks(after)[r][c]
    ]
    bgr, alpha = old.bgr.copy(), old.alpha.copy()
    boxes = dirty_boxes(grid, style, changed, size) if changed else []
    part = render_layer(size, grid, after, style, boxes=boxes)
    for x0, y0, x1, y1 in boxes:
        bgr[y0:y1, x0:x1] = part.bgr[y0:y1, x0:x1]
        alpha[y0:y1, x0:x1] = part.alpha[y0:y1, x0:x1]
    assert (alpha == new.alpha).all() and (bgr == new.bgr).all()
