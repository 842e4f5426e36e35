"""``screenbot bench-plot``: bench reports drawn as a PNG against the published win rates."""

import json
import struct
import sys

import pytest

from screenbot.bench.plot import Report, panels
from screenbot.cli import main
from solver.anchors import ANCHORS, anchors_for
from solver.game import LEVELS, RULES

pytestmark = pytest.mark.integration


def report(level: str, rules: str, first: list[int], games: int, wins: int, **more) -> dict:
    size = LEVELS[level]
    return {"rows": size.rows, "cols": size.cols, "mines": size.mines, "rules": rules, "first": first,
            "games": games, "wins": wins, "seed": 7, "guess": "lookahead", **more}


@pytest.fixture
def reports(tmp_path):
    """One report per level and rule set with published figures, as `bench --json` writes them."""
    paths = []
    for name, data in {
        "expert-safe": report("expert", "safe", [0, 0], 5000, 2017),
        "expert-opening": report("expert", "opening", [3, 3], 5000, 2701),
        "intermediate-opening": report("intermediate", "opening", [2, 2], 5000, 4452),
        "beginner-opening": report("beginner", "opening", [2, 2], 5000, 4867, shards=[]),
    }.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        paths.append(str(path))
    return paths


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_plot_of_every_level_and_rule_set_is_a_png(reports, tmp_path, capsys):
    out = tmp_path / "plot.png"
    assert main(["bench-plot", *reports, "--out", str(out)]) == 0
    assert "4 panel(s) from 4 report(s)" in capsys.readouterr().out
    width, height = png_size(out)
    assert 800 <= width <= 1600 and 600 <= height <= 3000, (width, height)
    assert 20_000 < out.stat().st_size < 2_000_000


def test_panels_set_each_run_beside_the_published_figures_for_its_rules():
    expert = Report(16, 30, 99, "safe", (0, 0), 5000, 2017, seed=7, guess="lookahead")
    baseline = Report(16, 30, 99, "safe", (0, 0), 5000, 1934, seed=7, guess="lowest")
    custom = Report(8, 8, 10, "safe", (0, 0), 40, 35)
    first, second = panels([expert, custom, baseline])
    assert first.title == "expert 16x30/99, rules safe, first click 0,0"
    assert [row.ours for row in first.rows] == [True, True, False, False, False, False]
    assert first.rows[0].label == "screenbot lookahead, 5,000 games, seed 7"
    assert first.rows[0].low < 2017 / 5000 == first.rows[0].rate < first.rows[0].high
    assert {row.label.split(",")[0] for row in first.rows[2:]} == {"PSEQ", "PSEQ-D256", "D. Hill (Java)", "minesolve depth 4"}
    hill = next(row for row in first.rows if row.label.startswith("D. Hill"))
    assert (round(hill.low, 4), round(hill.high, 4)) == (0.4110, 0.4116)
    assert second.title == "8x8/10, rules safe, first click 0,0" and len(second.rows) == 1


def test_anchors_are_for_the_rules_they_were_measured_under():
    # Only the first click each figure was published for: the same level and rules elsewhere get none.
    assert len(anchors_for(16, 30, 99, "opening", (3, 3))) == 3
    assert anchors_for(16, 30, 99, "opening", (2, 2)) == []
    assert anchors_for(9, 9, 10, "none", (0, 0)) == []
    for anchor in ANCHORS:
        assert anchor.level in LEVELS and anchor.rules in RULES and 0 < anchor.low <= anchor.high < 1


def test_plot_without_matplotlib_says_what_to_install(reports, tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` now raises ImportError
    out = tmp_path / "plot.png"
    assert main(["bench-plot", *reports, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "bench-plot needs the Python package 'matplotlib'" in err
    assert "pip install 'screenbot-minesweeper[plot]'" in err and "Traceback" not in err
    assert not out.exists()


@pytest.mark.parametrize(
    "content, message",
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        (json.dumps({"games": 10}), "'rows' missing"),
        (json.dumps(report("beginner", "safe", [0, 0], 10, 11)), "11 wins out of 10 games"),
        (json.dumps(report("beginner", "safe", [0], 10, 5)), "'first' is not [row, col]"),
    ],
    ids=["not-json", "not-an-object", "no-board", "more-wins-than-games", "bad-first"],
)
def test_a_file_that_is_not_a_bench_report_is_refused(content, message, tmp_path, capsys):
    path = tmp_path / "report.json"
    path.write_text(content, encoding="utf-8")
    assert main(["bench-plot", str(path), "--out", str(tmp_path / "plot.png")]) == 2
    err = capsys.readouterr().err
    assert message in err and str(path) in err and "Traceback" not in err


def test_bad_plot_arguments(reports, tmp_path, capsys):
    assert main(["bench-plot", *reports, "--out", str(tmp_path / "no-such-folder" / "plot.png")]) == 2
    assert "no folder" in capsys.readouterr().err
    assert main(["bench-plot", *reports, "--out", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert main(["bench-plot", *reports]) == 2  # --out is required
    assert main(["bench-plot", str(tmp_path / "missing.json"), "--out", str(tmp_path / "p.png")]) == 2
    assert "Traceback" not in capsys.readouterr().err
