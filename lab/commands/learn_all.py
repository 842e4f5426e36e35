"""``python3 -m lab learn-all``: every client of ``lab.learnt_clients`` learnt from zero labels, then played
with the learnt skin alone, and the learnt skin reading that client's labelled shots, with figures.

For each client, under a virtual display of its own (started here; Xvfb, openbox and the client are
installed as ``screenbot play`` would, as root):

1. ``screenbot learn`` into a fresh folder, from zero labels (a skin named for the client's label, which no
   shipped skin has): its time, whether it wrote a skin, and what it learnt (states, restart, rules);
2. ``screenbot play --client <learnt> --games N`` with that folder: won / lost / aborted / cleared with no
   win shown, and how each win was confirmed (the client's own words for it);
3. the client's labelled shots in ``fixtures/screens`` (gnome-mines, minegauler, xdemineur, sgt-mines,
   react-minesweeper), read with the learnt skin alone against their labels: right / refused / wrong.
   A learnt skin is taught at one board size; shots of other sizes it may refuse, never misread.

Figures, not pass/fail: exit 1 only when a labelled shot is read wrong or learn wrote a skin that its
own check found wrong (both are wrong answers given with exit 0). A client that cannot be started
here is reported and skipped over.

Exit codes: 0 nothing read wrong, 1 a shot read wrong, 2 bad arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from screenbot.commands.common import bounded_int
from screenbot.exit_codes import EXIT_FAILED, EXIT_OK

from . import SCREENS
from ..shot_tally import ShotTally

ROOT = Path(__file__).resolve().parents[2]


def register(subparsers) -> None:
    from lab.learnt_clients import CLIENTS

    labels = [case.label for case in CLIENTS]
    parser = subparsers.add_parser(
        "learn-all",
        help="learn every client from zero labels, play it with the learnt skin, read its labelled shots",
        description="Learn each client from zero labels under a virtual display of its own, play GAMES games "
        "with the learnt skin alone, and read the client's labelled shots with it; print the figures. "
        "Takes 1-6 minutes a client. Exit codes: 0 nothing read wrong, 1 a labelled shot read wrong (or a "
        "skin written that learn's own check found wrong), 2 bad arguments.",
    )
    parser.add_argument("--clients", type=_client_list(labels), default=labels, metavar="NAME[,NAME...]",
                        help=f"which clients (default all: {', '.join(labels)})")
    parser.add_argument("--games", type=bounded_int(0, 1000), default=5, help="games played with each learnt skin (default 5)")
    parser.add_argument("--seed", type=int, default=None, help="learn's seed (default: drawn, printed)")
    parser.add_argument("--keep", type=Path, default=None, metavar="DIR",
                        help="keep the learnt skins and play's failure frames in DIR (default: thrown away)")
    parser.add_argument("--json", action="store_true", help="also print the figures as one JSON line at the end")
    parser.set_defaults(run=run)


def _client_list(known: list[str]):
    def parse(text: str) -> list[str]:
        names = [name.strip() for name in text.split(",") if name.strip()]
        unknown = [name for name in names if name not in known]
        if unknown or not names:
            raise argparse.ArgumentTypeError(f"unknown client {', '.join(unknown) or repr(text)}; known: {', '.join(known)}")
        return names

    return parse


def run(args: argparse.Namespace) -> int:
    import random

    from lab.learnt_clients import CLIENTS

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    print(f"learn seed {seed} (replay: --seed {seed})", flush=True)
    results = []
    with tempfile.TemporaryDirectory(prefix="screenbot-learn-all-") as scratch:
        folder = args.keep or Path(scratch)
        for case in (c for c in CLIENTS if c.label in args.clients):
            result = _one(case, args.games, seed, folder / case.label)
            results.append(result)
            print(_line(result), flush=True)
    wrong = sum(r["shots"].get("wrong", 0) for r in results) + sum(r.get("self_check_wrong", 0) for r in results)
    if args.json:
        print(json.dumps({"seed": seed, "clients": results}))
    return EXIT_FAILED if wrong else EXIT_OK


def _one(case, games: int, seed: int, folder: Path) -> dict:
    """Learn, play and read one client; every figure of it, or why it stopped."""
    from screenbot.desktop import VirtualDisplay
    from screenbot.errors import MinesweeperError

    name = "learnt-" + case.label.lower()
    skins = folder / "skins"
    result: dict = {"client": case.label, "shots": {}}
    folder.mkdir(parents=True, exist_ok=True)
    try:
        with VirtualDisplay(), case.start():
            started = time.monotonic()
            learnt = _screenbot(["learn", name, "--templates", str(skins), "--games", str(case.games), "--json",
                                 "--seed", str(seed), *case.learn_options], timeout=1200)
            result["learn_seconds"] = round(time.monotonic() - started, 1)
            result["learn_exit"] = learnt.returncode
            summary = _last_json(learnt.stdout)
            if learnt.returncode != 0 or summary is None:
                result["learn_stopped"] = _last_words(learnt.stderr)
                return result
            result["learnt"] = {k: summary.get(k) for k in ("games", "games_named", "states", "missing", "restart",
                                                           "first_click", "mine_total")}
            result["self_check_wrong"] = sum(str(c.get("verdict", "")).startswith("WRONG") for c in summary.get("checks", []))
            profile = json.loads((skins / name / "profile.json").read_text(encoding="utf-8"))
            result["learnt"]["win_requires_all_flags"] = profile.get("win_requires_all_flags")
            result["learnt"]["win_shown"] = profile.get("win_shown")
            if games:
                played = _screenbot(["play", "--client", name, "--games", str(games), "--json",
                                     "--failure-dir", str(folder)], env={"SCREENBOT_TEMPLATES": str(skins)}, timeout=900)
                figures = _last_json(played.stdout) or {}
                result["play"] = {k: figures.get(k) for k in ("games", "wins", "losses", "aborted", "unconfirmed",
                                                             "wins_shown")}
                result["play"]["exit"] = played.returncode
                if played.returncode != 0:
                    result["play"]["stopped"] = figures.get("stopped") or _last_words(played.stderr)
    except MinesweeperError as exc:  # the client or the display could not be started here
        result["not_run"] = str(exc)
        return result
    except subprocess.TimeoutExpired as exc:
        result["timed_out"] = f"{exc.cmd[3]} took over {exc.timeout:.0f} s"
        return result
    if case.labelled_skin and (skins / name).is_dir():
        result["shots"] = _read_shots(case.labelled_skin, skins, name)
    return result


def _read_shots(labelled_skin: str, folder: Path, name: str) -> dict:
    """The client's labelled shots read with the learnt skin alone: right / refused / wrong."""
    import cv2

    from screenbot.vision import load_skins

    skins = load_skins(folder)
    tally = ShotTally()
    for meta in sorted(SCREENS.glob("*.json")):
        if json.loads(meta.read_text(encoding="utf-8"))["lattice"]["skin"] != labelled_skin:
            continue
        truth = meta.with_suffix(".txt").read_text(encoding="utf-8").split()
        tally.add(meta.stem, cv2.imread(str(meta.with_suffix(".png"))), truth, skins, name)
    return dict(tally.counts, **({"wrong_shots": tally.wrong} if tally.wrong else {}))


