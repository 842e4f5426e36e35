"""``screenbot learn NAME``: teach the reader the client on the screen by playing it, with no boards
typed by a person.

With a Minesweeper window showing a fresh game that no skin knows: finds its board by structure,
plays ``--games`` games (random opens until each is lost, a flag per game), names the cell pictures by
the rules on the lost boards, finds how the client starts a new game and its first-click rule, then
builds the skin with the same builder as ``new-skin`` and writes it, with a profile and its "play"
section, only once it reads its own screens back.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from ..exit_codes import EXIT_FAILED, EXIT_NO_BOARD, EXIT_USAGE, for_error
from .common import add_templates_argument, bounded_int, fail, key_chord, skin_name


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "learn",
        help="learn a client nobody described by playing it (no labels needed)",
        description="Start the client with a fresh game on the screen (and nothing else over it), then run "
        "this: it finds the board, plays --games games by itself (clicking cells at random until each is lost), "
        "names every cell picture by the rules of the game, finds how the client restarts, and writes "
        "NAME/cells/*.png and NAME/profile.json (with its \"play\" section) into the skins folder. Nothing is "
        "written unless the new skin reads its own screens back. Exit codes: 0 ok, 1 learning failed (the client "
        "does not react, its window closed, no game could be named, the skin misread its screens, another run is "
        "writing the same skin), 2 bad arguments (or NAME exists without --replace or --extend), 3 no display, 4 no "
        "board on the screen, 130 interrupted (Ctrl-C, SIGTERM, SIGHUP).",
    )
    parser.add_argument("name", type=skin_name, help="skin name (a folder name: letters, digits, - and _)")
    add_templates_argument(parser, help="skins folder to write to (default: the SCREENBOT_TEMPLATES environment "
                           "variable, else the skins shipped in the package); '--templates DIR' on the other "
                           "commands then reads it")
    parser.add_argument("--games", type=bounded_int(1, 200), default=6, help="games to play while learning "
                        "(default 6, at most 200); more games show more numbers. Where none of them showed how the client "
                        "shows a win, up to as many more are played to see one")
    parser.add_argument("--seed", type=int, help="seed of the random clicks (default: random, printed)")
    parser.add_argument("--restart", metavar="KEYS", type=key_chord,
                        help="the keys that start a new game in this client (e.g. s, ctrl+n), when none of the "
                        "usual ways does (a click on a face or button seen above the board, a click just above it; F2 and N "
                        "only where the window is no browser's)")
    again = parser.add_mutually_exclusive_group()
    again.add_argument("--replace", action="store_true", help="NAME exists already: replace it")
    again.add_argument("--extend", action="store_true",
                       help="NAME exists already: play more games and add what they show (states or sizes the skin "
                       "has no pictures of) to it, keeping its profile")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..skin_folders import user_skins_folder
    from .new_skin import holding_skin

    templates = user_skins_folder(args.templates)
    return holding_skin(templates, args.name, lambda: _run(args, templates))


def _run(args: argparse.Namespace, templates: Path) -> int:
    from ..errors import BoardNotFoundError, DisplayError, MinesweeperError, ScreenError, SkinError
    from ..learn.watch import LearnError, debug_keep_skin
    from ..learn.session import flag_click_name
    from ..learn.skin import SkinCheckError, labelled_frames
    from ..vision.newskin import NewSkinError, state_names
    from .new_skin import publish, staging

    exists = (templates / args.name / "profile.json").exists()
    if exists and not (args.replace or args.extend):
        return fail(f"skin {args.name!r} exists already in {templates}: choose another name, or add --replace "
                    "or --extend", EXIT_USAGE)
    if args.extend and not exists:
        return fail(f"no skin {args.name!r} in {templates} to extend (learn it first, without --extend)", EXIT_USAGE)
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    say = (lambda text: print(text, file=sys.stderr)) if args.json else print
    say(f"learn {args.name}: seed {seed}")
    started = time.monotonic()
    try:
        seen = _learn(args.name, args.games, seed, say, args.restart)
    except LearnError as exc:
        return fail(str(exc), exc.code)
    except BoardNotFoundError as exc:
        return fail(str(exc), EXIT_NO_BOARD)
    except (DisplayError, ScreenError) as exc:
        return fail(f"{exc} (nothing was written)", for_error(exc))
    played = time.monotonic() - started
    try:
        with staging(templates, args.name) as stage:
            try:
                built = _build(seen, args.name, stage, templates / args.name if args.extend else None)
            except (SkinCheckError, NewSkinError, BoardNotFoundError, SkinError) as exc:
                debug_keep_skin(stage / args.name, labelled_frames(seen))
                for line in _seen_lines(seen):
                    say(line)
                return fail(f"{exc}; nothing was written", EXIT_FAILED)
            publish(stage, templates, args.name)
    except OSError as exc:
        return fail(f"cannot write the skin into {templates}: {exc.strerror or exc}", EXIT_USAGE)
    except MinesweeperError as exc:
        return fail(f"{exc}; nothing was written", for_error(exc))
    seconds = time.monotonic() - started
    summary = {
        "skin": args.name,
        "folder": str(templates / args.name),
        "seconds": round(seconds, 1),
        "seconds_playing": round(played, 1),
        "games": seen.games_played,
        "games_asked": args.games,
        "games_named": seen.games_named,
        "games_not_used": seen.refused,
        "board": [seen.lattice.rows, seen.lattice.cols],
        "pitch": [round(p, 2) for p in seen.lattice.pitch],
        "states": built.states,
        "missing": built.missing,
        "restart": seen.restart[0] if seen.restart else None,
        "restarts_tried": seen.restarts_tried,
        "first_click": built.profile["first_click"],
        "first_click_shown": built.profile["first_click_shown"],
        "win_requires_all_flags": built.profile["win_requires_all_flags"],
        "win_shown": built.profile["win_shown"],
        "mine_total": built.profile["mine_total"],
        "mine_total_shown": built.profile["mine_total_shown"],
        "hover_highlight": built.profile["hover_highlight"],
        "question_marks": built.profile["question_marks"],
        "flag_click": flag_click_name(seen.flag_keys) if seen.flag is not None else "none placed a flag",
        "examples": built.examples,
        "checks": [{"frame": what, "verdict": verdict} for what, verdict in built.checks],
        "seed": seed,
    }
    if args.json:
        print(json.dumps(summary))
        return 0
    more = f", {args.games} asked and more to see a win" if seen.games_played > args.games else ""
    print(f"wrote {templates / args.name} in {seconds:.0f} s ({seen.games_played} games{more}, "
          f"{seen.games_named} lost games named)")
    print(f"board {seen.lattice.rows}x{seen.lattice.cols}, pitch {seen.lattice.pitch[0]:.2f}x{seen.lattice.pitch[1]:.2f} px")
    print(f"states learnt: {state_names(built.states)}")
    if built.missing:
        print(f"states not seen (a cell showing one stops reading with exit 5; learn again with more --games): "
              f"{state_names(built.missing)}")
    print(f"first click: {summary['first_click']} ({summary['first_click_shown']})")
    win_rule = {True: "every mine flagged", False: "every safe cell open"}.get(summary["win_requires_all_flags"])
    print(f"a win: {summary['win_shown']}; " + (f"a win needs {win_rule}" if win_rule else
          "whether a win needs every mine flagged is not known: play flags the mines left once every safe cell "
          "is open and counts a win only when the client shows it"))
    print(f"new game: {summary['restart']} (tried: {', '.join(seen.restarts_tried) or 'none'}); "
          f"cells light up under the pointer: {summary['hover_highlight']}; a flag: {summary['flag_click']}")
    print(f"mine total: {summary['mine_total'] or 'unknown'} ({summary['mine_total_shown']})")
    for what, verdict in built.checks:
        print(f"check {what}: {verdict}")
    for why in seen.refused:
        print(f"not used: {why}")
    return 0


def _learn(name: str, games: int, seed: int, say, restart_keys: tuple[str, ...] | None):
    """Open the display, find the board and its window, and play while learning."""
    from ..learn.session import learn
    from ..learn.watch import Desk, board_lattice
    from ..platforms import open_desktop
    from ..play.live import measure_scale
    from ..play.profile import ControlAction

    desktop = open_desktop()
    desktop.require_screen("run learn on the desktop where the client is shown")
    with desktop.screen() as screen:
        lattice = board_lattice(screen.grab(), name)
        mouse = desktop.mouse()
        wid = desktop.window_holding(lattice.board_rect())
        window = desktop.follow(wid) if wid is not None else None
        desk = Desk(screen, mouse, window, measure_scale(screen, mouse), desktop=desktop)
        try:
            restart = ControlAction(keys=restart_keys, wait=0.1) if restart_keys else None
            return learn(desk, name, games, random.Random(seed), progress=say, restart=restart)
        finally:
            if window is not None:
                window.close()


def _build(seen, name, stage, extend):
    from ..learn.skin import build_skin

    return build_skin(seen, name, stage, extend)


def _seen_lines(seen) -> list[str]:
    lines = [f"games played {seen.games_played}, lost games named {seen.games_named}"]
    lines += [f"not used: {why}" for why in seen.refused]
    return lines


__all__ = ["register", "run", "EXIT_FAILED"]
