"""``screenbot hint`` and ``screenbot replay``: argument checks and exit codes that need no display."""

from __future__ import annotations

import hashlib
import json

import pytest

from screenbot.cli import main

pytestmark = pytest.mark.integration


@pytest.mark.parametrize(
    "argv, message",
    [
        (["hint", "--image", "x.png"], "--image and --out go together"),
        (["hint", "--out", "x.png"], "--image and --out go together"),
        (["hint", "--image", "x.png", "--out", "y.png", "--record", "d"], "for the live overlay"),
        (["hint", "--mines", "-3"], "--mines must not be negative"),
        (["hint", "--seconds", "0"], "expected seconds above 0"),
    ],
    ids=["image-alone", "out-alone", "record-offline", "negative-mines", "zero-seconds"],
)
def test_hint_bad_arguments(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_hint_missing_image(tmp_path, capsys):
    assert main(["hint", "--image", str(tmp_path / "none.png"), "--out", str(tmp_path / "o.png")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_hint_unreadable_image(tmp_path, capsys):
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"not a png")
    assert main(["hint", "--image", str(bad), "--out", str(tmp_path / "o.png")]) == 2
    assert "not a readable image" in capsys.readouterr().err


def test_hint_output_must_be_png_in_an_existing_folder(tmp_path, capsys):
    import numpy as np
    import cv2

    image = tmp_path / "in.png"
    cv2.imwrite(str(image), np.zeros((20, 20, 3), np.uint8))
    assert main(["hint", "--image", str(image), "--out", str(tmp_path / "o.jpg")]) == 2
    assert ".png" in capsys.readouterr().err
    assert main(["hint", "--image", str(image), "--out", str(tmp_path / "missing" / "o.png")]) == 2
    assert "no folder" in capsys.readouterr().err


def test_hint_live_without_a_display(monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    assert main(["hint"]) == 3
    assert "no X display" in capsys.readouterr().err


def test_hint_live_on_wayland(monkeypatch, capsys):
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    assert main(["hint"]) == 3
    assert "Wayland" in capsys.readouterr().err


def test_replay_of_a_folder_that_is_no_recording(tmp_path, capsys):
    assert main(["replay", str(tmp_path)]) == 2
    assert "not a recording" in capsys.readouterr().err


def test_replay_of_a_broken_log(tmp_path, capsys):
    (tmp_path / "log.jsonl").write_text('{"type": "start", "version": 1}\n{oops\n', encoding="utf-8")
    assert main(["replay", str(tmp_path), "--json"]) == 2
    assert "line 2" in capsys.readouterr().err


def test_help_works_without_a_display(monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    for command in ("hint", "replay"):
        assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert "--record" in out and "--json" in out


def test_replay_json_lists_nothing_for_an_empty_session(tmp_path, capsys):
    start = '{"type": "start", "version": 1}'
    # An 'end' record as the recorder writes it: the digest of the lines before it, and its count of steps.
    digest = hashlib.sha256((start + "\n").encode()).hexdigest()
    end = json.dumps({"type": "end", "steps": 0, "digest": digest})
    (tmp_path / "log.jsonl").write_text(start + "\n" + end + "\n", encoding="utf-8")
    assert main(["replay", str(tmp_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True and data["steps"] == 0 and data["differences"] == []
