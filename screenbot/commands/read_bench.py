"""``screenbot read-bench``: how fast the board is located and read on 1280x1024 frames.

For the first expert-sized (16x30) fixture screenshot of each client (or the shots named), the frame
is made 1280x1024 (a window crop is pasted on a dark screen), then it times a cold locate (``auto``
and the known skin: nothing is remembered from one frame to the next but the loaded templates) and a
warm read with the lattice known, and prints medians of CPU time. Figures, not pass/fail.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from ..exit_codes import EXIT_USAGE
from .common import add_templates_argument, bounded_int, fail

SCREEN = (1280, 1024)
# The labelled screenshots of a source checkout (next to the package folder). They are test data, not
# in the wheel: an installed screenbot has no default and asks for --fixtures.
CHECKOUT_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "screens"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "read-bench",
        help="time locating and reading expert boards on 1280x1024 frames",
        description="Print median times of a cold locate (auto and known skin) and a warm read (lattice "
        "known) of expert-sized boards from the fixture screenshots. Exit codes: 0 ok, 2 bad arguments.",
    )
    parser.add_argument("--fixtures", metavar="DIR", help="labelled screenshots folder (default: fixtures/screens "
                        "of the source checkout screenbot runs from)")
    parser.add_argument("--reads", type=bounded_int(1, 100_000), default=200, help="warm reads per board (default 200)")
    parser.add_argument("--locates", type=bounded_int(1, 10_000), default=10, help="cold locates per board (default 10)")
    parser.add_argument("--size", default="16x30", help="board size ROWSxCOLS to time (default 16x30)")
    parser.add_argument("--shots", default="", help="comma-separated shot names to time instead (default: the "
                        "first shot of that size of each client), so that runs on a growing fixture set compare")
    add_templates_argument(parser)
    parser.set_defaults(run=run)


def _screen_frame(image):
    import numpy as np

    height, width = image.shape[:2]
    if (width, height) == SCREEN:
        return image, (0, 0)
    frame = np.full((SCREEN[1], SCREEN[0], 3), 40, dtype=np.uint8)
    left, top = max(0, (SCREEN[0] - width) // 3), max(0, (SCREEN[1] - height) // 3)
    crop = image[: SCREEN[1] - top, : SCREEN[0] - left]
    frame[top : top + crop.shape[0], left : left + crop.shape[1]] = crop
    return frame, (left, top)


def run(args: argparse.Namespace) -> int:
    from ..labelled_shots import load_shots
    from ..vision import load_skins, locate_board, read_board

    if args.fixtures is None and not CHECKOUT_FIXTURES.is_dir():
        return fail("no labelled screenshots: read-bench times the fixtures of a source checkout "
                    "(fixtures/screens), and this screenbot is installed without them; run it from a clone "
                    "or give --fixtures DIR", EXIT_USAGE)
    folder = Path(args.fixtures) if args.fixtures is not None else CHECKOUT_FIXTURES
    if not folder.is_dir():
        return fail(f"{folder} is not a folder", EXIT_USAGE)
    try:
        rows, cols = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        return fail(f"--size must look like 16x30, not {args.size!r}", EXIT_USAGE)
    skins = load_skins()
    names = [name for name in args.shots.split(",") if name]
    chosen = {}
    for shot in load_shots(folder):
        if names:
            if shot.name in names:
                chosen[shot.name] = shot
        elif (shot.lattice.rows, shot.lattice.cols) == (rows, cols) and shot.client not in chosen:
            chosen[shot.client] = shot
    if names and len(chosen) < len(names):
        return fail(f"no shot named {', '.join(sorted(set(names) - set(chosen)))} in {folder}", EXIT_USAGE)
    if not chosen:
        return fail(f"no {rows}x{cols} screenshot in {folder}", EXIT_USAGE)
    for shot in chosen.values():  # its client is the skin "locate skin" is timed with
        if shot.client not in skins:
            return fail(f"{shot.image_path.with_suffix('.json')}: client {shot.client!r} is no known skin "
                        f"(known: {', '.join(sorted(skins))})", EXIT_USAGE)
    # The machine's load decides these figures as much as the code does: print it with them.
    if hasattr(os, "getloadavg"):  # not on Windows
        print("load average (1, 5, 15 min): " + ", ".join(f"{v:.2f}" for v in os.getloadavg()))
    # CPU time of this process (one BLAS thread, see screenbot/__init__.py): steadier than the wall
    # clock on a shared machine, where the other jobs' share of the cores would be counted too.
    print(f"{'client':18} {'shot':28} {'locate auto':>12} {'locate skin':>12} {'warm read':>10}  (medians, CPU ms)")
    for shot in sorted(chosen.values(), key=lambda s: (s.client, s.name)):
        client = shot.client
        frame, _ = _screen_frame(shot.image())
        autos, knowns, reads = [], [], []
        for _ in range(args.locates):
            t0 = time.process_time()
            lattice = locate_board(frame, skins, "auto")
            t1 = time.process_time()
            locate_board(frame, skins, client)
            t2 = time.process_time()
            autos.append(t1 - t0)
            knowns.append(t2 - t1)
        for _ in range(args.reads):
            t0 = time.process_time()
            reading = read_board(frame, lattice, skins)
            reads.append(time.process_time() - t0)
        ok = "ok" if reading.board.grid == shot.board.grid else "MISREAD"
        print(f"{client:18} {shot.name:28} {1000 * statistics.median(autos):12.1f} "
              f"{1000 * statistics.median(knowns):12.1f} {1000 * statistics.median(reads):10.2f}  {ok}")
    return 0
