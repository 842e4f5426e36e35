"""``python3 -m lab play-speed``: the bot's play speed on gnome-mines under X11 and under Wayland, side by side.

Each round starts a virtual X display (Xvfb, openbox) with gnome-mines and plays ``--games`` games with
``screenbot play --json``, then a headless GNOME Shell on Wayland with gnome-mines as a native Wayland
client and plays the same number there, one after the other on the same machine. It prints, per window
system, the medians over the rounds of each run's own medians: milliseconds per move (the bot's work
and the wait for the client's redraw) and seconds per game. Figures, not pass/fail.

Exit codes: 0 ok, 1 a run did not end with every game played, 2 bad arguments, 3 no Xvfb, GNOME Shell
or client.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

from screenbot.commands.common import bounded_int, fail
from screenbot.exit_codes import EXIT_FAILED, EXIT_NO_DISPLAY, EXIT_OK

from . import add_window_option

FIGURES = (("per_move_ms_median", "total"), ("per_move_ms_median", "act"), ("seconds_per_game_median", None))


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "play-speed",
        help="play gnome-mines under X11 (Xvfb) and Wayland (headless GNOME Shell) in turn and compare the speed",
        description="Play --games games of gnome-mines per round under X11 (Xvfb) and under Wayland (a headless "
        "GNOME Shell), --rounds times, and print the medians of ms per move and seconds per game of each. "
        "Exit codes: 0 ok, 1 a run did not play every game, 2 bad arguments, 3 no display or client.",
    )
    parser.add_argument("--level", choices=("small", "medium", "big"), default="small", help="gnome-mines level (default small, 8x8)")
    add_window_option(parser)
    parser.add_argument("--games", type=bounded_int(1, 1_000), default=5, help="games per run (default 5)")
    parser.add_argument("--rounds", type=bounded_int(1, 100), default=3, help="runs under each window system (default 3)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    width, height = args.window
    from screenbot.errors import ClientStartError, DisplayError, MissingPackagesError

    runs: dict[str, list[dict]] = {"x11": [], "wayland": []}
    try:
        for round_ in range(1, args.rounds + 1):
            for system, play in (("x11", _on_x11), ("wayland", _on_wayland)):
                summary = play(args.level, (width, height), args.games)
                runs[system].append(summary)
                print(f"round {round_} {system}: {_figures(summary)}", file=sys.stderr, flush=True)
    except (DisplayError, ClientStartError, MissingPackagesError) as exc:
        return fail(str(exc), EXIT_NO_DISPLAY)
    except _Unfinished as exc:
        return fail(str(exc), EXIT_FAILED)
    print(f"gnome-mines {args.level} in a {width}x{height} window, {args.games} games a run, medians of {args.rounds} runs:")
    for system, summaries in runs.items():
        medians = {label: statistics.median(_value(s, key, sub) for s in summaries) for key, sub, label in _labelled()}
        print(f"  {system:8} " + ", ".join(f"{label} {value:.1f}" for label, value in medians.items()))
    return EXIT_OK


class _Unfinished(Exception):
    pass


def _labelled():
    return [(key, sub, f"{key.replace('_median', '')}{'.' + sub if sub else ''}") for key, sub in FIGURES]


def _value(summary: dict, key: str, sub: str | None) -> float:
    value = summary[key]
    return float(value[sub] if sub else value)


def _figures(summary: dict) -> str:
    return ", ".join(f"{label} {_value(summary, key, sub):.1f}" for key, sub, label in _labelled())


def _play(games: int, env: dict[str, str]) -> dict:
    done = subprocess.run([sys.executable, "-m", "screenbot", "play", "--client", "gnome-mines", "--games", str(games),
                           "--json"], env=env, capture_output=True, text=True, timeout=60 * games + 60)
    try:
        summary = json.loads(done.stdout)
    except ValueError:
        raise _Unfinished(f"play gave no summary (exit {done.returncode}): {done.stderr.strip()[-500:]}") from None
    if done.returncode != 0 or summary.get("games") != games:
        raise _Unfinished(f"play stopped (exit {done.returncode}): {summary.get('stopped') or done.stderr.strip()[-500:]}")
    return summary


def _on_x11(level: str, window: tuple[int, int], games: int) -> dict:
    from screenbot.desktop.clients import start_gnome_mines
    from screenbot.desktop.display import VirtualDisplay

    with VirtualDisplay(), start_gnome_mines(level=level, window_size=window):
        return _play(games, dict(os.environ))


def _on_wayland(level: str, window: tuple[int, int], games: int) -> dict:
    from screenbot.desktop.gnome import HeadlessGnome, start_wayland_gnome_mines

    with HeadlessGnome(unsafe=True) as gnome, start_wayland_gnome_mines(gnome, level=level, window_size=window):
        return _play(games, dict(os.environ))
