"""``screenbot play`` (``--client auto``) on gnome-mines in one of its other tile themes, drawn at random on
every run with the window's size (seed printed; replay: SCREENBOT_RANDOM_SEED=<seed>).

The skin ``auto`` finds on the fresh board is gnome-mines' (its pictures fit these tiles' covered
cells); once cells open, which its pictures do not read, the session goes on in the look told by its
faces, with gnome-mines' rules, and gives way back at each new game. A session there once went round
in circles: the cells a move changed, read alone, were refused while the whole board read, and play
found the board again and read the same cells again, for ever; in another, each game won as the look
changed was taken for a finished game found on screen and started anew, uncounted. A lost game in
these tiles (every tile redrawn at a loss, the mines shown on the dimmed covered cells) is read in
that look where its mines' shapes are clear, and counted; where it is not read, the session stops
there, saying so.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from screenbot.desktop import VirtualDisplay, start_client
from screenbot.exit_codes import EXIT_FAILED, EXIT_OK

from .seeds import REPLAY, SEED
from .test_e2e_play import ROOT

pytestmark = pytest.mark.e2e

RNG = random.Random(SEED + 37)
THEME = RNG.choice(["classic", "default"])
WINDOW = (RNG.randint(560, 1200), RNG.randint(480, 1000))
print(f"\ntests/test_tile_theme_play.py: {REPLAY}: tile theme {THEME!r}, a {WINDOW[0]}x{WINDOW[1]} window")
# A session that goes round in circles is stopped here: three small games take well under a minute.
LIMIT = 300


def test_play_goes_on_in_the_look_the_tiles_are_drawn_in_and_counts_each_game(tmp_path):
    games = 3
    with VirtualDisplay():
        with start_client("gnome-mines", level="small", window_size=WINDOW, theme=THEME):
            try:
                done = subprocess.run(
                    [sys.executable, "-m", "screenbot", "play", "--games", str(games), "--json"],
                    cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                    timeout=LIMIT,
                )
            except subprocess.TimeoutExpired as exc:
                raise AssertionError(f"seed {SEED}: play still running after {LIMIT} s ({THEME} tiles, {WINDOW}):\n"
                                     f"{(exc.stderr or b'')[-3000:]!r}") from None
    said = f"seed {SEED}, {THEME} tiles in a {WINDOW[0]}x{WINDOW[1]} window:\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr, said
    assert done.returncode in (EXIT_OK, EXIT_FAILED), said
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(summary))  # shown with -s: the figures of this run
    counted = summary["wins"] + summary["losses"] + summary["unconfirmed"]
    assert summary["games"] == counted + summary["aborted"] and summary["games"] >= 1, said
    if done.returncode == EXIT_OK:
        assert counted == games and summary["aborted"] == 0, said
    else:
        # Stopped, one game aborted, none left uncounted behind it: where the board no longer reads (a
        # lost game in these tiles), or where a number named a moment ago is one the skin's pictures
        # no longer name and the look does not read the board whole (a number read cannot become
        # unread: ``tests/test_unseen.py``); never on any other reading that cannot be right.
        assert summary["aborted"] == 1, said
        stopped = summary["stopped"]
        assert "cannot read the board" in stopped or (
            "cannot be right" in stopped and all(p.endswith("now reads 'n'") for p in _problems(stopped))), said
    if summary["wins"]:
        # A game won is counted with its moves, those made before the look changed among them.
        assert summary["moves_per_second"] > 0, said


def _problems(stopped: str) -> list[str]:
    """The reasons a stop on a reading that cannot be right gives: "... cannot be right (a; b); nothing
    was clicked on it ..." (``play.safe_read``)."""
    inside = stopped.split("cannot be right", 1)[1].split("(", 1)[1].split("); nothing was clicked", 1)[0]
    return [p.strip() for p in inside.split(";")]
