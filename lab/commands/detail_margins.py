"""``python3 -m lab detail-margins``: how far the pixel look (``screenbot.vision.detail``) keeps right
reads from wrong ones on the labelled screenshots, as captured and saved as JPEG.

Every number cell of each labelled screenshot (``fixtures/screens``, ``fixtures/screens-at-lattice``)
whose name starts with ``--prefix`` is set, at the shot's true lattice, against the pictures of its own
number (a right read) and against those of every other number the skin has and of its opened 0 (wrong
reads), as ``detail_distances`` sets a cell read as that number, but always against the nearest picture
(``detail.NEAREST``), whatever the limits of the day. Per client, and per kind of pictures (of the
board's own size, or of another size brought to it): the largest right distance and the smallest wrong
one, with the shot and the number each comes from.

``--write``: the margins over every quality measured, per skin, go into each measured skin's
``calibration.json`` in the folder of skins (default the shipped one), and the margins of all the
calibration files there pooled into the folder's own ``calibration.json``: the limits the pixel look
reads them with (``screenbot.vision.calibration``).

Exit codes: 0 done, 2 bad arguments, 1 a folder that cannot be written.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from screenbot.exit_codes import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from screenbot.skin_folders import TEMPLATES_DIR
from screenbot.vision.calibration import FILE, OTHER, OWN, Margin, joined, margins_json, pooled_margin, read_margins

from . import SCREENS, comma_numbers
from .colour_sweep import as_jpeg


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "detail-margins",
        help="right and wrong distances of the pixel look on labelled shots, as captured and as JPEG",
        description="Set every number cell of the labelled screenshots whose name starts with --prefix against "
        "the pictures of its own number and of every other number (and the opened 0), at the true lattice, as "
        "captured (quality 0) and saved at each --jpeg quality; print per client the largest right and the "
        "smallest wrong distance; with --write, write them (over all qualities) into each skin's calibration.json "
        "and their pool into the folder's. Exit codes: 0 done, 1 a file that cannot be written, 2 bad arguments.",
    )
    parser.add_argument("--prefix", default="", help="shots whose name starts with this (default: all)")
    parser.add_argument("--jpeg", type=comma_numbers(int), default=[0, 95, 90, 80],
                        help="0 for the shots as captured, else JPEG qualities (1-100), comma-separated "
                        "(default 0,95,90,80)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes measuring shots side by side (default: one per CPU)")
    parser.add_argument("--write", nargs="?", const=str(TEMPLATES_DIR), default=None, metavar="FOLDER",
                        help="write the calibration files into this folder of skins (default, with no "
                        "FOLDER: the shipped skins)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from screenbot.labelled_shots import load_shots
    from screenbot.vision import load_skins

    if not args.jpeg or any(not 0 <= q <= 100 for q in args.jpeg):
        print(f"--jpeg must list qualities 0-100, not {args.jpeg}", file=sys.stderr)
        return EXIT_USAGE
    if args.jobs < 1:
        print(f"--jobs must be 1 or more, not {args.jobs}", file=sys.stderr)
        return EXIT_USAGE
    if args.write is not None and not Path(args.write).is_dir():
        print(f"--write: {args.write} is not a folder", file=sys.stderr)
        return EXIT_USAGE
    skins = load_skins()
    # The labelled shots, and those labelled at a lattice given (xbomb's large cells among them).
    shots = [s for folder in (SCREENS, SCREENS.parent / "screens-at-lattice") for s in load_shots(folder)
             if s.name.startswith(args.prefix) and s.lattice.skin in skins and not skins[s.lattice.skin].family]
    if not shots:
        print(f"no labelled shot read by a skin's pictures has a name starting with {args.prefix!r}", file=sys.stderr)
        return EXIT_USAGE
    overall: dict[tuple[str, str], Margin] = {}
    for quality in args.jpeg:
        measured = measure(shots, quality, args.jobs)
        print(f"{'as captured' if quality == 0 else f'JPEG quality {quality}'}:")
        for (skin, kind), margin in sorted(measured.items()):
            print(f"  {skin:18} {kind:10}  right max {_figure(margin.right):>6} ({margin.right_case})  "
                  f"wrong min {_figure(margin.wrong):>6} ({margin.wrong_case})")
            overall[skin, kind] = joined([overall[skin, kind], margin]) if (skin, kind) in overall else margin
        sys.stdout.flush()
    if args.write is None:
        return EXIT_OK
    try:
        written = write(Path(args.write), overall, args.jpeg)
    except OSError as exc:
        print(f"--write: {exc}", file=sys.stderr)
        return EXIT_FAILED
    for path, limits in written:
        print(f"wrote {path}: limits {', '.join(f'{kind} {limit}' for kind, limit in limits.items())}")
    return EXIT_OK


def measure(shots, quality: int, jobs: int = 1) -> dict[tuple[str, str], Margin]:
    """Per (skin, kind of pictures): the largest distance of a number cell from the nearest picture of
    its own number, the smallest from that of another (or of the opened 0). Pictures of the board's
    own size (``OWN``): the skin's, where it has that number at the shot's pitch. Of another size
    (``OTHER``): the skin's with those of the shot's own pitch left out, as a board at a size the skin
    was never shown meets them. ``jobs`` processes take the shots between them."""
    work = [(shot, quality) for shot in shots]
    if jobs == 1:
        found = [_measure_shot(item) for item in work]
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(jobs) as pool:
            found = list(pool.map(_measure_shot, work, chunksize=4))
    keys = {key for per_shot in found for key in per_shot}
    return {key: joined([per_shot[key] for per_shot in found if key in per_shot]) for key in keys}


def _measure_shot(item) -> dict[tuple[str, str], Margin]:
    """``measure`` for one shot at one quality."""
    import numpy as np

    from screenbot.vision import load_skins
    from screenbot.vision.detail import NEAREST, NUMBERS, detail_distances

    shot, quality = item
    skin = load_skins()[shot.lattice.skin]  # kept loaded per process (``skins.load_skin``)
    frame = shot.image() if quality == 0 else as_jpeg(shot.image(), quality)
    truth = np.array(list("".join(row.replace(".", "0") for row in shot.board.grid)))
    numbers = np.isin(truth, list(NUMBERS - {"0"}))
    right: dict[tuple[str, str], tuple[float, str]] = {}
    wrong: dict[tuple[str, str], tuple[float, str]] = {}
    for kind, pictures in ((OWN, skin), (OTHER, _without_own_size(skin, shot.lattice))):
        for other in sorted(NUMBERS & skin.chars):
            read = truth.copy()
            read[numbers] = other  # each number cell read as ``other``: its own number once
            peaks, _, _, scaled = detail_distances(frame, shot.lattice, pictures, read, NEAREST)
            for index in np.flatnonzero(numbers & (scaled == (kind == OTHER))):
                key, what = (skin.name, kind), f"{shot.name} {truth[index]}"
                if truth[index] == other:
                    if peaks[index] > right.get(key, (-1.0, ""))[0]:
                        right[key] = (float(peaks[index]), what)
                elif peaks[index] > 0 and peaks[index] < wrong.get(key, (np.inf, ""))[0]:
                    wrong[key] = (float(peaks[index]), f"{what} as {other}")
    found = {}
    for key in set(right) | set(wrong):
        (high, high_case), (low, low_case) = right.get(key, (None, "")), wrong.get(key, (None, ""))
        found[key] = Margin(None if high is None else round(high, 1), None if low is None else round(low, 1),
                            high_case, low_case)
    return found


def _without_own_size(skin, lattice):
    """``skin`` without its pictures of numbers at the pitch ``lattice`` was drawn at."""
    from screenbot.vision.detail import NUMBERS, SAME_SIZE
    from screenbot.vision.skins import Skin

    pitch = [round(p * 2) / 2 for p in lattice.drawn_pitch]
    kept = tuple(t for t in skin.templates if t.char not in NUMBERS
                 or abs(t.pitch[0] - pitch[0]) > SAME_SIZE or abs(t.pitch[1] - pitch[1]) > SAME_SIZE)
    return Skin(skin.name, kept, skin.profile, skin.family, skin.margins)


def write(folder: Path, margins: dict[tuple[str, str], Margin], qualities: list[int]) -> list[tuple[Path, dict]]:
    """Each measured skin's margins into its calibration file in ``folder``; the pool of every skin's
    file there (those measured before included) into the folder's own; then every file's limits, set
    from its margins and that pool. The files written and their limits."""
    measured = {}
    for skin in sorted({skin for skin, _ in margins}):
        if (folder / skin).is_dir():
            measured[folder / skin / FILE] = ({kind: m for (name, kind), m in margins.items() if name == skin}, qualities)
    for path in sorted(folder.glob(f"*/{FILE}")):
        if path not in measured:
            measured[path] = (read_margins(path), json.loads(path.read_text(encoding="utf-8")).get("jpeg qualities", []))
    pooled = {kind: pooled_margin([mine[kind] for mine, _ in measured.values() if kind in mine]) for kind in (OWN, OTHER)}
    written = []
    for path, (mine, measured_at) in [(folder / FILE, (pooled, qualities)), *sorted(measured.items())]:
        data = margins_json(mine, measured_at, pooled)
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        written.append((path, data["limits"]))
    return written


def _figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"
