"""Follow the game's top-level window while playing: the Windows counterpart of
``screenbot.platforms.x11.tracker.WindowTracker``, with the same methods and meanings.

Every answer is a fresh question to user32 (a few microseconds each): there is no connection to keep,
and nothing to close.
"""

from __future__ import annotations

import logging

from ...errors import PressHeldBackError, PressStrayedError, WindowGoneError
from ...geometry import Rect
from .arrivals import Arrivals
from .press_guard import PressGuard
from .stacking import Owners, shown_windows, title_of

log = logging.getLogger(__name__)


class Win32Window:
    """A top-level window by its handle (as ``Win32Desktop.window_holding`` found it)."""

    def __init__(self, hwnd: int, api) -> None:
        self.window_id = hwnd
        self._api = api
        # The game's process, read while the window exists: its dialogs are told apart by it.
        self._owners = Owners(api, hwnd)
        self._arrivals: Arrivals | None = None  # armed by the first ``appeared_over``
        self._guard: PressGuard | None = None  # started by the first ``guarded`` click

    def _gone(self) -> WindowGoneError:
        return WindowGoneError(f"the game window 0x{self.window_id:x} was closed", window=self.window_id)

    def geometry(self) -> Rect:
        """The client area in virtual-screen pixels (negative on monitors left of or above the
        primary); WindowGoneError once the window is destroyed."""
        if not self._api.exists(self.window_id):
            raise self._gone()
        rect = self._api.client_rect_on_screen(self.window_id)
        if rect is None:  # destroyed between the two calls
            raise self._gone()
        return rect

    def title(self) -> str:
        return title_of(self._api, self.window_id)

    def program(self) -> str:
        return self._api.class_name(self.window_id)

    def is_viewable(self) -> bool:
        return self._api.is_visible(self.window_id) and not self._api.is_iconic(self.window_id)

    def was_hidden(self) -> bool:
        """Whether it is minimised or hidden now: Windows keeps no record of a minimise undone since,
        and ``activate`` restores a minimised window only in the same call that saw it minimised."""
        return not self.is_viewable()

    def activate(self) -> None:
        """Restore the window if minimised and give it the foreground, so key presses reach it."""
        if not self._api.exists(self.window_id):
            raise self._gone()
        if self._api.is_iconic(self.window_id):
            self._api.restore(self.window_id)  # as X11's _NET_ACTIVE_WINDOW de-iconifies
        if not self._api.set_foreground(self.window_id):
            if not self._api.exists(self.window_id):
                raise self._gone()
            # The foreground lock: the bot's clicks on the game still bring it forward.
            log.info("Windows did not give the game window the foreground (another program holds it)")

    def supports_ping(self) -> bool:
        """False: the nearest thing to X11's _NET_WM_PING, SendMessageTimeout(WM_NULL), is answered as
        soon as the window's thread next looks for messages, and a thread handles messages sent to it
        before the posted input waiting in its queue, so an answer does not say that a click was taken."""
        return False

    def ping(self, timeout: float) -> bool:
        """Whether the window's thread answers a WM_NULL within ``timeout`` seconds (not hung); it does
        not confirm input (``supports_ping``). WindowGoneError once the window is closed."""
        answered = self._api.answers(self.window_id, timeout)
        if answered is None or not self._api.exists(self.window_id):
            raise self._gone()
        return answered

    def windows_over(self, rect: Rect, own: bool = False) -> list[str]:
        """Titles of other programs' windows stacked above the game window over ``rect`` (with
        ``own``: of the game's own windows, its dialogs). Nothing when the game is not on the screen
        (minimised, closed): ``is_viewable`` and ``geometry`` say which."""
        titles = []
        for window in shown_windows(self._api):  # top to bottom: the walk ends at the game
            if window.hwnd == self.window_id:
                return titles
            if self._owners.is_ours(window) or self._owners.is_game(window) != own:
                continue
            if window.frame.intersects(rect):
                titles.append(title_of(self._api, window.hwnd))
        return []

    def appeared_over(self, rect: Rect) -> list[str]:
        """Titles of other programs' windows that came over ``rect`` since the last call, above the game
        or under it (``Arrivals``). The first call starts watching and reports nothing."""
        if self._arrivals is None:
            self._arrivals = Arrivals(self._api, self._owners)
            return []
        return self._arrivals.over(rect)

    def put_arrivals_back(self) -> None:
        """Raise back over the game the windows ``appeared_over`` last reported that are under it now."""
        if self._arrivals is not None:
            self._arrivals.put_back()

    def guards_presses(self) -> bool:
        """True while the press guard can be put in place (``guarded``)."""
        return self._guard is None or self._guard.in_place()

    def is_its_own(self, hwnd: int) -> bool:
        """Whether a top-level window is the game's, one it owns (a dialog), its process's, or this
        process's (the bot's own overlays let clicks through)."""
        return self._owners.claims(self._api, hwnd)

    def guarded(self, click) -> None:
        """Run ``click`` (one press and release) so that its press reaches only the game's windows
        (``press_guard``); PressHeldBackError, naming the window, when it was held back, and
        PressStrayedError when a window came over its point as it passed."""
        if self._guard is None:
            self._guard = PressGuard(self.is_its_own)
        stray = self._guard.click(click)
        if stray is None:
            return
        title = title_of(self._api, stray.window)
        if stray.held:
            raise PressHeldBackError(
                f"the board is covered by another window ({title!r}, which came over it just as a click was "
                "sent): the click was held back, so that no click lands on it", title=title)
        raise PressStrayedError(
            f"the board is covered by another window ({title!r}, which came over it in the milliseconds a "
            "click was on its way): that click may have reached it; stopped, so that no other does", title=title)

    def close(self) -> None:
        """Stops the press guard's thread; nothing else is held open."""
        if self._guard is not None:
            self._guard.close()
            self._guard = None
