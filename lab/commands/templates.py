"""``python3 -m lab templates``: (re)generate the reference cell images of the known clients.

By default it starts a virtual display, plays the template recipes on each real client (see
``python3 -m lab shots --list``), labels every screenshot by the game's rules or the page's state, and
cuts each cell state at each captured size into ``templates/<skin>/cells/``. ``--from DIR`` cuts from
already saved labelled screenshots instead (those marked for templates). profile.json files are kept.
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

from screenbot.exit_codes import EXIT_FAILED, EXIT_USAGE
from screenbot.commands.common import fail

log = logging.getLogger(__name__)

CLIENTS = ("gnome-mines", "xdemineur", "react-minesweeper")
CELL_CHARS = "#F?012345678*XW"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "templates",
        help="regenerate the cell templates from the real clients",
        description="Start each real client under a new Xvfb display, play a few scripted games, label the "
        "screenshots by the rules of the game (desktop clients) or the page's state (browser client) and "
        "write templates/<skin>/cells/*.png. Exit codes: 0 ok, 1 a client failed, 2 bad arguments.",
    )
    parser.add_argument("--client", action="append", choices=CLIENTS, help="only this client (repeatable)")
    parser.add_argument("--out", default=None, help="skins folder (default: the skins shipped in the package, screenbot/templates/)")
    parser.add_argument("--from", dest="source", help="cut from labelled screenshots in this folder instead")
    parser.add_argument("--keep-shots", help="also save the captured labelled screenshots in this folder")
    parser.add_argument("--add-missing", metavar="CHARS",
                        help="with --from: only add pictures of these cell states (board characters, e.g. "
                        "12345678) at cell sizes the skin already has but lacks that state at, named "
                        "<state>-<size>-r<n>.png; every other picture is left as it is. For rules-checked "
                        "shots the locator cannot read yet (fixtures/screens-unsupported)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from screenbot.vision.cut import LabelledImage, cut_cells, write_cells
    from screenbot.vision.skins import TEMPLATES_DIR

    out = Path(args.out) if args.out else TEMPLATES_DIR
    if args.add_missing is not None and not args.source:
        return fail("--add-missing needs --from DIR (the labelled screenshots to cut from)", EXIT_USAGE)
    if args.add_missing is not None and not set(args.add_missing) <= set(CELL_CHARS):
        return fail(f"--add-missing takes board characters ({CELL_CHARS}), not {args.add_missing!r}", EXIT_USAGE)
    clients = args.client or list(CLIENTS)
    examples: dict[str, list[LabelledImage]] = {c: [] for c in clients}
    failures = 0
    if args.source:
        from screenbot.labelled_shots import load_shots

        source = Path(args.source)
        if not source.is_dir():
            return fail(f"{source} is not a folder", EXIT_USAGE)
        for shot in load_shots(source):
            if shot.client in examples and shot.for_templates:
                examples[shot.client].append(LabelledImage(shot.image(), shot.lattice, shot.board))
    else:
        failures = _capture(clients, examples, Path(args.keep_shots) if args.keep_shots else None)
    for client, images in examples.items():
        if not images:
            print(f"{client}: no labelled screenshots, templates left as they were")
            failures += 1
            continue
        folder = out / client
        if args.add_missing is not None:
            count = add_missing_cells(cut_cells(images), folder, args.add_missing)
            print(f"{client}: {count} pictures added from {len(images)} screenshots -> {folder}")
            continue
        count = write_cells(cut_cells(images), folder)
        if not (folder / "profile.json").exists():
            (folder / "profile.json").write_text(json.dumps({"client": client}, indent=1) + "\n", encoding="utf-8")
        print(f"{client}: {count} templates from {len(images)} screenshots -> {folder}")
    return EXIT_FAILED if failures else 0


def _capture(clients, examples, keep: Path | None) -> int:
    from screenbot.capture import MssScreen
    from screenbot.desktop.display import VirtualDisplay
    from ..shots.recipes import RECIPES, run_recipe
    from ..shots.store import save_shot
    from screenbot.vision.cut import LabelledImage

    failures = 0
    with VirtualDisplay(), MssScreen() as screen:
        for recipe in RECIPES:
            if recipe.client not in clients or not recipe.for_templates:
                continue
            try:
                shots = run_recipe(recipe, screen)
            except Exception as exc:  # keep the other clients' templates coming
                log.exception("recipe %s failed", recipe.name)
                print(f"{recipe.name}: FAILED: {exc}")
                failures += 1
                continue
            for shot in shots:
                examples[recipe.client].append(LabelledImage(shot.frame, shot.lattice, shot.board))
                if keep is not None:
                    save_shot(shot, keep, for_templates=True)
            print(f"{recipe.name}: {len(shots)} labelled screenshots")
    return failures


def add_missing_cells(cells: dict[tuple[str, float, float], list], skin_dir: Path, chars: str) -> int:
    """Add the pictures of the states ``chars`` at the cell sizes ``skin_dir/cells`` already has but
    lacks that state at, named ``<state>-<pitch>-r<n>.png`` (kept by ``write_cells``); returns how many.

    For rules-checked screenshots the locator cannot read yet: they may complete a size, but not
    start a new one or replace a picture cut from the readable fixtures."""
    import cv2

    from screenbot.vision.skins import CHAR_STATES, template_name

    folder = skin_dir / "cells"
    names = [p.stem for p in folder.glob("*.png")]
    have = {(n.split("-")[0], n.split("-")[1]) for n in names}
    written = 0
    for (ch, px, py), pictures in sorted(cells.items()):
        if ch not in chars:
            continue
        size = template_name(ch, (px, py), 0).split("-")[1]
        if (CHAR_STATES[ch], size) in have or not any(s == size for _, s in have):
            continue
        for i, picture in enumerate(pictures):
            cv2.imwrite(str(folder / template_name(ch, (px, py), f"r{i}")), picture)
            written += 1
    return written
