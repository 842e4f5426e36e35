"""sgt-mines read at tile sizes drawn at random, truth from the game's own rules.

sgt-mines' tile size follows its window (and the MINES_TILESIZE setting). The skin was taught at 16,
18, 20 and 28 px (``fixtures/screens/sm-teach-30x16*``); every run draws three other sizes in 12-46
(the most a 16x16 board's window shows whole on the 1280x1024 screen; the seed is printed and in every
assertion message). Per size, one game of ``lab.shots.sgt_mines`` (the mine layout is in the game id,
so every board is known exactly): the fresh, opened, mid-game (flags, a wrong one), lost and solved
boards, each read by ``python3 -m screenbot read PNG --json`` as a user would: exactly the true board,
or a refusal (exit 4 or 5); never a wrong board, every board with no flag or mine read, and at most one
of the others refused. Taught at 20 px
only, the skin read a fresh board at 16 or 18 px as no board, or as gnome-mines' open cells (refused
then as a blank area), and at 28 px not at all.
"""

from __future__ import annotations

import random

import pytest

from .seeds import REPLAY, SEED
from .test_random_real import judge_labelled

# Real Xvfb and sgt-mines: the end-to-end tier (tests/conftest.py).
pytestmark = pytest.mark.e2e

TAUGHT = (16, 18, 20, 28)
# Every board is read at every size, none wrong; a refusal is allowed for one board of the nine with flags
# or mines a run draws. Measured over all 31 untaught sizes in 12-46, two games each (310 screenshots):
# 310 right. Before the classic look read sgt-mines at 12-14 px (where no picture fits) and read the
# cells its pictures read weakly at 38 px and up (taught up to 28), 286 right, 24 refused (every one at
# 38-46 px), 0 wrong; earlier, 53 of 65 over 13 sizes (every board with a flag at 12-14 px refused).
PLAIN = ("-fresh", "-opened")


def test_sgt_mines_read_at_random_tile_sizes(tmp_path):
    from lab.shots.sgt_mines import capture

    rng = random.Random(f"{SEED}-sgt-sizes")
    tiles = rng.sample([t for t in range(12, 47) if t not in TAUGHT], 3)
    print(f"\nsgt-mines tiles {tiles}, {REPLAY}")
    games = tuple((f"sm-random-t{tile}", 16, 16, 40, tile, rng.randrange(10**6), False) for tile in tiles)
    paths = capture(tmp_path, games)  # on a virtual display of its own
    plain = [path for path in paths if path.stem.endswith(PLAIN)]
    others = [path for path in paths if path not in plain]
    counts, summary = judge_labelled(plain, f"sgt-mines at {tiles} px, fresh and opened boards", REPLAY)
    assert counts["right"] == len(plain), summary
    counts, summary = judge_labelled(others, f"sgt-mines at {tiles} px, the other boards", REPLAY)  # none wrong
    assert counts["right"] >= len(others) - 1, summary
