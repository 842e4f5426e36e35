"""The fine look (``vision.detail``): at the size a skin was captured at, a number the skin has no
picture of is refused, not read as the nearest number it has; the numbers it has still read.

Boards are drawn here (thin digits on large cells, as xbomb draws them), with a layout, an unseen
number and its colour drawn at random on every run (seed printed; SCREENBOT_RANDOM_SEED replays).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from screenbot.errors import UnrecognizedCellError
from screenbot.geometry import Lattice
from screenbot.vision import load_skins, read_board
from screenbot.vision.newskin import make_skin
from solver.board import Board

from .seeds import SEED

PITCH = 48
MARGIN = 60
SEEN_COLOURS = {"1": (200, 0, 0), "2": (0, 120, 0), "3": (0, 0, 200)}


def render(rows: list[str], colours: dict[str, tuple[int, int, int]]) -> np.ndarray:
    import cv2

    image = np.full((2 * MARGIN + PITCH * len(rows), 2 * MARGIN + PITCH * len(rows[0]), 3), 180, np.uint8)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            x, y = MARGIN + c * PITCH, MARGIN + r * PITCH
            image[y : y + PITCH, x : x + PITCH] = 0
            image[y + 1 : y + PITCH - 1, x + 1 : x + PITCH - 1] = 120 if ch == "#" else 250
            if ch in colours:
                cv2.putText(image, ch, (x + 18, y + 31), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colours[ch], 1, cv2.LINE_AA)
    return image


def taught_board(rng: random.Random) -> list[str]:
    """A 6x6 board showing covered cells, 0, 1, 2 and 3 (the skin is taught from it)."""
    cells = list("#" * 8 + "0" * 10 + "1" * 8 + "2" * 6 + "3" * 4)
    rng.shuffle(cells)
    return ["".join(cells[r * 6 : r * 6 + 6]) for r in range(6)]


@pytest.mark.parametrize("draw", range(3))
def test_a_number_the_skin_never_saw_is_refused_at_the_captured_size(tmp_path, draw):
    rng = random.Random(SEED + draw)
    print(f"seed {SEED} draw {draw}")
    rows = taught_board(rng)
    lattice = Lattice("syn", (float(MARGIN), float(MARGIN)), (float(PITCH), float(PITCH)), 6, 6)
    make_skin("syn", [(render(rows, SEEN_COLOURS), Board(tuple(rows)))], tmp_path, lattices=[lattice],
              trust_labels=True)
    skins = load_skins(tmp_path)
    assert read_board(render(rows, SEEN_COLOURS), lattice, skins).board.grid == tuple(rows)

    # One number cell becomes a number the skin has no picture of, in the colour of one it has.
    unseen = rng.choice("45678")
    colours = {**SEEN_COLOURS, unseen: SEEN_COLOURS[rng.choice("123")]}
    numbers = [(r, c) for r in range(6) for c in range(6) if rows[r][c] in "123"]
    r, c = rng.choice(numbers)
    changed = [row if i != r else row[:c] + unseen + row[c + 1 :] for i, row in enumerate(rows)]
    with pytest.raises(UnrecognizedCellError) as refused:
        read_board(render(changed, colours), lattice, skins, crops_dir=tmp_path / "crops")
    assert (refused.value.row, refused.value.col) == (r, c)
