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

from .seeds import SEED
from .test_classic_look import judge_cases, without
from .test_minegauler_sizes import minegauler_games

pytestmark = pytest.mark.e2e

MIN_READ = 5


def test_minegauler_is_read_by_the_classic_look_with_its_own_pictures_hidden(tmp_path):
    import cv2

    from screenbot.vision import load_skins

    rng = random.Random(f"{SEED}-classic")
    sizes = rng.sample(range(16, 41), 3)
    paths = minegauler_games(tmp_path, sizes, rng)
    skins = without(load_skins(), "minegauler")
    cases = [(png.stem, cv2.imread(str(png)), png.with_suffix(".txt").read_text(encoding="utf-8").split(), skins)
             for png in paths]
    judge_cases(cases, f"minegauler at {sizes} px, its pictures hidden", MIN_READ)
