"""``python3 -m lab digit-shapes``: the figures behind the classic look's number shapes
(``screenbot.vision.digit_shapes``), each client measured as one nobody taught.

The labelled screenshots of the clients drawn in the classic look (``fixtures/screens``: minegauler,
xdemineur, sgt-mines, react-minesweeper, minesweeper-for-web) are cut at their true lattices; every
opened cell showing a number, a mine, a wrong flag or the hit mine has its ink set against the
pictures of every shipped skin but its own client's. Printed:

- the colour's witness (``shaped_otherwise``): how often another digit is nearer than the cell's
  own, how near at worst (a share of the own digit's distance), and how many cells it would refuse
  (another digit under ``CLEARLY_NEARER`` of the own);
- reading by shape alone (``classic.shaped_digit``, for numbers whose colour says nothing): number cells read,
  not read, read wrong; mines and wrong flags taken for a number;
- lone digits drawn in OpenCV's six fonts at 15-60 px in random dark colours (``--fonts`` of them):
  read, not read, read wrong.

Exit codes: 0 nothing read wrong nor refused by the witness, 1 otherwise, 2 bad arguments.
"""

from __future__ import annotations

import argparse
import random

from screenbot.commands.common import bounded_int
from screenbot.exit_codes import EXIT_FAILED, EXIT_OK

from . import SCREENS

PREFIXES = ("mg-", "xd-", "sm-", "rm-", "mfw-")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "digit-shapes",
        help="measure the classic look's number shapes on labelled shots, each client's own pictures hidden",
        description="Set the ink of every number, mine and wrong flag on the labelled shots of the classic-look "
        "clients against every other client's pictures, and lone digits drawn in OpenCV's fonts; print how the "
        "colour's witness and reading by shape alone fare. Exit codes: 0 nothing read wrong nor refused by the "
        "witness, 1 otherwise, 2 bad arguments.",
    )
    parser.add_argument("--fonts", type=bounded_int(0, 100_000), default=600, help="lone digits drawn in OpenCV's fonts (default 600)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the drawn digits (default 1)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from screenbot.labelled_shots import load_shots
    from screenbot.vision import classic
    from screenbot.vision.digit_shapes import CLEARLY_NEARER, DIGITS, distances

    ink_level = classic.CLASSIC_LIMITS.ink_level
    ratios, read, unread, wrong, marks, marks_taken = [], 0, 0, [], 0, []
    for shot in load_shots(SCREENS):
        if not shot.name.startswith(PREFIXES):
            continue
        hidden = shot.lattice.skin
        boxes = classic.cell_boxes(shot.image(), shot.lattice)
        reading = classic.read_boxes(boxes, shot.lattice)
        face = reading.faces[1]
        if face is None:
            continue
        truth = "".join(shot.board.grid)
        for i, char in enumerate(truth):
            if char not in DIGITS + "*WX" or reading.covered[i]:
                continue
            mask = classic.inside_ink(boxes[i], face, ink_level)
            got = classic.shaped_digit(boxes[i], face, hidden=hidden)
            where = f"{shot.name} ({i // shot.lattice.cols},{i % shot.lattice.cols})"
            if char not in DIGITS:
                marks += 1
                if got:
                    marks_taken.append(f"{where}: {char} taken for {got}")
                continue
            if got == char:
                read += 1
            elif got:
                wrong.append(f"{where}: {char} read as {got}")
            else:
                unread += 1
            nearest = distances(mask, ink_level, DIGITS, hidden)
            if char in nearest:
                other = min(v for d, v in nearest.items() if d != char)
                ratios.append((other / max(nearest[char], 1e-6), where))
    ratios.sort()
    refused = [where for ratio, where in ratios if ratio < CLEARLY_NEARER]
    print(f"colour's witness, {len(ratios)} number cells (ink clear of the box's edge): another digit nearer than "
          f"its own in {sum(r < 1 for r, _ in ratios)}, at worst {ratios[0][0]:.2f} of its own distance "
          f"({ratios[0][1]}); refused (under {CLEARLY_NEARER}): {len(refused)}" if ratios else "no number cells")
    print(f"by shape alone, {read + unread + len(wrong)} number cells: {read} read, {unread} not, {len(wrong)} wrong; "
          f"{marks} mines and wrong flags, {len(marks_taken)} taken for a number")
    for line in (wrong + marks_taken + refused)[:20]:
        print(f"  {line}")
    fonts = _fonts(args.fonts, args.seed)
    return EXIT_FAILED if wrong or marks_taken or refused or fonts else EXIT_OK


FONTS = ("FONT_HERSHEY_SIMPLEX", "FONT_HERSHEY_DUPLEX", "FONT_HERSHEY_COMPLEX", "FONT_HERSHEY_TRIPLEX",
         "FONT_HERSHEY_PLAIN", "FONT_HERSHEY_COMPLEX_SMALL")


def _fonts(count: int, seed: int) -> int:
    """Lone digits in OpenCV's fonts, each on a grey cell, read by shape alone; prints the tally and
    returns how many were read wrong."""
    import cv2
    import numpy as np

    from screenbot.vision import classic

    rng = random.Random(seed)
    tally = {"read": 0, "not": 0, "wrong": 0}
    face = 192
    for _ in range(count):
        pitch, digit, font = rng.randint(15, 60), rng.choice("12345678"), getattr(cv2, rng.choice(FONTS))
        thick = rng.randint(1, max(1, pitch // 8))
        box = np.full((pitch, pitch, 3), face, np.uint8)
        (_, height), _ = cv2.getTextSize(digit, font, 1.0, thick)
        scale = pitch * rng.uniform(0.45, 0.75) / height
        (width, height), _ = cv2.getTextSize(digit, font, scale, thick)
        colour = tuple(rng.randint(0, 150) for _ in range(3))
        cv2.putText(box, digit, (round(pitch / 2 - width / 2), round(pitch / 2 + height / 2)), font, scale, colour,
                    thick, cv2.LINE_AA)
        scaled = cv2.resize(box, (classic.SIZE, classic.SIZE), interpolation=cv2.INTER_AREA).astype(np.float32)
        got = classic.shaped_digit(scaled, np.full(3, face, np.float32))
        tally["read" if got == digit else "wrong" if got else "not"] += 1
    if count:
        print(f"lone digits in OpenCV's fonts (seed {seed}): {count}: {tally['read']} read, {tally['not']} not, "
              f"{tally['wrong']} wrong")
    return tally["wrong"]
