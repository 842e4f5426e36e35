"""``python3 -m lab <command>``: the lab's commands through screenbot's own entry point (logging
options, exit codes, error messages alike)."""

from __future__ import annotations

from typing import Sequence

from screenbot import cli

COMMAND_MODULES = (
    "lab.commands.templates",
    "lab.commands.shots",
    "lab.commands.hint_bench",
    "lab.commands.play_speed",
    "lab.commands.classic_look",
    "lab.commands.digit_shapes",
    "lab.commands.colour_sweep",
    "lab.commands.detail_margins",
    "lab.commands.learn_all",
)
DESCRIPTION = (
    "The fixture lab of a screenbot checkout: capture labelled screenshots of the real clients, regenerate "
    "the skins' cell pictures, time the live overlay, compare play's speed under X11 and Wayland, read the classic look on clients it was not taught, measure its number shapes, read shots with their colours changed, measure the pixel look's margins, learn every client from zero labels."
)


def main(argv: Sequence[str] | None = None) -> int:
    return cli.main(argv, commands=COMMAND_MODULES, prog="python3 -m lab", description=DESCRIPTION)
