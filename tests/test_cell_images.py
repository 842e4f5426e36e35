"""``cells.cell_images`` cuts every cell's box out of a frame and scales it to a fixed size. Runs of
boxes of one width are scaled in one call; these tests hold that to scaling one box at a time, on
lattices drawn at random (``SCREENBOT_RANDOM_SEED=<seed>`` replays a run)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from screenbot.geometry import Lattice
from screenbot.vision.cells import _resized, cell_images

from .seeds import REPLAY, SEED

pytestmark = pytest.mark.integration


def _one_box_at_a_time(frame, lattice, size):
    rect = lattice.board_rect()
    region = frame[rect.top : rect.bottom, rect.left : rect.right]
    xs = [round(x) - rect.left for x in lattice.col_edges()]
    ys = [round(y) - rect.top for y in lattice.row_edges()]
    columns = np.hstack([_resized(region[:, a:b], (size, region.shape[0])) for a, b in zip(xs, xs[1:])])
    scaled = np.vstack([_resized(columns[a:b], (lattice.cols * size, size)) for a, b in zip(ys, ys[1:])])
    return scaled.reshape(lattice.rows, size, lattice.cols, size, 3).transpose(0, 2, 1, 3, 4)


def test_boxes_scaled_a_run_at_a_time_are_the_boxes_scaled_one_at_a_time():
    """Fractional and whole pitches from 8 to 60 px, scaled to 16 (the templates' size) and 32 (the
    classic look's): shrunk boxes and enlarged ones (interpolating a run of enlarged boxes at once
    would blend pixels across their edges: it refused four boards of sixty drawn in the classic look)."""
    rng = random.Random(f"{SEED}-cell-images")
    frame = np.random.default_rng(rng.randrange(2**32)).integers(0, 256, (900, 1200, 3), dtype=np.uint8)
    differing = []
    for _ in range(40):
        pitch = (rng.choice([rng.randint(8, 60), rng.uniform(8, 60)]), rng.choice([rng.randint(8, 60), rng.uniform(8, 60)]))
        rows, cols = rng.randint(1, 12), rng.randint(1, 16)
        lattice = Lattice("any", (rng.uniform(0, 200), rng.uniform(0, 100)), pitch, rows, cols)
        for size in (16, 32):
            if not np.array_equal(cell_images(frame, lattice, size), _one_box_at_a_time(frame, lattice, size)):
                differing.append(f"pitch {pitch[0]:.2f}x{pitch[1]:.2f}, {rows}x{cols}, to {size} px")
    assert not differing, f"{REPLAY}: {differing}"


@pytest.mark.parametrize("keys", ["as made", "all alike"])
def test_distinct_pictures_come_in_order_of_first_appearance_even_when_keys_collide(keys, monkeypatch):
    """``cells.distinct`` tells pictures apart by a key of their pixels, checked pixel for pixel: a
    stack drawn at random from a few pictures gives each distinct picture once, in the order each first
    appears, and every picture's index; also where every key is alike (weights of 0: as a collision
    would), where the pictures' bytes tell them apart instead."""
    from screenbot.vision import cells

    if keys == "all alike":
        monkeypatch.setattr(cells, "_key_weights", lambda words: np.zeros(words, dtype=np.uint64))
    rng = np.random.default_rng(random.Random(f"{SEED}-keys").randrange(2**32))
    few = rng.integers(0, 256, (rng.integers(1, 9), 16, 16, 3), dtype=np.uint8)
    stack = few[rng.integers(0, len(few), 200)]
    pictures, inverse = cells.distinct(stack)
    appearing = list(dict.fromkeys(picture.tobytes() for picture in stack))
    assert [picture.tobytes() for picture in pictures] == appearing, REPLAY
    assert np.array_equal(pictures[inverse], stack), REPLAY


def test_cells_matched_once_per_distinct_picture_match_as_when_matched_one_by_one():
    """``match_cells`` matches each distinct picture of a stack once (``cells.distinct``); a stack of
    pictures drawn at random from a few, repeated in a random order, gets for every cell what matching
    that cell alone gives (the same state, the same confidence)."""
    from screenbot.vision.cells import distinct, match_cells
    from screenbot.vision.skins import CANONICAL
    from screenbot.vision import load_skins

    rng = np.random.default_rng(random.Random(f"{SEED}-distinct").randrange(2**32))
    skin = load_skins()["gnome-mines"]
    bank = skin.bank((24.0, 24.0))
    few = bank.pictures[rng.choice(len(bank.pictures), 5, replace=False)].astype(np.int16)
    few = np.clip(few + rng.integers(-20, 21, few.shape), 0, 255).astype(np.uint8)
    stack = few[rng.integers(0, len(few), 40)]
    pictures, inverse = distinct(stack)
    assert len(pictures) <= len(few) and np.array_equal(pictures[inverse], stack), REPLAY
    together = match_cells(stack, bank)
    for i, picture in enumerate(stack):
        alone = match_cells(picture.reshape(1, CANONICAL, CANONICAL, 3), bank)
        assert together.chars[i] == alone.chars[0], REPLAY
        assert abs(together.confidence[i] - alone.confidence[0]) < 1e-9, REPLAY


def test_a_box_cut_out_past_the_frames_edge_repeats_the_edge_pixels():
    """``cells.cut_out`` on boxes drawn at random, inside the frame, across its edges and past them:
    the box's size always, the frame's own pixels where the box is on it, and elsewhere the nearest
    edge pixel of the frame (as NumPy's edge padding of the whole frame gives)."""
    from screenbot.vision.cells import cut_out

    rng = random.Random(f"{SEED}-cut-out")
    frame = np.random.default_rng(rng.randrange(2**32)).integers(0, 256, (30, 40, 3), dtype=np.uint8)
    reach = 12
    padded = np.pad(frame, ((reach, reach), (reach, reach), (0, 0)), mode="edge")
    for _ in range(200):
        left, top = rng.randint(-reach, 40 + reach - 1), rng.randint(-reach, 30 + reach - 1)
        right, bottom = rng.randint(left + 1, 40 + reach), rng.randint(top + 1, 30 + reach)
        box = cut_out(frame, left, top, right, bottom)
        expected = padded[top + reach : bottom + reach, left + reach : right + reach]
        assert np.array_equal(box, expected), f"{REPLAY}: box {(left, top, right, bottom)}"
