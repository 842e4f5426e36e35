"""Property-based fuzzing of every command's inputs: board texts, images, recordings and arguments.

Each case runs the real command in-process (``screenbot.cli.main``) and must answer with one of the
exit codes its help documents, with a message and never a traceback (an exception escaping ``main``
fails the test), within a time limit that only a hang would break. Cases are drawn fresh on every run
(hypothesis prints the failing one). More cases: SCREENBOT_FUZZ_EXAMPLES=500. The commands that
drive a display (play, hint live) run with no display: they must refuse before any screen work.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from screenbot.cli import main

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]
RECORDING = ROOT / "fixtures" / "recordings" / "gnome-mines-play-small"
SHOT = ROOT / "fixtures" / "screens" / "gm-medium-600-fresh.png"
EXAMPLES = int(os.environ.get("SCREENBOT_FUZZ_EXAMPLES") or 40)
LIMIT = 60.0  # seconds; a hang check, not a speed figure

# The exit codes each command's --help documents.
DOCUMENTED = {
    "solve": {0, 2, 6},
    "read": {0, 2, 4, 5},
    "hint": {0, 2, 3, 4, 5, 6},
    "replay": {0, 1, 2},
    "bench": {0, 1, 2},
    "bench-plot": {0, 2},
    "play": {0, 1, 2, 3, 4},
    "new-skin": {0, 1, 2, 4},
    "read-bench": {0, 2},
}
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,  # the time limit is checked per case below, with the command's name in the message
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
COUNTS: dict[str, list[int]] = {}  # command -> exit codes seen, printed at the end for the figures


def answer(argv: list[str], capsys) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of the command, checked against what its help documents."""
    command = argv[0]
    started = time.monotonic()
    code = main(argv)
    seconds = time.monotonic() - started
    out, err = capsys.readouterr()
    COUNTS.setdefault(command, []).append(code)
    assert code in DOCUMENTED[command], f"{argv}: exit {code}, not one of {sorted(DOCUMENTED[command])}\n{err}"
    assert "Traceback" not in err, err
    if code != 0:  # a message says why (replay lists its differences on standard output)
        assert (err + out).strip(), f"{argv}: exit {code} with no message"
    assert seconds < LIMIT, f"{argv} took {seconds:.0f} s"
    return code, out, err


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    for command, codes in sorted(COUNTS.items()):
        tally = {code: codes.count(code) for code in sorted(set(codes))}
        print(f"fuzz {command}: {len(codes)} cases answered cleanly, exit codes {tally}")


@pytest.fixture(autouse=True)
def _no_display(monkeypatch):
    # Nothing here may touch a screen: the live commands must refuse before trying.
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    # `solve -` reads standard input: an empty one here.
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))


# --- board texts -------------------------------------------------------------------------------------

CELL = st.sampled_from(list("#?F012345678*XW.") + [" ", "z", "\t", "é", "\x00"])
ROW = st.lists(CELL, min_size=0, max_size=12).map("".join)
HEADER = st.one_of(
    st.just(""),
    st.integers(-3, 200).map(lambda n: f"mines: {n}\n"),
    st.text(max_size=12).map(lambda t: f"mines: {t}\n"),
)


@st.composite
def played_boards(draw) -> str:
    """A board a real game shows: random size and mines, a few random opens and flags, maybe lost;
    sometimes one cell changed afterwards (which may make it impossible)."""
    from solver.board import format_board
    from solver.game import Game

    rows, cols = draw(st.integers(1, 12)), draw(st.integers(1, 12))
    mines = draw(st.integers(0, rows * cols - 1))
    game = Game.new(rows, cols, mines, seed=draw(st.integers(0, 10**6)))
    for _ in range(draw(st.integers(0, 6))):
        r, c = draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))
        if draw(st.integers(0, 3)) == 0:
            game.flag(r, c)
        elif game.status == "playing":
            game.open(r, c)
    board = game.board()
    if draw(st.booleans()):
        board = board.with_mines(None)
    text = format_board(board)
    if draw(st.integers(0, 4)) == 0:
        lines = text.splitlines()
        at = draw(st.integers(0, len(lines) - 1))
        if lines[at] and not lines[at].startswith("mines"):
            col = draw(st.integers(0, len(lines[at]) - 1))
            lines[at] = lines[at][:col] + draw(st.sampled_from(list("#F0123?"))) + lines[at][col + 1 :]
        text = "\n".join(lines) + "\n"
    return text


