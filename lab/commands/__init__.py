"""One module per lab command; see ``lab.cli``. Options shared by several commands are here."""

from __future__ import annotations

import argparse
from pathlib import Path

# The labelled screenshots of the checkout the lab runs from.
SCREENS = Path(__file__).resolve().parents[2] / "fixtures" / "screens"


def add_window_option(parser: argparse.ArgumentParser, why: str = "") -> None:
    """``--window WxH``, gnome-mines' window size, parsed to (width, height): 200x200 at least."""

    def parse(text: str) -> tuple[int, int]:
        try:
            width, height = (int(v) for v in text.lower().split("x"))
        except ValueError:
            raise argparse.ArgumentTypeError(f"must look like 600x400, not {text!r}") from None
        if width < 200 or height < 200:
            raise argparse.ArgumentTypeError(f"{text} is too small for a board")
        return width, height

    parser.add_argument("--window", type=parse, default=(600, 400), metavar="WxH",
                        help=f"gnome-mines window size (default 600x400{why})")


def comma_numbers(kind):
    """An argparse type: a comma-separated list of ``kind`` (int, float); empty parts left out."""

    def parse(text: str) -> list:
        try:
            return [kind(part) for part in text.split(",") if part.strip()]
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a comma-separated list of numbers: {text!r}") from None
    return parse
