"""The X server ending under ``screenbot play`` (killed, the session closed): exit 1 with a message, the
summary of the games so far, and the recording closed whole (``replay`` finds it identical). It was
an Xlib traceback and no summary (4 of 4)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from screenbot.desktop import VirtualDisplay, start_client

from .seeds import SEED

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[1]


def _steps(log: Path) -> int:
    try:
        return sum('"type":"step"' in line for line in log.read_text(encoding="utf-8").splitlines())
    except OSError:
        return 0


def test_the_display_going_away_mid_play_ends_with_a_summary_and_a_whole_recording(tmp_path):
    wait = random.Random(SEED).uniform(0.0, 1.0)  # after the first recorded steps (seed printed)
    print(f"seed {SEED}: the X server is killed {wait:.2f} s after the bot's second step")
    record = tmp_path / "record"
    with VirtualDisplay() as display, start_client("gnome-mines", level="medium", window_size=(640, 560)):
        bot = subprocess.Popen([sys.executable, "-m", "screenbot", "play", "--games", "50", "--json", "--record",
                                str(record), "--failure-dir", str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=dict(os.environ))
        try:
            deadline = time.monotonic() + 30
            while _steps(record / "log.jsonl") < 2 and bot.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(wait)
            os.kill(display._xvfb.pid, signal.SIGKILL)  # the X server dies, as when a session ends
            out, err = bot.communicate(timeout=60)
        finally:
            if bot.poll() is None:
                bot.kill()
    print(err[-1500:])
    assert bot.returncode == 1, err[-2000:]
    assert "the display went away" in err and "Traceback" not in err, err[-2000:]
    summary = json.loads(out.strip().splitlines()[-1])
    assert "display went away" in summary["stopped"] and summary["steps"] >= 2
    assert json.loads((record / "log.jsonl").read_text(encoding="utf-8").splitlines()[-1])["type"] == "end"
    replay = subprocess.run([sys.executable, "-m", "screenbot", "replay", str(record)], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert replay.returncode == 0 and "no differences" in replay.stdout, replay.stdout + replay.stderr
