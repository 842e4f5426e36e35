"""gnome-mines under a dark or high-contrast desktop theme: the same cells on a window the theme draws
dark grey, or white.

The skin's pictures were taken under the light theme, background round each cell included; under
Adwaita's dark variant (what GNOME's dark style gives a GTK 3 window) no picture fitted,
and every board was refused (taken for xbomb's). ``vision.background`` reads such a board as the
pictures show it. The screenshots are real (``tests/random_cases`` under ``GTK_THEME=Adwaita:dark``,
truth from the game, not the reader); every one was refused before. Cases drawn at random on every
run are in ``tests/test_random_real.py`` (a third of its gnome-mines windows are dark) and
``tests/test_play_random_sizes.py`` (games played under the dark theme).

Under GTK's HighContrast theme, a lost board at a 23.1 px pitch (whose flags read at a confidence of
0.68: a flag and a "?" are drawn alike) was refused as "mirrored left to right", its flags mirrored
reading as "?" at 0.74; read mirrored, it read those flags as "?" with exit 0.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from screenbot.labelled_shots import load_shots
from screenbot.vision import load_skins
from screenbot.vision.background import as_skin_background

from screenbot.commands.screenshot import read_screenshot

from .random_cases import parse_board, read_case

pytestmark = pytest.mark.integration

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
THEMED = sorted((FIXTURES / "themes").glob("*.png"))


@pytest.mark.parametrize("png", THEMED, ids=[p.stem for p in THEMED])
def test_gnome_mines_under_a_desktop_theme_is_read_as_the_game_shows_it(png):
    meta, truth, reading = read_case(png)
    assert meta["gtk_theme"] in ("Adwaita:dark", "HighContrast")
    assert reading.lattice.skin == "gnome-mines"
    assert list(reading.board.grid) == list(truth.grid)


@pytest.mark.parametrize("png", THEMED, ids=[p.stem for p in THEMED])
def test_gnome_mines_under_a_desktop_theme_mirrored_is_refused_not_misread(png, capsys):
    import cv2

    mirrored = np.ascontiguousarray(cv2.imread(str(png))[:, ::-1])
    reading = read_screenshot(png, mirrored, load_skins(), "auto")
    said = capsys.readouterr().err
    truth = parse_board(png.with_suffix(".txt").read_text(encoding="utf-8"))
    assert isinstance(reading, int) or list(reading.board.grid) == [row[::-1] for row in truth.grid], said


def test_boards_in_the_theme_the_pictures_were_taken_in_are_left_as_they_are():
    """Every labelled gnome-mines screenshot (light theme) is read on its own pixels: nothing repainted."""
    skins = load_skins()
    shots = [s for s in load_shots(FIXTURES / "screens") if s.client == "gnome-mines"]
    assert len(shots) > 20
    for shot in shots:
        frame = shot.image()
        assert as_skin_background(frame, shot.lattice, skins["gnome-mines"]) is frame, shot.name
