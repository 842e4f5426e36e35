"""Recordings of real games (``fixtures/recordings/``) replay with today's recognizer, templates and solver
with zero differences; a tampered frame is reported. No display needed."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import pytest

from screenbot.cli import main
from screenbot.recording import load_recording
from screenbot.recording.replay import lattice_from_record, replay, solver_moves, vision_reader
from solver.board import parse_board

pytestmark = pytest.mark.integration

RECORDINGS = sorted(p.parent for p in (Path(__file__).resolve().parents[1] / "fixtures" / "recordings").glob("*/log.jsonl"))


def test_there_are_real_recordings():
    assert RECORDINGS, "fixtures/recordings holds no recording"
    for folder in RECORDINGS:
        recording = load_recording(folder)
        assert recording.complete and len(recording.steps) >= 3
        assert recording.header["client"] and recording.header["command"] in ("play", "hint")


@pytest.mark.parametrize("folder", RECORDINGS, ids=[p.name for p in RECORDINGS])
def test_recording_replays_without_differences(folder):
    report = replay(load_recording(folder), vision_reader(), solver_moves)
    assert report.ok, report.differences[:3]
    assert report.steps >= 3 and report.frames >= 2


@pytest.mark.parametrize("folder", RECORDINGS, ids=[p.name for p in RECORDINGS])
def test_a_tampered_frame_is_reported(folder, tmp_path, capsys):
    copy = tmp_path / folder.name
    shutil.copytree(folder, copy)
    recording = load_recording(copy)
    # The first step whose board shows both a covered cell and a revealed "1".
    step = next(s for s in recording.steps if {"#", "1"} <= set("".join(parse_board(s.board).grid)))
    board = parse_board(step.board)
    covered = next((r, c) for r, c, ch in board.cells() if ch == "#")
    one = next((r, c) for r, c, ch in board.cells() if ch == "1")
    lattice = lattice_from_record(step.lattice)
    frame = cv2.imread(str(step.frame_path))
    src, dst = lattice.cell_rect(*one), lattice.cell_rect(*covered)
    height, width = min(src.height, dst.height), min(src.width, dst.width)
    frame[dst.top : dst.top + height, dst.left : dst.left + width] = frame[src.top : src.top + height, src.left : src.left + width]
    cv2.imwrite(str(step.frame_path), frame)

    report = replay(load_recording(copy), vision_reader(), solver_moves)
    assert not report.ok
    tampered = [d for d in report.differences if d.seq == step.seq]
    assert tampered and tampered[0].field == "board"
    assert f"({covered[0]},{covered[1]}) '#'->'1'" in tampered[0].detail
    # Only steps that use this frame differ.
    users = {s.seq for s in recording.steps if s.frame_path == step.frame_path}
    assert {d.seq for d in report.differences} <= users

    # The command says the same, with a non-zero exit.
    assert main(["replay", str(copy)]) == 1
    out = capsys.readouterr().out
    assert f"step {step.seq} (game {step.game}): board read differs" in out
    assert main(["replay", str(folder)]) == 0


def test_won_expert_board_flags_read_with_a_margin():
    """gnome-mines flags every mine itself when a game is won: the only flags the bot sees unless it
    flags itself. On the 900x640 expert window (cells 23 px wide, 22 or 23 px high) they once matched
    the flag pictures at 0.54-0.60 (the read threshold is 0.6) and a won game ended in "cannot read
    the board". The board is located on the frame as the bot locates it today (a box per row that
    follows GTK's 22 and 23 px rows; the recording's straight lattice came from an older locator) and
    every flag must read with a margin, at the first look (no second looks: threshold 0)."""
    from screenbot.vision import locate_board
    from screenbot.vision.read import read_board
    from screenbot.play.live import load_skins

    recording = load_recording(Path(__file__).resolve().parents[1] / "fixtures" / "recordings" / "gnome-mines-play-expert-won")
    step = recording.steps[-1]
    # The recording keeps the board's region with 2 px around it; the locator wants to see the
    # board's surroundings to know it is whole: give it the window's background around the region.
    frame = cv2.copyMakeBorder(cv2.imread(str(step.frame_path)), 30, 30, 30, 30, cv2.BORDER_CONSTANT, value=(246, 245, 244))
    skins = load_skins()
    reading = read_board(frame, locate_board(frame, skins), skins, threshold=0.0)
    flags = [reading.confidence[r, c] for r, c, ch in reading.board.cells() if ch == "F"]
    assert len(flags) == 99
    assert min(flags) >= 0.65
