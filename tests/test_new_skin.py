"""The new-client procedure (``screenbot new-skin``) as a new user runs it, on sgt-mines: a client this
project did not tune for, taught from real screenshots (two per cell size) and then read on other real screenshots
(other board sizes, fresh and lost boards: the table-driven fixture test reads all of them)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from screenbot.cli import main
from screenbot.labelled_shots import load_shots
from screenbot.vision import load_skins, locate_board, read_board
from screenbot.vision.skins import OUTSIDE, TEMPLATES_DIR

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "screens"
SGT = [s for s in load_shots(FIXTURES) if s.client == "sgt-mines"]
# In the order the walkthrough in docs/clients.md gives them (the first picture of each state seen is kept).
TEACH = sorted((s for s in SGT if s.for_templates), key=lambda s: "lost" in s.name)


def _other_skins(tmp_path: Path) -> Path:
    """A templates folder with every committed skin except sgt-mines: the client is new to it."""
    folder = tmp_path / "templates"
    for skin in TEMPLATES_DIR.iterdir():
        if (skin / "profile.json").is_file() and skin.name != "sgt-mines":
            shutil.copytree(skin, folder / skin.name)
    return folder


def _args(shots) -> list[str]:
    args = []
    for shot in shots:
        args += ["--shot", str(shot.image_path), "--board", str(shot.image_path.with_suffix(".txt"))]
    return args


@pytest.mark.integration
def test_fixtures_cover_what_a_taught_skin_must_read():
    """Taught from one 30x16 game at each of 16, 18, 20 and 28 px (a mid-game and a lost board each);
    held back: other games at 30x16, 16x16 and 9x9, fresh (all covered) and lost boards among them."""
    assert len(TEACH) == 8 and {(s.board.rows, s.board.cols) for s in TEACH} == {(16, 30)}
    assert sorted({round(s.lattice.pitch[0]) for s in TEACH}) == [16, 18, 20, 28]
    held = [s for s in SGT if not s.for_templates]
    assert {(s.board.rows, s.board.cols) for s in held} >= {(16, 30), (16, 16), (9, 9)}
    assert {"fresh", "lost", "mid-game"} <= {t for s in held for t in s.tags}
    assert any(set("".join(s.board.grid)) == {"#"} for s in held)


@pytest.mark.integration
def test_committed_skin_is_what_the_procedure_makes(tmp_path, capsys):
    templates = _other_skins(tmp_path)
    assert main(["new-skin", "sgt-mines", *_args(TEACH), "--templates", str(templates)]) == 0
    out = capsys.readouterr().out
    assert "pitch 20.00x20.00 px" in out and "states not in these screenshots" in out and "? (question)" in out
    made = sorted(p.name for p in (templates / "sgt-mines" / "cells").glob("*.png"))
    committed = sorted(p.name for p in (TEMPLATES_DIR / "sgt-mines" / "cells").glob("*.png"))
    assert made == committed
    for name in made:
        a = cv2.imread(str(templates / "sgt-mines" / "cells" / name))
        b = cv2.imread(str(TEMPLATES_DIR / "sgt-mines" / "cells" / name))
        assert a.shape == b.shape and np.array_equal(a, b), name


@pytest.mark.integration(seconds=5)
def test_taught_skin_reads_the_held_back_games_with_auto(tmp_path):
    """Only the two teaching screenshots and the other clients' skins: every held-back sgt-mines
    shot (30x16, 16x16, 9x9; fresh, opened, mid-game, lost) is located with ``auto`` and read exactly."""
    templates = _other_skins(tmp_path)
    assert main(["new-skin", "sgt-mines", *_args(TEACH), "--templates", str(templates)]) == 0
    skins = load_skins(templates)
    for shot in [s for s in SGT if not s.for_templates]:
        lattice = locate_board(shot.image(), skins, "auto")
        assert lattice.skin == "sgt-mines", shot.name
        assert read_board(shot.image(), lattice, skins).board.grid == shot.board.grid, shot.name


@pytest.mark.integration(seconds=10)  # every pitch pair is tried, none fitting: started first (conftest.py)
def test_a_typing_slip_in_the_board_text_is_named(tmp_path, capsys):
    shot = TEACH[0]
    rows = list(shot.board.grid)
    r, c = next((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "1" and 0 < c)
    rows[r] = rows[r][:c] + "2" + rows[r][c + 1 :]
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("\n".join(rows) + "\n", encoding="utf-8")
    templates = _other_skins(tmp_path)
    code = main(["new-skin", "mine-x", "--shot", str(shot.image_path), "--board", str(wrong), "--templates", str(templates)])
    assert code == 2
    err = capsys.readouterr().err
    assert f"row {r}, col {c} is '2' in the board text but looks like the '1' cells" in err
    assert not (templates / "mine-x").exists()


@pytest.mark.integration
def test_a_screenshot_cropped_to_the_board_is_refused_with_the_reason(tmp_path, capsys):
    """Without any of the window around the board the reader could not tell cells from background
    (and the locator needs those pictures): a clear refusal, not a skin that fails later."""
    shot = TEACH[0]
    rect = shot.lattice.board_rect()
    crop = tmp_path / "board-only.png"
    cv2.imwrite(str(crop), shot.image()[rect.top : rect.bottom, rect.left : rect.right])
    templates = _other_skins(tmp_path)
    code = main(["new-skin", "mine-y", "--shot", str(crop), "--board", str(shot.image_path.with_suffix(".txt")),
                 "--templates", str(templates)])
    assert code == 2
    assert "around the board" in capsys.readouterr().err


@pytest.mark.integration
def test_a_state_never_taught_stops_reading_and_is_named(tmp_path, capsys):
    """Taught from a lost 30x16 game without any 4-8: a board showing them is not misread: exit 5,
    and the message lists the states the skin has no picture of."""
    big = [s for s in SGT if s.name in ("sm-big-mid", "sm-big-lost")]
    taught = set("".join("".join(s.board.grid) for s in big))
    assert not taught & set("5678")
    templates = _other_skins(tmp_path)
    assert main(["new-skin", "sgt-mines", *_args(big), "--templates", str(templates)]) == 0
    capsys.readouterr()
    target = next(s for s in TEACH if set("5678") & set("".join(s.board.grid)))
    code = main(["read", str(target.image_path), "--skin", "sgt-mines", "--templates", str(templates),
                 "--crops", str(tmp_path / "crops")])
    assert code == 5
    err = capsys.readouterr().err
    assert "has no picture of" in err and "5, 6, 7, 8" in err


@pytest.mark.e2e
def test_new_skin_end_to_end_on_the_live_client(tmp_path, capsys):
    """The walkthrough on the real client under Xvfb: two full-screen screenshots (mss) of one
    sgt-mines game with their true boards, ``screenbot new-skin``, then ``screenbot read`` (auto) on
    every screenshot of another game on another board size: fresh, opened, mid-game, lost. Truth: the
    games are dealt known mine layouts and every click is played by the game's rules
    (``lab.shots.sgt_mines``). The skin is taught under the shipped skin's name: read with
    ``--templates`` it replaces the shipped one, so the client is new to the reader."""
    import json

    from screenbot.capture import MssScreen
    from screenbot.desktop import VirtualDisplay
    from lab.shots import sgt_mines

    def save(shot):
        path = tmp_path / f"{shot.name}.png"
        cv2.imwrite(str(path), shot.frame)
        (tmp_path / f"{shot.name}.txt").write_text("\n".join(shot.board.grid) + "\n", encoding="utf-8")
        return path

    with VirtualDisplay(), MssScreen() as screen:
        rng = random.Random(1)  # the layout and clicks of the fixture game sm-teach-30x16
        mines, probes = sgt_mines.every_number_layout(rng)
        game = sgt_mines.start(screen, mines, 16, 30, tile=20)
        try:
            teach = [s for s in sgt_mines.play(game, "teach", rng, probes=probes) if s.name in ("teach-mid", "teach-lost")]
        finally:
            game.client.close()
        rng = random.Random(2)
        game = sgt_mines.start(screen, sgt_mines.random_layout(rng, 9, 9, 10), 9, 9, tile=20)
        try:
            others = sgt_mines.play(game, "other", rng)
        finally:
            game.client.close()
    templates = _other_skins(tmp_path)
    args = ["new-skin", "sgt-mines"]
    for shot in teach:
        path = save(shot)
        args += ["--shot", str(path), "--board", str(path.with_suffix(".txt"))]
    assert main([*args, "--templates", str(templates)]) == 0
    capsys.readouterr()
    assert {s.tags[0] for s in others} >= {"fresh", "mid-game", "lost"}
    for shot in others:
        assert main(["read", str(save(shot)), "--json", "--templates", str(templates)]) == 0, shot.name
        reading = json.loads(capsys.readouterr().out)
        assert reading["skin"] == "sgt-mines" and reading["board"].split("\n") == list(shot.board.grid), shot.name


@pytest.mark.integration(seconds=10)
def test_a_skin_taught_on_big_cells_finds_boards_of_smaller_cells(tmp_path):
    """Taught at 40 px (the teaching screenshots scaled up 2x), the default pitch range reaches down
    to the real 20 px boards, which are found at their own pitch with every cell right: none is
    taken for a board of 2x2 blocks or refused for want of a pitch to look at."""
    args = []
    for shot in [s for s in TEACH if s.lattice.pitch == (20.0, 20.0)]:
        big = tmp_path / shot.image_path.name
        cv2.imwrite(str(big), cv2.resize(shot.image(), None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST))
        args += ["--shot", str(big), "--board", str(shot.image_path.with_suffix(".txt"))]
    templates = _other_skins(tmp_path)
    assert main(["new-skin", "sgt-big", *args, "--templates", str(templates)]) == 0
    skins = load_skins(templates)
    assert any(t.char == "~" and t.pitch == (80.0, 80.0) for t in skins["sgt-big"].templates)  # 2x2 blocks
    for name in ("sm-big-fresh", "sm-medium-fresh", "sm-small-fresh", "sm-big-mid"):
        shot = next(s for s in SGT if s.name == name)
        lattice = locate_board(shot.image(), skins, "sgt-big")
        assert (lattice.rows, lattice.cols) == (shot.board.rows, shot.board.cols), name
        assert read_board(shot.image(), lattice, skins).board.grid == shot.board.grid, name


@pytest.mark.integration
def test_an_existing_skin_is_not_overwritten_without_replace(tmp_path, capsys):
    templates = _other_skins(tmp_path)
    before = sorted(p.name for p in (templates / "xdemineur" / "cells").glob("*.png"))
    assert main(["new-skin", "xdemineur", *_args(TEACH), "--templates", str(templates)]) == 2
    assert "exists already" in capsys.readouterr().err
    assert sorted(p.name for p in (templates / "xdemineur" / "cells").glob("*.png")) == before
    assert main(["new-skin", "xdemineur", *_args(TEACH), "--templates", str(templates), "--replace"]) == 0
    assert sorted(p.name for p in (templates / "xdemineur" / "cells").glob("*.png")) != before


@pytest.mark.e2e
def test_a_new_skin_plays_with_the_profile_new_skin_writes(tmp_path, monkeypatch, capsys):
    """new-skin writes a "play" section that plays: the restart is found by trying the usual ways
    (sgt-mines starts a new game with N), clicks wait for their cells. Taught from the walkthrough's two
    screenshots into a folder without the shipped sgt-mines skin, then 3 games on the real client."""
    import json

    from screenbot.desktop import VirtualDisplay, start_client
    from tests.test_e2e_play import check, play_in_child

    templates = _other_skins(tmp_path)
    assert main(["new-skin", "sgt-mines", *_args(TEACH), "--templates", str(templates)]) == 0
    capsys.readouterr()
    profile = json.loads((templates / "sgt-mines" / "profile.json").read_text(encoding="utf-8"))
    assert profile["play"]["restart"] == "find"
    monkeypatch.setenv("SCREENBOT_TEMPLATES", str(templates))
    games = 3
    with VirtualDisplay():
        with start_client("sgt-mines", game_id="16x16n40") as client:
            report = play_in_child(client, "sgt-mines", games, tmp_path / "failures")
    check(report, games)  # every click on the board or at a restart's control point


@pytest.mark.integration
def test_a_board_whose_lines_have_two_widths_is_taught_line_by_line(tmp_path, capsys):
    """gnome-mines' 16x30 board in an 843x593 window: GTK gives its first lines a pixel more (columns
    of 22 and 21 px, rows of 21 and 20). A straight lattice of the mean pitch drifts up to half a pixel
    off those lines, and new-skin blamed the board text ("row 5, col 6 is '3' ... looks like the '2'
    cells"); its boxes now follow the lines, and the skin reads its screenshot back."""
    shot = next(s for s in load_shots(FIXTURES) if s.name == "gm-big-843x593-wider-lines")
    widths = np.diff(np.round(shot.lattice.col_edges())).astype(int)
    assert set(widths.tolist()) == {21, 22}
    code = main(["new-skin", "gm-lines", *_args([shot]), "--templates", str(tmp_path)])
    assert code == 0, capsys.readouterr().err
    skins = load_skins(tmp_path)
    lattice = locate_board(shot.image(), {"gm-lines": skins["gm-lines"]}, "gm-lines")
    assert read_board(shot.image(), lattice, skins).board.grid == shot.board.grid


@pytest.mark.integration
def test_a_flat_area_is_not_taken_for_the_board(tmp_path, capsys):
    """gnome-mines' 8x8 board at 96 px in its "default" tile theme, lost, its window filling the screen
    (``fixtures/screens-untaught/gm-tiles-default-lost-96``). Its window's plain grey repeats every 8 px
    (a faint texture), and a lattice of 8 px cells over it has cells of every state alike, the least
    spread of all: new-skin took it, shrank it to cells 2 px tall, cut pictures from it and crashed
    reading them back. The states' pictures must now differ more than a capture's noise: the true
    lattice is fitted, and the skin reads its screenshot back."""
    shot = next(s for s in load_shots(FIXTURES.parent / "screens-untaught") if s.name == "gm-tiles-default-lost-96")
    code = main(["new-skin", "gm-default", *_args([shot]), "--unlocated-ok", "--templates", str(tmp_path)])
    assert code == 0, capsys.readouterr().err
    skin = load_skins(tmp_path)["gm-default"]
    pitches = {t.pitch for t in skin.templates if t.char != OUTSIDE}  # not the blocks of 2x2 and 3x3 cells
    assert all(abs(px - shot.lattice.pitch[0]) < 1 and abs(py - shot.lattice.pitch[1]) < 1 for px, py in pitches), pitches
