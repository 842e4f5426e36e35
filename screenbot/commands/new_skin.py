"""``screenbot new-skin NAME --shot IMAGE --board BOARD ...``: teach the reader a new client.

From one or two screenshots of the new client and the true board shown on each (text format), find
the cell grid, cut the cell pictures into ``templates/NAME/``, then check that ``read`` (with the new
skin and with ``auto``) gives back exactly the true boards.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .common import fail

EXIT_USAGE = 2
EXIT_NO_BOARD = 4
EXIT_CHECK_FAILED = 6


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "new-skin",
        help="make a skin for a new client from screenshots and their true boards",
        description="Give one or more screenshots of a client (--shot) each with its true board in the text "
        "format (--board, same order). Cells of every state you want recognised must appear in them. "
        "Writes templates/NAME/cells/*.png and a default profile.json, then re-reads the screenshots to check. "
        "Exit codes: 0 ok, 2 bad arguments or unreadable files, 4 no grid of the board's size found, "
        "6 the new skin does not read the screenshots back exactly.",
    )
    parser.add_argument("name", help="skin name (a folder name: letters, digits, - and _)")
    parser.add_argument("--shot", action="append", required=True, help="screenshot of the client (repeatable)")
    parser.add_argument("--board", action="append", required=True, help="true board of that screenshot")
    parser.add_argument("--templates", help="templates folder (default: the project's templates/)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import re

    from solver.board import parse_board
    from solver.errors import BoardFormatError

    from ..capture import load_image
    from ..errors import BoardNotFoundError, ImageReadError, ScreenError
    from ..vision import load_skins, locate_board, read_board
    from ..vision.newskin import make_skin
    from ..vision.skins import TEMPLATES_DIR

    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", args.name):
        return fail(f"skin name {args.name!r} must be letters, digits, - and _", EXIT_USAGE)
    if len(args.shot) != len(args.board):
        return fail(f"{len(args.shot)} --shot but {len(args.board)} --board: give one board per screenshot", EXIT_USAGE)
    examples = []
    for shot, board_path in zip(args.shot, args.board):
        try:
            image = load_image(shot)
            board = parse_board(Path(board_path).read_text())
        except ImageReadError as exc:
            return fail(str(exc), EXIT_USAGE)
        except OSError as exc:
            return fail(f"cannot read {board_path}: {exc.strerror or exc}", EXIT_USAGE)
        except BoardFormatError as exc:
            return fail(f"{board_path}: {exc}", EXIT_USAGE)
        examples.append((image, board))
    templates = Path(args.templates) if args.templates else TEMPLATES_DIR
    try:
        fits = make_skin(args.name, examples, templates)
    except BoardNotFoundError as exc:
        return fail(str(exc), EXIT_NO_BOARD)
    for shot, fit in zip(args.shot, fits):
        lat = fit.lattice
        print(f"{shot}: {lat.rows}x{lat.cols} cells, pitch {lat.pitch[0]:.2f}x{lat.pitch[1]:.2f} px, "
              f"top-left cell at ({lat.origin[0]:.1f}, {lat.origin[1]:.1f})")
    print(f"wrote {templates / args.name}")
    skins = load_skins(templates)
    failed = 0
    for (image, board), shot in zip(examples, args.shot):
        for mode in (args.name, "auto"):
            try:
                lattice = locate_board(image, skins, skin=mode)
                got = read_board(image, lattice, skins).board
            except ScreenError as exc:
                print(f"check {shot} ({mode}): FAILED: {exc}")
                failed += 1
                continue
            if lattice.skin != args.name or got.grid != board.grid:
                print(f"check {shot} ({mode}): FAILED: read as {lattice.skin} {got.rows}x{got.cols}, not the true board")
                failed += 1
            else:
                print(f"check {shot} ({mode}): ok")
    if failed:
        return fail(f"the new skin does not read {failed} check(s) back; see above", EXIT_CHECK_FAILED)
    return 0
