"""Argument types and output helpers shared by commands."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..outputs import check_output_file, check_output_folder


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


# The largest board side any command takes (rows or columns): a 256x256 board is 65,536 cells, far
# beyond any client; bigger ones only make the solver and the eyes run for minutes.
MAX_SIDE = 256


def bounded_int(low: int, high: int, why: str = ""):
    """An argparse type: a whole number from ``low`` to ``high``; ``why`` explains the upper bound."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if not low <= value <= high:
            because = f" ({why})" if why else ""
            raise argparse.ArgumentTypeError(f"expected a number from {low} to {high:,}{because}, got {value:,}")
        return value

    return parse


def bounded_float(low: float, high: float, *, noun: str = "a number", example: str, above_low: bool = False, why: str = ""):
    """An argparse type: a number from ``low`` to ``high`` (above ``low`` with ``above_low``), never
    nan or inf; ``noun`` and ``example`` word the error, ``why`` explains the upper bound."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {noun} such as {example}, got {text!r}") from None
        inside = low < value <= high if above_low else low <= value <= high  # also False for nan
        if not inside:
            span = f"above {low:g} and at most {high:g}" if above_low else f"from {low:g} to {high:g}"
            because = f" ({why})" if why else ""
            raise argparse.ArgumentTypeError(f"expected {noun} {span}{because}, got {text!r}")
        return value

    return parse


# A duration in seconds, above zero and at most a day.
seconds = bounded_float(0, 86_400, noun="seconds", example="30 or 2.5", above_low=True, why="a day")


def worker_count(text: str) -> int:
    """An argparse type: worker processes, at most one per core of this machine."""
    import os

    cores = os.cpu_count() or 1
    return bounded_int(1, cores, f"this machine has {cores} cores")(text)


def fail(message: str, code: int) -> int:
    print(f"screenbot: {message}", file=sys.stderr)
    return code


def add_templates_argument(parser: argparse.ArgumentParser, help: str | None = None) -> None:
    """``--templates DIR``: a folder of the user's own skins (``cli.main`` hands it to ``skin_folders``)."""
    parser.add_argument(
        "--templates", metavar="DIR", type=_folder_or_new,
        help=help or "a folder of your own skins (made by new-skin or learn), read beside the shipped ones and "
        "replacing any of the same name (also: the SCREENBOT_TEMPLATES environment variable)",
    )


def skin_name(value: str) -> str:
    """An argparse type: the name of a skin to write (a folder name; ``auto`` is taken)."""
    import re

    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", value):
        raise argparse.ArgumentTypeError(f"skin name {value!r} must be letters, digits, - and _")
    if value == "auto":
        raise argparse.ArgumentTypeError("'auto' is reserved (it means: any known skin); choose another name")
    return value


def _folder_or_new(value: str) -> str:
    if Path(value).exists() and not Path(value).is_dir():
        raise argparse.ArgumentTypeError(f"{value}: is not a folder")
    return value


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


# Key names ``--restart`` takes (pyautogui's names, checked here without importing it: that needs a display).
NAMED_KEYS = frozenset({"ctrl", "shift", "alt", "enter", "return", "escape", "esc", "space", "tab", "backspace",
                        "delete", "insert", "home", "end", "pageup", "pagedown", "up", "down", "left", "right"}
                       | {f"f{n}" for n in range(1, 13)})


def key_chord(text: str) -> tuple[str, ...]:
    """``--restart KEYS``: keys joined by "+" (``s``, ``ctrl+n``, ``f2``)."""
    keys = tuple(part.strip().lower() for part in text.split("+"))
    unknown = [key for key in keys if not (len(key) == 1 and key.isalnum()) and key not in NAMED_KEYS]
    if unknown:
        raise argparse.ArgumentTypeError(f"{text!r}: unknown key(s) {', '.join(map(repr, unknown))}; give keys "
                                         "joined by +, e.g. s, ctrl+n, f2")
    return keys


def output_png(value: str) -> Path:
    """An argparse type: a PNG written at the end of the run, checked now (``outputs``)."""
    return _checked(lambda: check_output_file(value, ".png"))


def output_folder(value: str) -> Path:
    """An argparse type: a folder files are written into during the run, checked now (``outputs``)."""
    return _checked(lambda: check_output_folder(value))


def _checked(check):
    from ..errors import InputError

    try:
        return check()
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
