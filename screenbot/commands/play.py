"""``screenbot play``: play the Minesweeper game visible on the screen, game after game."""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import sys
from pathlib import Path

from ..platforms import CHOICES as WINDOW_SYSTEMS
from ..exit_codes import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_NO_BOARD, EXIT_NO_DISPLAY, EXIT_OK, EXIT_USAGE
from .common import add_lattice_argument, add_templates_argument, bounded_int, cell_argument, fail, output_folder, positive_int

log = logging.getLogger(__name__)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play the Minesweeper game on the screen",
        description="Find a Minesweeper window on the screen and play it with real clicks: capture the "
        "board, read it, solve it, click, wait for the redraw; detect the end of each game, close the "
        "client's dialogs and start the next one. Move the pointer into a screen corner to stop "
        "(pyautogui's fail-safe), or press Ctrl-C. With --lattice the board is not searched for: it is "
        "played where the option says, for the whole session (if its window moves, the session stops). "
        "Live faults: a moved or resized window is followed (the board is located again); another "
        "program's window over the board, a minimised or closed window, or a dialog of the game itself "
        "over the board (other than its win dialog) stop play at once with the reason (exit 1); so does "
        "another program's window over the game window when play starts (the game is never raised over "
        "it); a game already finished when play starts is restarted first. "
        "Exit codes: 0 all games played to a win or a loss, 1 stopped early (unsafe reading, a live fault "
        "above, moved off the --lattice, fail-safe), 2 bad arguments (an unknown --client or one that "
        "cannot be played, a --record folder holding a recording, --first/--mines that do not fit the "
        "board, a --lattice not fully on the screen), 3 no usable display (no X display on Linux, or a Wayland desktop without GNOME's remote-desktop services), 4 no "
        "board on the screen (or none reads at the --lattice), 130 interrupted.",
    )
    add_play_arguments(parser)
    parser.add_argument("--client", default="auto", metavar="NAME|auto", help="skin of the client to look for (default auto: any known skin; one chosen on a board with "
                        "no cell open gives way to another that reads the board whole once cells open)")
    parser.add_argument("--dry-run", action="store_true", help="read the board and print the moves, click nothing")
    parser.add_argument("--record", type=Path, metavar="DIR", help="record every changed frame, board read, analysis and action into DIR (see 'screenbot replay')")
    parser.add_argument("--window-system", choices=WINDOW_SYSTEMS, default=None,
                        help="x11, windows: find and follow the game's window (moves, closing, windows over it; "
                        "on x11 pings too); wayland: GNOME's screen cast and remote input, with no window known (as "
                        "none); none: screenshots and mouse input only, the portable fallback (a moved "
                        "board is located again when it stops reading; several boards are refused). Default auto "
                        "(windows on Windows, wayland in a Wayland session, x11 on an X display on Linux, none on macOS), "
                        "or the SCREENBOT_WINDOW_SYSTEM environment variable"),
    add_lattice_argument(parser, "screen", "--client")
    add_templates_argument(parser)
    parser.set_defaults(run=run)


def add_play_arguments(parser: argparse.ArgumentParser, *, games: int = 1) -> None:
    """Options shared by ``play`` and ``demo``."""
    parser.add_argument("--games", type=bounded_int(1, 100_000), default=games, help=f"games to play (default {games})")
    parser.add_argument("--flag-mines", action="store_true", help="also flag certain mines (always on for clients that need it to win)")
    parser.add_argument("--chord", action="store_true", help="open around satisfied numbers with one chord click (with --flag-mines)")
    parser.add_argument("--mines", type=positive_int, help="the mine total, when the client's profile does not know it")
    parser.add_argument("--first", type=cell_argument, metavar="ROW,COL", help="first click on an untouched board (default from the client's rules)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.add_argument("--failure-dir", type=output_folder, default=".",
                        help="where to save the frame that stopped a game, or the screen when no board is found (default .)")


def config_from_args(args: argparse.Namespace):
    from ..play import PlayConfig

    return PlayConfig(
        games=args.games,
        flag_mines=args.flag_mines,
        chord=args.chord,
        dry_run=getattr(args, "dry_run", False),
        mines=args.mines,
        first_click=args.first,
        failure_dir=args.failure_dir,
    )


