"""``screenbot demo``: the whole product on any Linux machine, even one without a screen.

Starts a virtual display (Xvfb + openbox) when there is no X display, installs the Debian packages of
the client when they are missing and we are root (otherwise names the command to run), starts the
client, plays a few games on it with real screenshots and real clicks, prints the summary and saves a
PNG of the last board.
"""

from __future__ import annotations

import argparse
import logging
import sys

from ..desktop.launch import demo_clients
from ..exit_codes import EXIT_FAILED, EXIT_NO_BOARD, EXIT_NO_DISPLAY, EXIT_USAGE
from .common import add_templates_argument, fail, output_png
from .play import add_play_arguments, config_from_args

log = logging.getLogger(__name__)

# Each demo client and the start_client options it is started with (board size, a window size that
# gives readable cells): the "demo" entry of the launch section of its profile.
DEMO_CLIENTS = demo_clients()


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="start a client (and a virtual display if needed) and watch the bot play it",
        description="Start a real Minesweeper client (gnome-mines expert by default) and play it. With no "
        "X display, a virtual one (Xvfb + openbox) is started and stopped again at the end. Missing "
        "Debian packages are installed when running as root; otherwise the exact command is printed. "
        "Prints the same summary as 'screenbot play' and saves a PNG of the last board.",
    )
    parser.add_argument("--client", choices=sorted(DEMO_CLIENTS), default="gnome-mines", help="client to start (default gnome-mines, expert 16x30/99)")
    add_play_arguments(parser, games=3)
    parser.add_argument("--out", type=output_png, default="screenbot-demo-last-board.png", help="PNG of the last board (default screenbot-demo-last-board.png)")
    add_templates_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..desktop import ensure_display, start_client
    from ..errors import (
        BoardNotFoundError,
        ClientStartError,
        DisplayError,
        MissingPackagesError,
        WaylandSessionError,
    )

    args.dry_run = False
    if args.mines is None and "mines" in DEMO_CLIENTS[args.client]:
        args.mines = DEMO_CLIENTS[args.client]["mines"]  # we started it with this total
    try:
        display = ensure_display()
    except (WaylandSessionError, DisplayError, MissingPackagesError) as exc:
        return fail(str(exc), EXIT_NO_DISPLAY)
    try:
        print(f"screenbot demo: display {display.name}, starting {args.client}...", file=sys.stderr)
        try:
            client = start_client(args.client, **DEMO_CLIENTS[args.client])
        except MissingPackagesError as exc:
            return fail(str(exc), EXIT_NO_DISPLAY)
        except ClientStartError as exc:
            return fail(str(exc), EXIT_FAILED)
        try:
            return _play(client, args)
        except BoardNotFoundError as exc:
            return fail(f"the {args.client} board was not found on the screen: {exc}", EXIT_NO_BOARD)
        finally:
            client.close()
    finally:
        display.stop()


def _play(client, args: argparse.Namespace) -> int:
    from ..capture import save_picture
    from ..errors import SkinError
    from ..platforms import open_desktop
    from ..play.live import FoundGame, load_skins
    from .play import play_found

    try:
        skins = load_skins()
    except SkinError as exc:
        return fail(str(exc), EXIT_USAGE)
    # Followed as the desktop finds it (the client's own window, unless the window system is 'none').
    desktop = open_desktop()
    with desktop.screen() as screen:
        # We started the client: its skin and window are known; the player locates the board in it.
        window = client.geometry()
        lattice = client.lattice
        if lattice is not None:  # measured by the start function (xbomb): not searched for
            from ..play.live import refined_lattice

            lattice = refined_lattice(screen.grab(), skins, lattice)
        found = FoundGame(client.client, desktop.window_holding(window), window, lattice)

        def save_last_board(player) -> None:
            located = player.located
            region = located.region.expanded(4) if located else window
            try:
                save_picture(args.out, screen.grab(region.clipped(window).as_region()))
                print(f"screenbot demo: last board saved to {args.out}", file=sys.stderr)
            except Exception as exc:  # the window may be gone; the summary still matters more
                log.warning("could not save the last board: %s", exc)

        return play_found(screen, skins, desktop, found, config_from_args(args), args.json, after=save_last_board)
