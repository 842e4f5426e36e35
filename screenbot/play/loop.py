"""The play loop: locate the board, then capture -> read -> check -> solve -> act -> wait for the redraw.

One ``Player`` drives one client window through several games. Everything it touches is passed in: the
screen (real mss or a fake), the mouse (pyautogui or a recorder), the vision functions, the client's
profile and the window tracker; so the whole loop runs in unit tests against a simulated game.

Safety, in the order the loop applies it:
- clicks go through ``BoardMouse`` (cells of the located board only; ``clicking.Clicker`` sends them)
  and the rare control clicks of a profile (a restart face) through ``_control_click``, which refuses
  any point on the board or outside the client's window;
- before acting, the window must still be where the board was located; if it moved, re-locate;
- a reading that no mine placement satisfies, or that disagrees with what the bot just did, is
  re-captured a few times and then the game is aborted with the frame saved, never acted on;
- a closed window or a board that cannot be found any more (covered) ends the session with a message.
"""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass
from typing import Callable, ContextManager

import numpy as np

from solver.board import Board
from solver.errors import InconsistentBoardError
from solver.policy import PolicyConfig, decide

from ..errors import BoardNotFoundError, InputError, ScreenError, UnrecognizedCellError
from ..geometry import Rect
from ..mouse import BoardGeometry, Mouse, ScreenScale
from .clicking import Clicker
from .consistency import reading_problems
from .observer import ABORTED, LOST, WON, Action, GameResult, NullObserver, PlayObserver, StepTimings
from .outcome import PLAYING, game_status, is_fresh, only_mines_left
from .planner import CHORD, plan_actions
from .profile import CONFIRM_PING, ControlAction, PlayProfile
from .reading import ChangedCellsReader
from .stability import wait_for_paint, wait_for_redraw
from .types import InconsistentReadingError, Located, PlayConfig, PlayError, Screen, Vision, Window, WindowLostError

log = logging.getLogger(__name__)


# Screen pixels grabbed around the game window when locating the board in it.
LOCATE_MARGIN = 48

# Seconds between two tries at closing a win dialog that keeps the board hidden.
WIN_DIALOG_RETRY = 0.7

# Seconds a board may take to read again after its window moved or was resized (it redraws).
RELOCATE_PATIENCE = 3.0

# After a batch the client has handled all of (pinged clicks): how long its next paint may take to
# show (a 60 Hz frame and a half), and how long the changed picture must then stay the same.
PAINT_WAIT = 0.025
PAINT_SETTLE = 0.004


