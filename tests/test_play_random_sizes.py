"""``screenbot play`` on gnome-mines windows of sizes drawn at random on every run, and the board its own
default expert window cuts.

Levels and window sizes (from 500x400 to the full 1280x1024 screen, large enough for the level's
board: a smaller window cuts it, which the next test covers) are drawn fresh each run; the seed is
printed and in every failure message (replay: SCREENBOT_RANDOM_SEED=<seed>). Every game must end in
a detected win or loss, with the audits of ``tests/e2e_play_run.py``: no click outside the located
board, no step acting on an inconsistent reading.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time

import pytest

from screenbot.desktop import VirtualDisplay, start_client

from .test_e2e_play import ROOT, check, play_in_child

SEED = int(os.environ.get("SCREENBOT_RANDOM_SEED") or random.SystemRandom().randrange(10**6))
RNG = random.Random(SEED)
# The smallest window (width, height) that shows each level's whole board (gnome-mines 40.1 under
# openbox: cells are at least 20 px; a narrower or lower window clips the board).
SMALLEST = {"small": (500, 400), "medium": (560, 480), "big": (820, 480)}
DRAWS = [(level, (RNG.randint(SMALLEST[level][0], 1270), RNG.randint(SMALLEST[level][1], 1010)))
         for level in (RNG.choice(list(SMALLEST)) for _ in range(5))]
print(f"\ntests/test_play_random_sizes.py: seed {SEED} (replay: SCREENBOT_RANDOM_SEED={SEED}): {DRAWS}")


@pytest.mark.parametrize("level, window", DRAWS, ids=[f"{level}-{w}x{h}" for level, (w, h) in DRAWS])
def test_play_at_a_random_window_size(level, window, tmp_path):
    games = 3
    with VirtualDisplay():
        with start_client("gnome-mines", level=level, window_size=window) as client:
            report = play_in_child(client, "gnome-mines", games, tmp_path)
    try:
        check(report, games)
    except AssertionError as exc:
        raise AssertionError(f"seed {SEED}, {level} in a {window[0]}x{window[1]} window: {exc}") from exc


def test_board_cut_by_its_default_window_is_refused_quickly(tmp_path):
    """gnome-mines --big opens a 610x460 window that shows only 12x20 of the 16x30 board: play must say
    so and stop, not play the part it sees (it once found no board and waited with no output)."""
    with VirtualDisplay():
        with start_client("gnome-mines", level="big", window_size=(610, 460)):
            started = time.monotonic()
            done = subprocess.run([sys.executable, "-m", "screenbot", "play", "--games", "1", "--failure-dir", str(tmp_path)],
                                  cwd=ROOT, env=dict(os.environ), capture_output=True, text=True, timeout=30)
            seconds = time.monotonic() - started
    assert done.returncode == 4, done.stderr
    assert "16x30" in done.stderr and "cuts" in done.stderr, done.stderr
    assert "screen saved to" in done.stderr
    print(f"refused in {seconds:.1f} s")  # a figure, not asserted (shared machines); a hang fails the timeout
