"""``--lattice``: a board placed by hand for ``read``, ``hint`` and ``play`` (no display needed)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from screenbot.cli import main
from screenbot.errors import BoardNotFoundError
from screenbot.given_lattice import GivenLattice, GivenLatticeVision, LatticeOffFrameError, parse_lattice
from screenbot.play import PlayConfig, Player, WindowLostError
from screenbot.play.observer import LOST, WON
from screenbot.testing import FlatVision, SimulatedClient, SimulatedTime
from screenbot.geometry import Lattice

from .test_play_loop import GNOME_LIKE

pytestmark = pytest.mark.integration

SCREENS = Path(__file__).resolve().parents[1] / "fixtures" / "screens"


def lattice_text(name: str, dx: float = 0.0, dy: float = 0.0) -> str:
    """The --lattice text of a fixture screenshot's true lattice, moved by (dx, dy) pitches."""
    lat = json.loads((SCREENS / f"{name}.json").read_text(encoding="utf-8"))["lattice"]
    (ox, oy), (px, py) = lat["origin"], lat["pitch"]
    return f"{ox + dx * px},{oy + dy * py},{px}x{py},{lat['rows']}x{lat['cols']}"


# --- parsing ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("49,160.3,23x22.94,16x30", GivenLattice((49.0, 160.3), (23.0, 22.94), 16, 30)),
        ("10,20,16,9x9", GivenLattice((10.0, 20.0), (16.0, 16.0), 9, 9)),
        (" 0 , 0.5 , 37.5X37.5 , 1X1 ", GivenLattice((0.0, 0.5), (37.5, 37.5), 1, 1)),
    ],
)
def test_parse_good(text, expected):
    assert parse_lattice(text) == expected


@pytest.mark.parametrize(
    "text, message",
    [
        ("49,160,23", "expected LEFT,TOP,PITCH,ROWSxCOLS"),
        ("49,160,23,16x30,1", "expected LEFT,TOP,PITCH,ROWSxCOLS"),
        ("a,160,23,16x30", "LEFT must be a number"),
        ("49,inf,23,16x30", "TOP must be a finite number"),
        ("49,160,0,16x30", "the pitch must be above zero"),
        ("49,160,23x-1,16x30", "the pitch must be above zero"),
        ("49,160,2,16x30", "at least 4 px"),
        ("49,160,23x23x23,16x30", "PITCH must be one number or PXxPY"),
        ("49,160,23,16", "ROWSxCOLS must be two whole numbers"),
        ("49,160,23,16.5x30", "ROWSxCOLS must be two whole numbers"),
        ("49,160,23,0x30", "at least 1 row and 1 column"),
    ],
)
def test_parse_bad(text, message):
    with pytest.raises(argparse.ArgumentTypeError, match=message):
        parse_lattice(text)


@pytest.mark.parametrize("command", [["read", "x.png"], ["hint", "--image", "x.png", "--out", "y.png"], ["play"]])
def test_bad_lattice_is_a_usage_error_in_every_command(command, capsys):
    assert main([*command, "--lattice", "49,160,0,16x30"]) == 2
    err = capsys.readouterr().err
    assert "argument --lattice" in err and "the pitch must be above zero" in err
    assert "Traceback" not in err


def test_help_tells_about_the_lattice(capsys):
    for command in ("read", "hint", "play"):
        assert main([command, "--help"]) == 0
        assert "--lattice LEFT,TOP,PITCH,ROWSxCOLS" in capsys.readouterr().out


# --- read and hint --image on real screenshots ----------------------------------------------------------


