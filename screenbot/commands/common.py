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