def _screenbot(argv: list[str], env: dict | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    """screenbot in a child process on the display started for the client (pyautogui binds to the
    display current when it is imported)."""
    return subprocess.run([sys.executable, "-m", "screenbot", *argv], cwd=ROOT, env=dict(os.environ, **(env or {})),
                          capture_output=True, text=True, timeout=timeout)


def _last_json(text: str) -> dict | None:
    for line in reversed(text.strip().splitlines()):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def _last_words(stderr: str) -> str:
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    return lines[-1][-300:] if lines else "no message"


def _line(result: dict) -> str:
    """One client's figures as a line of text."""
    head = f"{result['client']}: "
    if "not_run" in result:
        return head + f"not run: {result['not_run']}"
    if "timed_out" in result:
        return head + result["timed_out"]
    if "learn_stopped" in result:
        return head + f"learn exit {result['learn_exit']} after {result['learn_seconds']} s: {result['learn_stopped']}"
    learnt = result["learnt"]
    text = (f"learnt in {result['learn_seconds']} s ({learnt['games']} games, states {learnt['states']}, "
            f"restart {learnt['restart']!r}, first click {learnt['first_click']}, mines {learnt['mine_total']}, "
            f"win needs all flags: {learnt['win_requires_all_flags']})")
    if result.get("self_check_wrong"):
        text += f"; learn's own check found {result['self_check_wrong']} frames WRONG"
    if "play" in result:
        p = result["play"]
        text += (f"; played {p['games']}: {p['wins']} won, {p['losses']} lost, {p['aborted']} aborted, "
                 f"{p['unconfirmed']} cleared with no win shown")
        if p.get("wins_shown"):
            text += " (wins shown: " + "; ".join(f"{n} {how}" for how, n in p["wins_shown"].items()) + ")"
        if p.get("stopped"):
            text += f"; stopped: {p['stopped']}"
    shots = result["shots"]
    if shots:
        text += (f"; labelled shots: {shots.get('right', 0)} right, {shots.get('refused', 0)} refused, "
                 f"{shots.get('wrong', 0)} wrong")
        if shots.get("wrong_shots"):
            text += " (WRONG: " + ", ".join(shots["wrong_shots"][:5]) + ")"
    return head + text
