"""``python3 -m lab hint-bench``: how long the live overlay takes to show a change of the game, on a real client.

It starts a virtual display, gnome-mines and ``screenbot hint`` in its own process, then
watches the board region with mss captures as fast as it can (a millisecond or two apart) while the game
changes: by its own pyautogui clicks on cells the solver says are safe (or the least risky guess), or,
with ``--beside-play``, by ``screenbot play`` playing the game in a third process. From the screen alone
(``lab.latency``) it prints, median and 90th percentile:

- *mark cleared*: from the frame where a cell's new picture (opened, a mine shown) is on screen for
  good, to the frame from which the overlay no longer marks that cell, per change (one click);
- *overlay settled* (own clicks only): from the change on screen to the frame from which the whole
  region, every mark redrawn for the new board, stays as it ends up.

Figures, not pass/fail. Exit codes: 0 ok, 1 the run could not be measured (the overlay never came up,
no change was seen), 2 bad arguments, 3 no Xvfb / client.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
import time
import zlib

from screenbot.exit_codes import EXIT_FAILED, EXIT_NO_DISPLAY, EXIT_OK
from screenbot.commands.common import bounded_int, fail

from . import add_window_option

log = logging.getLogger(__name__)


QUIET_SECONDS = 0.5  # after a click, the screen must stay unchanged this long before the next one
CLICK_TIMEOUT = 4.0
CLIENT = "gnome-mines"  # restarts with Ctrl+R and draws grey cells (see lab.latency)
SAMPLE_GAP = 0.001  # between two captures of the observer: leave the machine's cores to the others


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "hint-bench",
        help="measure how fast the live hint overlay follows a real gnome-mines game (starts its own Xvfb)",
        description="Start Xvfb, gnome-mines and `screenbot hint`, change the board (own pyautogui clicks, or "
        "`screenbot play` beside it with --beside-play) and print the median and 90th percentile of the time "
        "from a change on screen to the overlay showing it, measured on mss captures. Exit codes: 0 ok, "
        "1 nothing measured, 2 bad arguments, 3 no virtual display or client.",
    )
    parser.add_argument("--level", choices=("small", "medium", "big"), default="medium", help="gnome-mines level (default medium, 16x16)")
    add_window_option(parser, ": 23 px cells")
    parser.add_argument("--clicks", type=bounded_int(1, 10_000), default=40, help="own clicks to measure (default 40)")
    parser.add_argument("--beside-play", action="store_true", help="let `screenbot play` change the board instead of own clicks")
    parser.add_argument("--games", type=bounded_int(1, 1_000), default=2, help="with --beside-play: games for play to play (default 2)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    width, height = args.window
    from screenbot.desktop.display import VirtualDisplay
    from screenbot.errors import ClientStartError, DisplayError

    try:
        with VirtualDisplay() as display:
            from screenbot.desktop.clients import start_gnome_mines

            with start_gnome_mines(level=args.level, window_size=(width, height)) as game:
                time.sleep(0.5)  # first paint
                result = _measure(args, game, display.name)
    except (DisplayError, ClientStartError) as exc:
        return fail(str(exc), EXIT_NO_DISPLAY)
    except _Unmeasured as exc:
        return fail(str(exc), EXIT_FAILED)
    if args.json:
        print(json.dumps(result))
    else:
        _print(result)
    return EXIT_OK


class _Unmeasured(Exception):
    pass


class _Observer:
    """Grabs the board region and keeps the per-frame features (times, middles, marks, frame CRC)."""

    def __init__(self, screen, region, probe) -> None:
        self.screen, self.region, self.probe = screen, region, probe
        self.times: list[float] = []
        self.mids: list = []
        self.marks: list = []
        self.crcs: list[int] = []
        self.last_frame = None

    def sample(self) -> None:
        t = time.perf_counter()
        frame = self.screen.grab(self.region)
        mids, marks = self.probe.sample(frame)
        self.times.append(t)
        self.mids.append(mids)
        self.marks.append(marks)
        self.crcs.append(zlib.crc32(frame.tobytes()))
        self.last_frame = frame

    def until_quiet(self, quiet: float, timeout: float) -> None:
        start = time.perf_counter()
        self.sample()
        since = time.perf_counter()
        while time.perf_counter() - start < timeout:
            time.sleep(SAMPLE_GAP)
            before = self.crcs[-1]
            self.sample()
            if self.crcs[-1] != before:
                since = time.perf_counter()
            elif time.perf_counter() - since >= quiet:
                return


def _measure(args, game, display: str) -> dict:
    import numpy as np
    import pyautogui  # opens the display at import: DISPLAY now points at our Xvfb

    from solver.errors import InconsistentBoardError
    from solver.policy import PolicyConfig, decide

    from screenbot.capture import MssScreen
    from screenbot.errors import BoardNotFoundError, UnrecognizedCellError
    from screenbot.geometry import Rect
    from ..latency import CellProbe, change_events, figures, settle_latency
    from screenbot.play.live import SkinVision, load_skins, profile_for
    from screenbot.platforms.x11.tracker import WindowTracker

    pyautogui.PAUSE = 0.0
    pyautogui.moveTo(5, 5)  # gnome-mines lights the cell under the pointer
    screen = MssScreen()
    vision = SkinVision(load_skins(), CLIENT)
    profile = profile_for(CLIENT)
    try:
        lattice = vision.locate(screen.grab())
    except (BoardNotFoundError, UnrecognizedCellError) as exc:
        raise _Unmeasured(f"no board found on the virtual display: {exc}") from exc
    ox, oy = lattice.origin
    px, py = lattice.pitch
    region = Rect(int(ox - px / 2), int(oy - py / 2), int((lattice.cols + 1) * px), int((lattice.rows + 1) * py))
    region = region.clipped(Rect(0, 0, *screen.size))
    local = type(lattice)(lattice.skin, (ox - region.left, oy - region.top), (px, py), lattice.rows, lattice.cols)
    probe = CellProbe((region.height, region.width), local.origin, local.pitch, local.rows, local.cols)
    observer = _Observer(screen, region.as_region(), probe)
    env = dict(os.environ, DISPLAY=display)
    hint = subprocess.Popen(
        [sys.executable, "-m", "screenbot", "hint", "--client", CLIENT, "--json"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    play = None
    windows: list[tuple[int, int]] = []  # own clicks: [first, end) frame indices of each click's wait
    try:
        deadline = time.monotonic() + 30
        while True:
            observer.sample()
            if observer.marks[-1].mean() > 0.8:
                break
            if time.monotonic() > deadline or hint.poll() is not None:
                raise _Unmeasured("the hint overlay did not come up over the board: " + _tail(hint))
            time.sleep(0.01)
        observer.until_quiet(QUIET_SECONDS, CLICK_TIMEOUT)
        mines = profile.mine_total(lattice.rows, lattice.cols)
        first = profile.first_click_cell(lattice.rows, lattice.cols)
        if args.beside_play:
            play = subprocess.Popen(
                [sys.executable, "-m", "screenbot", "play", "--client", CLIENT, "--games", str(args.games), "--json"],
                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            )
            while play.poll() is None:
                time.sleep(SAMPLE_GAP)
                observer.sample()
            observer.until_quiet(QUIET_SECONDS, CLICK_TIMEOUT)
        else:
            tracker = WindowTracker(game.window)
            tracker.activate()  # gnome-mines ignores clicks while another window has the focus
            time.sleep(0.3)
            observer.until_quiet(QUIET_SECONDS, CLICK_TIMEOUT)
            clicks = 0
            while clicks < args.clicks:
                cell = _next_cell(vision, local, observer.last_frame, mines, first, decide, PolicyConfig)
                if cell is None:
                    # Game over or not readable (a dialog): start a new game, let the overlay catch up.
                    pyautogui.press("escape")
                    pyautogui.hotkey("ctrl", "r")
                    time.sleep(0.3)
                    observer.until_quiet(QUIET_SECONDS, CLICK_TIMEOUT)
                    continue
                x, y = lattice.cell_center(*cell)
                start = len(observer.times)
                pyautogui.click(x, y)
                observer.until_quiet(QUIET_SECONDS, CLICK_TIMEOUT)
                windows.append((start, len(observer.times)))
                clicks += 1
            # Off the board: a click the client dropped leaves its cell lit (and rightly still marked).
            pyautogui.moveTo(5, 5)
            observer.until_quiet(QUIET_SECONDS, CLICK_TIMEOUT)
            tracker.close()
    except (InconsistentBoardError,) as exc:
        raise _Unmeasured(f"the board could not be solved: {exc}") from exc
    finally:
        game.close()  # the hint session ends with its game window
        summary = _finish(hint)
        play_summary = _finish(play) if play is not None else None
        screen.close()

    times = np.array(observer.times)
    mids, marks = np.stack(observer.mids), np.stack(observer.marks)
    events = change_events(times, mids, marks, cols=lattice.cols)
    if not events:
        raise _Unmeasured("no change of a marked cell was seen")
    cleared = [e.seconds for e in events if e.seconds is not None]
    settled = []
    for a, b in windows:
        inside = [e for e in events if times[a] <= e.on_screen < (times[b - 1] if b > a else times[a])]
        if not inside or not marks[b - 1].any():
            continue  # no marked cell changed, or the game ended (the overlay hides)
        settled.append(settle_latency(times[a:b], observer.crcs[a:b], max(e.on_screen for e in inside)))
    gaps = np.diff(times)
    return {
        "client": CLIENT,
        "board": f"{lattice.rows}x{lattice.cols}",
        "pitch": round(float(px), 2),
        "mode": "beside-play" if args.beside_play else "own-clicks",
        "changes": len(events),
        "never_cleared": sum(1 for e in events if e.seconds is None),
        "mark_cleared": figures(cleared).as_dict(),
        "overlay_settled": figures(settled).as_dict() if windows else None,
        "observer_frame_ms_median": round(float(np.median(gaps)) * 1000, 2) if gaps.size else None,
        "hint": summary,
        "play": play_summary,
    }


def _next_cell(vision, lattice, frame, mines, first, decide, PolicyConfig):
    """A cell to open: a certain safe one, else the solver's move; None when the game cannot go on."""
    from solver.errors import InconsistentBoardError

    from screenbot.errors import BoardNotFoundError, UnrecognizedCellError

    try:
        board = vision.read(frame, lattice).board
    except (UnrecognizedCellError, BoardNotFoundError):
        return None
    if board.mines is None and mines is not None:
        board = board.with_mines(mines)
    if board.is_over or board.count("#") == 0:
        return None
    try:
        decision = decide(board, PolicyConfig(first_click=first, full_analysis=True))
    except InconsistentBoardError:
        return None
    safe = sorted(cell for cell in decision.analysis.safe if board[cell] == "#")
    if safe:
        return safe[0]
    opens = [m for m in decision.moves if m.action == "open"]
    if opens:
        return opens[0].row, opens[0].col
    covered = [(p, (r, c)) for r, row in enumerate(decision.analysis.probabilities) for c, p in enumerate(row) if p is not None and board[r, c] == "#"]
    return min(covered)[1] if covered else None


