"""A box drawn over some cells of a board (a tooltip, a hover box, a small popup) is refused by name.

Each run draws, from its seed, labelled screenshots of every client and a box with a line of text on
each, at a random cell and of a random size. The board must then be read exactly (the box left every
cell's middle alone) or refused; a refusal where two or more neighbouring cells fail names the box of
cells, and that box lies within the cells the drawn box touches. A board is judged as every command
takes a reading: cell by cell, then by the rules (``check_plausible``; play's own checks apply the
same), so a box whose cells each pass for a state is refused when the board they make cannot be right.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from screenbot.errors import BoardNotFoundError, ImplausibleBoardError, UnrecognizedCellError
from screenbot.labelled_shots import load_shots
from screenbot.play.live import load_skins
from screenbot.vision.plausible import check_plausible
from screenbot.vision.read import drawn_over_block, read_board

from .seeds import REPLAY, SEED, with_regressions

pytestmark = pytest.mark.integration

SHOTS = [shot for shot in load_shots(Path(__file__).resolve().parents[1] / "fixtures" / "screens") if not shot.full_frame]
NAMED = re.compile(r"cells \((\d+),(\d+)\)-\((\d+),(\d+)\) match no state: something is drawn over them")


def _tooltip(frame: np.ndarray, rng: random.Random, lattice) -> tuple[int, int, int, int]:
    """A light box with a dark border and a line of text, from the middle of a random cell, down and to
    the right; returns its (left, top, right, bottom) pixels."""
    r, c = rng.randrange(lattice.rows), rng.randrange(lattice.cols)
    x0, y0 = (int(v) for v in lattice.face_center(r, c))
    pitch = max(lattice.pitch)
    x1 = min(frame.shape[1], x0 + int(pitch * rng.uniform(1.5, 5)))
    y1 = min(frame.shape[0], y0 + int(pitch * rng.uniform(0.8, 2)))
    frame[y0:y1, x0:x1] = rng.choice([(225, 255, 255), (250, 250, 250), (60, 60, 60)])
    frame[y0:y1, [x0, x1 - 1]] = 0
    frame[[y0, y1 - 1], x0:x1] = 0
    inside = np.ascontiguousarray(frame[y0 + 1 : y1 - 1, x0 + 1 : x1 - 1])
    cv2.putText(inside, "Flags left: 12", (2, inside.shape[0] - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (128, 0, 0), 1)
    frame[y0 + 1 : y1 - 1, x0 + 1 : x1 - 1] = inside  # the text ends where the box does
    return x0, y0, x1, y1


def _read_clean(rng: random.Random, skins, count: int) -> list:
    """``count`` shots drawn at random among those read exactly at their own lattice with nothing over
    them (a few are refused there: one flag of gm-medium-900-marked is, found by seed 104)."""
    chosen = []
    for shot in rng.sample(SHOTS, len(SHOTS)):
        try:
            if read_board(shot.image(), shot.lattice, skins).board.grid == shot.board.grid:
                chosen.append(shot)
        except (UnrecognizedCellError, BoardNotFoundError):
            pass
        if len(chosen) == count:
            return chosen
    return chosen


def _touched(lattice, box) -> set[tuple[int, int]]:
    left, top, right, bottom = box
    return {(r, c) for r in range(lattice.rows) for c in range(lattice.cols)
            if not (lattice.cell_rect(r, c).right <= left or lattice.cell_rect(r, c).left >= right
                    or lattice.cell_rect(r, c).bottom <= top or lattice.cell_rect(r, c).top >= bottom)}


# 113: a dark box read as five wrong flags with exit 0 (the glyph look compared grey levels only).
# 1010: a dark grey box over the corner cell and the one below it (minesweeper-for-web at 80%, read as
# the classic look) read as two black 7s, each black ink with no hole; a corner cell has three
# neighbours, and the board is refused by the rules.
@pytest.mark.parametrize("seed", with_regressions(113, 104, 1010))
def test_a_box_drawn_over_cells_is_read_around_or_refused_by_name(seed, tmp_path):
    rng = random.Random(seed)
    skins = load_skins()
    named = 0
    for shot in _read_clean(rng, skins, 12):
        frame = shot.image().copy()
        box = _tooltip(frame, rng, shot.lattice)
        where = f"{shot.name} with a box at {box}, {REPLAY if seed == SEED else f'seed {seed}'}"
        try:
            reading = read_board(frame, shot.lattice, skins, crops_dir=tmp_path)
            check_plausible(reading.board, skins[shot.lattice.skin])
        except UnrecognizedCellError as exc:
            touched = _touched(shot.lattice, box)
            assert (exc.row, exc.col) in touched, where
            found = NAMED.search(str(exc))
            if found:
                top, left, bottom, right = (int(v) for v in found.groups())
                cells = {(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)}
                assert cells <= touched, f"{where}: named {cells - touched} outside the box"
                crop = cv2.imread(exc.crop_path)  # the whole box of cells, for a person to look at
                assert crop.shape[1] >= (right - left + 1) * shot.lattice.pitch[0] - 2, where
                named += 1
            continue
        except (BoardNotFoundError, ImplausibleBoardError):
            continue
        assert reading.board.grid == shot.board.grid, where
    print(f"{named} of 12 boxes named, {REPLAY}")
    # Each box covers the middles of two cells or more: nearly every one is refused by name (9-12 of 12
    # over 58 seeds; a box the reader sees past is read exactly, a single failing cell keeps its own
    # reason).
    assert named >= 7, f"only {named} of 12 boxes named, seed {seed}"


def test_the_box_is_the_failing_cells_touching_the_worst_one():
    failing = np.zeros((6, 8), bool)
    failing[2:4, 3:6] = True
    failing[5, 0] = True  # another failure elsewhere: not part of the box
    assert drawn_over_block(failing, 2, 3) == ((2, 3), (3, 5))
    assert drawn_over_block(failing, 5, 0) is None  # alone
    strewn = np.zeros((6, 8), bool)
    strewn[[0, 1, 2, 3], [0, 1, 2, 3]] = True  # a diagonal: touching, but filling a quarter of its box
    assert drawn_over_block(strewn, 0, 0) is None
