"""``python3 -m lab digit-shapes``: the classic look's number shapes, each client of the look measured
with its own pictures hidden, as the figures in ``screenbot.vision.digit_shapes`` say."""

from __future__ import annotations

import re

import pytest

from lab.cli import main as lab_main

from .seeds import REPLAY, SEED

pytestmark = pytest.mark.integration(seconds=8)


def test_the_shapes_refuse_no_labelled_number_and_read_none_wrong(capsys):
    """No number of the labelled classic-look shots is refused by the colour's witness, none is read
    as another by its shape alone, no mine or wrong flag is taken for a number, and of lone digits in
    OpenCV's fonts (drawn at random) none is read wrong; most labelled numbers are read by shape."""
    code = lab_main(["digit-shapes", "--fonts", "100", "--seed", str(SEED)])
    out = capsys.readouterr().out
    assert code == 0, f"{REPLAY}\n{out}"
    read, cells = (int(v) for v in re.search(r"by shape alone, (\d+) number cells: (\d+) read", out).groups()[::-1])
    assert cells > 4000 and read > 0.9 * cells, out
