"""The play loop: locate the board, then capture -> read -> check -> solve -> act -> wait for the redraw.

One ``Player`` drives one client window through several games. Everything it touches is passed in: the
screen (real mss or a fake), the mouse (pyautogui or a recorder), the vision functions, the client's
profile and the window tracker; so the whole loop runs in unit tests against a simulated game.

This module is the session and the game loop; the jobs around it are collaborators the ``Player``
builds: ``rules.GameRules`` (mine total, game over, what to do), ``locating.BoardTracker`` (where the
board is, window moved / hidden / covered), ``controls.ClientControls`` (restarts, dialogs, control
clicks) and ``safe_read.SafeReader`` (the checks a reading passes before it is acted on).

Safety, in the order the loop applies it:
- clicks go through ``BoardMouse`` (cells of the located board only; ``clicking.Clicker`` sends them)
  and the rare control clicks of a profile (a restart face) through ``ClientControls.control_click``,
  which refuses any point on the board or outside the client's window;
- before acting, the window must still be where the board was located; if it moved, re-locate;
- a reading that no mine placement satisfies, or that disagrees with what the bot just did, is
  re-captured a few times and then the game is aborted with the frame saved, never acted on;
- a closed window or a board that cannot be found any more (covered) ends the session with a message.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Callable, ContextManager

import numpy as np

from solver.board import UNREAD, Board
from solver.policy import PolicyConfig

from ..errors import ScreenError
from ..geometry import Rect
from ..mouse import Mouse, ScreenScale
from ..platforms.base import GameWindow
from .clicking import Clicker
from .controls import ClientControls
from .locating import BoardTracker
from .observer import ABORTED, LOST, UNCONFIRMED, WON, Action, GameResult, NullObserver, PlayObserver, StepTimings
from .outcome import PLAYING
from .planner import CHORD
from .profile import CONFIRM_PING, PlayProfile
from .rules import GameRules
from .evidence import save_frame
from .safe_read import SafeReader
from .stability import same_frame, wait_for_paint, wait_for_redraw
from .types import GameSoFar, Located, LookChangedError, PlayConfig, PlayError, Screen, Surroundings, Vision
from .unread import name_unread

log = logging.getLogger(__name__)


# After a batch the client has handled all of (pinged clicks): how long its next paint may take to
# show (a 60 Hz frame and a half), and how long the changed picture must then stay the same.
PAINT_WAIT = 0.025
PAINT_SETTLE = 0.004
# How many times the profile's redraw wait a round of clicks gets after one that showed nothing.
UNANSWERED_PATIENCE = 4.0


class Player:
    def __init__(
        self,
        *,
        screen: Screen,
        screen_rect: Rect,
        mouse: Mouse,
        vision: Vision,
        profile: PlayProfile,
        config: PlayConfig = PlayConfig(),
        window: GameWindow | None = None,
        scale: ScreenScale = ScreenScale(),
        observer: PlayObserver | None = None,
        clock: Callable[[], float] = time.perf_counter,
        sleep: Callable[[float], None] = time.sleep,
        overlays_hidden: Callable[[], ContextManager[object]] = contextlib.nullcontext,
    ) -> None:
        self.env = Surroundings(screen, screen_rect, vision, window, clock, sleep)
        self.mouse = mouse
        self.profile = profile
        self.config = config
        self.scale = scale
        self.observer = observer or NullObserver()
        self.results: list[GameResult] = []
        self.timings: list[StepTimings] = []
        self.dry_run_actions: tuple[Action, ...] = ()
        # The game in progress: when it started, and (steps, moves, guesses, unread numbers) before the
        # step being played: what a look that changes mid-game hands on (``GameSoFar``).
        self._game_start = 0.0
        self._game_counts = (0, 0, 0, 0)
        # "ping" clicks need a window that answers pings; the Clicker confirms by cell without one.
        ping = window.ping if profile.confirm_clicks == CONFIRM_PING and window is not None and window.supports_ping() else None
        self.clicker = Clicker(
            screen=screen, screen_rect=screen_rect, mouse=mouse, profile=profile, scale=scale, ping=ping, clock=clock, sleep=sleep
        )
        # The jobs around the loop, each given only what it needs: the client's rules, where the board
        # is, the client's own controls, and the checks a reading passes before it is acted on.
        self.rules = GameRules(profile, config)
        self.tracker = BoardTracker(self.env, config, overlays_hidden)
        self.controls = ClientControls(
            self.env, mouse=mouse, profile=profile, rules=self.rules, tracker=self.tracker, clicker=self.clicker, scale=scale
        )
        self.safe_reader = SafeReader(
            self.env, profile=profile, config=config, rules=self.rules, tracker=self.tracker, controls=self.controls,
            clicker=self.clicker, wait_for_redraw=self._wait_for_redraw,
        )

    @property
    def screen(self) -> Screen:
        return self.env.screen

    @screen.setter
    def screen(self, screen: Screen) -> None:
        # Every collaborator that captures shares ``env``; the clicker keeps its own
        # (``player.clicker.screen``).
        self.env.screen = screen

    @property
    def located(self) -> Located | None:
        """Where the board was last found (None before the first locate)."""
        return self.tracker.located

    def locate(self) -> Located:
        """Find the board: inside the client window when we follow one, else on the whole screen."""
        return self.tracker.locate()

    # --- session ------------------------------------------------------------------------------

    def play(self) -> list[GameResult]:
        """Play ``config.games`` games (stopping early on a lost window or an unsafe reading)."""
        if self.env.window is not None and not self.config.dry_run:
            # Raise and focus the game: key presses go to it, and gnome-mines pauses (hiding the
            # board) while it is not the active window. Never over a window the user put on it.
            self.tracker.check_window_uncovered()
            self.tracker.activate(self.env.window.geometry())
            self.env.sleep(0.1)
        located = self.tracker.located or self.locate()
        size_only = Board.covered(located.geometry.rows, located.geometry.cols)
        if self.profile.win_requires_all_flags and self.mine_total_for(size_only) is None:
            raise PlayError(
                f"{self.profile.client} declares a win only once every mine is flagged, so the bot must know "
                f"the mine total of this {size_only.rows}x{size_only.cols} board: pass --mines N (the client "
                "shows it at the start of a game)"
            )
        for index in range(self.config.games):
            if index:
                self.controls.start_new_game(self.results[-1].outcome)
            elif not self.config.dry_run and self.config.in_progress is None:
                self.controls.restart_if_over()
            start = self.env.clock()
            try:
                result = self.play_game(self.config.in_progress if not index else None)
            except LookChangedError as exc:
                # Not over: the game goes on under the other look (``commands.play``), counted from here.
                exc.so_far = GameSoFar(self.env.clock() - self._game_start, *self._game_counts)
                raise
            except (ScreenError, KeyboardInterrupt) as exc:
                # The game in progress counts as aborted; the error still stops the session.
                reason = str(exc) or "interrupted"
                aborted = GameResult(ABORTED, self.env.clock() - start, 0, 0, 0, reason)
                self.results.append(aborted)
                self.observer.on_game_end(aborted)
                raise
            self.results.append(result)
            self.observer.on_game_end(result)
            log.info("game %d: %s in %.2f s (%d actions)", index + 1, result.outcome, result.seconds, result.actions)
            if self.config.dry_run or result.outcome == ABORTED:
                break
        if self.results and self.results[-1].outcome in (WON, LOST, UNCONFIRMED):
            # Leave the client tidy (no "Congratulations" dialog over the final board).
            last = self.results[-1].outcome
            self.controls.control(self.tracker.located or self.locate(), self.profile.after_loss if last == LOST else self.profile.after_win)
        return self.results

    # --- one game -----------------------------------------------------------------------------

    def play_game(self, so_far: GameSoFar | None = None) -> GameResult:
        """Play one game to its end; ``so_far``: what it had taken before this player (under another look)."""
        so_far = so_far or GameSoFar()
        start = self._game_start = self.env.clock() - so_far.seconds
        located = self.tracker.located or self.locate()
        self.clicker.park(located)
        before_frame: np.ndarray | None = None
        previous = None
        last_actions: tuple[Action, ...] = ()
        watch = None  # after a guess: the guessed cell, which must show before the board is read again
        handled_all = False  # the client has handled every click of the last batch (answered pings)
        steps, actions_done, guesses, unread = so_far.steps, so_far.actions, so_far.guesses, so_far.unread
        self._game_counts = (steps, actions_done, guesses, unread)
        unanswered = 0  # steps in a row whose clicks changed nothing on the screen
        idle = 0  # steps in a row with nothing to click on a board not read as finished
        while steps < self.config.max_steps:
            steps += 1
            self._game_counts = (steps, actions_done, guesses, unread)
            # A window moved or resized mid-batch (the batch stopped) shows something else where the
            # board was: located again before anything is read there (read at the old place first,
            # the board of a resized gnome-mines was located again only 3 s later, under load).
            moved = self.tracker.window_moved(located) if before_frame is not None else None
            if moved is not None:
                located, before_frame, last_actions, watch = moved, None, (), None
                continue
            if before_frame is not None and watch is None and handled_all:
                settled = wait_for_paint(
                    self._board_grab(located), before_frame, timeout=PAINT_WAIT, settle=PAINT_SETTLE, clock=self.env.clock, sleep=self.env.sleep
                )
            else:
                # After a round of clicks that showed nothing, the next is given longer to show before it
                # too counts as not taken: a client under load (Chromium) can miss one round's redraw
                # wait, which alone is no sign that it stopped taking clicks.
                settled = self._wait_for_redraw(located, before_frame, watch, patience=UNANSWERED_PATIENCE if unanswered else 1.0)
            redraw = settled.waited if before_frame is not None else 0.0
            unanswered = unanswered + 1 if before_frame is not None and last_actions and not settled.changed else 0
            if unanswered >= 2:
                path = save_frame(settled.frame, self.config.failure_dir, "no-effect")
                raise PlayError(
                    f"the {self.profile.client} board did not change after two rounds of clicks; the client is not "
                    "taking them (a chord button it does not have, a modal dialog, a paused game?)",
                    frame_path=path,
                )
            # A picture of the board held for a moment while it was redrawn: a won board a dialog then hid.
            glimpses = [] if settled.earlier is None else [settled.earlier]
            step = self.safe_reader.read(located, settled.frame, settled.changed, previous, last_actions, glimpses)
            if isinstance(step, Located):  # the window moved: carry on from the new place
                located, before_frame, last_actions, watch = step, None, (), None
                continue
            if unanswered and not same_frame(step.frame, before_frame):
                # The clicks showed after all, during the rechecks (a client stalled under load): the round
                # was answered, late. Only rounds that never show count as clicks the client does not take.
                unanswered = 0
            if step.reading is not None:
                unread = self._note_unread(step.reading.board, unread)
            if step.status != PLAYING:
                named, outcome, shown = "", step.status, step.shown
                if step.reading is not None:
                    self._record(step.frame, step.reading, None, (), StepTimings(settled.grab_seconds, step.read_seconds, step.solve_seconds, 0, redraw))
                    if outcome == LOST and self.rules.won_showing_mines(previous, step.reading.board, last_actions):
                        outcome, shown = WON, "on the board (every safe cell open; the client showed its mines, none hit)"
                    if outcome == WON and not shown:
                        outcome, shown = self.rules.win_shown(previous, step.reading.board, last_actions)
                    named = self._name_unread(step.frame, located, step.reading.board, outcome)
                return self._finish(outcome, start, steps, actions_done, guesses, unread=unread, named=named, shown=shown)
            guesses += int(step.decision is not None and step.decision.guessed)
            if self.config.dry_run:
                self.dry_run_actions = step.actions
                self._record(step.frame, step.reading, step.decision, step.actions, StepTimings(settled.grab_seconds, step.read_seconds, step.solve_seconds, 0, redraw))
                return self._finish(ABORTED, start, steps, 0, guesses, reason="dry run: nothing clicked", unread=unread)
            idle = idle + 1 if not step.actions else 0
            if idle >= 3:
                # Nothing to click and no end shown through two redraw waits: waiting would wait for ever.
                path = save_frame(settled.frame, self.config.failure_dir, "nothing-to-click")
                raise PlayError(f"nothing is left to click on the {self.profile.client} board, yet it does not read "
                                "as a finished game (a wrong mine total? a win shown only off the board?)", frame_path=path)
            moved = self.tracker.window_moved(located)
            if moved is not None:
                located, before_frame, last_actions, watch = moved, None, (), None
                continue
            t_act = self.env.clock()
            done, waited, handled_all = self.clicker.act(
                located, step.actions, step.frame, lambda: self.tracker.board_disturbed(located),
                careful=unanswered > 0,
            )
            act = self.env.clock() - t_act - waited
            timings = StepTimings(settled.grab_seconds, step.read_seconds, step.solve_seconds, act, redraw + waited, len(done))
            self._record(step.frame, step.reading, step.decision, done, timings)
            actions_done += len(done)
            before_frame, previous, last_actions = step.frame, step.reading.board, done
            # A frame read before the client has shown every click is still a true (older) board, and
            # certain moves found on it stay right; a guess made on it may not be needed. So the board is
            # read after a guess only once the guessed cell shows its result.
            watch = self._last_cell(located, done) if step.decision is not None and step.decision.guessed else None
        return self._finish(ABORTED, start, steps, actions_done, guesses, reason=f"no result after {steps} steps",
                            unread=unread)

    def _board_grab(self, located: Located) -> Callable[[], np.ndarray]:
        return lambda: self.screen.grab(located.region.as_region())

    def _wait_for_redraw(self, located: Located, before: np.ndarray | None, watch: tuple[slice, slice] | None = None,
                         patience: float = 1.0):
        return wait_for_redraw(
            self._board_grab(located),
            before,
            timeout=self.profile.redraw_timeout * patience,
            settle=self.profile.settle,
            watch=watch,
            clock=self.env.clock,
            sleep=self.env.sleep,
        )

    @staticmethod
    def _last_cell(located: Located, actions: tuple[Action, ...]) -> tuple[slice, slice] | None:
        """The pixels of the cell clicked last, in the board region's frame (None after a chord, which
        changes the cells around it, not itself)."""
        if not actions or actions[-1].kind == CHORD:
            return None
        cell = located.geometry.cell_inner_rect(actions[-1].row, actions[-1].col)
        local = cell.translated(-located.region.left, -located.region.top)
        return slice(local.top, local.bottom), slice(local.left, local.right)

    def policy_for(self, board) -> PolicyConfig:
        """The solver settings a decision on this board is made with (recorders store them)."""
        return self.rules.policy_for(board)

    def mine_total_for(self, board) -> int | None:
        """The mine total used for this board: --mines, else the profile's, else None (unknown)."""
        return self.rules.mine_total_for(board)

    def _record(self, frame, reading, decision, actions, timings: StepTimings) -> None:
        self.timings.append(timings)
        self.observer.on_step(frame, reading, decision, actions, timings)

    def _note_unread(self, board, before: int) -> int:
        """How many cells of this game show a number the skin has no picture of (said at the first)."""
        now = board.count(UNREAD)
        if now and not before:
            where = ", ".join(f"({row},{col})" for row, col, char in board.cells() if char == UNREAD)
            cells = f"cell {where} shows a number" if now == 1 else f"cells {where} show numbers"
            log.warning("%s the %s skin has no picture of: played as telling nothing "
                        "('screenbot learn %s --extend' teaches it)", cells, self.profile.skin, self.profile.skin)
        return max(now, before)

    def _name_unread(self, frame: np.ndarray, located: Located, board: Board, outcome: str) -> str:
        """Teach the vision the numbers the finished board names (see ``unread``); the numbers taught."""
        teach = getattr(self.env.vision, "teach", None)
        named = name_unread(board, self.mine_total_for(board), outcome) if teach is not None else {}
        if not named:
            return ""
        teach(frame, located.lattice, named)
        numbers = "".join(sorted(set(named.values())))
        log.warning("this game's end showed what the unread numbers were (%s): the %s skin reads them from now on "
                    "(this session only; 'screenbot learn %s --extend' keeps them)", ", ".join(numbers),
                    self.profile.skin, self.profile.skin)
        return numbers

    def _finish(self, outcome: str, start: float, steps: int, actions: int, guesses: int, reason: str = "",
                unread: int = 0, named: str = "", shown: str = "") -> GameResult:
        return GameResult(outcome, self.env.clock() - start, steps, actions, guesses, reason, unread, named, shown)



__all__ = ["Player"]
