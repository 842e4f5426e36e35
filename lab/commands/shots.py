"""``python3 -m lab shots``: capture labelled screenshots of the real clients (the fixture set).

Starts a virtual display, runs the named capture recipes (all by default) on the real clients, and
writes ``<name>.png`` / ``.txt`` (true board) / ``.json`` (lattice, truth source) per screenshot.
Truth never comes from the recognizer: see ``lab/shots/labels.py`` and the DevTools reader.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from screenbot.exit_codes import EXIT_FAILED, EXIT_USAGE
from screenbot.commands.common import fail

log = logging.getLogger(__name__)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "shots",
        help="capture labelled screenshots of the real clients under a virtual display",
        description="Run capture recipes on gnome-mines, xdemineur and react-minesweeper in a new Xvfb "
        "display and save each screenshot with its true board (by the game's rules, or the page's state). "
        "Exit codes: 0 ok, 1 a recipe failed, 2 bad arguments.",
    )
    parser.add_argument("--out", default="fixtures/screens", help="output folder (default: fixtures/screens)")
    parser.add_argument("--recipe", action="append", default=[], help="run only this recipe (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the recipes and exit")
    parser.add_argument("--full-frame", action="append", default=[], metavar="RECIPE",
                        help="save this recipe's first shot as the full 1280x1024 screen (repeatable)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..shots.recipes import RECIPES

    if args.list:
        for recipe in RECIPES:
            role = "templates" if recipe.for_templates else "held back"
            print(f"{recipe.name:18} {recipe.client:18} {role:10} {recipe.options}")
        return 0
    known = {r.name: r for r in RECIPES}
    unknown = [name for name in args.recipe if name not in known]
    if unknown:
        return fail(f"unknown recipe(s) {', '.join(unknown)}; see --list", EXIT_USAGE)
    chosen = [known[name] for name in args.recipe] if args.recipe else list(RECIPES)

    from screenbot.capture import MssScreen
    from screenbot.desktop.display import VirtualDisplay
    from ..shots.recipes import run_recipe
    from ..shots.store import save_shot

    out = Path(args.out)
    failures = 0
    with VirtualDisplay(), MssScreen() as screen:
        for recipe in chosen:
            try:
                shots = run_recipe(recipe, screen)
            except Exception as exc:  # one client failing must not lose the other recipes' shots
                log.exception("recipe %s failed", recipe.name)
                print(f"{recipe.name}: FAILED: {exc}")
                failures += 1
                continue
            for i, shot in enumerate(shots):
                full = recipe.name in args.full_frame and i == 0
                save_shot(shot, out, for_templates=recipe.for_templates, full_frame=full)
            print(f"{recipe.name}: {len(shots)} shots")
    return EXIT_FAILED if failures else 0
