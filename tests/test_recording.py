"""Recording format and replay, with the package's fakes (no display): record a simulated game, read it
back, replay it with zero differences, and catch a tampered frame and a changed policy."""

from __future__ import annotations

import json
import shutil

import cv2
import numpy as np
import pytest

from screenbot.play.observer import Action, GameResult, StepTimings
from screenbot.recording import FORMAT_VERSION, Recorder, RecordingError, load_recording
from screenbot.recording.replay import policy_from_record, replay, solver_moves
from screenbot.geometry import Lattice
from screenbot.testing import FlatRenderer, FlatVision
from solver.board import Board, parse_board
from solver.game import Game
from solver.policy import PolicyConfig, decide

pytestmark = pytest.mark.integration

PITCH = 12


def render(board: Board) -> np.ndarray:
    renderer = FlatRenderer(PITCH)
    frame = np.zeros((board.rows * PITCH + 8, board.cols * PITCH + 8, 3), np.uint8)
    for r, c, ch in board.cells():
        frame[4 + r * PITCH : 4 + (r + 1) * PITCH, 4 + c * PITCH : 4 + (c + 1) * PITCH] = renderer.cell(ch)
    return frame


def record_game(directory, *, seed=3, policy=PolicyConfig(full_analysis=True)) -> int:
    """Play one simulated 9x9 game, recording each step as the play loop would; returns the step count."""
    game = Game.new(9, 9, 10, rules="opening", seed=seed)
    vision = FlatVision(PITCH)
    lattice = Lattice("flat", (4, 4), (PITCH, PITCH), 9, 9)
    with Recorder(directory, command="play", skin="flat", client="simulated", policy=policy, mines=10) as recorder:
        while True:
            frame = render(game.board())
            reading = vision.read(frame, lattice)
            board = reading.board.with_mines(10)
            if game.status != "playing":
                # The step that sees the game over: no decision (as in the loop); then a repeated frame.
                recorder.on_step(frame, reading, None, (), StepTimings())
                recorder.on_step(frame.copy(), reading, None, (), StepTimings())
                recorder.on_game_end(GameResult(game.status, 1.0, recorder.steps, 0, 0))
                break
            decision = decide(board, policy)
            actions = tuple(Action(m.action, m.row, m.col) for m in decision.moves)
            recorder.on_step(frame, reading, decision, actions, StepTimings(capture=0.001, read=0.002))
            for m in decision.moves:
                if m.action == "open" and game.status == "playing":
                    game.open(m.row, m.col)
                elif m.action == "flag":
                    game.flag(m.row, m.col)
        return recorder.steps


def flat_reader(frame, lattice_record):
    lattice = Lattice(
        lattice_record["skin"], tuple(lattice_record["origin"]), tuple(lattice_record["pitch"]),
        lattice_record["rows"], lattice_record["cols"],
    )
    return FlatVision(int(lattice.pitch[0])).read(frame, lattice).board


def chooser(policy):
    def choose(board, _recorded_policy):
        return [(m.action, m.row, m.col) for m in decide(board, policy).moves]

    return choose


def test_policy_round_trips_through_the_log(tmp_path):
    policy = PolicyConfig(first_click=(3, 4), flag_mines=True, full_analysis=True)
    Recorder(tmp_path / "p", command="play", policy=policy).close()
    assert policy_from_record(load_recording(tmp_path / "p").policy) == policy


def test_per_board_policy_and_total_are_recorded_per_step(tmp_path):
    """The loop chooses the first click and the mine total by board size: each step carries its own."""
    vision = FlatVision(PITCH)
    board = Board(("###", "###"))
    lattice = Lattice("flat", (4, 4), (PITCH, PITCH), 2, 3)
    reading = vision.read(render(board), lattice)
    with Recorder(
        tmp_path / "q",
        command="play",
        policy=lambda b: PolicyConfig(first_click=(b.rows - 1, b.cols - 1)),
        mines=lambda b: b.rows,
    ) as recorder:
        recorder.on_step(render(board), reading, decide(board.with_mines(2), PolicyConfig(first_click=(1, 2))), (), None)
    recording = load_recording(tmp_path / "q")
    step = recording.steps[0]
    assert step.board.startswith("mines: 2\n")
    assert policy_from_record(step.policy).first_click == (1, 2)
    assert replay(recording, flat_reader, solver_moves).ok


@pytest.fixture
def recorded(tmp_path):
    folder = tmp_path / "rec"
    steps = record_game(folder)
    return folder, steps


