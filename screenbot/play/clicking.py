"""Clicking a batch of actions on a located board, the way the client can take them.

Clients differ in how fast clicks may follow each other (the profile's ``confirm_clicks``):
- ``"board"``: xdemineur and Chromium take the pointer's position when they get round to a click, not
  the click's own, so a click sent before the previous one was handled lands on the wrong cell. Each
  click waits until the board has changed and settled (a client may draw the pressed cell first and
  the result a moment later).
- ``"ping"``: gnome-mines. Each of its tiles drops the pointer grab in its press handler, and GDK
  sends an event to the grabbing tile when the event reached the X server before the client's ungrab
  did. So a press sent before gnome-mines has handled the previous one goes to the previous tile (a
  cell the bot clicked already: a left click there changes nothing, or chords around correct flags; a
  right click there would take its flag off). Back to back, ~40% of clicks were lost that way. Here
  each open waits for two round trips through the client (``GameWindow.ping``, _NET_WM_PING: a few ms
  each): after one, 8.6% of opens were still lost (GDK may answer a ping before it has handled the
  events ahead of it), after two 1.5%, chosen again at the next step (``drops_clicks``). Flags wait
  for their cell to show, as with ``"cell"``. Without a window that answers pings, this is ``"cell"``.
- ``"cell"``: each click waits until its own cell changes: about one display frame.
- ``"none"``: clicks go back to back.
After a step whose clicks all seemed to change nothing, the loop asks for ``careful`` clicks: each
waits as with ``"cell"`` at least, so a client that stopped taking quick clicks gets slow ones.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np

from ..geometry import Rect
from ..mouse import BoardMouse, Mouse, ScreenScale
from .observer import Action
from .planner import CHORD, FLAG_ACTION
from .profile import CONFIRM_BOARD, CONFIRM_CELL, CONFIRM_NONE, CONFIRM_PING, PlayProfile
from .stability import wait_for_redraw
from .types import Located, Screen

log = logging.getLogger(__name__)

# Round trips through the client after each open in "ping" mode (see the module's notes).
PING_ROUNDS = 2


class Batch(NamedTuple):
    done: tuple[Action, ...]  # the actions clicked (a cell that changed since it was read is skipped)
    waited: float  # seconds spent waiting for the client to take or show clicks (its time, not the bot's)
    # The last click was answered by pings: the client has handled every click of the batch, and its
    # next paint shows them all (see ``stability.wait_for_paint``).
    handled_all: bool


@dataclass(kw_only=True, eq=False)
class Clicker:
    screen: Screen
    screen_rect: Rect
    mouse: Mouse
    profile: PlayProfile
    scale: ScreenScale
    ping: Callable[[float], bool] | None = None  # a round trip through the client (the game window's), for "ping" mode
    clock: Callable[[], float] = time.perf_counter
    sleep: Callable[[float], None] = time.sleep

    def board_mouse(self, located: Located) -> BoardMouse:
        return BoardMouse(self.mouse, located.geometry, self.scale, self.screen_rect, chord_button=self.profile.chord_button,
                          flag_keys=self.profile.flag_keys)

    def park(self, located: Located) -> None:
        """Move the pointer off the board when the client lights up the cell under it (gnome-mines
        draws the hovered cell lighter, which reads like an open cell)."""
        if self.profile.hover_highlight:
            self.board_mouse(located).park()

    def act(
        self, located: Located, actions, frame: np.ndarray, window_moved: Callable[[], bool], careful: bool = False
    ) -> Batch:
        """Click the actions in order (see ``Batch`` for what is returned). ``careful``: no click waits
        less than its cell showing (see the module's notes).

        Before each click cheap checks: no window came over the board and the window is still where
        the board was located (``window_moved``: a window dragged mid-batch stops the batch; one that
        came over the board stops play), and the target cell still looks
        exactly as in the frame that was read. A cell that changed was either opened by an earlier
        click of this batch (nothing to do) or is hidden by something that appeared over the board:
        skipped either way, and the next reading decides what happened."""
        board_mouse = self.board_mouse(located)
        region = located.region
        done: list[Action] = []
        waited = 0.0
        handled_all = False
        for action in actions:
            cell = located.geometry.cell_inner_rect(action.row, action.col)
            local = cell.translated(-region.left, -region.top)
            expected = frame[local.top : local.bottom, local.left : local.right]
            if not np.array_equal(self.screen.grab(cell.as_region()), expected):
                log.debug("cell (%d, %d) changed since it was read: not clicking it", action.row, action.col)
                continue
            mode = self._mode(action, careful)
            watched = self._confirm_area(mode, action, cell, region)
            before = expected if watched is cell else self.screen.grab(watched.as_region()) if watched else None
            # The window check last, just before the press: a window that comes over the board between
            # a check and the press takes the click (a grab under Wine takes milliseconds).
            if window_moved():  # also raises WindowLostError when a window came over the board
                break
            if action.kind == FLAG_ACTION:
                board_mouse.flag(action.row, action.col)
            elif action.kind == CHORD:
                board_mouse.chord(action.row, action.col)
            else:
                board_mouse.open(action.row, action.col)
            done.append(action)
            t_wait = self.clock()
            handled_all = False
            if mode == CONFIRM_PING:
                handled_all = all(self.ping(self.profile.redraw_timeout) for _ in range(PING_ROUNDS))
                if not handled_all:
                    log.debug("the client did not answer a ping within %.2f s", self.profile.redraw_timeout)
            elif before is not None:
                self._wait_shown(watched, before, settle=0.0 if watched is cell else self.profile.settle)
            waited += self.clock() - t_wait
        if self.profile.hover_highlight:
            board_mouse.park()
        return Batch(tuple(done), waited, handled_all)

    def _mode(self, action: Action, careful: bool) -> str:
        """How this click is confirmed: the profile's mode, made at least "cell" for careful clicks,
        for flags in "ping" mode (a lost right click takes an earlier flag off) and without pings."""
        mode = self.profile.confirm_clicks
        if mode == CONFIRM_PING and (careful or action.kind == FLAG_ACTION or self.ping is None):
            return CONFIRM_CELL
        if mode == CONFIRM_NONE and careful:
            return CONFIRM_CELL
        return mode

    @staticmethod
    def _confirm_area(mode: str, action: Action, cell: Rect, region: Rect) -> Rect | None:
        """Where a click must show before the next one is sent: the clicked cell, the whole board (also
        for a chord, which changes the cells around it, not itself), or nowhere."""
        if mode == CONFIRM_CELL and action.kind != CHORD:
            return cell
        if mode in (CONFIRM_CELL, CONFIRM_BOARD):
            return region
        return None

    def _wait_shown(self, area: Rect, before: np.ndarray, settle: float) -> None:
        settled = wait_for_redraw(
            lambda: self.screen.grab(area.as_region()),
            before,
            timeout=self.profile.redraw_timeout,
            settle=settle,
            clock=self.clock,
            sleep=self.sleep,
        )
        if not settled.changed:
            log.debug("a click did not show within %.2f s", self.profile.redraw_timeout)
