"""``python3 -m lab digit-shapes``: the classic look's number shapes, each client of the look measured
with its own pictures hidden, as the figures in ``screenbot.vision.digit_shapes`` say."""

from __future__ import annotations

import re

import pytest

from lab.cli import main as lab_main

from .seeds import REPLAY, with_regressions

pytestmark = pytest.mark.integration(seconds=8)


@pytest.mark.parametrize("seed", with_regressions(24389))
def test_the_shapes_refuse_no_labelled_number_and_read_none_wrong(capsys, seed):
    """No number of the labelled classic-look shots is refused by the colour's witness, none is read
    as another by its shape alone, no mine or wrong flag is taken for a number, and of lone digits in
    OpenCV's fonts (drawn at random) none is read wrong; most labelled numbers are read by shape.
    Seed 24389 drew a 4 a pixel wide in a colour 65 levels from its face, read as a 1: ink that faint
    is not read by its shape (``classic.shaped_digit``)."""
    code = lab_main(["digit-shapes", "--fonts", "100", "--seed", str(seed)])
    out = capsys.readouterr().out
    assert code == 0, f"drawn with seed {seed}; {REPLAY}\n{out}"
    read, cells = (int(v) for v in re.search(r"by shape alone, (\d+) number cells: (\d+) read", out).groups()[::-1])
    assert cells > 4000 and read > 0.9 * cells, out
