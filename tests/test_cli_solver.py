"""The pure commands through ``screenbot.cli.main``: output contracts and exit codes."""

import dataclasses
import json
import random

import pytest

from screenbot.cli import main
from solver.guess import GuessConfig

from .seeds import REPLAY, SEED

pytestmark = pytest.mark.integration


@pytest.fixture
def board_file(tmp_path):
    def write(text: str):
        path = tmp_path / "board.txt"
        path.write_text(text, encoding="utf-8")
        return str(path)

    return write


def test_solve_json_contract(board_file, capsys):
    assert main(["solve", board_file("mines: 2\n###\n121\n000\n"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["rows"], out["cols"], out["mines"], out["exact"]) == (3, 3, 2, True)
    assert out["probabilities"][0] == [1.0, 0.0, 1.0]
    assert out["probabilities"][1] == [None, None, None]
    assert out["safe"] == [[0, 1]] and out["mines_known"] == [[0, 0], [0, 2]]
    assert out["move"] == {"action": "open", "row": 0, "col": 1, "probability": 0.0}


def test_solve_reads_stdin_and_mines_override(monkeypatch, capsys):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("#1\n##\n"))
    assert main(["solve", "-", "--mines", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["mines"] == 1 and out["probabilities"][1][1] == pytest.approx(1 / 3)


def test_solve_text_output(board_file, capsys):
    assert main(["solve", board_file("mines: 1\n1#\n##\n")]) == 0
    out = capsys.readouterr().out
    assert "33%" in out and "move: open" in out


@pytest.mark.parametrize(
    "text,code,message",
    [
        ("1#\n#2\n#0\n", 6, "impossible board"),
        ("##\n#z\n", 2, "line 2, column 2"),
        ("###\n##\n", 2, "line 2"),
    ],
    ids=["impossible", "bad-char", "ragged"],
)
def test_solve_errors(board_file, capsys, text, code, message):
    assert main(["solve", board_file(text)]) == code
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_solve_missing_file(capsys):
    assert main(["solve", "/nonexistent/board.txt"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_bench_json_contract(capsys):
    assert main(["bench", "--level", "beginner", "--rules", "opening", "--first", "2,2", "--games", "30", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("games", "wins", "win_rate", "ci95", "games_per_second", "decision_ms_p50", "decision_ms_p99", "rules", "first", "rows", "cols", "mines"):
        assert key in out
    assert out["games"] == 30 and 0 <= out["wins"] <= 30
    assert out["ci95"][0] <= out["win_rate"] <= out["ci95"][1]
    assert (out["rows"], out["cols"], out["mines"], out["first"], out["rules"]) == (9, 9, 10, [2, 2], "opening")


def test_bench_is_reproducible_and_worker_independent(capsys):
    args = ["bench", "--level", "custom", "--rows", "8", "--cols", "8", "--mines", "12", "--games", "40", "--seed", "3", "--json"]
    assert main(args) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(args + ["--workers", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert one["wins"] == two["wins"]


def test_bench_names_its_slowest_decision_with_a_board_solve_takes(capsys, tmp_path):
    """The slowest decision of a run comes with its game, step and board (with the run's mine total),
    which ``solve`` takes."""
    from solver.bench import BenchConfig, play_game
    from solver.board import parse_board

    assert main(["bench", "--level", "beginner", "--games", "30", "--seed", "5", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    slowest = report["slowest_decision"]
    assert 0 <= slowest["game"] < 30 and slowest["ms"] == pytest.approx(report["decision_ms_max"], abs=0.01)
    board = parse_board(slowest["board"])
    assert (board.rows, board.cols, board.mines) == (9, 9, 10)
    game = play_game(BenchConfig(9, 9, 10, games=30, seed=5), slowest["game"])
    assert slowest["step"] < len(game.decision_seconds)  # a step of that game (the games are seeded)
    (tmp_path / "slow.txt").write_text(slowest["board"], encoding="utf-8")
    assert main(["solve", str(tmp_path / "slow.txt")]) == 0
    assert "move:" in capsys.readouterr().out


def test_bench_progress_weight_reaches_the_policy(capsys):
    """``--progress-weight 0`` plays the lookahead without its progress term: other choices, so other
    games (fingerprints), and the report says which weight played."""
    args = ["bench", "--level", "intermediate", "--games", "60", "--seed", "4", "--json"]
    assert main(args) == 0
    default = json.loads(capsys.readouterr().out)
    assert main(args + ["--progress-weight", "0"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert (default["progress_weight"], plain["progress_weight"]) == (0.2, 0.0)
    assert default["fingerprint"] != plain["fingerprint"]


def test_bench_guess_options_reach_the_policy(capsys):
    """``--guess-option NAME=VALUE`` sets a knob of the guessing policy: other games, and the report
    holds every knob that played."""
    args = ["bench", "--level", "intermediate", "--games", "60", "--seed", "4", "--json"]
    assert main(args) == 0
    default = json.loads(capsys.readouterr().out)
    assert main(args + ["--guess-option", "endgame=false", "--guess-option", "tolerance=0"]) == 0
    changed = json.loads(capsys.readouterr().out)
    assert default["guess_config"] == dataclasses.asdict(GuessConfig())
    assert changed["guess_config"] == {**default["guess_config"], "endgame": False, "tolerance": 0.0}
    assert default["fingerprint"] != changed["fingerprint"]


@pytest.mark.parametrize(
    "args",
    [["--level", "custom", "--rows", "5"], ["--first", "20,0", "--level", "beginner"], ["--games", "0"], ["--first", "x"],
     ["--progress-weight", "-1"], ["--progress-weight", "nan"], ["--guess-option", "blend"],
     ["--guess-option", "blend=1.5"], ["--guess-option", "dead_last=maybe"], ["--guess-option", "strategy=lowest"]],
    ids=["custom-incomplete", "first-off-board", "zero-games", "bad-first", "negative-weight", "nan-weight",
         "option-without-value", "option-out-of-range", "option-not-a-bool", "option-unknown"],
)
def test_bench_bad_arguments(capsys, args):
    assert main(["bench", *args]) == 2
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("command", ["bench", "play"])
@pytest.mark.parametrize("cell", ["-1,5", "2,-3", "-1,-1"])
def test_a_negative_first_click_is_named_as_such(capsys, command, cell):
    # argparse alone reads "-1,5" as an unknown option and says only "expected one argument".
    assert main([command, "--first", cell]) == 2
    assert f"cell '{cell}' has a negative coordinate" in capsys.readouterr().err


def test_help_lists_commands(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "solve" in out and "bench" in out


def test_module_entry_point_runs():
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "screenbot", "solve", "-", "--json"], input="mines: 1\n1#\n##\n", capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["mines"] == 1


def test_bench_refuses_opening_rules_on_a_board_too_crowded_for_them(capsys):
    # The simulator plays such a board by the ``safe`` rule (as a client must): a benchmark asked for
    # ``opening`` would report a rule it did not play. Boards and first clicks drawn at random.
    rng = random.Random(SEED)
    for _ in range(6):
        rows, cols = rng.randint(1, 12), rng.randint(1, 12)
        first = (rng.randrange(rows), rng.randrange(cols))
        kept = 1 + sum(0 <= first[0] + dr < rows and 0 <= first[1] + dc < cols
                       for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
        room = rows * cols - kept
        args = ["bench", "--level", "custom", "--rows", str(rows), "--cols", str(cols), "--rules", "opening",
                "--first", f"{first[0]},{first[1]}", "--games", "3", "--seed", "1"]
        if room + 1 < rows * cols:
            assert main([*args, "--mines", str(room + 1)]) == 2, REPLAY
            assert f"has room for {room} mines, not {room + 1}" in capsys.readouterr().err, REPLAY
        if room >= 0:
            assert main([*args, "--mines", str(room), "--json"]) == 0, REPLAY
            report = json.loads(capsys.readouterr().out)
            assert report["games"] == 3 and report["wins"] == 3, REPLAY  # every mine-free cell opens at once


def test_a_command_loads_only_its_own_module():
    """Each command's module is loaded to register it; loading them all was a third of a second of
    every run. A command named loads its own; no command, or a wrong name, still gets them all listed."""
    import ast
    import subprocess
    import sys

    probe = ("import sys; from screenbot import cli; code = cli.main(sys.argv[1:]); "
             "print(sorted(m for m in sys.modules if m.startswith('screenbot.commands.')), file=sys.stderr); "
             "sys.exit(code)")

    def loaded(*argv):
        done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, timeout=60)
        return done.returncode, done.stdout, ast.literal_eval(done.stderr.strip().splitlines()[-1])

    code, out, modules = loaded("-v", "solve", "--help")
    assert code == 0 and "usage: screenbot solve" in out
    assert "screenbot.commands.solve" in modules and "screenbot.commands.play" not in modules
    assert "screenbot.commands.new_skin" in loaded("new-skin", "--help")[2]
    code, out, modules = loaded("--help")
    assert code == 0 and "new-skin" in out and "screenbot.commands.play" in modules
    code, _, modules = loaded("solvee")
    assert code == 2 and "screenbot.commands.read_bench" in modules
