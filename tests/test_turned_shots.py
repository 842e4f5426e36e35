"""Screenshots turned over (mirrored, flipped, turned half round or a quarter, transposed) are read right
or refused, never read wrong (``vision.orientation``, through the one-shot reader of ``read`` and
``hint --image``).

Labelled shots drawn at random on every run (the seed is printed; replay with
``SCREENBOT_RANDOM_SEED=<seed>``), each read as given (it must still read exactly) and turned each way;
plus two fixed cases: the shot whose flags, mirrored, read as "?" with exit 0 before the check, and the
xdemineur lost board whose covered cells, turned half round, read as open 0s (classic look) with exit 0.

And shots with a flag or "?" resized by a factor drawn at random, read as given: never refused as
turned. At a size no picture was taken at, a flag and a "?" read at a low confidence (they are drawn
alike), and by confidence a turned reading could look clearer (gm-medium-600-marked enlarged by 1.1563
was refused as "upside down").
"""

from __future__ import annotations

import contextlib
import io
import random
from pathlib import Path

import numpy as np
import pytest

from lab.commands.colour_sweep import resized
from screenbot.commands.screenshot import read_screenshot
from screenbot.vision import load_skins

from .seeds import REPLAY, SEED

pytestmark = pytest.mark.integration(seconds=20)

SCREENS = Path(__file__).resolve().parent.parent / "fixtures" / "screens"
TURNS = {
    "mirrored": (lambda image: image[:, ::-1], lambda rows: [row[::-1] for row in rows]),
    "upside down": (lambda image: image[::-1], lambda rows: rows[::-1]),
    "half round": (lambda image: image[::-1, ::-1], lambda rows: [row[::-1] for row in rows[::-1]]),
    "a quarter round": (lambda image: np.rot90(image, -1), lambda rows: ["".join(col) for col in zip(*rows[::-1])]),
    "transposed": (lambda image: image.transpose(1, 0, 2), lambda rows: ["".join(col) for col in zip(*rows)]),
}
FIXED = ["gm-medium-600-marked", "xd-16x16-lost"]


def _verdict(frame, truth, skins) -> str:
    with contextlib.redirect_stderr(io.StringIO()) as said:
        reading = read_screenshot(Path("shot.png"), np.ascontiguousarray(frame), skins, "auto")
    if isinstance(reading, int):
        why = said.getvalue().strip()
        return f"refused{' as turned' if 'the picture looks' in why else ''} ({why[-120:]})"
    return "right" if list(reading.board.grid) == truth else f"WRONG: read {list(reading.board.grid)}"


def test_turned_screenshots_are_read_right_or_refused():
    import cv2

    skins = load_skins()
    shots = sorted(path.stem for path in SCREENS.glob("*.png") if (SCREENS / f"{path.stem}.txt").is_file())
    chosen = FIXED + random.Random(SEED).sample([s for s in shots if s not in FIXED], 5)
    lines, wrong = [], []
    for stem in chosen:
        image = cv2.imread(str(SCREENS / f"{stem}.png"))
        truth = (SCREENS / f"{stem}.txt").read_text(encoding="utf-8").split()
        as_given = _verdict(image, truth, skins)
        lines.append(f"  {stem} as given: {as_given}")
        if as_given != "right":
            wrong.append(lines[-1])
        for name, (turn, turned_truth) in TURNS.items():
            verdict = _verdict(turn(image), turned_truth(truth), skins)
            lines.append(f"  {stem} {name}: {verdict}")
            if verdict.startswith("WRONG"):
                wrong.append(lines[-1])
    print("\n" + "\n".join(lines) + f"\n{REPLAY}")
    assert not wrong, "\n".join(wrong) + f"\n{REPLAY}"


def test_resized_screenshots_are_not_refused_as_turned():
    import cv2

    skins = load_skins()
    marked = sorted(path.stem for path in SCREENS.glob("*.png")
                    if (SCREENS / f"{path.stem}.txt").is_file() and set("F?") & set((SCREENS / f"{path.stem}.txt").read_text(encoding="utf-8")))
    rng = random.Random(SEED)
    cases = [("gm-medium-600-marked", 1.1563)] + [(stem, round(rng.uniform(0.85, 1.25), 3)) for stem in rng.sample(marked, 6)]
    lines, bad = [], []
    for stem, factor in cases:
        truth = (SCREENS / f"{stem}.txt").read_text(encoding="utf-8").split()
        verdict = _verdict(resized(cv2.imread(str(SCREENS / f"{stem}.png")), factor), truth, skins)
        lines.append(f"  {stem} x{factor}: {verdict}")
        if verdict.startswith(("WRONG", "refused as turned")):
            bad.append(lines[-1])
    print("\n" + "\n".join(lines) + f"\n{REPLAY}")
    assert not bad, "\n".join(bad) + f"\n{REPLAY}"
