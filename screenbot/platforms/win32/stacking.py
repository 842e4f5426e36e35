"""The top-level windows on the screen now, in z-order, and whose they are.

EnumWindows lists top-level windows from the top of the z-order down (always-on-top ones first), every
window at once: unlike X11 there are no window-manager frames to see through, and no events to follow,
so each question is a fresh walk.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ...geometry import Rect


@dataclass(frozen=True, slots=True)
class Shown:
    """A top-level window someone can see: visible, not minimised, not cloaked, not click-through."""

    hwnd: int
    pid: int
    owner: int  # the top of its owner chain: a dialog's main window, or itself
    frame: Rect  # as drawn, title bar included


def shown_windows(api) -> Iterator[Shown]:
    """The windows on the screen, top to bottom. A generator: a caller that wants the windows above one
    window stops the walk there."""
    for hwnd in api.top_level_windows():
        if not api.is_visible(hwnd) or api.is_iconic(hwnd) or api.is_cloaked(hwnd):
            continue
        # Screen-wide overlays (driver or recorder ones) pass clicks through and draw nothing over the
        # board most of the time: counting them would find every board covered.
        if api.is_click_through(hwnd):
            continue
        frame = api.frame_rect(hwnd)
        if frame is None:  # closed during the walk
            continue
        yield Shown(hwnd, api.process_id(hwnd), api.root_owner(hwnd) or hwnd, frame)


class Owners:
    """Tells the game's windows (its own process's, and those it owns: its dialogs) from other
    programs', and this process's (which are never counted: the bot does not cover itself)."""

    def __init__(self, api, game: int) -> None:
        self.game = game
        self.game_pid = api.process_id(game)
        self.own_pid = api.current_process_id()

    def is_ours(self, window: Shown) -> bool:
        return window.pid == self.own_pid

    def is_game(self, window: Shown) -> bool:
        return self._games(window.pid, window.owner)

    def claims(self, api, hwnd: int) -> bool:
        """Whether the top-level window ``hwnd``, asked about now rather than seen in a walk, is the
        game's (itself, one it owns, its process's) or this process's."""
        pid = api.process_id(hwnd)
        return self._games(pid, api.root_owner(hwnd) or hwnd) or pid == self.own_pid

    def _games(self, pid: int, owner: int) -> bool:
        return owner == self.game or (self.game_pid != 0 and pid == self.game_pid)


def title_of(api, hwnd: int) -> str:
    """The title, or the handle when it has none (as the X11 side names untitled windows)."""
    return api.title(hwnd) or f"0x{hwnd:x}"
