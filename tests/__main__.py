"""``python3 -m tests [PYTEST-ARGS...]``: the whole suite, one tier after the other, each on the workers
that suit it, with each tier's time; the exit status is 0 only when every tier passed.

- unit: in one process (20-45 s of pure logic; starting workers would cost more).
- integration: two workers, as it computes (pictures): one per core of a 2-core machine.
- e2e: two workers, each test with its own virtual display; the longest tests start first
  (conftest.py), one test at a time to each worker (``--maxschedchunk 1``), so the workers end
  together. Its tests mostly wait for the clients: three workers took about half the time of two
  (495-670 s against 900 s), but in two of five runs a test that races the window manager or the
  client's redraw failed (a window over the board at the start, a win's window coming late), so
  two it is until those races are fixed.
- windows: two workers: screenbot under python.org's Windows CPython in Wine (tests/windows_python.py,
  prepared once in the cache). The unit tier under Windows (about 80 s) takes one worker, the reads,
  the install check, the winemine games and the hint over winemine the other.
- wayland: in one process: one headless GNOME Shell for the tier's tests, each starting its own
  gnome-mines (two shells side by side would share two cores with their software renderer).

Every tier runs even when an earlier one failed, so one run shows every failure. The arguments are
given to every tier's pytest (``--durations=20``, ``-x``, ``-k ...``). One random seed is drawn for all
tiers (tests/seeds.py), so one number replays the run.
"""

from __future__ import annotations

import subprocess
import sys
import time

from .seeds import REPLAY

TIERS = (
    ("unit", []),
    ("integration", ["-n", "2"]),
    ("e2e", ["-n", "2", "--maxschedchunk", "1"]),
    ("windows", ["-n", "2", "--maxschedchunk", "1"]),
    ("wayland", []),
)


def main(args: list[str]) -> int:
    print(f"tests: random cases: {REPLAY}", flush=True)
    failed, took = [], []
    for tier, options in TIERS:
        start = time.monotonic()
        code = subprocess.call([sys.executable, "-m", "pytest", "-m", tier, *options, *args])
        took.append(f"{tier} {time.monotonic() - start:.0f} s")
        print(f"tests: tier {tier} took {time.monotonic() - start:.0f} s (exit {code})", flush=True)
        # 5: no test selected (a -k that matches nothing in this tier) is not a failure of the tier.
        if code not in (0, 5):
            failed.append(tier)
    print(f"tests: {', '.join(took)}; " + (f"failed: {', '.join(failed)}" if failed else "every tier passed"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
