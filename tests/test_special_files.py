"""Special files given where a command reads a file: a named pipe (opening one waits for a writer, for
ever), a socket, a device. Each command answers exit 2 naming the file and what it is, before any work,
and never hangs; a picture whose name is not UTF-8 is read (OpenCV is handed its bytes, not its path:
its own reader crashed the process on such a name).

Each case runs the command in a child process with a timeout, so a hang fails the test instead of
stopping the suite."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

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
    assert done.stdout.decode().strip() == (SCREENS / f"{SHOT}.txt").read_text().strip()


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
    with open("/dev/full", "w") as full:
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
    assert done.stdout.strip() == (SCREENS / f"{SHOT}.txt").read_text().strip()
    done = subprocess.run(args, cwd=ROOT, preexec_fn=limit(300), capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