def test_log_follows_the_documented_format(recorded):
    folder, steps = recorded
    lines = [json.loads(line) for line in (folder / "log.jsonl").read_text(encoding="utf-8").splitlines()]
    assert lines[0]["type"] == "start" and lines[0]["version"] == FORMAT_VERSION
    assert lines[0]["policy"]["full_analysis"] is True and lines[0]["policy"]["first_click"] is None
    assert lines[-1]["type"] == "end" and lines[-1]["steps"] == steps
    step_lines = [line for line in lines if line["type"] == "step"]
    assert len(step_lines) == steps >= 3
    first = step_lines[0]
    assert set(first) >= {"seq", "time", "t", "game", "frame", "lattice", "board", "analysis", "moves", "actions", "timings"}
    assert first["board"].startswith("mines: 10\n")
    assert first["lattice"] == {"skin": "flat", "origin": [4, 4], "pitch": [PITCH, PITCH], "rows": 9, "cols": 9}
    assert first["actions"] and first["actions"][0]["kind"] == "open"
    assert step_lines[-1]["moves"] is None
    assert any(line["type"] == "game_end" and line["outcome"] in ("won", "lost") for line in lines)
    # Timestamps increase; frames exist; the repeated last frame was not written twice.
    times = [line["time"] for line in step_lines]
    assert times == sorted(times)
    assert step_lines[-1]["frame"] == step_lines[-2]["frame"]
    pngs = sorted((folder / "frames").glob("*.png"))
    assert len(pngs) == len({line["frame"] for line in step_lines})


def test_probabilities_are_recorded_for_covered_cells(recorded):
    folder, _ = recorded
    recording = load_recording(folder)
    step = next(s for s in recording.steps if s.analysis is not None and len(s.board.splitlines()) > 1)
    board_rows = step.board.splitlines()[1:]
    for row_text, probs in zip(board_rows, step.analysis["probabilities"]):
        for ch, p in zip(row_text, probs):
            assert (p is None) == (ch not in "#?")


def test_replay_of_an_untouched_recording_has_no_differences(recorded):
    folder, steps = recorded
    recording = load_recording(folder)
    assert recording.complete and len(recording.steps) == steps
    report = replay(recording, flat_reader, solver_moves)
    assert report.ok, report.differences
    assert report.steps == steps


