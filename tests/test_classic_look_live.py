"""minegauler's Standard skin, the classic look, read with minegauler's own pictures hidden: the board is
found and read by the built-in classic look alone, as for a client nobody taught.

Real minegauler on a virtual display, at three button sizes drawn at random in its whole 16-40 px range
(the seed is printed; replay with ``SCREENBOT_RANDOM_SEED=<seed>``), one game at each: the fresh board, a
mid-game board with flags and a wrong flag, the lost board, each checked against the board the client
wrote itself (``lab.shots.minegauler``). Every screenshot is read exactly or refused with a reason; a
board read wrong fails the test, and at least MIN_READ of the nine must be read.
"""

from __future__ import annotations

import random

import pytest

from screenbot.desktop import VirtualDisplay

from .seeds import REPLAY, SEED
from .test_classic_look import _outcome, _read
from .test_minegauler_sizes import BOARDS, WHOLE_HEIGHT

pytestmark = pytest.mark.e2e

MIN_READ = 5


def test_minegauler_is_read_by_the_classic_look_with_its_own_pictures_hidden(tmp_path):
    import cv2

    from lab.shots.minegauler import one_game
    from screenbot.vision import load_skins

    rng = random.Random(f"{SEED}-classic")
    sizes = rng.sample(range(16, 41), 3)
    boards = [rng.choice([b for b in BOARDS if b[1] * size <= WHOLE_HEIGHT]) for size in sizes]
    print(f"\nminegauler button sizes {sizes}, boards {boards}, {REPLAY}")
    paths = []
    with VirtualDisplay():
        for size, (cols, rows, mines) in zip(sizes, boards):
            paths += one_game(tmp_path, tmp_path, size, cols, rows, mines, rng, for_templates=False)
    skins = {name: skin for name, skin in load_skins().items() if name != "minegauler"}
    counts = {"right": 0, "refused": 0, "WRONG": 0}
    lines = []
    for png in paths:
        truth = png.with_suffix(".txt").read_text(encoding="utf-8").split()
        got, said = _read(cv2.imread(str(png)), skins)
        outcome = _outcome(got, truth)
        counts[outcome] += 1
        lines.append(f"  {png.stem}: {outcome} - {said[-160:]}")
    summary = f"minegauler at {sizes} px, its pictures hidden: {counts}; {REPLAY}"
    print("\n".join(lines) + "\n" + summary)
    assert counts["WRONG"] == 0, summary + "\n" + "\n".join(line for line in lines if "WRONG" in line)
    assert counts["right"] >= MIN_READ, summary
