"""``screenbot hint``: show the solver's hints over a game a person is playing, or on a screenshot.

Live: ``screenbot hint [--client NAME|auto] [--record DIR]`` finds the game window, then keeps a
click-through overlay above it with the mine probability of every covered cell, the certain safe cells
and mines, and the recommended move, until the game window closes (or Ctrl-C).

Offline: ``screenbot hint --image IN.png --out OUT.png`` draws the same hints on a screenshot.

Both take ``--lattice LEFT,TOP,PITCH,ROWSxCOLS`` for a board the locator misses (``screenbot.given_lattice``).

Exit codes: 0 ok (live: the game window closed or Ctrl-C), 2 bad arguments or unreadable image, 3 no usable
display, 4 no game window or no board found, 5 a cell could not be recognized (or the board read is
implausible), 6 the board read is impossible (no mine placement fits its numbers).
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

from ..exit_codes import EXIT_IMPOSSIBLE, EXIT_NO_BOARD, EXIT_NO_DISPLAY, EXIT_OK, EXIT_UNREADABLE, EXIT_USAGE
from .common import add_lattice_argument, add_templates_argument, cell_argument, fail, output_png, seconds
from .screenshot import read_screenshot

log = logging.getLogger(__name__)

def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "hint",
        help="draw mine probabilities and the best move over a game a person plays (or a screenshot)",
        description="Live: keep a click-through overlay above the game window showing each covered cell's "
        "mine probability (colour, and the percentage on large cells), certain safe cells and mines, and "
        "the recommended move; it follows the window and ends when the window closes. Offline (--image): "
        "draw the same hints on a screenshot. With --lattice the board is not searched for: it is read where "
        "the option says (in screen pixels live, image pixels with --image). Exit codes: 0 ok, 2 bad "
        "arguments, unreadable image or a --lattice not fully on the screen or image, 3 no usable display, "
        "4 no game window or board found, 5 unrecognized cell, a board no game could show or (--image) colours changed from the client's own, "
        "6 impossible board.",
    )
    parser.add_argument("--client", default="auto", metavar="NAME|auto", help="live: the skin of the game to follow (default auto: any known skin on the screen)")
    parser.add_argument("--skin", default="auto", metavar="NAME|auto", help="offline: the skin to read the screenshot with (default: auto)")
    parser.add_argument("--mines", type=int, help="the game's mine total (default: from the skin's profile for the board size, else unknown)")
    parser.add_argument("--first-click", type=cell_argument, metavar="ROW,COL", help="the move to recommend on an untouched board")
    parser.add_argument("--record", type=Path, metavar="DIR", help="record every changed frame, board, analysis and hint into DIR (live only)")
    parser.add_argument("--seconds", type=seconds, help="stop after this many seconds (live; default: until the game window closes)")
    parser.add_argument("--image", type=Path, metavar="IN.png", help="offline: a screenshot to draw the hints on")
    parser.add_argument("--out", type=output_png, metavar="OUT.png", help="offline: where to write the picture")
    parser.add_argument("--style", choices=("fill", "frame"), default="fill", help="offline drawing style: fill (tinted cells, the default) or frame (the live overlay's look)")
    parser.add_argument("--json", action="store_true", help="print a JSON summary")
    add_lattice_argument(parser, "screen pixels (live) or image", "--client (live) or --skin (--image)")
    add_templates_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.mines is not None and args.mines < 0:
        return fail("--mines must not be negative", EXIT_USAGE)
    if args.image is not None or args.out is not None:
        if args.image is None or args.out is None:
            return fail("--image and --out go together (offline mode needs both)", EXIT_USAGE)
        if args.record is not None or args.seconds is not None:
            return fail("--record and --seconds are for the live overlay, not with --image", EXIT_USAGE)
        return _run_offline(args)
    return _run_live(args)


# --- offline ------------------------------------------------------------------------------------------


def _run_offline(args: argparse.Namespace) -> int:
    from solver.errors import InconsistentBoardError
    from solver.policy import decide

    from ..capture import load_image, save_picture
    from ..errors import InputError, SkinError
    from ..overlay.draw import draw_hints
    from ..overlay.marks import FILL_STYLE, FRAME_STYLE, Hints
    from ..play.live import load_skins
    from ..play.rules import hint_policy, mine_total

    try:
        frame = load_image(args.image)
    except InputError as exc:
        return fail(str(exc), EXIT_USAGE)
    try:
        skins = load_skins()
    except SkinError as exc:
        return fail(str(exc), EXIT_USAGE)
    reading = read_screenshot(args.image, frame, skins, args.skin, args.lattice)
    if isinstance(reading, int):
        return reading
    lattice = reading.lattice
    board = reading.board
    profile = _profile(lattice.skin)
    mines = mine_total(args.mines, profile, board.rows, board.cols)
    if board.mines is None and mines is not None:
        board = board.with_mines(mines)
    if board.is_over:
        return fail(f"{args.image}: the game on this screenshot is over; there is nothing to hint", EXIT_NO_BOARD)
    first = args.first_click
    if first is not None and not (first[0] < board.rows and first[1] < board.cols):
        return fail(f"--first-click {first[0]},{first[1]} is off the {board.rows}x{board.cols} board", EXIT_USAGE)
    if mines is not None and mines >= board.rows * board.cols:
        return fail(f"--mines {mines} does not fit the {board.rows}x{board.cols} board", EXIT_USAGE)
    try:
        decision = decide(board, hint_policy(first, profile, board))
    except InconsistentBoardError as exc:
        return fail(f"{args.image}: the board read is impossible: {exc}", EXIT_IMPOSSIBLE)
    hints = Hints.from_decision(decision)
    style = FILL_STYLE if args.style == "fill" else FRAME_STYLE
    picture = draw_hints(frame, lattice, hints, style)
    try:
        save_picture(args.out, picture)
    except OSError as exc:
        return fail(f"{args.out}: could not write the picture: {exc.strerror or exc}", EXIT_USAGE)
    move = decision.moves[0] if decision.moves else None
    summary = {
        "image": str(args.image),
        "out": str(args.out),
        "skin": getattr(lattice, "skin", None),
        "rows": board.rows,
        "cols": board.cols,
        "mines": board.mines,
        "safe": len(hints.safe),
        "mines_known": len(hints.mines),
        "move": None if move is None else {"action": move.action, "row": move.row, "col": move.col, "probability": move.probability},
    }
    if args.json:
        print(json.dumps(summary))
    else:
        what = "no move" if move is None else f"{move.action} row {move.row}, col {move.col} ({100 * move.probability:.1f}% mine)"
        print(f"{args.out}: {board.rows}x{board.cols} board, {len(hints.safe)} safe, {len(hints.mines)} certain mines; recommended: {what}")
    return EXIT_OK


# --- live ---------------------------------------------------------------------------------------------


def _profile(skin: str):
    """The skin's play profile (mine totals, first-click rule), or None when the skin has none."""
    from ..errors import SkinError
    from ..play.live import profile_for

    try:
        return profile_for(skin)
    except SkinError:
        log.info("skin %s has no play profile: the mine total is unknown", skin)
        return None