def _finish(proc) -> dict | None:
    """Wait for a child command (it ends with the game window), return its JSON summary."""
    try:
        out, err = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        proc.terminate()
        out, err = proc.communicate(timeout=5)
    for line in reversed(out.strip().splitlines()):
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            continue
    log.warning("no summary from %s: %s", proc.args[3:5], err.strip()[-300:])
    return None


def _tail(proc) -> str:
    if proc.poll() is None:
        return "still running"
    return (proc.stderr.read() or "").strip()[-300:]


def _print(result: dict) -> None:
    def line(name, fig):
        if not fig or not fig["count"]:
            return f"{name}: nothing measured"
        return f"{name}: median {fig['median_ms']} ms, p90 {fig['p90_ms']} ms, max {fig['max_ms']} ms over {fig['count']}"

    print(f"hint-bench {result['client']} {result['board']} at {result['pitch']} px, {result['mode']}: {result['changes']} changes of marked cells")
    print("  " + line("change on screen -> its mark cleared", result["mark_cleared"]))
    if result["overlay_settled"] is not None:
        print("  " + line("change on screen -> whole overlay settled", result["overlay_settled"]))
    print(f"  marks never cleared: {result['never_cleared']}; observer: a capture every {result['observer_frame_ms_median']} ms")
    hint = result["hint"] or {}
    if hint.get("update_ms_median") is not None:
        print(f"  hint's own figure (capture -> overlay): median {hint['update_ms_median']} ms over {hint['updates']} updates")
