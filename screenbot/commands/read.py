"""``screenbot read IMAGE``: find the board on a screenshot and print it in the board text format."""

from __future__ import annotations

import argparse
import json

from ..exit_codes import EXIT_NO_BOARD, EXIT_OK, EXIT_UNREADABLE, EXIT_USAGE
from .common import add_lattice_argument, fail


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "read",
        help="print the board shown on a screenshot",
        description="Locate the Minesweeper board on a screenshot (PNG/JPEG, anywhere on the picture, any "
        "cell size) and print it in the board text format ('#' covered, 'F' flag, '?' question mark, "
        "'0'-'8' numbers, '*' mine, 'X' exploded mine, 'W' wrong flag). With --lattice the board is not "
        "searched for: it is read where the option says. Exit codes: 0 ok, 2 bad arguments, unreadable "
        "file or a --lattice not fully on the picture, 4 no board found, 5 the board could not be read (a cell not recognized, or a board no game could show: "
        "refused rather than guessed).",
    )
    parser.add_argument("image", help="screenshot file")
    parser.add_argument("--skin", default="auto", help="client skin name, or auto (default) to try them all")
    add_lattice_argument(parser, "image", "--skin")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object: skin, rows, cols, origin, pitch, board, min_confidence")
    parser.add_argument("--templates", metavar="DIR", help="a folder of your own skins, read beside the shipped "
                        "ones and replacing any of the same name (also: the SCREENBOT_TEMPLATES environment variable)")
    parser.add_argument("--crops", help="folder for the crop of an unrecognized cell (default: a temp folder)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..capture import load_image
    from ..errors import (
        BoardNotFoundError,
        ImplausibleBoardError,
        InputError,
        SkinError,
        UnrecognizedCellError,
    )
    from ..given_lattice import LatticeOffFrameError, choose_skin
    from ..vision import load_skins, locate_board, read_board
    from ..vision.plausible import check_plausible
    from ..skin_folders import skin_folders

    try:
        frame = load_image(args.image)
    except InputError as exc:
        return fail(str(exc), EXIT_USAGE)
    lattice = None
    try:
        skins = load_skins(skin_folders(args.templates))
        if args.skin != "auto" and args.skin not in skins:
            return fail(f"unknown skin {args.skin!r}; known: {', '.join(sorted(skins))}, auto", EXIT_USAGE)
        if args.lattice is not None:
            # The skin is chosen by reading the lattice; an unrecognized cell's error names its skin.
            reading = choose_skin(frame, args.lattice, skins, args.skin, crops_dir=args.crops)
            lattice = reading.lattice
        else:
            lattice = locate_board(frame, skins, skin=args.skin)
            reading = read_board(frame, lattice, skins, crops_dir=args.crops)
        check_plausible(reading.board, skins[lattice.skin])
    except SkinError as exc:
        return fail(str(exc), EXIT_USAGE)
    except LatticeOffFrameError as exc:
        return fail(f"{args.image}: {exc}", EXIT_USAGE)
    except BoardNotFoundError as exc:
        return fail(f"{args.image}: {exc}", EXIT_NO_BOARD)
    except UnrecognizedCellError as exc:
        skin = lattice.skin if lattice is not None else None if args.skin == "auto" else args.skin
        hint = _missing_states_hint(skins[skin]) if skin is not None else ""
        where = " at the --lattice position" if args.lattice is not None else ""
        return fail(f"{args.image}{where}: {exc}{hint}", EXIT_UNREADABLE)
    except ImplausibleBoardError as exc:
        return fail(f"{args.image}: {exc}", EXIT_UNREADABLE)
    text = "\n".join(reading.board.grid)
    if args.json:
        print(json.dumps({
            "skin": lattice.skin,
            "rows": lattice.rows,
            "cols": lattice.cols,
            "origin": [round(lattice.origin[0], 2), round(lattice.origin[1], 2)],
            "pitch": [round(lattice.pitch[0], 3), round(lattice.pitch[1], 3)],
            "board": text,
            "min_confidence": round(reading.min_confidence, 4),
        }))
    else:
        print(text)
    return EXIT_OK


def _missing_states_hint(skin) -> str:
    """A skin made with ``new-skin`` knows only the states its screenshots showed: say which it lacks,
    since a cell showing one of them can only be "unrecognized"."""
    from ..vision.newskin import ALL_STATES, state_names

    missing = "".join(ch for ch in ALL_STATES if ch not in skin.chars)
    if not missing:
        return ""
    return (f"; skin {skin.name!r} has no picture of {state_names(missing)}: if the cell shows one of these, "
            f"add a screenshot showing it (screenbot new-skin)")
