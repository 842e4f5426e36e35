"""A fresh board of picture cells (vision/tiled.py) on frames drawn at random on each run: a random
picture (shapes on a light ground, or a texture of noise) repeated over a board of random size, pitch
and place, on a flat or busy window. A texture board is always found, to the pixel; a board of sparse shapes
on a ground the colour of the window is found exactly or not at all (never a wrong board); a frame with
no repeated picture gives none. Replay a failure with SCREENBOT_RANDOM_SEED=<seed>."""

from __future__ import annotations

import numpy as np
import pytest

from screenbot.vision.structure import find_grids
from screenbot.vision.tiled import tiled_grid

from .seeds import REPLAY, SEED

pytestmark = pytest.mark.integration

print(f"\ntests/test_tiled.py: {REPLAY}")


def _picture(rng: np.random.Generator, pitch: int, kind: str) -> np.ndarray:
    import cv2

    if kind == "texture":
        base = rng.integers(20, 90, 3)
        tile = np.clip(base + rng.normal(0, 25, (pitch, pitch, 3)), 0, 255).astype(np.uint8)
    else:
        tile = np.full((pitch, pitch, 3), 235, np.uint8)
        for _ in range(4):
            centre = tuple(int(v) for v in rng.integers(pitch // 4, 3 * pitch // 4, 2))
            axes = tuple(int(v) for v in rng.integers(2, pitch // 3, 2))
            colour = tuple(int(v) for v in rng.integers(0, 200, 3))
            cv2.ellipse(tile, centre, axes, float(rng.integers(0, 180)), 0, 360, colour, -1)
    # A bevel, as clients draw their cells (a picture cell whose outer lines are the window's own colour
    # has no edge to find: the board's place is then known to half the difference only).
    tile[0, :] = tile[:, 0] = 255
    tile[-1, :] = tile[:, -1] = 110
    return tile


@pytest.mark.parametrize("case", range(12))
def test_a_board_of_one_picture_is_found_exactly(case):
    rng = np.random.default_rng(SEED * 100 + case)
    pitch = int(rng.integers(12, 48))
    rows, cols = int(rng.integers(5, 17)), int(rng.integers(5, 31))
    kind = "texture" if case % 3 == 0 else "shapes"
    margin = int(rng.integers(8, 60))
    height, width = rows * pitch + 2 * margin + int(rng.integers(0, 40)), cols * pitch + 2 * margin + int(rng.integers(0, 40))
    frame = np.full((height, width, 3), rng.integers(180, 250), np.uint8)
    if case % 2:  # a busy window: noise around the board
        frame = np.clip(frame.astype(int) + rng.integers(-30, 30, frame.shape), 0, 255).astype(np.uint8)
    left, top = int(rng.integers(4, width - cols * pitch - 4)), int(rng.integers(4, height - rows * pitch - 4))
    frame[top : top + rows * pitch, left : left + cols * pitch] = np.tile(_picture(rng, pitch, kind), (rows, cols, 1))
    detail = f"seed {SEED} case {case}: {rows}x{cols} at ({left}, {top}), pitch {pitch}, {kind}"
    grid = tiled_grid(frame)
    if grid is None and kind == "shapes":
        return  # refused: its cells' ground is the window's colour, so where they end is not clear
    assert grid is not None, detail
    assert (grid.rows, grid.cols, grid.pitch) == (rows, cols, (pitch, pitch)), f"{detail}: found {grid.rows}x{grid.cols} pitch {grid.pitch}"
    # Within a pixel: the locator then aligns the skin's pictures to the pixel (a texture's outer lines
    # can look like the window's on one side).
    true = (left, top, left + cols * pitch, top + rows * pitch)
    assert max(abs(a - b) for a, b in zip(grid.box(), true)) <= 1, f"{detail}: found {grid.box()}"
    if kind == "texture":  # no faces for the structure to find: the board comes from here
        assert [(g.rows, g.cols) for g in find_grids(frame)] == [(rows, cols)], detail


@pytest.mark.parametrize("fill", ["flat", "noise", "stripes"])
def test_no_board_where_no_picture_repeats(fill):
    rng = np.random.default_rng(SEED)
    frame = np.full((400, 500, 3), 200, np.uint8)
    if fill == "noise":
        frame = rng.integers(0, 255, frame.shape).astype(np.uint8)
    elif fill == "stripes":  # repeats along one axis only
        frame[:, ::17] = 40
        frame = np.clip(frame.astype(int) + rng.integers(-40, 40, (400, 1, 1)), 0, 255).astype(np.uint8)
    assert tiled_grid(frame) is None