@dataclass(frozen=True, slots=True)
class _Step:
    """A reading judged safe, with what to do about it."""

    reading: object | None
    frame: np.ndarray
    status: str
    actions: tuple[Action, ...]
    decision: object | None
    read_seconds: float
    solve_seconds: float


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
        window: Window | None = None,
        scale: ScreenScale = ScreenScale(),
        observer: PlayObserver | None = None,
        clock: Callable[[], float] = time.perf_counter,
        sleep: Callable[[float], None] = time.sleep,
        overlays_hidden: Callable[[], ContextManager[object]] = contextlib.nullcontext,
    ) -> None:
        self.screen = screen
        self.screen_rect = screen_rect
        self.mouse = mouse
        self.vision = vision
        self.profile = profile
        self.config = config
        self.window = window
        self.scale = scale
        self.observer = observer or NullObserver()
        self.clock = clock
        self.sleep = sleep
        # Locating looks at whole cells: a hint overlay over the game (another process) is taken off
        # the screen meanwhile (screenbot.overlay.hiding.overlays_hidden); reading works through it.
        self.overlays_hidden = overlays_hidden
        self.results: list[GameResult] = []
        self.timings: list[StepTimings] = []
        self.dry_run_actions: tuple[Action, ...] = ()
        self._located: Located | None = None
        # Step after step only the changed part of the board is read again (the same result, faster).
        self._reader = ChangedCellsReader(vision)
        # "ping" clicks need a window that answers pings; the Clicker confirms by cell without one.
        ping = window.ping if profile.confirm_clicks == CONFIRM_PING and window is not None and window.supports_ping() else None
        self.clicker = Clicker(
            screen=screen, screen_rect=screen_rect, mouse=mouse, profile=profile, scale=scale, ping=ping, clock=clock, sleep=sleep
        )

    @property
    def located(self) -> Located | None:
        """Where the board was last found (None before the first locate)."""
        return self._located

    # --- session ------------------------------------------------------------------------------

    def play(self) -> list[GameResult]:
        """Play ``config.games`` games (stopping early on a lost window or an unsafe reading)."""
        if self.window is not None and not self.config.dry_run:
            # Raise and focus the game: key presses go to it, and gnome-mines pauses (hiding the
            # board) while it is not the active window.
            self.window.activate()
            self.sleep(0.2)
        located = self._located or self.locate()
        size_only = Board.covered(located.geometry.rows, located.geometry.cols)
        if self.profile.win_requires_all_flags and self.mine_total_for(size_only) is None:
            raise PlayError(
                f"{self.profile.client} declares a win only once every mine is flagged, so the bot must know "
                f"the mine total of this {size_only.rows}x{size_only.cols} board: pass --mines N (the client "
                "shows it at the start of a game)"
            )
        for index in range(self.config.games):
            if index:
                self._start_new_game(self.results[-1].outcome)
            elif not self.config.dry_run:
                self._restart_if_over()
            start = self.clock()
            try:
                result = self.play_game()
            except (ScreenError, KeyboardInterrupt) as exc:
                # The game in progress counts as aborted; the error still stops the session.
                reason = str(exc) or "interrupted"
                aborted = GameResult(ABORTED, self.clock() - start, 0, 0, 0, reason)
                self.results.append(aborted)
                self.observer.on_game_end(aborted)
                raise
            self.results.append(result)
            self.observer.on_game_end(result)
            log.info("game %d: %s in %.2f s (%d actions)", index + 1, result.outcome, result.seconds, result.actions)
            if self.config.dry_run or result.outcome == ABORTED:
                break
        if self.results and self.results[-1].outcome in (WON, LOST):
            # Leave the client tidy (no "Congratulations" dialog over the final board).
            last = self.results[-1].outcome
            self._control(self._located or self.locate(), self.profile.after_win if last == WON else self.profile.after_loss)
        return self.results

    # --- one game -----------------------------------------------------------------------------

    def play_game(self) -> GameResult:
        start = self.clock()
        located = self._located or self.locate()
        self.clicker.park(located)
        before_frame: np.ndarray | None = None
        previous = None
        last_actions: tuple[Action, ...] = ()
        watch = None  # after a guess: the guessed cell, which must show before the board is read again
        handled_all = False  # the client has handled every click of the last batch (answered pings)
        steps = actions_done = guesses = 0
        unanswered = 0  # steps in a row whose clicks changed nothing on the screen
        while steps < self.config.max_steps:
            steps += 1
            if before_frame is not None and watch is None and handled_all:
                settled = wait_for_paint(
                    self._board_grab(located), before_frame, timeout=PAINT_WAIT, settle=PAINT_SETTLE, clock=self.clock, sleep=self.sleep
                )
            else:
                settled = self._wait_for_redraw(located, before_frame, watch)
            redraw = settled.waited if before_frame is not None else 0.0
            unanswered = unanswered + 1 if before_frame is not None and last_actions and not settled.changed else 0
            if unanswered >= 2:
                path = self._save_frame(settled.frame, "no-effect")
                raise PlayError(
                    f"the {self.profile.client} board did not change after two rounds of clicks; the client is not "
                    "taking them (a chord button it does not have, a modal dialog, a paused game?)",
                    frame_path=path,
                )
            step = self._read_safely(located, settled.frame, settled.changed, previous, last_actions)
            if isinstance(step, Located):  # the window moved: carry on from the new place
                located, before_frame, last_actions, watch = step, None, (), None
                continue
            if step.status != PLAYING:
                if step.reading is not None:
                    self._record(step.frame, step.reading, None, (), StepTimings(settled.grab_seconds, step.read_seconds, step.solve_seconds, 0, redraw))
                return self._finish(step.status, start, steps, actions_done, guesses)
            guesses += int(step.decision is not None and step.decision.guessed)
            if self.config.dry_run:
                self.dry_run_actions = step.actions
                self._record(step.frame, step.reading, step.decision, step.actions, StepTimings(settled.grab_seconds, step.read_seconds, step.solve_seconds, 0, redraw))
                return self._finish(ABORTED, start, steps, 0, guesses, reason="dry run: nothing clicked")
            moved = self._window_moved(located)
            if moved is not None:
                located, before_frame, last_actions, watch = moved, None, (), None
                continue
            t_act = self.clock()
            done, waited, handled_all = self.clicker.act(
                located, step.actions, step.frame, lambda: bool(self._window_moved(located, relocate=False)),
                careful=unanswered > 0,
            )
            act = self.clock() - t_act - waited
            timings = StepTimings(settled.grab_seconds, step.read_seconds, step.solve_seconds, act, redraw + waited, len(done))
            self._record(step.frame, step.reading, step.decision, done, timings)
            actions_done += len(done)
            before_frame, previous, last_actions = step.frame, step.reading.board, done
            # A frame read before the client has shown every click is still a true (older) board, and
            # certain moves found on it stay right; a guess made on it may not be needed. So the board is
            # read after a guess only once the guessed cell shows its result.
            watch = self._last_cell(located, done) if step.decision is not None and step.decision.guessed else None
        return self._finish(ABORTED, start, steps, actions_done, guesses, reason=f"no result after {steps} steps")

    def _board_grab(self, located: Located) -> Callable[[], np.ndarray]:
        return lambda: self.screen.grab(located.region.as_region())

    def _wait_for_redraw(self, located: Located, before: np.ndarray | None, watch: tuple[slice, slice] | None = None):
        return wait_for_redraw(
            self._board_grab(located),
            before,
            timeout=self.profile.redraw_timeout,
            settle=self.profile.settle,
            watch=watch,
            clock=self.clock,
            sleep=self.sleep,
        )

    @staticmethod
    def _last_cell(located: Located, actions: tuple[Action, ...]) -> tuple[slice, slice] | None:
        """The pixels of the cell clicked last, in the board region's frame (None after a chord, which
        changes the cells around it, not itself)."""
        if not actions or actions[-1].kind == CHORD:
            return None
        cell = located.geometry.cell_rect(actions[-1].row, actions[-1].col)
        local = cell.translated(-located.region.left, -located.region.top)
        return slice(local.top, local.bottom), slice(local.left, local.right)

    def policy_for(self, board) -> PolicyConfig:
        """The solver settings a decision on this board is made with (recorders store them)."""
        first = self.config.first_click or self.profile.first_click_cell(board.rows, board.cols)
        # A client that counts flags (xdemineur) only declares a win once every mine is flagged.
        flag = self.config.flag_mines or self.profile.win_requires_all_flags
        return PolicyConfig(first_click=first, flag_mines=flag)

    def mine_total_for(self, board) -> int | None:
        """The mine total used for this board: --mines, else the profile's, else None (unknown)."""
        if self.config.mines is not None:
            return self.config.mines
        return self.profile.mine_total(board.rows, board.cols)

    def _record(self, frame, reading, decision, actions, timings: StepTimings) -> None:
        self.timings.append(timings)
        self.observer.on_step(frame, reading, decision, actions, timings)

    def _finish(self, outcome: str, start: float, steps: int, actions: int, guesses: int, reason: str = "") -> GameResult:
        return GameResult(outcome, self.clock() - start, steps, actions, guesses, reason)

    # --- reading, with the safety checks ------------------------------------------------------

    def _assess(self, board) -> tuple[str, tuple[Action, ...], object]:
        """(status, actions, decision) for a board read off the screen. Raises InconsistentBoardError
        when no placement of mines fits the board."""
        mines = self.mine_total_for(board)
        status = self._status(board)
        if status == PLAYING and mines is None and not self.profile.win_requires_all_flags and only_mines_left(board):
            status = WON
        if status != PLAYING:
            return status, (), None
        decision = decide(board.with_mines(mines), self.policy_for(board))
        return PLAYING, plan_actions(board, decision.moves, chord=self.config.chord), decision

    def _read_safely(self, located: Located, frame: np.ndarray, changed: bool, previous, last_actions):
        """Read and assess the board, or find out why that is not safe.

        Returns a ``_Step`` to act on (or telling that the game is over), or a new ``Located`` when the
        window moved. A reading that cannot be right is re-captured after the client's next redraw,
        up to ``config.rechecks`` times; then the game stops with the frame saved. A board that cannot
        be read at all (covered, gone, a dialog over it) goes to ``_recover_lost_board``."""
        unreadable: Exception | None = None
        problems: list[str] = []
        for attempt in range(self.config.rechecks + 1):
            t_read = self.clock()
            reading, unreadable = None, None
            try:
                reading = self._reader.read(frame, located.lattice)
                problems = reading_problems(
                    previous, reading.board, last_actions, flood=self.profile.flood, allow_dropped=self.profile.drops_clicks
                )
            except (UnrecognizedCellError, BoardNotFoundError) as exc:
                unreadable, problems = exc, [str(exc)]
                if attempt == 0:
                    self._check_board_shown(located)
                    dialogs = self._own_windows_over(located)
                    seen = "the game was not won"
                    if self._could_have_won(previous):
                        seen = self._dismiss_win_dialog(located)
                        if not seen:
                            # The usual reason a board stops reading right after a move: the win dialog.
                            return _Step(None, frame, WON, (), None, 0.0, 0.0)
                    if dialogs:
                        # Not the win dialog (a question the user brought up, such as "new game?"):
                        # the user is at the game; stop rather than answer it.
                        raise WindowLostError(
                            f"a window of the game itself ({dialogs[0]!r}: a dialog?) came over the board and "
                            f"{seen}: stopped"
                        )
            if reading is not None and problems and self._over(reading.board):
                # A finished game ignores the rest of a batch (xdemineur is won by its last flag even
                # if opens follow in the same batch): what the bot did last no longer has to show.
                problems = []
            read_seconds = self.clock() - t_read
            if reading is not None and not problems:
                t_solve = self.clock()
                try:
                    status, actions, decision = self._assess(reading.board)
                except InconsistentBoardError as exc:
                    problems = [str(exc)]
                else:
                    return _Step(reading, frame, status, actions, decision, read_seconds, self.clock() - t_solve)
            if attempt == self.config.rechecks:
                break
            log.info("reading not safe to act on (%s): waiting for the next redraw", "; ".join(problems[:3]))
            self.clicker.park(located)
            again = self._wait_for_redraw(located, frame)
            moved = self._window_moved(located)
            if moved is not None:
                return moved
            if not again.changed and not changed and reading is not None and self._frozen_means_won(reading.board, problems):
                log.info("the board no longer reacts to clicks: the game was won")
                return _Step(reading, frame, WON, (), None, read_seconds, 0.0)
            frame, changed = again.frame, changed or again.changed
        if unreadable is not None:
            return self._recover_lost_board(located, frame, unreadable)
        path = self._save_frame(frame, "inconsistent")
        raise InconsistentReadingError(
            f"the board read from the screen cannot be right{self._dialog_note(located)} ({'; '.join(problems[:3])}); "
            "nothing was clicked on it",
            frame_path=path,
        )

    def _status(self, board) -> str:
        """PLAYING, WON or LOST, by the client's rules (its mine total, whether a win needs all flags)."""
        return game_status(board, mines=self.mine_total_for(board), win_requires_all_flags=self.profile.win_requires_all_flags)

    def _board_now(self, located: Located):
        """A fresh capture of the board read in full (for the checks around restarts and dialogs)."""
        return self.vision.read(self.screen.grab(located.region.as_region()), located.lattice).board

    def _over(self, board) -> bool:
        return self._status(board) != PLAYING

    def _frozen_means_won(self, board, problems: list[str]) -> bool:
        """An open on a covered cell changed nothing, for a whole redraw timeout. Clients that show a
        win only outside the board (react-minesweeper) ignore clicks once won; a loss would have shown
        its mines. Only for unknown mine totals: with a known total the board itself proves a win."""
        return (
            self.profile.frozen_board_means_won
            and self.mine_total_for(board) is None
            and all("still reads" in p for p in problems)
        )

    def _could_have_won(self, previous) -> bool:
        """Whether the game may just have been won, so a win dialog may now cover the board: the client
        shows one (``after_win``) and the mine total is known. Any step may have won it: one open can
        flood any number of cells, and a click skipped as already shown may have been the winning one."""
        if previous is None or self.profile.after_win.is_empty:
            return False
        return self.mine_total_for(previous) is not None

    def _dismiss_win_dialog(self, located: Located) -> str:
        """Run the profile's after-win action (e.g. close "Congratulations") and check the board
        behind it really shows a won game. The dialog may take a moment to appear and take the
        keyboard, so the action is repeated while the board stays hidden. Returns "" when the board
        shows a won game, else what was seen instead."""
        log.info("the board cannot be read right after a move: closing a win dialog, if there is one")
        deadline = self.clock() + self.profile.restart_timeout
        retry_at = self.clock()
        seen = "the board stayed hidden"
        while self.clock() < deadline:
            if self.clock() >= retry_at:
                self._control(located, self.profile.after_win)
                retry_at = self.clock() + WIN_DIALOG_RETRY
            self.sleep(0.05)
            try:
                board = self._board_now(located)
            except (UnrecognizedCellError, BoardNotFoundError) as exc:
                seen = f"the board behind it could not be read ({exc})"
                continue
            status = self._status(board)
            if status == WON:
                return ""
            return "the board behind it shows a lost game" if status == LOST else "the game behind it is not over"
        return seen

    def _check_board_shown(self, located: Located) -> None:
        """Stop at once (WindowLostError) when the board cannot be read because its window was minimised
        or another program's window lies over it: two X queries, before any wait or retry."""
        if self.window is None:
            return
        if not self.window.is_viewable():
            # A window being closed is unmapped first: tell the two apart.
            self.sleep(0.3)
            self.window.geometry()  # WindowGoneError when it was closed
            raise WindowLostError("the game window was minimised or hidden: stopped (restore it and start again)")
        over = self.window.windows_over(located.geometry.rect)
        if over:
            # Never take the board back from a window the user put over it: stop instead.
            raise WindowLostError(
                f"the board is covered by another window ({', '.join(repr(t) for t in over[:3])}): stopped, "
                "so that no click lands on it"
            )

    def _own_windows_over(self, located: Located) -> list[str]:
        return self.window.windows_over(located.geometry.rect, own=True) if self.window is not None else []

    def _dialog_note(self, located: Located) -> str:
        """": a window of the game itself (TITLE) is over it" when one lies over the board."""
        own = self._own_windows_over(located)
        return f": a window of the game itself ({own[0]!r}: a dialog?) is over it" if own else ""

    def _recover_lost_board(self, located: Located, frame, exc: Exception):
        """The board region no longer reads as a board: moved window, dialog, or closed window.
        Returns the board located anew only if it also reads cleanly there."""
        if self.window is not None:
            self.window.geometry()  # raises WindowGoneError when it was closed
            self._check_board_shown(located)
            if self.profile.pauses_on_focus_loss:
                # Another window took the focus and the client hid its board behind "Paused".
                self.window.activate()
                self.sleep(0.2)
        try:
            found = self.locate()
            self.vision.read(self.screen.grab(found.region.as_region()), found.lattice)
            return found
        except (BoardNotFoundError, UnrecognizedCellError) as again:
            path = self._save_frame(frame, "board-lost")
            if isinstance(exc, UnrecognizedCellError):
                raise WindowLostError(
                    f"cannot read the board any more: {exc}; the skin may lack this cell state, or something "
                    f"covers the board (locating it again: {again})",
                    frame_path=path,
                ) from exc
            raise WindowLostError(f"the board is no longer visible{self._dialog_note(located)}: {again}", frame_path=path) from exc

    def _window_moved(self, located: Located, relocate: bool = True):
        """None while the window is where the board was located; otherwise the board located anew
        (or True with ``relocate=False``). Raises WindowGoneError once the window is closed."""
        if self.window is None or located.window is None:
            return None
        now = self.window.geometry()
        if now == located.window:
            return None
        log.info("the game window moved from %s to %s", located.window, now)
        return self._relocate() if relocate else True

    def _relocate(self) -> Located:
        """Locate the board after its window moved or changed size. A resized client redraws its
        board for a moment (gnome-mines scales every cell): try again until it reads as a board, for
        up to RELOCATE_PATIENCE seconds."""
        deadline = self.clock() + RELOCATE_PATIENCE
        while True:
            try:
                return self.locate()
            except BoardNotFoundError:
                if self.clock() >= deadline:
                    raise
            self.sleep(0.1)

    # --- locating -----------------------------------------------------------------------------

    def locate(self) -> Located:
        """Find the board: inside the client window when we follow one, else on the whole screen."""
        window = self.window.geometry() if self.window is not None else None
        if window is not None and not self.screen_rect.contains_rect(window):
            raise WindowLostError(f"the game window {window} is partly off the screen {self.screen_rect}")
        # Locating checks the ring of pixels around the board (to refuse a partly hidden board), so it
        # needs some screen around the window too.
        area = window.expanded(LOCATE_MARGIN).clipped(self.screen_rect) if window is not None else self.screen_rect
        with self.overlays_hidden():
            frame = self.screen.grab(area.as_region())
        lattice = self.vision.locate(frame, (area.left, area.top), within=window)
        geometry = BoardGeometry.from_lattice(lattice, (area.left, area.top))
        if window is not None and not window.contains_rect(geometry.rect):
            raise BoardNotFoundError(f"the board found at {geometry.rect} is not inside the game window {window}")
        # A couple of pixels around the cells: the lattice's own rounding of fractional origins
        # (device scale 1.25 gives 37.5 px cells) must stay inside the captured region.
        region = geometry.rect.expanded(2).clipped(self.screen_rect)
        local = lattice.translated(area.left - region.left, area.top - region.top)
        self._check_options(geometry.rows, geometry.cols)
        self._located = Located(geometry, region, local, window)
        log.info("board %dx%d at %s (pitch %s)", geometry.rows, geometry.cols, region, geometry.pitch)
        return self._located

    def _check_options(self, rows: int, cols: int) -> None:
        """Options that can only be checked against the board, checked before the first click on it."""
        first, mines = self.config.first_click, self.config.mines
        if first is not None and not (first[0] < rows and first[1] < cols):
            raise InputError(f"--first {first[0]},{first[1]} is off the {rows}x{cols} board")
        if mines is not None and mines >= rows * cols:
            raise InputError(f"--mines {mines} does not fit the {rows}x{cols} board (at most {rows * cols - 1})")

    # --- acting -------------------------------------------------------------------------------

    def _restart_if_over(self) -> None:
        """A session may start on a finished game (the user's last one): start a new one first rather
        than count it."""
        located = self._located or self.locate()
        self.clicker.park(located)
        try:
            board = self._board_now(located)
        except (BoardNotFoundError, UnrecognizedCellError):
            return  # play_game deals with an unreadable board
        status = self._status(board)
        if status != PLAYING:
            log.info("the game on screen is already over (%s): starting a new one", status)
            self._start_new_game(status)

    def _is_new_game(self, board) -> bool:
        if is_fresh(board):
            return True
        # Clients that open an area by themselves (xdemineur) start with some cells open.
        status = self._status(board)
        return self.profile.first_click == "preopened" and status == PLAYING and board.count("F") == 0

    def _start_new_game(self, last: str) -> None:
        """Dismiss what the last game left on screen and start a fresh one, then wait until it shows."""
        located = self._located or self.locate()
        after = self.profile.after_win if last == WON else self.profile.after_loss
        self._control(located, after)
        if self.profile.restart.is_empty:
            raise PlayError(f"the {self.profile.skin} profile has no restart action: cannot start another game")
        self._control(located, self.profile.restart)
        deadline = self.clock() + self.profile.restart_timeout
        attempt = 0
        while True:
            attempt += 1
            try:
                # A new game normally keeps the board where it was; locating again (the slow part) is
                # only needed when it does not read there, e.g. the window changed size.
                if attempt > 1 and attempt % 5 == 0:
                    located = self.locate()
                board = self._board_now(located)
                if self._is_new_game(board):
                    return
            except (BoardNotFoundError, UnrecognizedCellError):
                pass
            if self.clock() > deadline:
                raise PlayError(f"no new game appeared within {self.profile.restart_timeout:.1f} s of restarting")
            self.sleep(0.02)

    def _control(self, located: Located, action: ControlAction) -> None:
        if action.is_empty:
            return
        if action.keys:
            if self.window is not None and action.focus:
                # Raising the game for its keys must not take it back from a window put over it.
                self._check_board_shown(located)
                self.window.activate()
            self.mouse.press(*action.keys)
        if action.click is not None:
            self._control_click(located, action.click)
        if action.wait:
            self.sleep(action.wait)

    def _control_click(self, located: Located, offset: tuple[float, float]) -> None:
        """A click on a client control (e.g. xdemineur's face), placed relative to the located board.
        Refused unless it lands off the board and inside the client's window."""
        geometry = located.geometry
        rect = geometry.rect
        x = rect.left + rect.width / 2 + offset[0] * geometry.pitch[0]
        y = rect.top + offset[1] * geometry.pitch[1]
        inside_window = located.window.contains(x, y) if located.window is not None else self.screen_rect.contains(x, y)
        if rect.contains(x, y) or not inside_window:
            raise PlayError(f"refusing the {self.profile.skin} control click at ({x:.0f}, {y:.0f}): it is on the board or outside the window")
        self.mouse.click(*self.scale.to_points(x, y), "left")

    def _save_frame(self, frame: np.ndarray, what: str) -> str | None:
        import cv2

        folder = self.config.failure_dir
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"screenbot-{what}-{time.strftime('%Y%m%d-%H%M%S')}.png"
            cv2.imwrite(str(path), frame)
        except OSError as exc:
            log.warning("could not save the frame: %s", exc)
            return None
        return str(path)


__all__ = ["Player"]
