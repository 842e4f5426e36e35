"""Argument types and output helpers shared by commands."""

from __future__ import annotations

import argparse
import sys


def cell_argument(text: str) -> tuple[int, int]:
    """Parse ``ROW,COL`` (0-based)."""
    try:
        row, col = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ROW,COL such as 3,3, got {text!r}") from None
    if row < 0 or col < 0:
        raise argparse.ArgumentTypeError(f"cell {text!r} has a negative coordinate")
    return row, col


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number above zero, got {value}")
    return value


def fail(message: str, code: int) -> int:
    print(f"screenbot: {message}", file=sys.stderr)
    return code


def add_lattice_argument(parser: argparse.ArgumentParser, pixels: str, skin_option: str) -> None:
    """``--lattice``: the board placed by hand (``screenbot.given_lattice``); ``pixels`` says whose
    pixels the numbers are in ("image", "screen"), ``skin_option`` which option names the skin."""
    from ..given_lattice import EXAMPLE, parse_lattice

    parser.add_argument(
        "--lattice", type=parse_lattice, metavar="LEFT,TOP,PITCH,ROWSxCOLS",
        help=f"do not search for the board, use this one (e.g. {EXAMPLE}): LEFT,TOP the top-left corner of "
        f"cell (0,0)'s pitch box in {pixels} pixels, PITCH the distance between the starts of neighbouring "
        "cells (one number, or PXxPY; fractions allowed), ROWSxCOLS the board size. The skin is the one "
        f"named with {skin_option}, else the one that reads these cells best",
    )