@pytest.mark.parametrize("name, skin", [
    ("gm-big-900-opened", "gnome-mines"), ("xd-16x16-lost", "xdemineur"), ("rm-s1.5-12x12-opened", "react-minesweeper"),
])
def test_read_with_the_true_lattice_gives_the_board_and_the_skin(name, skin, capsys):
    assert main(["read", str(SCREENS / f"{name}.png"), "--lattice", lattice_text(name), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["skin"] == skin  # chosen among all skins by reading the lattice
    assert out["board"] == (SCREENS / f"{name}.txt").read_text(encoding="utf-8").strip()
    # The same board as text, the skin named this time (choosing it, the slow part, was checked above).
    assert main(["read", str(SCREENS / f"{name}.png"), "--lattice", lattice_text(name), "--skin", skin]) == 0
    assert capsys.readouterr().out.strip() == (SCREENS / f"{name}.txt").read_text(encoding="utf-8").strip()


def test_read_with_a_named_skin_that_does_not_fit_is_refused(capsys):
    name = "gm-big-900-opened"
    assert main(["read", str(SCREENS / f"{name}.png"), "--lattice", lattice_text(name), "--skin", "xdemineur"]) == 5
    captured = capsys.readouterr()
    assert captured.out == "" and "xdemineur" in captured.err and "--lattice position" in captured.err


@pytest.mark.parametrize("shift", [(-3, 0), (0, 20), (30, 0)], ids=["left", "down", "far-right"])
def test_a_lattice_off_the_image_is_a_usage_error(shift, capsys):
    name = "gm-big-900-opened"
    # "--lattice=" so that argparse does not take a negative LEFT for an option
    assert main(["read", str(SCREENS / f"{name}.png"), f"--lattice={lattice_text(name, *shift)}"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "is not fully on the 899x687 image" in captured.err and "Traceback" not in captured.err


@pytest.mark.integration(seconds=5)  # every skin reads it, each cell looked at again where it reads weakly
@pytest.mark.parametrize("name, shift", [
    ("gm-big-900-opened", (0.5, 0.5)), ("gm-big-900-opened", (0.0, -0.5)),
    # Every cell covered: the moved cells pass for other skins' covered tiles, but only weakly.
    ("rm-s1.25-12x12-fresh", (-0.5, 0.0)), ("sm-big-fresh", (0.33, 0.0)),
])
def test_a_lattice_part_of_a_cell_off_reads_no_board(name, shift, capsys):
    code = main(["read", str(SCREENS / f"{name}.png"), "--lattice", lattice_text(name, *shift)])
    captured = capsys.readouterr()
    assert code in (4, 5) and captured.out == ""
    assert "Traceback" not in captured.err


def test_a_lattice_that_reads_weakly_is_refused(capsys):
    name = "rm-s1.25-12x12-fresh"
    assert main(["read", str(SCREENS / f"{name}.png"), "--lattice", lattice_text(name, -0.5, 0.0)]) == 4
    assert "off by part of a cell" in capsys.readouterr().err


def test_hint_image_with_a_lattice(tmp_path, capsys):
    name = "gm-big-900-opened"
    out = tmp_path / "hints.png"
    argv = ["hint", "--image", str(SCREENS / f"{name}.png"), "--out", str(out), "--json", "--lattice", lattice_text(name)]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["skin"] == "gnome-mines" and (summary["rows"], summary["cols"]) == (16, 30)
    assert out.exists()
    assert main([*argv[:-1], lattice_text(name, 0, -8)]) == 2
    assert "not fully on the" in capsys.readouterr().err


# --- play: the loop with a given lattice ----------------------------------------------------------------


class NoLocator(FlatVision):
    def locate(self, frame, origin=(0, 0)):
        raise AssertionError("the locator must not run with a given lattice")


def given_player(client: SimulatedClient, lattice: Lattice, tmp_path, **config) -> Player:
    time = SimulatedTime()  # a wait that times out (the window moved) takes no real time
    return Player(
        screen=client, screen_rect=client.screen_rect, mouse=client,
        vision=GivenLatticeVision(NoLocator(pitch=client.pitch), lattice), profile=GNOME_LIKE,
        config=PlayConfig(failure_dir=tmp_path, **config), window=client, clock=time, sleep=time.sleep,
    )


def test_play_uses_the_given_lattice_and_clicks_only_inside_it(tmp_path):
    client = SimulatedClient(16, 16, 40, seed=3, board_origin=(301, 187))
    lattice = Lattice("flat", (301.0, 187.0), (16.0, 16.0), 16, 16)
    player = given_player(client, lattice, tmp_path, games=3)
    results = player.play()
    assert len(results) == 3 and {r.outcome for r in results} <= {WON, LOST}
    assert player.located.geometry.origin == (301.0, 187.0)  # the screen pixels given, not a search's
    board = lattice.board_rect()
    assert client.clicks and client.outside_clicks == []
    assert all(board.contains(c.x, c.y) for c in client.clicks)


def test_play_stops_with_a_clear_message_when_the_window_moves(tmp_path):
    def move_once(client, n):
        if n == 3:
            client.move_window(137, 61)

    client = SimulatedClient(16, 16, 40, seed=2, board_origin=(100, 120), on_click=move_once)
    lattice = Lattice("flat", (100.0, 120.0), (16.0, 16.0), 16, 16)
    with pytest.raises(WindowLostError, match="after it moved.*pass the new --lattice"):
        given_player(client, lattice, tmp_path, games=2).play()
    board = lattice.board_rect()
    assert len(client.clicks) == 3 and all(board.contains(c.x, c.y) for c in client.clicks)


def test_a_given_lattice_that_does_not_read_is_no_board(tmp_path):
    client = SimulatedClient(9, 9, 10, seed=1, board_origin=(100, 120))
    vision = GivenLatticeVision(NoLocator(pitch=client.pitch), Lattice("flat", (108.0, 120.0), (16.0, 16.0), 9, 9))
    with pytest.raises(BoardNotFoundError, match="does not read as a board"):
        vision.locate(client.grab())
    assert client.clicks == []


def test_find_game_with_a_lattice_chooses_the_skin_and_plays_it(tmp_path):
    """The whole path of ``play --lattice`` without a display: the skin is chosen by reading the given
    lattice on the (simulated) screen with the real vision, and the game is played on that lattice."""
    from screenbot.play import live
    from screenbot.testing import FakeDesktop, TemplateRenderer

    from .test_play_templates import TEMPLATES, _drawable_seed

    renderer = TemplateRenderer.from_skin(TEMPLATES / "xdemineur")
    rows, cols, mines = 9, 12, 12
    seed = _drawable_seed(rows, cols, mines, (rows // 2, cols // 2), set(renderer.images), 1)
    client = SimulatedClient(rows, cols, mines, renderer=renderer, seed=seed, preopen=True, wins_need_flags=True,
                             face=(0.0, -1.95), rules="safe", board_origin=(333, 217), margin=90, late_clicks=True)
    pitch = float(renderer.pitch)
    skins = live.load_skins(TEMPLATES)
    with pytest.raises(LatticeOffFrameError, match="not fully on the 1280x1024 screen"):
        live.find_game(client, skins, FakeDesktop(client), lattice=GivenLattice((1100.0, 217.0), (pitch, pitch), rows, cols))
    found = live.find_game(client, skins, FakeDesktop(client), lattice=GivenLattice((333.0, 217.0), (pitch, pitch), rows, cols))
    assert found.skin == "xdemineur" and found.lattice.origin == (333.0, 217.0) and found.window == client.window_id
    player = Player(
        screen=client, screen_rect=client.screen_rect, mouse=client, vision=live.game_vision(skins, found),
        profile=live.profile_for(found.skin), config=PlayConfig(games=1, mines=mines, failure_dir=tmp_path),
        window=client, sleep=lambda s: None,
    )
    assert [r.outcome for r in player.play()][0] in (WON, LOST)
    board = found.lattice.board_rect()
    assert client.outside_clicks == [] and all(board.contains(c.x, c.y) for c in client.clicks)
