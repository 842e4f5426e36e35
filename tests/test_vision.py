"""Reading real clients' screenshots: every cell of every fixture, held-back shots, and the refusals."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from solver.board import Board

from screenbot.errors import BoardNotFoundError, UnrecognizedCellError
from screenbot.labelled_shots import load_shots
from screenbot.geometry import Lattice
from screenbot.vision import frames_agree, load_skins, locate_board, read_board
from screenbot.vision.cut import LabelledImage, cut_cells
from screenbot.vision.skins import TEMPLATES_DIR, to_canonical

pytestmark = pytest.mark.integration

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "screens"
SHOTS = load_shots(FIXTURES)
BY_NAME = {shot.name: shot for shot in SHOTS}
HELD_BACK = [shot for shot in SHOTS if not shot.for_templates]
CLIENTS = ("gnome-mines", "xdemineur", "react-minesweeper")


@pytest.fixture(scope="module")
def skins():
    return load_skins()


def test_fixture_set_is_large_and_covers_every_client():
    assert len(SHOTS) >= 60
    for client in CLIENTS:
        shots = [s for s in SHOTS if s.client == client]
        assert len({round(s.lattice.pitch[0]) for s in shots}) >= 2 or client == "xdemineur", client
        assert any(s.for_templates for s in shots) and any(not s.for_templates for s in shots), client
        tags = {t for s in shots for t in s.tags}
        assert {"lost", "hover"} <= tags or {"won", "hover"} <= tags, (client, tags)


@pytest.mark.parametrize("shot", SHOTS, ids=[s.name for s in SHOTS])
def test_every_cell_of_every_fixture(shot, skins):
    frame = shot.image()
    lattice = locate_board(frame, skins, skin="auto")
    assert lattice.skin == shot.client
    assert (lattice.rows, lattice.cols) == (shot.lattice.rows, shot.lattice.cols)
    # Same cells: every found cell centre lies well inside the measured cell (toolkits that hand
    # out whole pixels unevenly make the best straight lattice differ from the measured one slightly).
    _assert_same_cells(lattice, shot.lattice)
    reading = read_board(frame, lattice, skins)
    assert reading.board.grid == shot.board.grid
    assert reading.confidence.shape == (lattice.rows, lattice.cols)
    assert reading.min_confidence >= 0.6


@pytest.mark.parametrize("shot", HELD_BACK, ids=[s.name for s in HELD_BACK])
def test_held_back_fixture_with_its_own_skin(shot, skins):
    """Shots no template was cut from, read with the client named (not auto)."""
    frame = shot.image()
    lattice = locate_board(frame, skins, skin=shot.client)
    assert read_board(frame, lattice, skins).board.grid == shot.board.grid


def test_held_back_half_is_not_in_the_templates():
    """The committed templates are exactly what cutting the template shots gives, so no held-back
    shot contributed a picture (and anyone can regenerate them with `python3 -m lab templates --from`)."""
    assert len(HELD_BACK) >= len(SHOTS) * 0.4
    for client in CLIENTS:
        images = [LabelledImage(s.image(), s.lattice, s.board) for s in SHOTS if s.client == client and s.for_templates]
        expected = cut_cells(images)
        # Pictures named <state>-<pitch>-r<n>.png were added by hand from rules-checked real games
        # (numbers the capture games never showed); everything else is exactly the cut above.
        stored = [p for p in (TEMPLATES_DIR / client / "cells").glob("*.png") if not p.stem.split("-")[-1].startswith("r")]
        assert len(stored) == sum(len(v) for v in expected.values()), client


def test_a_variant_is_stored_as_its_most_typical_picture():
    """Cells of one look that differ by a frame line only on the board's edge join one variant; the
    picture kept is the one most like the rest, not the first seen (a top-row cell whose box holds a
    line of the frame made every inner cell of its state read as the window, on a learnt skin)."""
    pitch, rows, cols = 20, 4, 5
    image = np.full((pitch * (rows + 2), pitch * (cols + 2), 3), 240, np.uint8)
    lattice = Lattice("t", (float(pitch), float(pitch)), (float(pitch), float(pitch)), rows, cols)
    board = Board(tuple("0" * cols for _ in range(rows)), None)
    image[pitch, :] = 170  # the frame's line, inside the boxes of the top row: they are seen first
    pictures = cut_cells([LabelledImage(image, lattice, board)])[("0", float(pitch), float(pitch))]
    assert len(pictures) == 1
    assert (pictures[0][0] == 240).all(), "the picture kept is a top-row cell with the frame's line"


# --- refusals -----------------------------------------------------------------------------------------


def _full_frames():
    return [s for s in SHOTS if s.full_frame]


def test_no_board_on_an_empty_screen(skins):
    frame = np.full((1024, 1280, 3), 60, dtype=np.uint8)
    with pytest.raises(BoardNotFoundError):
        locate_board(frame, skins)


def test_no_board_on_a_frame_with_the_board_painted_over(skins):
    shot = BY_NAME[_pick("gnome-mines")]
    frame = shot.image().copy()
    rect = shot.lattice.board_rect()
    frame[rect.top : rect.bottom, rect.left : rect.right] = (244, 245, 246)  # the window's background
    with pytest.raises(BoardNotFoundError):
        locate_board(frame, skins)


@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize("side", ["left", "right", "top", "bottom"])
def test_board_partly_off_screen_is_refused(client, side, skins):
    shot = BY_NAME[_pick(client)]
    frame = shot.image()
    rect = shot.lattice.board_rect()
    px, py = shot.lattice.pitch
    # Cut the frame through the middle of a cell a third of the way into the board.
    if side == "left":
        cut = frame[:, int(rect.left + 3.5 * px) :]
    elif side == "right":
        cut = frame[:, : int(rect.right - 3.5 * px)]
    elif side == "top":
        cut = frame[int(rect.top + 2.5 * py) :, :]
    else:
        cut = frame[: int(rect.bottom - 2.5 * py), :]
    with pytest.raises(BoardNotFoundError) as caught:
        locate_board(np.ascontiguousarray(cut), skins)
    assert "off" in str(caught.value) or "covered" in str(caught.value) or "no " in str(caught.value)


@pytest.mark.parametrize("client", CLIENTS)
def test_board_partly_covered_by_a_window_is_refused(client, skins):
    shot = BY_NAME[_pick(client)]
    frame = shot.image().copy()
    rect = shot.lattice.board_rect()
    # A plain window over the bottom-right quarter of the board.
    frame[rect.top + rect.height // 2 : rect.bottom + 40, rect.left + rect.width // 2 : rect.right + 40] = (235, 235, 235)
    try:
        lattice = locate_board(frame, skins)
    except BoardNotFoundError:
        return
    # If a board is returned at all it must not include covered cells: reading it must fail or it
    # must be a strict sub-board with no guessed cells (never the full board).
    assert (lattice.rows, lattice.cols) != (shot.lattice.rows, shot.lattice.cols)
    pytest.fail(f"a partly covered board was returned as {lattice}")


def test_unrecognized_cell_names_the_cell_and_saves_the_crop(skins, tmp_path):
    shot = BY_NAME[_pick("xdemineur")]
    frame = shot.image().copy()
    lattice = shot.lattice
    cell = lattice.cell_rect(2, 3)
    frame[cell.top + 3 : cell.bottom - 3, cell.left + 3 : cell.right - 3] = (255, 0, 255)
    with pytest.raises(UnrecognizedCellError) as caught:
        read_board(frame, lattice, skins, crops_dir=tmp_path)
    err = caught.value
    assert (err.row, err.col) == (2, 3) and err.score < 0.6
    assert err.crop_path and Path(err.crop_path).is_file()


def test_lattice_off_the_frame_is_refused(skins):
    shot = BY_NAME[_pick("xdemineur")]
    moved = Lattice(shot.lattice.skin, (shot.lattice.origin[0] + 5000, shot.lattice.origin[1]), shot.lattice.pitch,
                    shot.lattice.rows, shot.lattice.cols)
    with pytest.raises(BoardNotFoundError):
        read_board(shot.image(), moved, skins)


def test_frames_agree_sees_a_single_changed_cell():
    shot = BY_NAME[_pick("react-minesweeper")]
    frame = shot.image()
    changed = frame.copy()
    cell = shot.lattice.cell_rect(1, 1)
    changed[cell.top + 5, cell.left + 5] = (0, 0, 0)
    assert frames_agree(frame, frame.copy(), shot.lattice)
    assert not frames_agree(frame, changed, shot.lattice)


def test_cell_size_does_not_matter_to_the_canonical_picture():
    """The same cell scaled x2 becomes (almost) the same canonical picture: the scale normalisation."""
    shot = BY_NAME[_pick("xdemineur")]
    rect = shot.lattice.cell_rect(0, 0)
    cell = shot.image()[rect.top : rect.bottom, rect.left : rect.right]
    import cv2

    double = cv2.resize(cell, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
    diff = np.abs(to_canonical(cell).astype(int) - to_canonical(double).astype(int)).mean()
    assert diff < 3


def _assert_same_cells(found: Lattice, truth: Lattice) -> None:
    rows, cols = np.mgrid[0 : truth.rows, 0 : truth.cols]
    dx = np.abs((found.origin[0] + (cols + 0.5) * found.pitch[0]) - (truth.origin[0] + (cols + 0.5) * truth.pitch[0]))
    dy = np.abs((found.origin[1] + (rows + 0.5) * found.pitch[1]) - (truth.origin[1] + (rows + 0.5) * truth.pitch[1]))
    assert dx.max() < 0.25 * truth.pitch[0] and dy.max() < 0.25 * truth.pitch[1], (dx.max(), dy.max())


def _pick(client: str) -> str:
    """A mid-game held-back shot of the client, preferring one with several kinds of cells."""
    candidates = [s for s in SHOTS if s.client == client and not s.full_frame]
    candidates.sort(key=lambda s: (-len(set("".join(s.board.grid))), s.name))
    return candidates[0].name


def test_new_client_procedure_makes_a_working_skin(tmp_path):
    """The new-client walkthrough on a client the reader is not given: xdemineur is taken out of the
    templates, re-learned from two screenshots, then used on other screenshots."""
    from screenbot.cli import main

    templates = tmp_path / "templates"
    for client in ("gnome-mines", "react-minesweeper"):
        shutil.copytree(TEMPLATES_DIR / client, templates / client)
    # Taught from ordinary games: the dense high-number boards (recipes *-high-*) are mostly mines,
    # too few covered and opened cells for the walkthrough's grid search.
    xd = [s for s in SHOTS if s.client == "xdemineur" and not s.full_frame and "-high-" not in s.name]
    teach = sorted(xd, key=lambda s: -len(set("".join(s.board.grid))))[:2]
    args = ["new-skin", "mystery"]
    for shot in teach:
        args += ["--shot", str(shot.image_path), "--board", str(shot.image_path.with_suffix(".txt"))]
    assert main([*args, "--templates", str(templates)]) == 0
    assert (templates / "mystery" / "profile.json").is_file()
    skins = load_skins(templates)
    taught = set("".join("".join(t.board.grid) for t in teach))
    # Every other screenshot showing only taught states: other board sizes (30x16 from 16x16 and
    # 20x12) and nearly all covered boards among them.
    others = [s for s in xd if s not in teach and set("".join(s.board.grid)) <= taught]
    assert {(s.board.rows, s.board.cols) for s in others} - {(t.board.rows, t.board.cols) for t in teach}
    assert any("".join(s.board.grid).count("#") > 0.9 * s.board.rows * s.board.cols for s in others)
    for shot in others:
        lattice = locate_board(shot.image(), skins, skin="auto")
        assert lattice.skin == "mystery"
        assert read_board(shot.image(), lattice, skins).board.grid == shot.board.grid


# --- the read command -----------------------------------------------------------------------------


def test_read_command_prints_the_board_and_json(capsys):
    import json

    from screenbot.cli import main

    shot = BY_NAME[_pick("xdemineur")]
    assert main(["read", str(shot.image_path)]) == 0
    assert capsys.readouterr().out.split() == list(shot.board.grid)
    assert main(["read", str(shot.image_path), "--skin", "xdemineur", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["skin"] == "xdemineur" and (data["rows"], data["cols"]) == (shot.board.rows, shot.board.cols)
    assert data["board"].split("\n") == list(shot.board.grid)
    assert len(data["origin"]) == 2 and len(data["pitch"]) == 2 and data["min_confidence"] >= 0.6


def test_read_command_exit_codes(tmp_path, capsys):
    import cv2

    from screenbot.cli import main

    shot = BY_NAME[_pick("xdemineur")]
    assert main(["read", str(tmp_path / "missing.png")]) == 2
    (tmp_path / "not-an-image.png").write_text("hello", encoding="utf-8")
    assert main(["read", str(tmp_path / "not-an-image.png")]) == 2
    assert main(["read", str(shot.image_path), "--skin", "no-such-skin"]) == 2
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((600, 800, 3), 90, dtype=np.uint8))
    assert main(["read", str(blank)]) == 4
    frame = shot.image().copy()
    cell = shot.lattice.cell_rect(5, 5)
    frame[cell.top + 3 : cell.bottom - 3, cell.left + 3 : cell.right - 3] = (255, 0, 255)
    damaged = tmp_path / "damaged.png"
    cv2.imwrite(str(damaged), frame)
    assert main(["read", str(damaged), "--crops", str(tmp_path / "crops")]) == 5
    assert "row 5, col 5" in capsys.readouterr().err
    assert list((tmp_path / "crops").glob("*.png"))


def test_read_bench_command_times_the_named_shot(capsys):
    from screenbot.cli import main

    shot = BY_NAME[_pick("xdemineur")]
    assert main(["read-bench", "--shots", shot.name, "--reads", "2", "--locates", "1"]) == 0
    out = capsys.readouterr().out
    assert "load average" in out and shot.name in out and out.rstrip().endswith("ok")
    assert main(["read-bench", "--shots", "no-such-shot", "--reads", "1", "--locates", "1"]) == 2


UNSUPPORTED = load_shots(FIXTURES.parent / "screens-unsupported")


@pytest.mark.parametrize("shot", UNSUPPORTED, ids=[s.name for s in UNSUPPORTED])
def test_shots_the_old_locator_got_wrong_are_found_and_read(shot, skins):
    """Screenshots kept because the reader got them wrong when they were taken (GTK's mixed cell
    widths, lost boards full of mines, a lit cell under the pointer): located and read exactly now."""
    lattice = locate_board(shot.image(), skins)
    assert (lattice.rows, lattice.cols) == (shot.board.rows, shot.board.cols)
    assert read_board(shot.image(), lattice, skins).board.grid == shot.board.grid


REFUSED = load_shots(FIXTURES.parent / "screens-refused")


@pytest.mark.parametrize("shot", REFUSED, ids=[s.name for s in REFUSED])
def test_shots_that_cannot_be_read_for_sure_are_refused_never_misread(shot, skins):
    """Real screenshots the reader cannot read for sure today (gnome-mines' "?" at 22 px cells, a size
    no capture has, where the first look takes it for a confident flag): refused, or read exactly,
    never read wrong."""
    lattice = locate_board(shot.image(), skins)
    assert (lattice.rows, lattice.cols) == (shot.board.rows, shot.board.cols)
    try:
        reading = read_board(shot.image(), lattice, skins)
    except UnrecognizedCellError as exc:
        assert exc.best in "F?", exc
        return
    assert reading.board.grid == shot.board.grid


@pytest.mark.parametrize("name", ["gm-big-1023x822-flagged", "gm-small-600-opened", "gm-small-1000-lost"])
def test_a_number_in_grey_levels_is_not_taken_for_a_flag_or_question_mark(name, skins):
    """In grey levels a gnome-mines 4 (or a mine) on its pale face looks enough like a flag on a covered
    cell for the first look to name the flag/"?" pair, whose small mark then decided between the two:
    one was read as a "?" with exit 0 (a random transformed case). The glyph look, which tells a 4 from
    a flag, is now asked first: read exactly, or refused."""
    import cv2

    shot = next(s for s in SHOTS if s.name == name)
    frame = cv2.cvtColor(cv2.cvtColor(shot.image(), cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    try:
        reading = read_board(frame, locate_board(frame, skins), skins)
    except UnrecognizedCellError:
        return
    assert [row.replace(".", "0") for row in reading.board.grid] == [row.replace(".", "0") for row in shot.board.grid]
