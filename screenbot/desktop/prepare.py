"""``python3 -m screenbot.desktop.prepare CLIENT...``: make what a client needs before its first start
(minegauler's venv, winemine's Wine prefix, the browser client's page), as CI does before the tests, so that time shows apart.

A module of its own: run as ``__main__``, a module that ``screenbot.desktop`` imports would be loaded
twice (Python warns about it).
"""

from __future__ import annotations

import logging
import sys


def main(argv: list[str]) -> int:
    from ..errors import ScreenError
    from .browser import react_minesweeper_dist
    from .launch import launch_for
    from .minegauler import ensure_minegauler_venv
    from .winemine import ensure_prefix

    preparers = {"minegauler": ensure_minegauler_venv, "winemine": ensure_prefix,
                 "react-minesweeper": lambda packages: react_minesweeper_dist()}
    unknown = [name for name in argv if name not in preparers]
    if not argv or unknown:
        print(f"usage: python3 -m screenbot.desktop.prepare {{{','.join(preparers)}}}...", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    status = 0
    for name in argv:
        try:
            print(f"{name}: {preparers[name](launch_for(name).packages)}")
        except ScreenError as exc:
            print(f"{name}: error: {exc}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
