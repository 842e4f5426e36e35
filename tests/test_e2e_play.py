"""End to end: the bot plays real clients in a virtual display with real mss captures and pyautogui clicks.

Each test starts its own Xvfb (a free display number) and client, then plays in a child process (see
``tests/e2e_play_run.py``: pyautogui binds to one display per process). Asserted for every client:
every game ended in a detected win or loss, no click fell outside the located board (the restart
control of a client that has one is counted separately), and no step acted on an inconsistent reading.
Speed is reported by ``screenbot play``/``demo``, never asserted here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from screenbot.desktop import VirtualDisplay, start_client

from .processes import communicate_or_fail

# Real Xvfb and clients: the end-to-end tier (tests/conftest.py).
pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[1]



def play_in_child(client, skin: str, games: int, tmp_path: Path, located: bool = False, **options) -> dict:
    """Play ``games`` on the started client. The board is where the start function measured it (xbomb,
    minegauler), unless ``located``: then the bot finds it by itself, as it does on any other client."""
    if getattr(client, "lattice", None) is not None and not located:
        lattice = client.lattice
        options.setdefault("lattice", [list(lattice.origin), list(lattice.pitch), lattice.rows, lattice.cols])
    config = {"skin": skin, "window": client.window, "games": games, "failure_dir": str(tmp_path), **options}
    done = subprocess.run(
        [sys.executable, "-m", "tests.e2e_play_run", json.dumps(config)],
        cwd=ROOT, env=dict(os.environ), capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(report["summary"]))  # shown with -s: the figures of this run
    if report["error"] is not None:
        report["error"] += "\n" + _story(done.stderr)
    # Where a game met a number the skin could not read: the loop's warning names the cells.
    report["unread_said"] = [line for line in done.stderr.splitlines() if "has no picture of" in line]
    return report


def _story(log: str) -> str:
    """What the loop logged last before it stopped (with the boards it could not trust): why it
    stopped, in the failure message (a CI run keeps nothing else)."""
    return "\n".join(log.strip().splitlines()[-60:])


def check(report: dict, games: int) -> None:
    assert report["error"] is None, report["error"]
    assert len(report["outcomes"]) == games
    assert set(report["outcomes"]) <= {"won", "lost"}, report["outcomes"]
    assert report["clicks"] > games
    assert report["outside"] == []
    assert report["acting_steps"] > games
    assert report["unsafe"] == []


@pytest.mark.parametrize("level, window, games", [("big", (900, 640), 5), ("medium", (600, 400), 5)])
def test_gnome_mines(level, window, games, tmp_path):
    # Both sizes give 23 px cells (expert: 30 columns in a 900 px window; medium: 16 in 600).
    with VirtualDisplay():
        with start_client("gnome-mines", level=level, window_size=window) as client:
            report = play_in_child(client, "gnome-mines", games, tmp_path)
    check(report, games)


def test_xdemineur_wins_only_by_flagging(tmp_path):
    games = 10
    with VirtualDisplay():
        # Intermediate density on a 16x16 board keeps the test short while winning often. The window is
        # dragged across the screen after the 5th step: the loop must find the board again and go on.
        with start_client("xdemineur", cols=16, rows=16, mines=40, position=(20, 20)) as client:
            report = play_in_child(client, "xdemineur", games, tmp_path, mines=40, move_window_after=5, move_to=[600, 400])
            moved_to = client.geometry()
    check(report, games)
    assert report["window_moved"] and moved_to.left >= 500
    assert report["controls"] == games - 1  # one restart (face click) between consecutive games
    assert "won" in report["outcomes"]  # a win is only declared with every mine flagged


# Device scale 1.5 (45 px cells) and 1.0 (30 px): the browser skin has every state the client shows
# (covered, flag, 0-8, mine) at both, captured from the client (see templates/react-minesweeper/cells).
@pytest.mark.parametrize("scale", [1.5, 1.0])
def test_react_minesweeper_in_chromium(scale, tmp_path):
    games = 10
    with VirtualDisplay():
        with start_client("react-minesweeper", devtools=True, scale=scale) as client:
            report = play_in_child(client, "react-minesweeper", games, tmp_path, devtools_port=client.devtools_port)
    check(report, games)
    # The page's own state (read through DevTools, not the screen) agrees with every verdict, including
    # the wins, which this client shows only outside the board.
    assert report["page_verdicts"] == report["outcomes"]


@pytest.mark.parametrize("game_id", ["16x16n40", "30x16n99"])
def test_sgt_mines(game_id, tmp_path):
    """Simon Tatham's mines, its skin taught from screenshots with new-skin and its "play" section
    written by hand: restart with "n", clicks confirmed by their cells. It deals boards that need no
    guess, so every game should be won; a loss is still a valid outcome for the audit."""
    games = 4
    with VirtualDisplay():
        with start_client("sgt-mines", game_id=game_id) as client:
            report = play_in_child(client, "sgt-mines", games, tmp_path)
    check(report, games)


@pytest.mark.parametrize("level, button_size", [("intermediate", 16), ("beginner", 32)])
def test_minegauler(level, button_size, tmp_path):
    """minegauler (Qt 6, from PyPI in a venv of its own) with its classic Windows look, at its default
    16 px buttons and at 32 px: F2 restarts, each click waits for its cell (clicks sent back to back can
    crash it). The client's own verdict (its state file) agrees with every game's."""
    play_minegauler("minegauler", level, button_size, 4, tmp_path)


def play_minegauler(skin: str, level: str, button_size: int, games: int, tmp_path: Path) -> dict:
    """``games`` on real minegauler played as ``skin``, its board found by the bot: the checks of
    ``check``, and the client's own verdict (its state file) agreeing with every game's. The report."""
    state = tmp_path / "state.json"
    with VirtualDisplay():
        with start_client("minegauler", level=level, button_size=button_size, state_file=str(state)) as client:
            report = play_in_child(client, skin, games, tmp_path, located=True, state_file=str(state))
    check(report, games)
    assert report["client_verdicts"] == report["outcomes"]
    return report


# How a session on xbomb may stop before its games are done, with nothing clicked on the board read: a
# cell in a state its skin was not shown (7, 8) is refused, and a reading that stays inconsistent over
# its rechecks (a small digit in a 50 px cell read wrong, before its picture was added) is given up.
XBOMB_SAFE_STOPS = ("cannot read the board", "InconsistentReadingError")


@pytest.mark.parametrize("level", [1, 3])
def test_xbomb_wins_only_with_every_bomb_flagged(level, tmp_path):
    """xbomb at level 1 (8x8/10, 50 px cells) and 3 (30x16/99, 20 px): a win needs every bomb flagged
    and every other cell open (the bot flags proven mines); `s` restarts. A session may stop safely on a
    cell it cannot read for sure (see XBOMB_SAFE_STOPS, docs/clients.md); the audits hold whatever
    happens."""
    games = 4
    with VirtualDisplay():
        with start_client("xbomb", level=level) as client:
            report = play_in_child(client, "xbomb", games, tmp_path, located=True)
    if report["error"] is not None:
        assert any(stop in report["error"] for stop in XBOMB_SAFE_STOPS), report["error"]
        assert report["outcomes"] and report["outcomes"][-1] == "aborted"
        finished = report["outcomes"][:-1]
    else:
        finished = report["outcomes"]
        assert len(finished) == games
    assert set(finished) <= {"won", "lost"}, report["outcomes"]
    assert report["outside"] == []
    assert report["unsafe"] == []


def test_demo_starts_everything_itself(tmp_path):
    """The README's main command on a machine without a display: Xvfb, openbox, gnome-mines, 2 games.
    With an empty X authority file (xvfb-run leaves one behind), on which python-xlib prints a
    warning on stdout at every connection: stdout must hold the JSON summary and nothing else."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    (tmp_path / "empty.Xauthority").write_bytes(b"")
    env["XAUTHORITY"] = str(tmp_path / "empty.Xauthority")
    out = tmp_path / "last.png"
    done = subprocess.run(
        [sys.executable, "-m", "screenbot", "demo", "--games", "2", "--json", "--out", str(out)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(done.stdout.strip().splitlines()) == 1, done.stdout[-3000:]
    summary = json.loads(done.stdout)
    assert summary["games"] == 2 and summary["wins"] + summary["losses"] == 2
    assert summary["client"] == "gnome-mines"
    import cv2

    picture = cv2.imread(str(out))
    assert picture is not None and picture.shape[0] > 100 and picture.shape[1] > 100


def _screenbot(args: list[str], **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "screenbot", *args], cwd=ROOT, env=dict(os.environ, PYTHONFAULTHANDLER="1"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def test_a_dry_run_that_stops_says_why():
    """A dry run stopped before its first move names the reason, as play does (it used to print only
    that it would do nothing, with exit 1). Here the window sticks out past the screen's right edge
    while its board is on the screen: play refuses such a window, as its clicks could miss."""
    with VirtualDisplay() as display:
        with start_client("gnome-mines", level="medium", window_size=(640, 560)) as client:
            subprocess.run(["xdotool", "windowmove", "--sync", str(client.window), str(display.size[0] - 560), "100"],
                           check=True)
            dry = _screenbot(["play", "--client", "gnome-mines", "--dry-run"])
            out, err = dry.communicate(timeout=120)
    assert "board at" in out and "would do 0 action(s)" in out, out + err  # the board was read
    assert dry.returncode == 1, err
    assert "stopped: the game window" in err and "partly off the screen" in err, err


def test_dry_run_and_ctrl_c_on_a_real_client(tmp_path):
    """On the browser client at 1.5x (every state it shows has templates, so nothing but the signal
    ends the session)."""
    import signal
    import time

    import numpy as np

    from screenbot.capture import MssScreen
    from screenbot.play.live import SkinVision, load_skins

    with VirtualDisplay():
        with start_client("react-minesweeper", scale=1.5):
            with MssScreen() as screen:
                lattice = SkinVision(load_skins(), "react-minesweeper").locate(screen.grab())
                board = lattice.board_rect()
                before = screen.grab(board.as_region())
                dry = _screenbot(["play", "--client", "react-minesweeper", "--dry-run", "--json"])
                out, err = dry.communicate(timeout=120)
                assert dry.returncode == 0, err
                moves = json.loads(out.strip().splitlines()[-1])["actions"]
                assert moves  # it did decide something...
                time.sleep(0.3)
                assert np.array_equal(screen.grab(board.as_region()), before)  # ...and clicked nothing

            # Ctrl-C mid-session: a clean stop with exit code 130 and the summary still printed. The
            # child gets Ctrl-C as a terminal gives it: a suite started in the background by a
            # non-interactive shell runs with SIGINT ignored, which its children would inherit (and then
            # rightly play on, as under nohup).
            run = _screenbot(["play", "--client", "react-minesweeper", "--games", "500", "--json",
                              "--failure-dir", str(tmp_path)],
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
            time.sleep(6)  # start-up (imports, locating) takes 1-2 s; then it is mid-session
            run.send_signal(signal.SIGINT)
            # Where it hangs: the child runs with faulthandler on, which prints every thread's stack on SIGABRT.
            out, err = communicate_or_fail(run, 60, "play did not end within 60 s of Ctrl-C (its stacks follow)",
                                           stop=signal.SIGABRT, tail=6000)
            assert run.returncode == 130, err[-2000:]
            summary = json.loads(out.strip().splitlines()[-1])
            assert "interrupted" in summary.get("stopped", "")
            assert summary["games"] >= 1
            assert "Traceback" not in err
