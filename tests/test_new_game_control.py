"""The new-game control found above a board (``screenbot.vision.new_game_control``): on the labelled
screenshots of the clients that have one, where their profiles (measured by hand) say it is; on boards
drawn at random, a face or a bordered button among counters and a menu bar's words; and nothing where
there is none."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from screenbot.geometry import Lattice
from screenbot.vision.new_game_control import control_above

from .seeds import REPLAY, SEED

pytestmark = pytest.mark.integration

SCREENS = Path(__file__).resolve().parent.parent / "fixtures" / "screens"


def _shots(prefix: str):
    for path in sorted(SCREENS.glob(f"{prefix}-*.json")):
        lattice = json.loads(path.read_text(encoding="utf-8"))["lattice"]
        board = Lattice(lattice["skin"], tuple(lattice["origin"]), tuple(lattice["pitch"]), lattice["rows"], lattice["cols"])
        yield path.stem, cv2.imread(str(path.with_suffix(".png"))), board


@pytest.mark.parametrize("prefix, face", [("xd", (0.0, -1.95)), ("mfw", (0.0, -0.9))])
def test_the_face_of_a_client_is_found_where_its_profile_clicks(prefix, face):
    """xdemineur's face (its profile's restart click, measured by hand) on all its labelled shots, and
    the face button above minesweeper-for-web's board."""
    for name, image, board in _shots(prefix):
        found = control_above(image, board)
        assert found is not None, name
        assert abs(found[0] - face[0]) < 0.2 and abs(found[1] - face[1]) < 0.2, (name, found)


@pytest.mark.parametrize("prefix", ["gm", "sm"])
def test_nothing_is_found_above_a_board_with_no_control_there(prefix):
    """gnome-mines has none; above sgt-mines' board is its menu bar, whose words are no button."""
    for name, image, board in _shots(prefix):
        assert control_above(image, board) is None, name


def test_a_drawn_control_is_found_among_counters_and_words():
    """Boards drawn at random (pitch, panel colour, the control's kind, size and place, counters either
    side, a row of words at the top): the control is found within two pixels of its middle."""
    rng = random.Random(f"{SEED}-new-game-control")
    for draw in range(20):
        pitch = rng.randint(12, 48)
        rows, cols = rng.randint(8, 16), rng.randint(9, 30)
        panel = np.array([rng.choice([rng.randint(40, 100), rng.randint(160, 230)]) for _ in range(3)], np.uint8)
        ink = (255 - panel).astype(np.uint8)
        left, top = rng.randint(10, 60), rng.randint(4 * pitch + 10, 4 * pitch + 60)
        image = np.zeros((top + rows * pitch + 20, left + cols * pitch + 20, 3), np.uint8)
        image[:] = panel
        for r in range(rows):
            for c in range(cols):
                x, y = left + c * pitch, top + r * pitch
                cv2.rectangle(image, (x, y), (x + pitch - 1, y + pitch - 1), ink.tolist(), 1)
        size = int(pitch * rng.uniform(0.7, 1.6))
        cx = left + cols * pitch / 2 + rng.uniform(-1.5, 1.5) * pitch
        cy = top - rng.uniform(0.3, 1.5) * pitch - size / 2
        kind = rng.choice(["disc", "button"])
        if kind == "disc":
            cv2.circle(image, (round(cx), round(cy)), size // 2, ink.tolist(), -1)
        else:
            x0, y0 = round(cx - size / 2), round(cy - size / 2)
            cv2.rectangle(image, (x0, y0), (x0 + size - 1, y0 + size - 1), ink.tolist(), 2)
            cv2.putText(image, ":)", (x0 + size // 4, y0 + 2 * size // 3), cv2.FONT_HERSHEY_SIMPLEX, size / 60, ink.tolist(), 1)
        for side in (left + pitch // 2, left + cols * pitch - 3 * pitch):  # counters: wide dark boxes
            if side > cx + size / 2 + pitch / 2 or side + 2.5 * pitch < cx - size / 2 - pitch / 2:
                cv2.rectangle(image, (side, round(cy - pitch / 2)), (side + round(2.5 * pitch), round(cy + pitch / 2)), (0, 0, 0), -1)
        cv2.putText(image, "Game Type Help", (left, top - int(3.5 * pitch)), cv2.FONT_HERSHEY_SIMPLEX, pitch / 40, ink.tolist(), 1)
        board = Lattice("drawn", (float(left), float(top)), (float(pitch), float(pitch)), rows, cols)
        found = control_above(image, board)
        case = f"{REPLAY}, draw {draw}: a {kind} of {size} px at ({cx:.1f}, {cy:.1f}), pitch {pitch}"
        assert found is not None, case
        x = left + cols * pitch / 2 + found[0] * pitch
        y = top + found[1] * pitch
        assert abs(x - cx) <= 2 and abs(y - cy) <= 2, f"{case}: found at ({x:.1f}, {y:.1f})"
