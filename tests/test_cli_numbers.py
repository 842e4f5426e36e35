"""The argparse number types every command shares: their bounds, and words that name what is wrong."""

import argparse
import random

import pytest

from screenbot.commands.common import bounded_float, bounded_int, seconds

pytestmark = pytest.mark.unit


def test_bounded_float_takes_its_ends_and_refuses_past_them():
    weight = bounded_float(0, 10, example="0.2")
    assert weight("0") == 0.0 and weight("10") == 10.0 and weight("0.2") == 0.2
    for text in ("-0.001", "10.001", "nan", "inf", "-inf"):
        with pytest.raises(argparse.ArgumentTypeError, match="expected a number from 0 to 10"):
            weight(text)
    with pytest.raises(argparse.ArgumentTypeError, match="such as 0.2, got 'x'"):
        weight("x")


def test_seconds_must_be_above_zero_and_at_most_a_day():
    assert seconds("86400") == 86_400.0 and seconds("0.5") == 0.5
    for text in ("0", "-1", "86400.5", "nan", "inf"):
        with pytest.raises(argparse.ArgumentTypeError, match=r"expected seconds above 0 and at most 86400 \(a day\)"):
            seconds(text)
    with pytest.raises(argparse.ArgumentTypeError, match="expected seconds such as 30 or 2.5"):
        seconds("soon")


def test_random_numbers_are_taken_exactly_when_inside():
    seed = random.SystemRandom().randrange(10**6)
    print(f"seed {seed}")  # shown when the test fails: replay with random.Random(seed)
    rng = random.Random(seed)
    for _ in range(500):
        low = rng.uniform(-100, 100)
        high = low + rng.uniform(0, 100)
        above_low = rng.random() < 0.5
        parse = bounded_float(low, high, example="1", above_low=above_low)
        value = rng.choice([low, high, rng.uniform(low - 50, high + 50)])
        inside = low < value <= high if above_low else low <= value <= high
        if inside:
            assert parse(repr(value)) == value
        else:
            with pytest.raises(argparse.ArgumentTypeError):
                parse(repr(value))


def test_bounded_int_names_its_reason():
    games = bounded_int(1, 200, "a learning run")
    assert games("1") == 1 and games("200") == 200
    with pytest.raises(argparse.ArgumentTypeError, match=r"from 1 to 200 \(a learning run\), got 201"):
        games("201")
    with pytest.raises(argparse.ArgumentTypeError, match="expected a whole number, got '2.5'"):
        games("2.5")