def run(args: argparse.Namespace) -> int:
    from ..errors import (
        BoardNotFoundError,
        DisplayError,
        InputError,
        SkinError,
        UnrecognizedCellError,
    )
    from ..given_lattice import LatticeOffFrameError
    from ..platforms import open_desktop
    from ..play.live import check_client, find_game, load_skins
    from ..recording import RecordingError
    from ..recording.recorder import check_record_dir

    # Everything the arguments can be checked against without the screen, before the screen.
    try:
        desktop = open_desktop(args.window_system)
        skins = load_skins()
        check_client(skins, args.client, to_play=not args.dry_run)
        if args.record is not None:
            check_record_dir(args.record)
    except (SkinError, RecordingError, InputError) as exc:
        return fail(str(exc), EXIT_USAGE)
    try:
        desktop.require_screen(
            "start the game on an X11 desktop, or run 'screenbot demo' to start a virtual one with a client"
        )
    except DisplayError as exc:
        return fail(str(exc), EXIT_NO_DISPLAY)
    try:
        with desktop.screen() as screen:
            try:
                found = find_game(screen, skins, desktop, args.client, lattice=args.lattice)
            except LatticeOffFrameError as exc:
                return fail(str(exc), EXIT_USAGE)
            except (BoardNotFoundError, UnrecognizedCellError) as exc:  # the latter: only with --lattice
                where = "at the --lattice position" if args.lattice is not None else "on the screen"
                saved = _save_screen(screen, args.failure_dir)
                return fail(f"no Minesweeper board found {where}: {exc}{saved}", EXIT_NO_BOARD)
            except (DisplayError, SkinError) as exc:
                return fail(str(exc), EXIT_USAGE if isinstance(exc, SkinError) else EXIT_NO_DISPLAY)
            recorder = _recorder(args, found)
            if isinstance(recorder, int):
                return recorder
            try:
                return play_found(screen, skins, desktop, found, config_from_args(args), args.json, observer=recorder)
            finally:
                if recorder is not None:
                    recorder.close()
    except DisplayError as exc:
        return fail(str(exc), EXIT_NO_DISPLAY)


def _save_screen(screen, folder: Path) -> str:
    """Save what the screen shows, for the user to see what was (not) found: " (screen saved to P)"."""
    import time

    import cv2

    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"screenbot-no-board-{time.strftime('%Y%m%d-%H%M%S')}.png"
        if cv2.imwrite(str(path), screen.grab()):
            return f" (screen saved to {path})"
    except Exception as exc:  # saving is a courtesy: the reason the board was not found still goes out
        log.warning("could not save the screen: %s", exc)
    return ""


def play_found(screen, skins, desktop, found, config, as_json: bool, observer=None, after=None) -> int:
    """Play on a game found on ``desktop`` and print the summary; shared with ``demo``. ``after(player)``
    runs once the games are over (or stopped), while the screen is still open."""
    from ..errors import InputError, ScreenError, SkinError, WindowGoneError
    from ..geometry import Rect
    from ..play import GameSoFar, LookChangedError, Player, PlayError
    from ..play.live import check_playable, game_vision, measure_scale, profile_for
    from ..vision.skins import CLASSIC
    from ..play.summary import format_summary, summarize

    def playable(skin: str):
        profile = profile_for(skin)
        if not config.dry_run:
            check_playable(profile)
        return profile

    try:
        profile = playable(found.skin)
    except SkinError as exc:
        return fail(str(exc), EXIT_USAGE)
    # Only now, with the screen known to work (pyautogui connects to the X display on import).
    mouse = desktop.mouse()
    if config.dry_run:
        # Pointer moves only (to take it off a board that lights up under it); any click is refused.
        mouse = _NoClickMouse(mouse)
    size = screen.size
    scale = measure_scale(screen, mouse)
    window = desktop.follow(found.window) if found.window is not None else None
    if window is None:
        log.warning("no window found around the board (window system: %s): a moved board is located again "
                    "when it stops reading; a window over it or closed is seen only as a board that no longer "
                    "reads", desktop.name)

    def player_for(found, profile, config) -> Player:
        return Player(screen=screen, screen_rect=Rect(0, 0, *size), mouse=mouse, vision=game_vision(skins, found),
                      profile=profile, config=config, window=window, scale=scale, observer=observer,
                      overlays_hidden=desktop.overlays_hidden)

    player = player_for(found, profile, config)
    if observer is not None and hasattr(observer, "bind_settings"):
        # A recorder stores, per step, the solver settings each decision was made with (for replay).
        observer.bind_settings(policy=player.policy_for, mines=player.mine_total_for)
    code, stopped = EXIT_OK, ""
    earlier = []  # the players of the session before its look changed
    try:
        while True:
            try:
                player.play()
                break
            except LookChangedError as exc:
                if observer is not None:  # a recording (or a demo's overlay) is bound to one skin
                    raise PlayError(f"{exc} (--client {exc.skin} plays it)") from exc
                # The skin ``auto`` chose on covered cells alone is replaced by the one the board
                # now reads as, with its client's profile, for the game in progress and the rest. A
                # look no client owns (the classic look) says how the cells are drawn, not which client
                # draws them: where the window is still the first skin's client's (its title), that
                # client's rules go on (gnome-mines in another tile theme: its restart keys, its mine
                # totals; the look's own rules know neither).
                kept = _same_client(window, profile) if exc.skin == CLASSIC else False
                log.warning("%s: playing on as %s%s", exc, exc.skin,
                            f", with {profile.client}'s rules (its window)" if kept else "")
                # Kept, the look may give way again: to the client's pictures, once a new game shows
                # a fresh board, which the look does not read (``SkinVision.other_look``); and those,
                # taken on that fresh board, to the look once its cells open.
                found = dataclasses.replace(found, skin=exc.skin, chosen=kept or exc.fresh)
                if not kept:
                    profile = playable(found.skin)
                earlier.append(player)
                player = player_for(found, profile, dataclasses.replace(
                    config, games=config.games - sum(len(p.results) for p in earlier), in_progress=exc.so_far or GameSoFar()))
    except KeyboardInterrupt:
        code, stopped = EXIT_INTERRUPTED, "interrupted (Ctrl-C)"
    except WindowGoneError as exc:
        # A window "gone" with its display is the display's going (told apart by connecting again).
        code, stopped = EXIT_FAILED, (_display_went(exc.__cause__ or exc) if desktop.lost(exc.__cause__ or exc)
                                      else f"the game window was closed: {exc}")
    except InputError as exc:  # an option that does not fit the board found, before any click on it
        code, stopped = EXIT_USAGE, str(exc)
    except (PlayError, ScreenError) as exc:
        code, stopped = EXIT_FAILED, _display_went(exc) if desktop.lost(exc.__cause__ or exc) else str(exc)
    except Exception as exc:
        if type(exc).__name__ == "FailSafeException":  # pyautogui's, without importing it at top level
            code, stopped = EXIT_FAILED, "stopped by the fail-safe: the pointer was moved into a screen corner"
        elif desktop.lost(exc):
            # The games so far are summed up and a recording is closed whole, as after any stop.
            code, stopped = EXIT_FAILED, _display_went(exc)
        else:
            raise
    finally:
        if window is not None:
            try:
                window.close()
            except Exception as exc:  # its connection went with the display
                log.debug("closing the game window's connection: %s", exc)
    if after is not None:
        after(player)
    if config.dry_run:
        _print_dry_run(player, found, as_json, stopped)
    else:
        summary = summarize([r for p in earlier + [player] for r in p.results],
                            [t for p in earlier + [player] for t in p.timings])
        if as_json:
            data = summary.as_dict()
            data["client"] = profile.client
            data["skin"] = found.skin
            if stopped:
                data["stopped"] = stopped
            print(json.dumps(data))
        else:
            print(f"{profile.client} ({found.skin}): " + format_summary(summary))
        if code == EXIT_OK and summary.aborted:
            code = EXIT_FAILED
    if stopped:  # why it stopped, a dry run too (it may stop before its first move)
        print(f"screenbot: stopped: {stopped}", file=sys.stderr)
    return code


