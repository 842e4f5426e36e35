"""``screenbot read IMAGE``: find the board on a screenshot and print it in the board text format."""

from __future__ import annotations

import argparse
import json

from ..exit_codes import EXIT_OK
from .common import add_lattice_argument, add_templates_argument, output_folder
from .screenshot import read_screenshot


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "read",
        help="print the board shown on a screenshot",
        description="Locate the Minesweeper board on a screenshot (PNG/JPEG, anywhere on the picture, any "
        "cell size) and print it in the board text format ('#' covered, 'F' flag, '?' question mark, "
        "'0'-'8' numbers, '*' mine, 'X' exploded mine, 'W' wrong flag). With --lattice the board is not "
        "searched for: it is read where the option says. Exit codes: 0 ok, 2 bad arguments, unreadable "
        "file or a --lattice not fully on the picture, 4 no board found, 5 the board could not be read (a cell not recognized, a board no game could show, or "
        "colours changed from the client's own: refused rather than guessed).",
    )
    parser.add_argument("image", help="screenshot file")
    parser.add_argument("--skin", default="auto", help="client skin name, or auto (default) to try them all")
    add_lattice_argument(parser, "image", "--skin")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object: skin, rows, cols, origin, pitch, board, min_confidence")
    add_templates_argument(parser)
    parser.add_argument("--crops", type=output_folder, help="folder for the crop of an unrecognized cell (default: a temp folder)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..capture import load_image
    from ..vision import load_skins
    from ..vision.skins import check_skin_name

    # An unreadable image (InputError) or skin (SkinError) reaches cli.main: exit 2.
    frame = load_image(args.image)
    skins = load_skins()
    check_skin_name(args.skin, skins)
    reading = read_screenshot(args.image, frame, skins, args.skin, args.lattice, crops_dir=args.crops,
                              explain_unrecognized=True)
    if isinstance(reading, int):
        return reading
    lattice = reading.lattice
    text = "\n".join(reading.board.grid)
    if args.json:
        print(json.dumps({
            "skin": lattice.skin,
            "rows": lattice.rows,
            "cols": lattice.cols,
            "origin": [round(lattice.origin[0], 2), round(lattice.origin[1], 2)],
            "pitch": [round(lattice.pitch[0], 3), round(lattice.pitch[1], 3)],
            **({"scale": lattice.scale} if lattice.scale != 1.0 else {}),  # a desktop at 200%: 2.0
            "board": text,
            "min_confidence": round(reading.min_confidence, 4),
        }))
    else:
        print(text)
    return EXIT_OK
