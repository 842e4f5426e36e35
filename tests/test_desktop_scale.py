"""gnome-mines on a desktop at 200%: GTK draws its gaps, the round of its tiles and its glyphs twice as
large (``GDK_SCALE=2``), so a board of 46 px cells looks like one of 23 px cells enlarged, not like the
skin's 46 px pictures, whose gap is half as wide.

Such a board is located as drawn at that scale (``Lattice.scale``; the skin's profile names the scales
its client draws at, ``device_scales``) and read with the pictures at half its cell size. The
screenshots are real (``tests/random_cases`` with ``--desktop-scale 2``, truth from the game, not the
reader); none was read before (numbers like no picture, a faint outline round the tiles taken for a
further line of cells, GTK's two-pixel steps between rows for a cut row). Cases drawn at random on
every run are in ``tests/test_random_real.py`` (a sixth of its small and medium gnome-mines windows)
and ``tests/test_play_random_sizes.py`` (games played at 200%).

minegauler (Qt) at 125%: a board its skin reads as it is, whose fractional enlargement made it look
cut (``fixtures/desktop-scale/qt``); random draws of scales are in ``tests/test_minegauler_sizes.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from screenbot.geometry import Lattice
from screenbot.labelled_shots import load_shots
from screenbot.vision import load_skins, locate_board, read_board

from .random_cases import read_case

pytestmark = pytest.mark.integration

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SCALED = sorted((FIXTURES / "desktop-scale").glob("*.png"))


@pytest.mark.parametrize("png", SCALED, ids=[p.stem for p in SCALED])
def test_a_board_drawn_at_200_percent_is_read_as_drawn(png):
    meta, truth, reading = read_case(png)
    assert meta["desktop_scale"] == 2
    assert (reading.lattice.skin, reading.lattice.scale) == ("gnome-mines", 2.0)
    assert list(reading.board.grid) == list(truth.grid)


QT_SCALED = sorted((FIXTURES / "desktop-scale" / "qt").glob("*.png"))


@pytest.mark.parametrize("png", QT_SCALED, ids=[p.stem for p in QT_SCALED])
def test_a_board_qt_enlarges_by_a_fractional_scale_is_read_whole(png):
    """minegauler at 125% with 17 px buttons (``lab.shots.minegauler --desktop-scale 1.25``, truth from
    the game): cells of 21.25 px, every fourth line of them a pixel wider, its bevel a pixel thicker.
    Its outer line was taken for one cut straight by the window (its faces' corners unlike those of
    the narrower faces): the lost board was refused as "going on past its bottom side"."""
    shot = next(s for s in load_shots(png.parent) if s.name == png.stem)
    frame, skins = shot.image(), load_skins()
    lattice = locate_board(frame, skins)
    assert (lattice.rows, lattice.cols) == (shot.lattice.rows, shot.lattice.cols)
    assert list(read_board(frame, lattice, skins).board.grid) == list(shot.board.grid)


def test_read_says_the_scale_in_its_json(capsys):
    from screenbot.cli import main

    png = SCALED[0]
    assert main(["read", str(png), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scale"] == 2.0 and data["board"].split("\n") == list(read_case(png)[1].grid)


def test_boards_drawn_at_100_percent_are_located_as_such():
    """Every labelled gnome-mines screenshot whose cells are large enough for the scale of 200% to be tried
    (40 px and up: 46 to 99 px): it is never chosen."""
    skins = load_skins()
    shots = [s for s in load_shots(FIXTURES / "screens") if s.client == "gnome-mines" and s.lattice.pitch[0] >= 40]
    assert len({round(s.lattice.pitch[0]) for s in shots}) >= 3
    for shot in shots:
        assert locate_board(shot.image(), skins, skin="gnome-mines").scale == 1.0, shot.name


def test_the_scale_is_kept_by_every_lattice_derived_from_one():
    lattice = Lattice("gnome-mines", (10.0, 20.0), (46.0, 45.5), 3, 4, scale=2.0)
    assert lattice.drawn_pitch == (23.0, 22.75)
    uneven = Lattice.from_edges("gnome-mines", (0.0, 46.0, 92.0), (0.0, 44.0, 90.0), 2.0)
    for derived in (lattice.translated(3, -1), lattice.block(1, 1, 2, 2), lattice.on_whole_pixels(),
                    uneven.block(0, 0, 1, 1), uneven.translated(1, 1), Lattice.from_json(lattice.to_json())):
        assert derived.scale == 2.0
    assert "scale" not in Lattice("x", (0.0, 0.0), (20.0, 20.0), 2, 2).to_json()
    assert Lattice.from_json(Lattice("x", (0.0, 0.0), (20.0, 20.0), 2, 2).to_json()).scale == 1.0