def _same_client(window, profile) -> bool:
    """Whether the game's window is the client ``profile`` describes, by its title (the profile's
    ``window_title``, the regex its window is found by); False where either is not known."""
    import re

    from ..errors import WindowGoneError

    if window is None or not profile.window_title:
        return False
    try:
        return re.search(profile.window_title, window.title()) is not None
    except WindowGoneError as exc:  # closed: the next read says so
        log.debug("the window's title: %s", exc)
        return False


def _display_went(exc: BaseException) -> str:
    return f"the display went away (its server ended or the session closed; {type(exc).__name__}: {exc})"


def _recorder(args: argparse.Namespace, found):
    """A Recorder for --record DIR (None without it), or an exit code when DIR cannot be used."""
    if getattr(args, "record", None) is None:
        return None
    from ..recording import Recorder, RecordingError

    try:
        return Recorder(args.record, command="play", skin=found.skin, client=args.client)
    except RecordingError as exc:
        return fail(str(exc), EXIT_USAGE)


class _NoClickMouse:
    """The mouse of --dry-run: moves the pointer, refuses to click or type."""

    def __init__(self, mouse) -> None:
        self._mouse = mouse

    def size(self) -> tuple[int, int]:
        return self._mouse.size()

    def move(self, x: float, y: float) -> None:
        self._mouse.move(x, y)

    def click(self, x: float, y: float, button: str = "left", holding: tuple[str, ...] = ()) -> None:
        from ..play import PlayError

        raise PlayError("--dry-run must not click: refusing")

    def press(self, *keys: str) -> None:
        from ..play import PlayError

        raise PlayError("--dry-run must not press keys: refusing")


def _print_dry_run(player, found, as_json: bool, stopped: str) -> None:
    actions = [{"action": a.kind, "row": a.row, "col": a.col} for a in player.dry_run_actions]
    if as_json:
        data = {"skin": found.skin, "dry_run": True, "actions": actions}
        if stopped:
            data["stopped"] = stopped
        print(json.dumps(data))
        return
    print(f"{found.skin}: board at {found.board}; would do {len(actions)} action(s), clicking nothing:")
    for a in actions:
        print(f"  {a['action']} row {a['row']} col {a['col']}")
