"""Where commands write is checked when the arguments are read, before any work: a demo that played
its games and then could not write its picture used to exit 0 with the picture lost. Each output
option of each command, given a place that cannot take it, answers exit 2 naming the path."""

from __future__ import annotations

from pathlib import Path

import pytest

from screenbot.cli import main
from screenbot.outputs import can_write_in

pytestmark = pytest.mark.integration

SHOT = str(Path(__file__).resolve().parents[1] / "fixtures" / "screens" / "gm-big-900-opened.png")

# (command line with O for the output, what the output is)
OUTPUTS = [
    (["demo", "--out", "O"], "file"),
    (["hint", "--image", SHOT, "--out", "O"], "file"),
    (["bench-plot", "report.json", "--out", "O"], "file"),
    (["play", "--failure-dir", "O"], "folder"),
    (["demo", "--failure-dir", "O"], "folder"),
    (["read", SHOT, "--crops", "O"], "folder"),
]


def _bad_places(tmp_path: Path, kind: str) -> dict[str, tuple[str, str]]:
    """Places that cannot take an output of ``kind``, with the words the message must hold."""
    a_file = tmp_path / "a-file.png"
    a_file.write_bytes(b"not a folder")
    (tmp_path / "a-folder.png").mkdir()
    places = {
        "missing folder": (str(tmp_path / "missing" / "x.png"), "no folder"),
        # /proc takes no new file, even for root (permission bits would not stop root)
        "unwritable": ("/proc/screenbot-out.png" if kind == "file" else "/proc/screenbot-out", "cannot write"),
    }
    if kind == "file":
        places["a folder"] = (str(tmp_path / "a-folder.png"), "is a folder")
        places["not a PNG"] = (str(tmp_path / "out.jpg"), "must be a .png")
    else:
        places["a file"] = (str(a_file), "is not a folder")
        places["under a file"] = (str(a_file / "crops"), "cannot write here")
        places.pop("missing folder")  # a new folder is made: fine
    return places


@pytest.mark.parametrize("command, kind", OUTPUTS, ids=[f"{c[0]} {c[-2]}" for c, _ in OUTPUTS])
def test_an_output_that_cannot_be_written_is_refused_before_any_work(command, kind, tmp_path, capsys):
    assert can_write_in(tmp_path) and not can_write_in(Path("/proc"))
    for what, (place, words) in _bad_places(tmp_path, kind).items():
        code = main([place if a == "O" else a for a in command])
        err = capsys.readouterr().err
        assert code == 2, f"{what}: exit {code}: {err}"
        assert place in err and words in err, f"{what}: {err}"


def test_a_new_folder_for_crops_is_made_when_a_crop_is_saved(tmp_path):
    from screenbot.outputs import check_output_folder

    new = tmp_path / "not" / "yet"
    assert check_output_folder(new) == new and not new.exists()  # checked, nothing made before the work
