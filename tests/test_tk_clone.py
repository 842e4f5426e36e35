"""A clone built of Tk's widgets (``tests/tk_minesweeper.py``), read and played untaught as the classic
look, in looks drawn at random on every run (the seed is printed; replay with
``SCREENBOT_RANDOM_SEED=<seed>``): cell size 16-48 px, Tk's one-pixel bevel or two, a highlight ring
or none, opened cells sunken, flat or outlined, the flag a red "⚑" or "F", numbers bold or not.

Each screenshot is compared with the state the client wrote itself: read exactly or refused with a
reason, never read wrong. Games are played to their end, each verdict the client's own.
"""

from __future__ import annotations

import json
import random
import time

import pytest

from .seeds import REPLAY, SEED
from .test_classic_look import judge_cases

pytestmark = pytest.mark.e2e

FRAME = 13  # the board's frame (3 px) and padding (10 px) inside the window


def _state(path) -> dict:
    deadline = time.monotonic() + 5
    while True:
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def test_a_tk_clone_is_read_untaught_in_looks_drawn_at_random(tmp_path):
    """Four looks a run; in each a few cells opened and flagged at random (a first click never loses),
    then the screen read with every shipped skin loaded, as ``screenbot read`` does, with the pointer
    away and again with it resting on a cell (a covered one lit: read as an open cell at 18 px before
    the relief's bands reached three pixels into a cell, 15% of it under 20 px). Of 42 such
    screenshots (looks drawn as here, and opened cells drawn as a groove, now left out), 9 read right
    before the relief was measured on the cell's outermost lines, the boxes placed by where the picture
    changes, a reading with no room for a mine stopped passing for a board and a flag in red alone was
    read (sgt-mines' open cells taken for a fresh board, a one-pixel bevel read flat, red flags
    refused); 33 after, the rest refused, none wrong either way."""
    from lab.shots.sessions import click_at, move_pointer
    from screenbot.capture import MssScreen
    from screenbot.desktop import VirtualDisplay
    from screenbot.vision import load_skins

    from .tk_minesweeper import random_look, start

    rng = random.Random(f"{SEED}-tk-read")
    skins = load_skins()
    cases = []
    with VirtualDisplay(), MssScreen() as screen:
        for i in range(4):
            look, state = random_look(rng), tmp_path / f"state-{i}.json"
            with start(look, state) as client:
                window = client.geometry()
                left, top, cell = window.left + FRAME, window.top + FRAME, look["cell"]

                def centre(r: int, c: int) -> tuple[int, int]:
                    return left + c * cell + cell // 2, top + r * cell + cell // 2

                for k in range(rng.randint(1, 4)):
                    r, c = rng.randrange(look["rows"]), rng.randrange(look["cols"])
                    click_at(*centre(r, c), 1 if k < 2 else 3)
                    time.sleep(0.1)
                # Each board twice: the pointer away, and resting on a cell drawn at random, as a
                # player's pointer does; Tk lights the button under it (a lighter face).
                r, c = rng.randrange(look["rows"]), rng.randrange(look["cols"])
                for where, (x, y) in (("away", (screen.size[0] - 5, screen.size[1] - 5)),
                                      (f"on ({r},{c})", centre(r, c))):
                    move_pointer(x, y)
                    time.sleep(0.5)
                    frame, truth = screen.grab(), _state(state)["board"]
                    cases.append((f"{json.dumps(look, ensure_ascii=False)}, pointer {where}", frame, truth, skins))
    judge_cases(cases, f"a Tk clone's screenshots ({REPLAY})", 1)


def test_a_tk_clone_is_played_untaught(tmp_path):
    """Three games on a look drawn at random, played as the built-in classic look (no skin of the
    client, no ``learn``): F2 starts each new game, every game ends in a win or a loss that the client's
    own state agrees with, each win shown by the mines it flags; no click off the board, no step on a
    board that could not be right."""
    from screenbot.desktop import VirtualDisplay

    from .test_e2e_play import check, play_in_child
    from .tk_minesweeper import random_look, start

    rng = random.Random(f"{SEED}-tk-play")
    look, state, games = random_look(rng), tmp_path / "state.json", 3
    print(look, REPLAY)
    with VirtualDisplay():
        with start(look, state) as client:
            report = play_in_child(client, "classic", games, tmp_path, located=True, state_file=str(state))
    check(report, games)
    assert report["client_verdicts"] == report["outcomes"]
    assert sum(report["summary"]["wins_shown"].values()) == report["summary"]["wins"]
