"""Where the board is, and whether it is still there: locating it on the screen (in the game's window
when one is followed), noticing that the window moved, was minimised or got covered.

``loop.Player`` owns one ``BoardTracker``; ``Player.locate`` and ``Player.located`` are its.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field
from typing import Callable, ContextManager

from ..errors import BoardNotFoundError, InputError
from ..geometry import Lattice, Rect
from .evidence import save_frame
from .types import Located, LookChangedError, PlayConfig, Surroundings, Vision, WindowLostError

log = logging.getLogger(__name__)

# Screen pixels grabbed around the game window when locating the board in it.
LOCATE_MARGIN = 48

# Seconds a board may take to read again after its window moved or was resized (it redraws): as long
# as a client starved of CPU may take to show clicks (``safe_read.STALL_SECONDS``). At 3 s, xdemineur
# moved by the test while another test ran beside it showed no board at its new place (CI run 83).
RELOCATE_PATIENCE = 6.0
# s the window manager is given to carry out a request to raise the game before play looks whether a
# window came over the board meanwhile (openbox answers within a few ms; a loaded machine is slower).
ACTIVATE_SETTLE = 0.1
# s the window manager is given, after a window came over the board, to carry out what came before it
# (a click just sent raises the game), before a window left under the game is put back over it.
ARRIVAL_SETTLE = 0.3


def find_board(vision: Vision, frame, area: Rect, window: Rect | None) -> Lattice:
    """The board's lattice in screen pixels, found on ``frame`` (a capture of the screen's ``area``)
    inside ``window`` when one is given. Raises BoardNotFoundError, also for a board that does not
    lie inside the window."""
    geometry = vision.locate(frame, (area.left, area.top), within=window).translated(area.left, area.top)
    board_rect = geometry.inner_rect()
    if window is not None and not window.contains_rect(board_rect):
        raise BoardNotFoundError(
            f"the board found at {board_rect} is not inside the game window {window}", reason="board outside window"
        )
    log.info("board %dx%d at %s (pitch %.1f x %.1f)", geometry.rows, geometry.cols, board_rect, *geometry.pitch)
    return geometry


@dataclass(eq=False)
class BoardTracker:
    env: Surroundings
    config: PlayConfig
    # Locating looks at whole cells: a hint overlay over the game (another process) is taken off the
    # screen meanwhile (the desktop's ``overlays_hidden``); reading works through it.
    overlays_hidden: Callable[[], ContextManager[object]] = contextlib.nullcontext
    located: Located | None = field(default=None, init=False)  # where the board was last found
    overlays_over: bool = field(default=False, init=False)  # a hint overlay was over the game at the last look
    resized_at: float | None = field(default=None, init=False)  # when the window was last seen to change size
    # A click went out after the last look for windows over the board: a window found at the next look
    # may have come before that click reached the game, and taken it.
    clicked: bool = field(default=False, init=False)

    def locate(self) -> Located:
        """Find the board: inside the client window when we follow one, else on the whole screen."""
        frame, area, window = self._grab()
        geometry = find_board(self.env.vision, frame, area, window)
        # A couple of pixels around the cells: the lattice's own rounding of fractional origins
        # (device scale 1.25 gives 37.5 px cells) must stay inside the captured region.
        located = Located.around(geometry, window, (2, 2), self.env.screen_rect)
        self._check_options(geometry.rows, geometry.cols)
        self.located = located
        return located

    def give_way(self, why: str, *, fresh: bool = False, cause: Exception | None = None) -> None:
        """Raise LookChangedError where ``auto`` chose the session's skin on covered cells alone and
        the board now reads whole under another (``SkinVision.other_look``); ``why``: what the
        session's skin made of it; ``fresh``: the board is a new game's. Returns otherwise."""
        other_look = getattr(self.env.vision, "other_look", None)
        look = other_look(self._grab()[0]) if other_look is not None else None
        if look is not None:
            raise LookChangedError(f"{why}, and reads whole as {look}", skin=look, fresh=fresh) from cause

    def _grab(self):
        """(frame, its area on the screen, the game window or None): what the board is looked for on."""
        window = self.env.window.geometry() if self.env.window is not None else None
        if window is not None and not self.env.screen_rect.contains_rect(window):
            raise WindowLostError(f"the game window {window} is partly off the screen {self.env.screen_rect}")
        # Locating checks the ring of pixels around the board (to refuse a partly hidden board), so it
        # needs some screen around the window too.
        area = window.expanded(LOCATE_MARGIN).clipped(self.env.screen_rect) if window is not None else self.env.screen_rect
        with self.overlays_hidden() as hidden:
            self.overlays_over = bool(hidden)
            return self.env.screen.grab(area.as_region()), area, window

    def _check_options(self, rows: int, cols: int) -> None:
        """Options that can only be checked against the board, checked before the first click on it."""
        first, mines = self.config.first_click, self.config.mines
        if first is not None and not (first[0] < rows and first[1] < cols):
            raise InputError(f"--first {first[0]},{first[1]} is off the {rows}x{cols} board")
        if mines is not None and mines >= rows * cols:
            raise InputError(f"--mines {mines} does not fit the {rows}x{cols} board (at most {rows * cols - 1})")

    def window_moved(self, located: Located, relocate: bool = True):
        """None while the window is where the board was located; otherwise the board located anew
        (or True with ``relocate=False``). Raises WindowGoneError once the window is closed."""
        if self.env.window is None or located.window is None:
            return None
        now = self.env.window.geometry()
        if now == located.window:
            return None
        log.info("the game window moved from %s to %s", located.window, now)
        if (now.width, now.height) != (located.window.width, located.window.height):
            self.resized_at = self.env.clock()
        return self.relocate() if relocate else True

    def drawn_anew(self, located: Located) -> Located | None:
        """The board located again, when the same board now lies elsewhere: asked when the board stops
        reading, if its window changed size in the last RELOCATE_PATIENCE seconds (what was located
        after the resize was the old picture: the window's pixels before the client drew them anew,
        seen on gnome-mines under load), or always when no window is followed (the desktop tells no
        window's moves: the board is all there is to see them by). None otherwise: the board is where
        it was (a dialog over it, the usual reason a board stops reading), or it is not whole."""
        followed = self.env.window is not None
        if followed and (self.resized_at is None or self.env.clock() - self.resized_at >= RELOCATE_PATIENCE):
            return None
        # After a resize, the client may still be drawing (no board found) or not have begun (the old
        # picture found again): looked at again until RELOCATE_PATIENCE after the resize (gnome-mines
        # under load, where one look took the half-drawn board for a win dialog and pressed Escape).
        deadline = self.resized_at + RELOCATE_PATIENCE if followed else self.env.clock()
        old = located.geometry
        while True:
            try:
                again = self.locate()
            except BoardNotFoundError:
                again = None
            if again is not None:
                new = again.geometry
                if (new.rows, new.cols) != (old.rows, old.cols):
                    break  # not this board (a dialog over part of it leaves a smaller grid)
                if (new.origin, new.pitch) != (old.origin, old.pitch):
                    log.info("the board was drawn anew after its window was resized: playing it at its new place"
                             if followed else "the board moved: playing it at its new place")
                    return again
            if self.env.clock() >= deadline:
                break
            self.env.sleep(0.1)
        self.located = located
        return None

    def relocate(self) -> Located:
        """Locate the board after its window moved or changed size. A resized client redraws its
        board for a moment (gnome-mines scales every cell): try again until it reads as a board, for
        up to RELOCATE_PATIENCE seconds."""
        deadline = self.env.clock() + RELOCATE_PATIENCE
        while True:
            try:
                return self.locate()
            except BoardNotFoundError as exc:
                if self.env.clock() >= deadline:
                    path = save_frame(self._grab()[0], self.config.failure_dir, "board-lost")
                    raise WindowLostError(f"no board reads in the game window {RELOCATE_PATIENCE:.0f} s after it moved "
                                          f"or changed size: {exc}", frame_path=path) from exc
            self.env.sleep(0.1)

    def check_board_shown(self, located: Located) -> None:
        """Stop at once (WindowLostError) when the board cannot be read because its window was minimised
        or another program's window lies over it: two X queries, before any wait or retry."""
        if self.env.window is None:
            return
        if not self.env.window.is_viewable():
            self._stop_hidden()
        over = self.env.window.windows_over(located.geometry.inner_rect())
        if over:
            # Never take the board back from a window the user put over it: stop instead.
            raise WindowLostError(
                f"the board is covered by another window ({', '.join(repr(t) for t in over[:3])}): stopped, "
                f"so that no click lands on it{self._last_click_note()}"
            )
        self.check_no_arrival(located.geometry.inner_rect())

    def _stop_hidden(self) -> None:
        """Stop (WindowLostError) for a window minimised or hidden; WindowGoneError when it was closed."""
        # A window being closed is unmapped first: tell the two apart.
        self.env.sleep(0.3)
        self.env.window.geometry()  # WindowGoneError when it was closed
        if self.env.window.is_viewable():
            raise WindowLostError("the game window was minimised or hidden a moment ago: stopped (start again to play on)")
        raise WindowLostError("the game window was minimised or hidden: stopped (restore it and start again)")

    def check_no_arrival(self, rect: Rect) -> None:
        """Stop (WindowLostError) when another program's window was mapped over ``rect`` since the last
        look, even one the window manager put under the game (focus-stealing prevention does, while
        the bot clicks): no stacking query can then be asked at the wrong moment. Cheap: the X server
        has sent the events already."""
        if self.env.window is None:
            return
        note, self.clicked = self._last_click_note(), False
        if self.env.window.was_hidden():
            # Minimised since the last look, and perhaps shown again by the bot's own request to make the
            # game active (a window manager restores a minimised window so asked): the user's act stands.
            self._stop_hidden()
        arrived = self.env.window.appeared_over(rect)
        if arrived:
            # What the window manager does next (raising the game for a click sent just before the
            # window came) is waited out, then a window left under the game is put back over it.
            self.env.sleep(ARRIVAL_SETTLE)
            self.env.window.put_arrivals_back()
            raise WindowLostError(
                f"the board is covered by another window ({', '.join(repr(t) for t in arrived[:3])}, which "
                f"had just come over it): stopped, so that no click lands on it{note}"
            )

    def _last_click_note(self) -> str:
        """What to add to a stop for a window found over the board: that the click sent since the last
        look may have reached it, unless the window system holds back or reports such a press."""
        if not self.clicked or self.env.window is None or self.env.window.guards_presses():
            return ""
        return "; the last click, sent just before, may have reached it"

    def activate(self, rect: Rect) -> None:
        """Raise and focus the game (its keys go to it; gnome-mines shows its board only then), after
        the checks that nothing lies over ``rect``; and, once the window manager has done it, check
        that no window came over ``rect`` meanwhile: raising the game would have put it over that
        window, which is then put back on top before play stops."""
        self.env.window.activate()
        self.env.sleep(ACTIVATE_SETTLE)
        self.check_no_arrival(rect)

    def board_disturbed(self, located: Located) -> bool:
        """Before each click: WindowLostError when a window came over the board; True when the game
        window moved (the batch stops and the board is located again)."""
        self.check_no_arrival(located.geometry.inner_rect())
        moved = bool(self.window_moved(located, relocate=False))
        self.clicked = not moved  # the click follows
        return moved

    def check_window_uncovered(self) -> None:
        """Before the game is raised at the start: stop (WindowLostError) when another program's
        window lies over the game window. The board is not located yet (a client that pauses when
        unfocused hides it until it is raised), so the whole window is asked about, and raising it
        would put the game over a window the user placed there."""
        if self.env.window is None:
            return
        over = self.env.window.windows_over(self.env.window.geometry())
        if over:
            raise WindowLostError(
                f"the game window is covered by another window ({', '.join(repr(t) for t in over[:3])}): "
                "move that window off the game and start again (the bot does not raise the game over it)"
            )
        self.check_no_arrival(self.env.window.geometry())

    def own_windows_over(self, located: Located) -> list[str]:
        return self.env.window.windows_over(located.geometry.inner_rect(), own=True) if self.env.window is not None else []

    def overlay_note(self) -> str:
        """Why a board that cannot be right may be so, when a hint overlay lay over the game at the last
        look: the board is read through its marks, which hide what tells some looks' cells apart."""
        if not self.overlays_over:
            return ""
        return ("; a screenbot hint overlay is over the game, and its marks can hide what tells its cells apart "
                "(in the classic look, the bevels of covered cells): stop the hint to play")

    def dialog_note(self, located: Located) -> str:
        """": a window of the game itself (TITLE) is over it" when one lies over the board."""
        own = self.own_windows_over(located)
        return f": a window of the game itself ({own[0]!r}: a dialog?) is over it" if own else ""


__all__ = ["BoardTracker", "LOCATE_MARGIN", "RELOCATE_PATIENCE", "find_board"]
