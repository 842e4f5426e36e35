"""``python3 -m lab colour-sweep``: labelled screenshots with their colours changed, read as ``screenbot
read`` would.

Each labelled screenshot of ``fixtures/screens`` whose name starts with ``--prefix`` is read at every
brightness change of ``--brightness`` (levels added to each channel), every ``--gamma``, every
``--jpeg`` quality (saved as a JPEG of that quality, as a user's screenshot may be) and every
``--resize`` factor (shrunk by area, enlarged by linear interpolation, as image tools do): read exactly,
refused, or wrong (read with no error but not the true board). A screenshot whose colours
were changed must be read exactly or refused (``screenbot.vision.colour_cast``), never read wrong;
``tests/test_colour_cast.py`` draws such changes at random on every run, this sweeps a grid.

Exit codes: 0 none read wrong, 1 a board read wrong, 2 bad arguments.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import sys
from pathlib import Path

from screenbot.exit_codes import EXIT_FAILED, EXIT_OK, EXIT_USAGE

from . import SCREENS, comma_numbers



def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "colour-sweep",
        help="read labelled shots at a grid of brightness, gamma, JPEG and size changes: exactly / refused / wrong",
        description="Read every labelled screenshot whose name starts with --prefix at each brightness and gamma "
        "change, JPEG quality and resize factor given (an empty list for none of that kind), as `screenbot read` would; print how "
        "many read exactly, were refused and read wrong. "
        "Exit codes: 0 none wrong, 1 a board read wrong, 2 bad arguments.",
    )
    parser.add_argument("--prefix", default="gm-", help="shots whose name starts with this (default gm-; '' for all)")
    parser.add_argument("--brightness", type=comma_numbers(int), default=[d for d in range(-16, 17, 2) if d],
                        help="levels added, comma-separated (default -16,-14,...,16 without 0)")
    parser.add_argument("--gamma", type=comma_numbers(float),
                        default=[0.75, 0.8, 0.85, 0.9, 0.95, 1.05, 1.1, 1.15, 1.2, 1.25, 1.3],
                        help="gammas, comma-separated (default 0.75-0.95 and 1.05-1.3 by 0.05)")
    parser.add_argument("--jpeg", type=comma_numbers(int), default=[],
                        help="JPEG qualities (1-100) to save each shot at, comma-separated (default none)")
    parser.add_argument("--resize", type=comma_numbers(float), default=[],
                        help="factors (0.2-4) to resize each shot by, comma-separated (default none)")
    parser.set_defaults(run=run)


def brightened(frame, levels: int):
    """``frame`` with ``levels`` added to every channel (clipped)."""
    import numpy as np

    return np.clip(frame.astype(np.int16) + levels, 0, 255).astype(np.uint8)


def gamma_changed(frame, gamma: float):
    """``frame`` through a gamma curve (> 1 darker, < 1 lighter)."""
    import numpy as np

    return np.clip(255 * (np.arange(256) / 255) ** gamma, 0, 255).round().astype(np.uint8)[frame]


def as_jpeg(frame, quality: int):
    """``frame`` saved as a JPEG of ``quality`` and decoded again."""
    import cv2

    return cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


def resized(frame, factor: float):
    """``frame`` scaled by ``factor``: shrunk by area, enlarged by linear interpolation."""
    import cv2

    return cv2.resize(frame, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR)


def run(args: argparse.Namespace) -> int:
    from screenbot.commands.screenshot import read_screenshot
    from screenbot.labelled_shots import load_shots
    from screenbot.vision import load_skins

    if any(not 1 <= q <= 100 for q in args.jpeg):
        print(f"--jpeg qualities must be 1-100, not {args.jpeg}", file=sys.stderr)
        return EXIT_USAGE
    if any(not 0.2 <= f <= 4 for f in args.resize):
        print(f"--resize factors must be 0.2-4, not {args.resize}", file=sys.stderr)
        return EXIT_USAGE
    skins = load_skins()
    shots = [shot for shot in load_shots(SCREENS) if shot.name.startswith(args.prefix)]
    if not shots:
        print(f"no labelled shot's name starts with {args.prefix!r}", file=sys.stderr)
        return EXIT_USAGE
    changes = [(f"brightness {d:+d}", lambda f, d=d: brightened(f, d)) for d in args.brightness]
    changes += [(f"gamma {g:.2f}", lambda f, g=g: gamma_changed(f, g)) for g in args.gamma]
    changes += [(f"JPEG quality {q}", lambda f, q=q: as_jpeg(f, q)) for q in args.jpeg]
    changes += [(f"resized x{r:g}", lambda f, r=r: resized(f, r)) for r in args.resize]
    if not changes:
        print("no change given (--brightness, --gamma, --jpeg and --resize are all empty)", file=sys.stderr)
        return EXIT_USAGE
    counts = collections.Counter()
    wrong = []
    for index, shot in enumerate(shots):
        if index % 10 == 0:
            print(f"shot {index + 1} of {len(shots)}...", file=sys.stderr)
        image = shot.image()
        truth = [row.replace(".", "0") for row in shot.board.grid]
        for what, change in changes:
            with contextlib.redirect_stderr(io.StringIO()):  # each refusal's message
                result = read_screenshot(Path(f"{shot.name}.png"), change(image), skins, "auto")
            if isinstance(result, int):
                counts["refused"] += 1
            elif list(result.board.grid) == truth:
                counts["exactly"] += 1
            else:
                counts["wrong"] += 1
                wrong.append(f"{shot.name} at {what}")
    total = sum(counts.values())
    print(f"{len(shots)} shots x {len(changes)} changes = {total}: {counts['exactly']} read exactly, "
          f"{counts['refused']} refused, {counts['wrong']} read wrong")
    for case in wrong:
        print(f"  WRONG: {case}")
    return EXIT_FAILED if wrong else EXIT_OK
