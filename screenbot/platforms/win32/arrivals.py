"""Other programs' windows that came over a part of the screen since the last look.

X11 tells the bot every window mapped or restacked (events, ``screenbot.platforms.x11.windows.WindowArrivals``);
Windows tells another process nothing without a global hook (a DLL injected into every GUI process),
so this one compares the z-order with the one seen at the last look. What it misses is what an event
stream would not: nothing stays unseen once it is on the screen at a look; only a window that came and
went between two looks goes unnoticed, and it covers nothing any more.

Why a window under the game counts: a window that opens over the board just as the bot clicks the
game is pushed under the game by that click (the clicked window comes to the front), where no
"is anything over the board" question finds it, though the user put it there.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from ...geometry import Rect
from .stacking import Owners, Shown, shown_windows, title_of

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Seen:
    frame: Rect
    above_game: bool


class Arrivals:
    """Built at the first look (which reports nothing); each ``over`` reports against the previous one."""

    def __init__(self, api, owners: Owners) -> None:
        self._api = api
        self._owners = owners
        self._last = self._look()[0]
        self._arrived: list[int] = []  # hwnds the last ``over`` reported

    def _look(self) -> tuple[dict[int, _Seen], list[Shown]]:
        shown = list(shown_windows(self._api))
        game_at = next((at for at, w in enumerate(shown) if w.hwnd == self._owners.game), len(shown))
        return {w.hwnd: _Seen(w.frame, at < game_at) for at, w in enumerate(shown)}, shown

    def over(self, rect: Rect) -> list[str]:
        """Titles of other programs' windows over ``rect`` that were not on the screen at the last look
        (opened, restored, shown), wherever they are stacked now, and of those now above the game that
        were under it then or have moved (dragged over the board)."""
        seen, shown = self._look()
        before, self._last = self._last, seen
        titles, self._arrived = [], []
        for window in shown:
            if window.hwnd == self._owners.game or self._owners.is_ours(window) or self._owners.is_game(window):
                continue
            now, then = seen[window.hwnd], before.get(window.hwnd)
            came = then is None or (now.above_game and (not then.above_game or then.frame != now.frame))
            if came and window.frame.intersects(rect):
                titles.append(title_of(self._api, window.hwnd))
                self._arrived.append(window.hwnd)
        return titles

    def put_back(self) -> None:
        """Raise over the game the windows the last ``over`` reported that are under it now.

        X11 asks the window manager to raise and focus them, as a pager would. Here they are raised
        without being activated: Windows lets any process change another's z-order, while its
        foreground lock refuses activation to a process the user is not using, and the foreground is
        not taken from the game the user is watching. So a window put back is on top but does not
        have the keyboard until the user clicks it."""
        seen = self._look()[0]
        for hwnd in self._arrived:
            state = seen.get(hwnd)
            if state is not None and not state.above_game:
                if self._api.raise_window(hwnd):
                    log.info("a window that came over the board went under the game: raised back over it")
                else:
                    log.debug("could not raise window 0x%x back over the game", hwnd)
        self._arrived = []
        # The windows raised here did not come over the board by themselves: not news at the next look.
        self._last = self._look()[0]