def test_a_tampered_frame_is_reported_at_its_step(recorded, tmp_path):
    folder, _ = recorded
    copy = tmp_path / "tampered"
    shutil.copytree(folder, copy)
    recording = load_recording(copy)
    victim = recording.steps[1]
    frame = cv2.imread(str(victim.frame_path))
    # Paint a covered cell as a revealed "1": a plausible misread, not garbage.
    board = victim.board.splitlines()[1:]
    r, c = next((r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch == "#")
    frame[4 + r * PITCH : 4 + (r + 1) * PITCH - 1, 4 + c * PITCH : 4 + (c + 1) * PITCH - 1] = FlatRenderer(PITCH).cell("1")[0, 0]
    cv2.imwrite(str(victim.frame_path), frame)
    report = replay(load_recording(copy), flat_reader, solver_moves)
    assert not report.ok
    seqs = {d.seq for d in report.differences}
    affected = {s.seq for s in recording.steps if s.frame_path == victim.frame_path}
    assert seqs <= affected and victim.seq in seqs
    board_diff = next(d for d in report.differences if d.field == "board")
    assert f"({r},{c}) '#'->'1'" in board_diff.detail


def test_a_frame_that_cannot_be_read_is_a_difference(recorded, tmp_path):
    folder, _ = recorded
    copy = tmp_path / "garbage"
    shutil.copytree(folder, copy)
    recording = load_recording(copy)
    frame = cv2.imread(str(recording.steps[0].frame_path))
    frame[10:14, 10:14] = (1, 2, 3)  # a colour no cell state has
    cv2.imwrite(str(recording.steps[0].frame_path), frame)
    report = replay(load_recording(copy), flat_reader, solver_moves)
    assert [d.field for d in report.differences if d.seq == 1] == ["read"]
    assert "UnrecognizedCellError" in report.differences[0].detail


def test_a_different_policy_changes_the_moves(recorded):
    folder, _ = recorded
    recording = load_recording(folder)
    report = replay(recording, flat_reader, chooser(PolicyConfig(first_click=(8, 8), full_analysis=True)))
    assert [d.field for d in report.differences] == ["moves"]
    assert report.differences[0].seq == 1


def test_recorder_refuses_to_overwrite(recorded):
    folder, _ = recorded
    with pytest.raises(RecordingError, match="already holds a recording"):
        Recorder(folder, command="play")


@pytest.mark.parametrize(
    "content, message",
    [
        ("", "empty"),
        ("not json\n", "not JSON"),
        ('{"type": "step"}\n', "first record must be 'start'"),
        ('{"type": "start", "version": 99}\n', "format version 99"),
        ('{"type": "start", "version": 1}\n{"type": "step", "seq": 1}\n', "lacks frame, lattice, board"),
        (
            '{"type": "start", "version": 1}\n{"type": "step", "seq": 1, "frame": "../x.png", "lattice": {}, "board": "#"}\n',
            "outside the recording",
        ),
    ],
    ids=["empty", "not-json", "no-start", "version", "missing-fields", "escape"],
)
def test_bad_recordings_are_named_errors(tmp_path, content, message):
    (tmp_path / "log.jsonl").write_text(content, encoding="utf-8")
    with pytest.raises(RecordingError, match=message):
        load_recording(tmp_path)


def test_not_a_recording(tmp_path):
    with pytest.raises(RecordingError, match="not a recording"):
        load_recording(tmp_path)
    with pytest.raises(RecordingError, match="not a folder"):
        load_recording(tmp_path / "missing")


def test_the_play_loop_records_games_that_replay_cleanly(tmp_path):
    """The recorder plugged into the real play loop (simulated client), as ``play --record`` does."""
    import dataclasses

    from screenbot.play import PlayConfig, Player
    from screenbot.play.profile import ControlAction, PlayProfile
    from screenbot.testing import SimulatedClient

    profile = PlayProfile(
        skin="flat", client="sim", first_click="opening", mines={"9x9": 10}, win_requires_all_flags=False,
        hover_highlight=False, restart=ControlAction(keys=("ctrl", "r")), redraw_timeout=0.02, settle=0.0,
    )
    client = SimulatedClient(9, 9, 10, seed=4)
    recorder = Recorder(tmp_path / "loop", command="play", skin="flat", client="sim")
    player = Player(
        screen=client, screen_rect=client.screen_rect, mouse=client, vision=FlatVision(pitch=client.pitch),
        profile=profile, config=PlayConfig(games=2, flag_mines=True, failure_dir=tmp_path), window=client,
        observer=recorder, sleep=lambda s: None,
    )
    recorder.bind_settings(policy=player.policy_for, mines=player.mine_total_for)
    results = player.play()
    recorder.close()
    recording = load_recording(tmp_path / "loop")
    assert [g["outcome"] for g in recording.games] == [r.outcome for r in results]
    assert {s.game for s in recording.steps} == {1, 2}
    assert all(s.board.startswith("mines: 10\n") for s in recording.steps)
    assert any(a["kind"] == "flag" for s in recording.steps for a in s.actions)
    assert policy_from_record(recording.steps[0].policy).flag_mines is True
    assert dataclasses.asdict(policy_from_record(recording.steps[0].policy)) == dataclasses.asdict(
        player.policy_for(parse_board(recording.steps[0].board))
    )
    report = replay(recording, flat_reader, solver_moves)
    assert report.ok, report.differences[:3]


def test_a_frame_that_cannot_be_written_stops_the_recording(tmp_path):
    """Frames are written on a background thread; a failed write is still reported, at the latest when
    the recording is closed."""
    game = Game.new(9, 9, 10, rules="opening", seed=3)
    lattice = Lattice("flat", (4, 4), (PITCH, PITCH), 9, 9)
    recorder = Recorder(tmp_path / "r", command="play", mines=10)
    shutil.rmtree(tmp_path / "r" / "frames")
    (tmp_path / "r" / "frames").write_text("not a folder", encoding="utf-8")  # every frame write now fails
    frame = render(game.board())
    with pytest.raises(RecordingError, match="could not write frames/000001.png"):
        recorder.on_step(frame, FlatVision(PITCH).read(frame, lattice), None, (), StepTimings())
        recorder.close()
    assert json.loads((tmp_path / "r" / "log.jsonl").read_text(encoding="utf-8").splitlines()[-1])["type"] == "end"


@pytest.mark.parametrize("field, value", [("board", None), ("lattice", "abc"), ("seq", None), ("moves", [{"row": 1}])])
def test_a_malformed_step_is_named_with_its_line(tmp_path, capsys, field, value):
    """Found by the fuzz suite: such steps reached the solver or the eyes and raised tracebacks."""
    import json
    import shutil
    from pathlib import Path

    from screenbot.cli import main

    folder = tmp_path / "rec"
    shutil.copytree(Path(__file__).resolve().parents[1] / "fixtures" / "recordings" / "gnome-mines-play-small", folder)
    lines = (folder / "log.jsonl").read_text(encoding="utf-8").splitlines()
    step = json.loads(lines[1])
    step[field] = value
    lines[1] = json.dumps(step)
    (folder / "log.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "log.jsonl, line 2" in err and field in err
