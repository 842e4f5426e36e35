"""``python3 -m lab detail-margins``: how far the pixel look (``screenbot.vision.detail``) keeps right
reads from wrong ones on the labelled screenshots, as captured and saved as JPEG.

Every number cell of each labelled screenshot whose name starts with ``--prefix`` is set, at the
shot's true lattice, against the pictures of its own number (a right read) and against those of
every other number the skin has and of its opened 0 (wrong reads), as ``detail_distances`` sets a
cell read as that number. Per client, and per kind of pictures (of the board's own size, or of
another size brought to it): the largest right distance and the smallest wrong one, with the shot and
the number each comes from, beside the limits (``PEAK``, ``SCALED_PEAK``). A right read over its limit
is refused; a wrong one under it passes this look (the small scale decides first). The figures in
``detail``'s comments come from it.

Exit codes: 0 done, 2 bad arguments.
"""

from __future__ import annotations

import argparse
import sys

from screenbot.exit_codes import EXIT_OK, EXIT_USAGE

from . import SCREENS, comma_numbers
from .colour_sweep import as_jpeg


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "detail-margins",
        help="right and wrong distances of the pixel look on labelled shots, as captured and as JPEG",
        description="Set every number cell of the labelled screenshots whose name starts with --prefix against "
        "the pictures of its own number and of every other number (and the opened 0), at the true lattice, as "
        "captured (quality 0) and saved at each --jpeg quality; print per client the largest right and the "
        "smallest wrong distance. Exit codes: 0 done, 2 bad arguments.",
    )
    parser.add_argument("--prefix", default="", help="shots whose name starts with this (default: all)")
    parser.add_argument("--jpeg", type=comma_numbers(int), default=[0, 95, 90, 80],
                        help="0 for the shots as captured, else JPEG qualities (1-100), comma-separated "
                        "(default 0,95,90,80)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from screenbot.labelled_shots import load_shots
    from screenbot.vision import load_skins
    from screenbot.vision.detail import NUMBERS, PEAK, SCALED_PEAK, detail_distances

    if not args.jpeg or any(not 0 <= q <= 100 for q in args.jpeg):
        print(f"--jpeg must list qualities 0-100, not {args.jpeg}", file=sys.stderr)
        return EXIT_USAGE
    skins = load_skins()
    shots = [s for s in load_shots(SCREENS) if s.name.startswith(args.prefix)
             and s.lattice.skin in skins and not skins[s.lattice.skin].family]
    if not shots:
        print(f"no labelled shot read by a skin's pictures has a name starting with {args.prefix!r}", file=sys.stderr)
        return EXIT_USAGE
    print(f"limits: {PEAK:.0f} (pictures of the board's size), {SCALED_PEAK:.0f} (of another size)")
    for quality in args.jpeg:
        right: dict[tuple[str, bool], tuple[float, str]] = {}
        wrong: dict[tuple[str, bool], tuple[float, str]] = {}
        for shot in shots:
            frame = shot.image() if quality == 0 else as_jpeg(shot.image(), quality)
            skin = skins[shot.lattice.skin]
            truth = np.array(list("".join(row.replace(".", "0") for row in shot.board.grid)))
            numbers = np.isin(truth, list(NUMBERS - {"0"}))
            for other in sorted(NUMBERS & skin.chars):
                read = truth.copy()
                read[numbers] = other  # each number cell read as ``other``: its own number once
                peaks, _, _, scaled = detail_distances(frame, shot.lattice, skin, read)
                for index in np.flatnonzero(numbers):
                    key, what = (shot.client, bool(scaled[index])), f"{shot.name} {truth[index]}"
                    if truth[index] == other:
                        if peaks[index] > right.get(key, (-1.0, ""))[0]:
                            right[key] = (float(peaks[index]), what)
                    elif peaks[index] > 0 and peaks[index] < wrong.get(key, (np.inf, ""))[0]:
                        wrong[key] = (float(peaks[index]), f"{what} as {other}")
        print(f"{'as captured' if quality == 0 else f'JPEG quality {quality}'}:")
        for key in sorted(set(right) | set(wrong)):
            client, other_size = key
            high, low = right.get(key, (None, "")), wrong.get(key, (None, ""))
            print(f"  {client:18} {'other size' if other_size else 'own size':10}  right max "
                  f"{'-' if high[0] is None else f'{high[0]:.1f}':>6} ({high[1]})  wrong min "
                  f"{'-' if low[0] is None else f'{low[0]:.1f}':>6} ({low[1]})")
        sys.stdout.flush()
    return EXIT_OK