def _run_live(args: argparse.Namespace) -> int:
    import time

    from ..errors import (
        BoardNotFoundError,
        DisplayError,
        InputError,
        SkinError,
        UnrecognizedCellError,
        WindowGoneError,
    )
    from ..geometry import Rect
    from ..given_lattice import LatticeOffFrameError
    from ..overlay.live import HintConfig, HintSession
    from ..platforms import open_desktop
    from ..play.live import check_client, find_game, game_vision, load_skins
    from ..recording import Recorder, RecordingError
    from ..recording.recorder import check_record_dir

    # Everything the arguments can be checked against without the screen, before the screen.
    try:
        desktop = open_desktop()
        skins = load_skins()
        check_client(skins, args.client, to_play=False)
        if args.record is not None:
            check_record_dir(args.record)
    except (SkinError, RecordingError, InputError) as exc:
        return fail(str(exc), EXIT_USAGE)
    # These errors reach cli.main, which gives their exit codes (DisplayError 3, InputError 2).
    desktop.require_screen("run this on the desktop where the game is shown")
    if desktop.overlay_refusal is not None:
        raise InputError(desktop.overlay_refusal)
    screen = desktop.screen()
    overlay = recorder = session = None
    ended = "stopped"
    try:
        found = find_game(screen, skins, desktop, args.client, lattice=args.lattice)
        if found.window is None:
            return fail("found a board but no window around it to follow", EXIT_NO_BOARD)
        overlay = desktop.overlay(found.window)
        session = HintSession(
            screen=screen,
            screen_rect=Rect(0, 0, *screen.size),
            vision=game_vision(skins, found),
            overlay=overlay,
            profile=_profile(found.skin),
            # A look read from its structure (the classic look) is told by its cells' edges.
            config=HintConfig(mines=args.mines, first_click=args.first_click, edges_tell_cells=bool(skins[found.skin].family)),
        )
        if args.record is not None:
            # Each step is stored with the exact solver settings it was solved with, for ``replay``.
            recorder = Recorder(
                args.record, command="hint", skin=found.skin, client=args.client,
                policy=session.policy_for, mines=session.mines_for,
            )
            session.observer = recorder
        deadline = None if args.seconds is None else time.monotonic() + args.seconds
        try:
            session.run(should_stop=lambda: deadline is not None and time.monotonic() >= deadline)
        except WindowGoneError:
            ended = "the game window closed"
        except KeyboardInterrupt:
            ended = "interrupted"
    except (RecordingError, SkinError, LatticeOffFrameError, InputError) as exc:
        return fail(str(exc), EXIT_USAGE)
    except BoardNotFoundError as exc:
        return fail(f"no Minesweeper board found: {exc}", EXIT_NO_BOARD)
    except UnrecognizedCellError as exc:
        return fail(str(exc), EXIT_UNREADABLE)
    except DisplayError as exc:
        return fail(str(exc), EXIT_NO_DISPLAY)
    finally:
        if overlay is not None:
            overlay.close()
        if recorder is not None:
            recorder.close()
        screen.close()
    stats = session.stats.as_dict()
    stats["ended"] = ended
    if recorder is not None:
        stats["record"] = str(args.record)
    if args.json:
        print(json.dumps(stats))
    else:
        median = stats["update_ms_median"]
        print(
            f"hint: {ended}; {stats['updates']} overlay updates over {stats['ticks']} looks at the board"
            + (f", median {median:.1f} ms from capture to overlay" if median is not None else "")
        )
    return EXIT_OK
