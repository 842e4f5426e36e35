"""Special files given where a command reads a file: a named pipe (opening one waits for a writer, for
ever), a socket, a device. Each command answers exit 2 naming the file and what it is, before any work,
and never hangs; a picture whose name is not UTF-8 is read (OpenCV is handed its bytes, not its path:
its own reader crashed the process on such a name).

Each case runs the command in a child process with a timeout, so a hang fails the test instead of
stopping the suite."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]
SCREENS = ROOT / "fixtures" / "screens"
SHOT = "gm-big-900-opened"

# Each command and where it reads a file; F is the special file, T a folder of the test's own.
COMMANDS = {
    "read": ["read", "F"],
    "read --json": ["read", "F", "--json"],
    "solve": ["solve", "F"],
    "hint --image": ["hint", "--image", "F", "--out", "T/out.png"],
    "bench-plot": ["bench-plot", "F", "--out", "T/plot.png"],
    "new-skin --shot": ["new-skin", "x", "--shot", "F", "--board", str(SCREENS / f"{SHOT}.txt"), "--templates", "T/skins"],
    "new-skin --board": ["new-skin", "x", "--shot", str(SCREENS / f"{SHOT}.png"), "--board", "F", "--templates", "T/skins"],
    "replay": ["replay", "T/recording"],
}

KINDS = {"pipe": "a pipe", "socket": "a socket", "device": "a device"}


def _special(kind: str, where: Path) -> tuple[str, object]:
    """A special file of ``kind`` at ``where`` (the device is /dev/null, linked there); what to close."""
    if kind == "pipe":
        os.mkfifo(where)
        return str(where), None
    if kind == "socket":
        held = socket.socket(socket.AF_UNIX)
        held.bind(str(where))
        return str(where), held
    os.symlink("/dev/null", where)
    return str(where), None


def _run(args: list) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "screenbot", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=30)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", COMMANDS)
def test_a_special_file_is_refused_at_once_by_name(command, kind, tmp_path):
    recording = tmp_path / "recording"
    recording.mkdir()
    # replay reads the recording's log, which is here the special file
    path, held = _special(kind, recording / "log.jsonl" if command == "replay" else tmp_path / "input")
    args = [path if a == "F" else a.replace("T/", f"{tmp_path}/") for a in COMMANDS[command]]
    try:
        done = _run(args)
    finally:
        if held is not None:
            held.close()
    assert done.returncode == 2, f"{command} on {kind}: exit {done.returncode}\n{done.stderr[-2000:]}"
    assert KINDS[kind] in done.stderr and path in done.stderr, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out.png").exists() and not (tmp_path / "skins").exists()


def test_a_picture_whose_name_is_not_utf8_is_read(tmp_path):
    name = os.fsencode(tmp_path) + b"/board-\xff\xfe.png"
    shutil.copyfile(SCREENS / f"{SHOT}.png", name)
    done = subprocess.run([sys.executable, "-m", "screenbot", "read", name], cwd=ROOT, capture_output=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    assert done.stdout.decode().strip() == (SCREENS / f"{SHOT}.txt").read_text(encoding="utf-8").strip()


# Commands that print their answer, for the standard-stream cases.
PRINTING = {
    "read": ["read", str(SCREENS / f"{SHOT}.png")],
    "read --json": ["read", str(SCREENS / f"{SHOT}.png"), "--json"],
    "solve": ["solve", str(SCREENS / f"{SHOT}.txt")],
    "bench": ["bench", "--level", "beginner", "--games", "5"],
    "hint --image": ["hint", "--image", str(SCREENS / f"{SHOT}.png"), "--out", "T/hint.png"],
    "replay": ["replay", str(ROOT / "fixtures" / "recordings" / "gnome-mines-play-small")],
    "read-bench": ["read-bench", "--shots", SHOT, "--reads", "1", "--locates", "1"],
    # argparse prints these itself, and dropped a write that failed: exit 0 with the help lost
    "--help": ["--help"],
    "read --help": ["read", "--help"],
    "--version": ["--version"],
}


def _run_with(args: list, **streams) -> subprocess.CompletedProcess:
    """screenbot with some standard streams replaced (``stdout=``, ``stdin=``: a file object, or
    "closed"); stderr is captured unless closed."""
    closed = [fd for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")) if streams.get(name) == "closed"]

    def close_them() -> None:  # in the child, before screenbot starts
        for fd in closed:
            os.close(fd)

    given = {name: value for name, value in streams.items() if value != "closed"}
    given.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "screenbot", *args], cwd=ROOT, preexec_fn=close_them, timeout=60,
                          **given)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="/dev/full (a device every write to fails) is Linux's")
@pytest.mark.parametrize("command", PRINTING)
def test_output_that_cannot_be_written_is_said_with_exit_2(command, tmp_path):
    """Into /dev/full (a full disk): a traceback before; now a message and exit 2."""
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = _run_with([a.replace("T/", f"{tmp_path}/") for a in PRINTING[command]], stdout=full)
    err = done.stderr.decode()
    assert done.returncode == 2 and "cannot write the output (standard output)" in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("command", PRINTING)
def test_a_closed_standard_output_is_refused_before_any_work(command, tmp_path):
    """With its output closed the answer went nowhere and the exit was 0."""
    done = _run_with([a.replace("T/", f"{tmp_path}/") for a in PRINTING[command]], stdout="closed")
    err = done.stderr.decode()
    assert done.returncode == 2 and "standard output is closed" in err, err


def test_a_closed_error_stream_keeps_the_exit_code(tmp_path):
    """Messages have nowhere to go, but the exit code still tells (a missing file: 2, was 1)."""
    done = _run_with(["read", str(tmp_path / "missing.png")], stderr="closed", stdout=subprocess.PIPE)
    assert done.returncode == 2 and done.stdout == b""


def test_a_closed_standard_input_is_named():
    done = _run_with(["solve", "-"], stdin="closed", stdout=subprocess.PIPE)
    err = done.stderr.decode()
    assert done.returncode == 2 and "standard input is closed" in err and "Traceback" not in err, err


@pytest.mark.skipif(sys.platform != "linux", reason="address-space limits (ulimit -v) as Linux sets them")
def test_a_picture_is_read_under_a_memory_limit_and_too_little_memory_is_said():
    """Under ``ulimit -v`` a 100 kB picture ended in a MemoryError traceback: its reading asked for
    256 MB at once. 600 MB of address space now reads it; with far too little the command still ends
    without a traceback."""
    import resource

    def limit(megabytes: int):
        return lambda: resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))

    args = [sys.executable, "-m", "screenbot", "read", str(SCREENS / f"{SHOT}.png")]
    done = subprocess.run(args, cwd=ROOT, preexec_fn=limit(600), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == (SCREENS / f"{SHOT}.txt").read_text(encoding="utf-8").strip()
    done = subprocess.run(args, cwd=ROOT, preexec_fn=limit(300), capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr[-2000:]


# Every way a file given to a command can be wrong or odd, and every state of the standard streams, drawn
# together: the tables above take each cause alone. Each case is a process (about a second).
INPUT_KINDS = ("pipe", "socket", "device", "directory", "missing", "empty", "valid", "valid, name not UTF-8")
STREAM_STATES = {"stdout": ("pipe", "full", "closed"), "stdin": ("empty", "closed")}
# A real input for each command (the valid kinds): what a user would give it.
VALID = {"read": SCREENS / f"{SHOT}.png", "read --json": SCREENS / f"{SHOT}.png", "solve": SCREENS / f"{SHOT}.txt",
         "hint --image": SCREENS / f"{SHOT}.png", "new-skin --shot": SCREENS / f"{SHOT}.png",
         "new-skin --board": SCREENS / f"{SHOT}.txt",
         "replay": ROOT / "fixtures" / "recordings" / "gnome-mines-play-small" / "log.jsonl"}
BENCH_REPORT = {"rows": 9, "cols": 9, "mines": 10, "rules": "opening", "first": [2, 2], "games": 100, "wins": 90,
                "seed": 7, "guess": "lookahead"}


def _input(kind: str, command: str, tmp_path: Path) -> tuple[bytes, object]:
    """The file a case gives ``command`` (as bytes: a name need not be UTF-8), and what to close after.
    replay is given a recording folder, whose log is the odd file."""
    odd_name = kind.endswith("not UTF-8")
    name = os.fsdecode(b"input-\xff" if odd_name else b"input")
    if command == "replay":
        folder = tmp_path / name
        shutil.copytree(VALID["replay"].parent, folder)
        where = folder / "log.jsonl"
        if not kind.startswith("valid"):
            where.unlink()
    else:
        where = tmp_path / name
    held = None
    if kind in KINDS:
        _, held = _special(kind, where)
    elif kind == "directory":
        where.mkdir()
    elif kind == "empty":
        where.write_bytes(b"")
    elif kind.startswith("valid") and command != "replay":
        if command == "bench-plot":
            where.write_text(json.dumps(BENCH_REPORT), encoding="utf-8")
        else:
            shutil.copyfile(VALID[command], where)
    return os.fsencode(where.parent if command == "replay" else where), held


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
@pytest.mark.integration(seconds=20)  # 16 processes, each a command's whole run: started first (conftest.py)
@settings(max_examples=int(os.environ.get("SCREENBOT_FUZZ_EXAMPLES") or 16), deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(sorted(COMMANDS)), kind=st.sampled_from(INPUT_KINDS),
       stdout=st.sampled_from(STREAM_STATES["stdout"]), stdin=st.sampled_from(STREAM_STATES["stdin"]))
def test_any_input_kind_with_any_stream_state_is_answered(command, kind, stdout, stdin, tmp_path_factory):
    """Exit 2 naming what is wrong (the closed output, the odd file, the output that cannot be written),
    exit 0 only with the answer written, never a traceback or a hang."""
    tmp_path = tmp_path_factory.mktemp("case")
    path, held = _input(kind, command, tmp_path)
    args = [path if a in ("F", "T/recording") else os.fsencode(a.replace("T/", f"{tmp_path}/"))
            for a in COMMANDS[command]]
    full = open("/dev/full", "w", encoding="utf-8") if stdout == "full" else None
    try:
        done = _run_with(args, stdout=full or ("closed" if stdout == "closed" else subprocess.PIPE),
                         stdin="closed" if stdin == "closed" else subprocess.DEVNULL)
    finally:
        for thing in (held, full):
            if thing is not None:
                thing.close()
    err = done.stderr.decode(errors="replace")
    case = f"{command} given {kind}, stdout {stdout}, stdin {stdin}: exit {done.returncode}\n{err[-2000:]}"
    assert "Traceback" not in err, case
    if stdout == "closed":
        assert done.returncode == 2 and "standard output is closed" in err, case
    elif not kind.startswith("valid"):
        what = {**KINDS, "directory": "folder", "missing": "", "empty": ""}[kind]
        assert done.returncode == 2 and what in err and "input" in err, case  # named, and what it is
    elif stdout == "full":  # every one of these commands prints what it did
        assert done.returncode == 2 and "cannot write the output (standard output)" in err, case
    else:
        assert done.returncode == 0, case
        if stdout == "pipe" and command in ("read", "solve"):
            assert done.stdout.strip(), case
