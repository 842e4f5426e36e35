"""xbomb located by the locator itself at levels drawn at random, truth by the rules of the game.

xbomb's covered cells are a one-pixel stipple with no faces; the locator evens such stipple out before
it looks for cells (``structure.flatten_stipple``) and grows a board found in part over the lines its
skin reads as cells (``beyond.grow``). Every run draws two of the three levels (8x8 of 50 px cells, 16x16
and 30x16 of 20 px; the seed is printed, replay with ``SCREENBOT_RANDOM_SEED=<seed>``) and plays one game
at each (``lab.shots.xbomb``: the fresh board, a mid-game board with flags when the game lasts, the lost
board). Each screenshot is read by ``python3 -m screenbot read PNG --json`` with no lattice given:
exactly the true board or a refusal, never a wrong board, and at least MIN_READ_SHARE of them read.
"""

from __future__ import annotations

import random

import pytest

from screenbot.desktop import VirtualDisplay

from .seeds import REPLAY, SEED
from .test_random_real import judge_labelled

# Real Xvfb and xbomb: the end-to-end tier (tests/conftest.py).
pytestmark = pytest.mark.e2e

# Share of the screenshots that must read exactly: 16 of 16 did over six games at the three levels
# (a lost 30x16 board's mines and green borders were the hardest; the reader may refuse one).
MIN_READ_SHARE = 0.75


def test_xbomb_located_and_read_at_random_levels(tmp_path):
    from lab.shots import xbomb
    from lab.shots.store import save_shot

    rng = random.Random(SEED)
    levels = sorted(rng.sample([1, 2, 3], 2))
    print(f"\nxbomb levels {levels}, {REPLAY}")
    paths = []
    with VirtualDisplay():
        for level in levels:
            session = xbomb.Session(level)
            try:
                for attempt in range(3):  # a game whose labels do not check out is thrown away
                    try:
                        shots = xbomb.one_game(session, f"xb-l{level}-g{attempt}", rng)
                    except ValueError as exc:
                        print(f"  level {level}: game thrown away: {exc}")
                        session.key("s")
                        continue
                    paths += [save_shot(shot, tmp_path, for_templates=False, margin=64) for shot in shots]
                    break
            finally:
                session.close()
    assert paths, f"no game at levels {levels} could be labelled; {REPLAY}"
    counts, summary = judge_labelled(paths, f"xbomb at levels {levels}", REPLAY)
    assert counts["right"] >= MIN_READ_SHARE * len(paths), summary
