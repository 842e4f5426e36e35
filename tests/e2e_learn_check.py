"""Child process of the ``learn`` end-to-end test: reads fresh real screenshots of the client with the
learnt skin and with the shipped one (the truth), and counts right / refused / wrong.

Run as ``python -m tests.e2e_learn_check CONFIG_JSON`` with DISPLAY set to a display where gnome-mines
runs a fresh game (pyautogui binds to the display current at its import: hence a process of its own).
CONFIG: ``{"skin": NAME, "templates": DIR, "games": N, "seed": S}``. Plays N games by random clicks
(the shipped skin locates the board; every click is on a cell of it), and at every step reads the
whole screen with both skins: the fresh board, the pointer over a covered cell, boards in progress and
the lost board. Prints one JSON object: {"cases": [{"what", "verdict", "detail"}], "seed"}.
A case counts only when the shipped skin reads it (it is the truth); the learnt skin's reading must
then be the same board ("right") or refused ("refused"); anything else is "wrong".
"""

from __future__ import annotations

import json
import random
import sys
import time

import numpy as np

from screenbot.capture import MssScreen
from screenbot.errors import ScreenError
from screenbot.mouse import BoardMouse, PyAutoGuiMouse
from screenbot.vision import load_skins, locate_board, read_board
from screenbot.skin_folders import TEMPLATES_DIR


def settled(screen, pause: float = 0.3) -> np.ndarray:
    last = screen.grab()
    while True:
        time.sleep(pause)
        now = screen.grab()
        if np.array_equal(now, last):
            return now
        last = now


def main(config: dict) -> dict:
    rng = random.Random(config["seed"])
    truth_skins = load_skins(TEMPLATES_DIR)
    learnt_skins = load_skins(config["templates"])
    name = config["skin"]
    cases = []
    mouse = PyAutoGuiMouse()
    with MssScreen() as screen:
        def check(what: str) -> None:
            frame = settled(screen)
            try:
                lattice = locate_board(frame, truth_skins, "gnome-mines")
                truth = read_board(frame, lattice, truth_skins).board
            except ScreenError as exc:
                cases.append({"what": what, "verdict": "no truth", "detail": str(exc)[:200]})
                return
            try:
                got_lattice = locate_board(frame, learnt_skins, name)
                got = read_board(frame, got_lattice, learnt_skins).board
            except ScreenError as exc:
                cases.append({"what": what, "verdict": "refused", "detail": str(exc)[:200]})
                return
            verdict = "right" if got.grid == truth.grid else "wrong"
            detail = "" if verdict == "right" else "truth:\n" + "\n".join(truth.grid) + "\nread:\n" + "\n".join(got.grid)
            cases.append({"what": what, "verdict": verdict, "detail": detail})

        lattice = locate_board(settled(screen), truth_skins, "gnome-mines")
        board_mouse = BoardMouse(mouse, lattice)
        for game in range(config["games"]):
            if game:
                mouse.press("ctrl", "r")
                time.sleep(0.5)
            board_mouse.park()
            check(f"game {game + 1}: fresh")
            if game == 0:
                mouse.move(*lattice.cell_center(lattice.rows - 1, lattice.cols - 1))
                check(f"game {game + 1}: pointer over a covered cell")
            board_mouse.open(lattice.rows // 2, lattice.cols // 2)
            board_mouse.park()
            check(f"game {game + 1}: after the first click")
            if game % 2 == 0:
                board_mouse.flag(0, 0)
                board_mouse.park()
            for step in range(60):
                frame = settled(screen)
                truth = read_board(frame, lattice, truth_skins).board
                if truth.is_over:
                    check(f"game {game + 1}: lost")
                    break
                covered = [(r, c) for r, c, ch in truth.cells() if ch == "#"]
                if not covered:
                    break
                board_mouse.open(*rng.choice(covered))
                board_mouse.park()
                if step % 2 == 1:
                    check(f"game {game + 1}: in progress, step {step + 1}")
    return {"cases": cases, "seed": config["seed"]}


if __name__ == "__main__":
    print(json.dumps(main(json.loads(sys.argv[1]))))
