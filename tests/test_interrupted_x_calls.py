"""A command interrupted (SIGTERM, Ctrl-C) while it talks to the X server still cleans up and ends.

python-xlib cut short by an exception in the middle of a request leaves its connection unusable: the next
round trip loops for ever, so a clean-up that takes an overlay down or lets a window go never returned
(a live hint given SIGTERM did not end, CI). The interrupt is now raised once the main thread has left
python-xlib (``screenbot/interrupts.py``). Each case runs a child process on a bare X server, as a
command would: the command's own signal handling around a loop of X round trips, one X call in its
clean-up, then exit 130. Before: 20 of 20 such children hung, by either signal."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from screenbot.desktop import VirtualDisplay

from .processes import communicate_or_fail
from .seeds import SEED

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[1]

_CHILD = """
import signal, sys
from Xlib import X, display
from screenbot.interrupts import handle_interrupts, interrupts_not_lost

signal.signal(signal.SIGINT, signal.default_int_handler)  # as a terminal gives it, whatever the parent ignores
root = display.Display().screen().root
size = root.get_geometry()
handle_interrupts()
try:
    with interrupts_not_lost():
        print("talking", flush=True)
        while True:  # most of the time inside python-xlib: a whole screen's pixels a round trip
            root.get_image(0, 0, size.width, size.height, X.ZPixmap, 0xFFFFFFFF)
except KeyboardInterrupt:
    root.get_geometry()  # the clean-up's own X call
    print("cleaned up", flush=True)
    sys.exit(130)
"""


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT"])
def test_an_interrupt_during_x_calls_leaves_the_clean_up_its_x_connection(signame):
    waits = [random.Random(f"{SEED}-{signame}-{n}").uniform(0.05, 0.6) for n in range(3)]
    print(f"seed {SEED}: {signame} sent {', '.join(f'{w:.2f}' for w in waits)} s into the X calls")
    with VirtualDisplay(window_manager=False):
        for wait in waits:
            child = subprocess.Popen([sys.executable, "-c", _CHILD], cwd=ROOT, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
            try:
                assert child.stdout.readline().strip() == "talking", child.stderr.read()[-2000:]
                time.sleep(wait)
                child.send_signal(getattr(signal, signame))
                out, err = communicate_or_fail(child, 15, f"{signame} {wait:.2f} s in: the child's clean-up never ended")
            finally:
                if child.poll() is None:
                    child.kill()
                    child.communicate()
            assert child.returncode == 130 and out.strip() == "cleaned up", (child.returncode, out, err[-2000:])