@st.composite
def board_texts(draw) -> bytes:
    if draw(st.integers(0, 2)) == 0:
        return draw(played_boards()).encode("utf-8")
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=300))  # not text at all
    rows = draw(st.integers(1, 10))
    width = draw(st.integers(1, 10))
    regular = draw(st.booleans())
    lines = [
        "".join(draw(st.sampled_from(list("#F012345678?"))) for _ in range(width)) if regular else draw(ROW)
        for _ in range(rows)
    ]
    text = draw(HEADER) + draw(st.sampled_from(["\n", "\r\n"])).join(lines) + draw(st.sampled_from(["", "\n"]))
    return (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + text.encode("utf-8")


@FUZZ
@given(data=board_texts(), mines=st.one_of(st.none(), st.integers(-2, 120)), as_json=st.booleans())
def test_solve_answers_any_board_text(tmp_path, capsys, data, mines, as_json):
    path = tmp_path / "board.txt"
    path.write_bytes(data)
    argv = ["solve", str(path)] + ([] if mines is None else ["--mines", str(mines)]) + (["--json"] if as_json else [])
    code, out, _ = answer(argv, capsys)
    if code == 0 and as_json:
        move = json.loads(out)["move"]
        assert move is None or move["probability"] < 1, (data, move)


def test_solve_never_recommends_opening_a_certain_mine(capsys):
    """Every board drawn here with a move recommends a cell whose mine chance is not 1."""
    rng = random.Random()
    seed = rng.randrange(10**6)
    rng.seed(seed)
    for _ in range(200):
        rows, cols = rng.randint(1, 5), rng.randint(1, 5)
        cells = rows * cols
        mines = rng.randint(0, cells)
        text = f"mines: {mines}\n" + "\n".join("#" * cols for _ in range(rows)) + "\n"
        path = Path(os.environ.get("TMPDIR", "/tmp")) / f"fuzz-board-{os.getpid()}.txt"
        path.write_text(text, encoding="utf-8")
        assert main(["solve", str(path), "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        move = out["move"]
        assert (move is None) == (mines == cells), f"seed {seed}: {text!r} -> {move}"
        if move is not None:
            assert move["probability"] < 1, f"seed {seed}: {text!r} -> {move}"
        path.unlink()


# --- images -----------------------------------------------------------------------------------------


@st.composite
def pictures(draw) -> bytes:
    kind = draw(st.sampled_from(["noise", "flat", "grid", "bytes", "cut-png"]))
    if kind == "bytes":
        return draw(st.binary(max_size=2000))
    if kind == "cut-png":
        data = SHOT.read_bytes()
        return data[: draw(st.integers(0, len(data)))]
    h, w = draw(st.integers(1, 240)), draw(st.integers(1, 320))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    if kind == "noise":
        image = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    else:
        image = np.full((h, w, 3), rng.integers(0, 256, 3), dtype=np.uint8)
        if kind == "grid":
            # Something board-like: squares of a random pitch, some of another colour.
            pitch = draw(st.integers(5, 40))
            for y in range(0, h - pitch, pitch):
                for x in range(0, w - pitch, pitch):
                    colour = rng.integers(0, 256, 3) if rng.random() < 0.3 else (190, 190, 190)
                    image[y + 1 : y + pitch - 1, x + 1 : x + pitch - 1] = colour
    ok, encoded = cv2.imencode(".png", image)
    assert ok
    return encoded.tobytes()


@FUZZ
@given(data=pictures(), as_json=st.booleans())
def test_read_answers_any_picture(tmp_path, capsys, data, as_json):
    path = tmp_path / "shot.png"
    path.write_bytes(data)
    answer(["read", str(path)] + (["--json"] if as_json else []), capsys)


@FUZZ
@given(data=pictures(), first=st.one_of(st.none(), st.tuples(st.integers(0, 40), st.integers(0, 40))),
       mines=st.one_of(st.none(), st.integers(0, 1000)))
def test_hint_image_answers_any_picture(tmp_path, capsys, data, first, mines):
    path = tmp_path / "shot.png"
    path.write_bytes(data)
    argv = ["hint", "--image", str(path), "--out", str(tmp_path / "out.png")]
    if first is not None:
        argv += ["--first-click", f"{first[0]},{first[1]}"]
    if mines is not None:
        argv += ["--mines", str(mines)]
    answer(argv, capsys)


def test_hint_refuses_a_first_click_off_the_board(tmp_path, capsys):
    code, _, err = answer(["hint", "--image", str(SHOT), "--out", str(tmp_path / "o.png"), "--first-click", "99,99"], capsys)
    assert code == 2 and "off the" in err


# --- recordings -------------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)


@st.composite
def damaged_recordings(draw) -> tuple[list[str], list[str]]:
    """(log lines, frame names to delete) of the small fixture recording, damaged."""
    lines = (RECORDING / "log.jsonl").read_text(encoding="utf-8").splitlines()
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["cut", "drop", "swap", "field", "garble", "duplicate"]))
        if not lines:
            break
        at = draw(st.integers(0, len(lines) - 1))
        if how == "cut":
            lines = lines[:at]
        elif how == "drop":
            del lines[at]
        elif how == "duplicate":
            lines.insert(at, lines[at])
        elif how == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif how == "garble":
            line = lines[at]
            cut = draw(st.integers(0, len(line)))
            lines[at] = line[:cut] + draw(st.text(max_size=5)) + line[cut + 1 :]
        else:
            try:
                record = json.loads(lines[at])
            except json.JSONDecodeError:
                continue  # garbled by an earlier damage already
            if not isinstance(record, dict):
                continue
            key = draw(st.sampled_from(sorted(record) + ["lattice.origin", "lattice.pitch", "lattice.rows"]))
            if key.startswith("lattice.") and isinstance(record.get("lattice"), dict):
                record["lattice"][key.split(".")[1]] = draw(JSON_VALUES)
            else:
                record[key] = draw(JSON_VALUES)
            lines[at] = json.dumps(record)
    frames = sorted(p.name for p in (RECORDING / "frames").iterdir())
    gone = draw(st.lists(st.sampled_from(frames), max_size=2, unique=True))
    return lines, gone


@FUZZ
@given(damage=damaged_recordings())
def test_replay_answers_any_damaged_recording(tmp_path, capsys, damage):
    lines, gone = damage
    folder = tmp_path / "rec"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(RECORDING, folder)
    (folder / "log.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for name in gone:
        (folder / "frames" / name).unlink()
    code, _, _ = answer(["replay", str(folder)], capsys)
    original = (RECORDING / "log.jsonl").read_text(encoding="utf-8").splitlines()
    if lines != original or gone:
        # Whatever was damaged, the recording is never passed as identical to what was played.
        assert code != 0 or _harmless(lines, original, gone), (lines, gone)


@pytest.mark.parametrize("key", ["steps", "digest"])
def test_an_end_record_missing_its_count_or_digest_is_refused(tmp_path, capsys, key):
    """Found by the fuzz test above: an 'end' record whose "steps" key lost a letter replayed with exit 0."""
    folder = tmp_path / "rec"
    shutil.copytree(RECORDING, folder)
    lines = (RECORDING / "log.jsonl").read_text(encoding="utf-8").splitlines()
    end = json.loads(lines[-1])
    end[key[1:]] = end.pop(key)
    (folder / "log.jsonl").write_text("\n".join([*lines[:-1], json.dumps(end)]) + "\n", encoding="utf-8")
    code, _, _ = answer(["replay", str(folder)], capsys)
    assert code != 0


def _harmless(lines: list[str], original: list[str], gone: list[str]) -> bool:
    """A change replay cannot and need not see: only in fields that play no part in the replay (the
    time of a record, a game summary's figures), with every step and frame intact."""
    if gone or len(lines) != len(original):
        return False
    for new, old in zip(lines, original):
        try:
            a, b = json.loads(new), json.loads(old)
        except json.JSONDecodeError:
            return False
        if a.get("type") != b.get("type"):
            return False
        if a.get("type") == "step":
            for key in ("seq", "frame", "lattice", "board", "moves", "policy", "game"):
                if a.get(key) != b.get(key):
                    return False
        if a.get("type") == "end" and a.get("steps") != b.get("steps"):
            return False
        if a.get("type") == "start" and (a.get("version"), a.get("policy")) != (b.get("version"), b.get("policy")):
            return False
    return True


# --- arguments --------------------------------------------------------------------------------------

VALUES = st.sampled_from(["0", "-1", "1", "3", "99999999999999", "nan", "inf", "1e9", "x", "", "3,3", "99,99",
                          "-1,0", "16x30", "1.5", "/nonexistent", "/dev/null", "."])
OPTIONS = {
    "solve": ["--mines", "--density", "--json", "-"],
    "bench": ["--level", "--rows", "--cols", "--mines", "--rules", "--first", "--games", "--seed", "--workers", "--guess", "--json",
              "--cluster", "--shard-size"],
    "bench-plot": ["--out"],
    "play": ["--games", "--mines", "--first", "--client", "--record", "--lattice", "--dry-run", "--json", "-v", "-q"],
    "hint": ["--client", "--skin", "--mines", "--first-click", "--record", "--seconds", "--image", "--out", "--lattice", "--style"],
    "read": ["--skin", "--json", "--lattice"],
    "replay": ["--json"],
}


@st.composite
def argument_lists(draw) -> list[str]:
    command = draw(st.sampled_from(sorted(OPTIONS)))
    argv = [command]
    for _ in range(draw(st.integers(0, 5))):
        argv.append(draw(st.sampled_from(OPTIONS[command])))
        if draw(st.booleans()):
            argv.append(draw(VALUES))
    return argv


@FUZZ
@given(argv=argument_lists())
def test_any_arguments_get_a_documented_answer(argv, capsys):
    if argv[0] == "bench" and "--games" not in argv:
        argv += ["--games", "3"]  # a valid bench runs a thousand games by default: keep the case short
    if argv[0] == "bench":
        argv = _small_bench(argv)
    answer(argv, capsys)


def _small_bench(argv: list[str]) -> list[str]:
    """Keep any bench that would run short: at most 3 games on boards of at most 9x9."""
    out = list(argv)
    for i, token in enumerate(out[:-1]):
        if token == "--games" and out[i + 1].isdigit() and int(out[i + 1]) > 3:
            out[i + 1] = "3"
        if token in ("--rows", "--cols") and out[i + 1].isdigit() and int(out[i + 1]) > 9:
            out[i + 1] = "9"
    if "--level" in out:
        i = out.index("--level")
        if i + 1 < len(out) and out[i + 1] in ("expert", "intermediate"):
            out[i + 1] = "beginner"
    return out


@st.composite
def damaged_fixtures(draw) -> tuple[dict | str, str]:
    """A labelled screenshot's JSON with one value replaced (or its text cut), and its board text
    perhaps cut or given a wrong character."""
    meta = json.loads(SHOT.with_suffix(".json").read_text(encoding="utf-8"))
    board = SHOT.with_suffix(".txt").read_text(encoding="utf-8")
    what = draw(st.sampled_from(["value", "lattice value", "cut json", "board"]))
    if what == "value":
        meta[draw(st.sampled_from(sorted(meta)))] = draw(JSON_VALUES)
    elif what == "lattice value":
        meta["lattice"][draw(st.sampled_from(sorted(meta["lattice"])))] = draw(JSON_VALUES)
    elif what == "cut json":
        text = json.dumps(meta)
        return text[: draw(st.integers(0, len(text) - 1))], board
    else:
        at = draw(st.integers(0, len(board) - 1))
        board = board[:at] + draw(st.sampled_from(["", "x", "9", "\n"])) + board[at + 1 :]
    return meta, board


@settings(FUZZ, max_examples=max(5, EXAMPLES // 4))  # each case reads a board (about a second)
@given(damage=damaged_fixtures())
def test_read_bench_answers_any_damaged_fixture(tmp_path, capsys, damage):
    """A fixture folder a user made by hand, damaged anywhere: a traceback before (a KeyError, a JSON
    error); now a timing, or exit 2 naming the file."""
    meta, board = damage
    folder = tmp_path / "shots"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    shutil.copyfile(SHOT, folder / SHOT.name)
    (folder / SHOT.with_suffix(".json").name).write_text(meta if isinstance(meta, str) else json.dumps(meta),
                                                         encoding="utf-8")
    (folder / SHOT.with_suffix(".txt").name).write_text(board, encoding="utf-8")
    code, _, err = answer(["read-bench", "--fixtures", str(folder), "--shots", SHOT.stem, "--reads", "1",
                           "--locates", "1"], capsys)
    if code:
        assert str(folder) in err or "--shots" in err, err
