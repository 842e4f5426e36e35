"""Working the client's own controls between games: the profile's keys and control clicks (a restart
face), closing a win dialog, starting a new game and waiting until it shows.

Control clicks are the only clicks off the cells, so ``ClientControls.control_click`` refuses any point on
the board or outside the client's window.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from ..errors import BoardNotFoundError, UnrecognizedCellError
from ..mouse import Mouse, ScreenScale
from ..vision.new_game_control import control_above
from .clicking import Clicker
from .consistency import wrong_flags_without_a_mine
from .locating import BoardTracker
from .observer import LOST, WON
from .outcome import PLAYING
from .profile import ControlAction, PlayProfile, action_json, usual_restarts
from .rules import GameRules
from .types import Located, PlayError, Surroundings, WindowLostError

log = logging.getLogger(__name__)

# Seconds between two tries at closing a win dialog that keeps the board hidden.
WIN_DIALOG_RETRY = 0.7
# Seconds each of the usual restarts is given to show a new game when the profile leaves it to be found.
FIND_RESTART_TIMEOUT = 2.0
# Seconds between seeing a game end and the first key or click after it. A client may still be inside
# its own end-of-game handling when its board shows the end: minegauler 4.2 paints the finished board
# from within that handling and crashed (its window closed) on about 1 game in 50 when the restart key
# came in the middle of it.
GAME_END_PAUSE = 0.15
# Seconds after which a restart is sent again while the ended game still shows, nothing over it, where
# no window is followed: a key can reach no window for a moment, while the focus goes back from a
# dialog just closed, and there is no window to give it back to (on Wayland about 1 restart in 20 was
# not taken, and once in 50 neither was the one sent after 5 s). Where a window is followed, its
# restart gives it the focus first (``"focus"``); resent there too, one CI run stopped on KMines' late
# "High Scores" dialog (not seen again alone), so resends stay where they are needed.
RESTART_RETRY = 1.5


@dataclass(eq=False)
class ClientControls:
    env: Surroundings
    mouse: Mouse
    profile: PlayProfile
    rules: GameRules
    tracker: BoardTracker
    clicker: Clicker
    scale: ScreenScale = ScreenScale()
    # How a new game is started: the profile's restart, or the one found by trying (``"find"``).
    restart: ControlAction | None = field(init=False)

    def __post_init__(self) -> None:
        self.restart = None if self.profile.restart.is_empty else self.profile.restart

    def board_now(self, located: Located):
        """A fresh capture of the board read in full (for the checks around restarts and dialogs)."""
        return self.env.vision.read(self.env.screen.grab(located.region.as_region()), located.lattice).board

    def dismiss_win_dialog(self, located: Located) -> str:
        """Run the profile's after-win action (e.g. close "Congratulations") and check the board
        behind it really shows a won game. The dialog may take a moment to appear and take the
        keyboard, so the action is repeated while the board stays hidden. Returns "" when the board
        shows a won game, else what was seen instead."""
        log.info("the board cannot be read right after a move: closing a win dialog, if there is one")
        deadline = self.env.clock() + self.profile.restart_timeout
        retry_at = self.env.clock()
        seen = "the board stayed hidden"
        while self.env.clock() < deadline:
            if self.env.clock() >= retry_at:
                # A window that came over the board meanwhile may be what keeps it hidden (it also
                # takes the keys meant for the dialog): name it rather than the game's dialog.
                self.tracker.check_board_shown(located)
                self.control(located, self.profile.after_win)
                retry_at = self.env.clock() + WIN_DIALOG_RETRY
            self.env.sleep(0.05)
            try:
                board = self.board_now(located)
            except (UnrecognizedCellError, BoardNotFoundError) as exc:
                seen = f"the board behind it could not be read ({exc})"
                continue
            status = self.rules.status(board)
            if status == WON:
                return ""
            return "the board behind it shows a lost game" if status == LOST else "the game behind it is not over"
        return seen

    def restart_if_over(self) -> None:
        """A session may start on a finished game (the user's last one): start a new one first rather
        than count it."""
        located = self.tracker.located or self.tracker.locate()
        self.clicker.park(located)
        try:
            board = self.board_now(located)
        except (BoardNotFoundError, UnrecognizedCellError):
            return  # play_game deals with an unreadable board
        if wrong_flags_without_a_mine(board):
            return  # no game shows that: misread, and play_game's reading checks say so
        status = self.rules.status(board)
        if status != PLAYING:
            log.info("the game on screen is already over (%s): starting a new one", status)
            self.start_new_game(status)

    def start_new_game(self, last: str) -> None:
        """Dismiss what the last game left on screen and start a fresh one, then wait until it shows.
        A profile with ``"restart": "find"`` tries the usual ways the first time and keeps the first
        that shows a new game."""
        located = self.tracker.located or self.tracker.locate()
        # The window may have moved since the board was last found (dragged during the game's last
        # step): a control click placed from the old place would miss the control, or land on the board.
        located = self.tracker.window_moved(located) or located
        after = self.profile.after_loss if last == LOST else self.profile.after_win
        self.env.sleep(GAME_END_PAUSE)
        # The pointer rests where the last click was: the new game's cell under it would be drawn lit.
        self.clicker.park(located)
        self.control(located, after)
        if self.restart is not None:
            self.control(located, self.restart)
            resend = self.restart if self.env.window is None else None
            if self._new_game_shown(located, self.profile.restart_timeout, resend=resend):
                return
            late = None
            if self.env.window is None and last != LOST and not self._reads(located):
                # With no window followed, the win dialog coming after the after-win key (it takes the
                # restart key then) shows only as a board that no longer reads.
                late = "the board is hidden after the win and the restart"
            elif after.dialog and self.tracker.own_windows_over(located):
                # The game's window came over the board after the restart key (KMines asks "Reset the
                # game?" about 0.2 s after a loss, later on a busy machine, whether or not a new game
                # was asked for meanwhile).
                late = "a window of the game came over the board after the restart"
            if late is not None:
                # The after-game action closes it, and the restart goes again.
                log.info("%s: %s, then restarting again", late, "+".join(after.keys or ()) or "its action")
                self.control(located, after)
                self.control(located, self.restart)
                if self._new_game_shown(located, self.profile.restart_timeout):
                    return
            # Another program's window that came over the board while the game restarted is the
            # reason to give, by its name (Notepad over winemine said only "no new game appeared").
            self.tracker.check_board_shown(located)
            waited = f"no new game appeared within {self.profile.restart_timeout:.1f} s of restarting"
            # A look told by faces reads no fresh board (one face): the client's own pictures, which
            # the session gave way from once cells opened, read it (``commands.play``).
            self.tracker.give_way(f"the new game does not read as {located.lattice.skin}", fresh=True)
            if not self._reads(located):
                # Nothing reads where the board was (with no window known, a window over it looks just
                # so): that, not the restart, is what the user has to see to.
                raise WindowLostError(f"the board is no longer visible where it was{self.tracker.dialog_note(located)}:"
                                      f" {waited}")
            raise PlayError(waited + self.tracker.dialog_note(located))
        if not self.profile.find_restart:
            raise PlayError(f"the {self.profile.skin} profile has no restart action: cannot start another game")
        tried = []
        control = control_above(self.env.screen.grab(), located.geometry)
        for label, action in usual_restarts(self.env.window, control):
            try:
                self.control(located, action)
            except PlayError as exc:  # a click that would land on the board or outside the window
                log.info("not trying %s: %s", label, exc)
                continue
            tried.append(label)
            if self._new_game_shown(located, FIND_RESTART_TIMEOUT):
                if self._has_profile_file():
                    log.warning('%s starts a new game in %s: write it into its profile\'s "play" section as '
                                '"restart": %s', label, self.profile.client, action_json(action))
                else:
                    log.info("%s starts a new game in %s: used for the rest of this session", label, self.profile.client)
                self.restart = action
                return
        advice = ('give its profile\'s "play" section a "restart"' if self._has_profile_file() else
                  "teach the client with `screenbot learn NAME --restart KEYS` and play it as NAME")
        raise PlayError(f"none of the usual ways started a new game in {self.profile.client} (tried: "
                        f"{', '.join(tried) or 'none'}; keys that may reload, close or open a window are never "
                        f"tried): {advice}")

    def _has_profile_file(self) -> bool:
        """Whether the profile played is a skin's file a user can edit (not a built-in look's)."""
        from ..errors import SkinError
        from ..skin_folders import skin_folder

        try:
            skin_folder(self.profile.skin)
        except SkinError:
            return False
        return True

    def _reads(self, located: Located) -> bool:
        try:
            self.board_now(located)
        except (BoardNotFoundError, UnrecognizedCellError):
            return False
        return True

    def _new_game_shown(self, located: Located, timeout: float, resend: ControlAction | None = None) -> bool:
        """Whether a new game shows within ``timeout`` s, where the board was or where it is found
        anew with as many rows and columns (a dialog over part of the board leaves a smaller grid of
        cells that the locator may take for the board); the tracker then keeps that place. ``resend``
        goes again every RESTART_RETRY s while the board reads and shows no new game."""
        deadline = self.env.clock() + timeout
        sent = self.env.clock()
        size = (located.geometry.rows, located.geometry.cols)
        attempt = 0
        while True:
            attempt += 1
            try:
                # A new game normally keeps the board where it was; locating again (the slow part) is
                # only needed when it does not read there, e.g. the window changed size.
                if attempt > 1 and attempt % 5 == 0:
                    found = self.tracker.locate()
                    if (found.geometry.rows, found.geometry.cols) == size:
                        located = found
                board = self.board_now(located)
                if self.rules.is_new_game(board):
                    self.tracker.located = located
                    return True
                if resend is not None and self.env.clock() - sent >= RESTART_RETRY:
                    log.info("the restart was not taken (the ended game still shows): restarting again")
                    self.control(located, resend)
                    sent = self.env.clock()
            except (BoardNotFoundError, UnrecognizedCellError):
                pass
            if self.env.clock() > deadline:
                return False
            self.env.sleep(0.02)

    def control(self, located: Located, action: ControlAction) -> None:
        if action.is_empty:
            return
        if action.dialog and (self.env.window is None or not self.tracker.own_windows_over(located)):
            # Meant for a window of the game that is not there, or that cannot be told there: with no
            # window known, such a key went out blind, and Escape quit ace-minesweeper at the end of
            # every session that ended in a win.
            return
        if action.keys:
            if self.env.window is not None and action.focus:
                # Raising the game for its keys must not take it back from a window put over it.
                self.tracker.check_board_shown(located)
                self.tracker.activate(located.geometry.inner_rect())
            self.mouse.press(*action.keys)
        if action.click is not None:
            self.control_click(located, action)
        if action.wait:
            self.env.sleep(action.wait)

    def control_click(self, located: Located, action: ControlAction) -> None:
        """A click on a client control (e.g. xdemineur's face), placed relative to the located board.
        Refused unless it lands off the board and inside the client's window."""
        point = action.guarded_click_point(located.geometry, located.window or self.env.screen_rect)
        if point is None:
            x, y = action.click_point(located.geometry)
            raise PlayError(f"refusing the {self.profile.skin} control click at ({x:.0f}, {y:.0f}): it is on the board or outside the window")
        self.mouse.click(*self.scale.to_points(*point), "left")


__all__ = ["ClientControls", "WIN_DIALOG_RETRY"]
