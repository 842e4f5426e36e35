"""What the bot asks of a desktop besides screenshots and clicks: the interfaces every backend implements.

A ``Desktop`` is opened once per session (``screenbot.platforms.open_desktop``); the sessions above it
(play, hint, learn) ask it for the game's window and follow that window through a ``GameWindow``. They
never ask which platform they run on: a backend that cannot tell something (the portable one knows no
windows at all) answers with what it can, and the sessions fall back on what the board shows.
"""

from __future__ import annotations

import re

from dataclasses import dataclass
from typing import ContextManager, Protocol

import numpy as np

from ..geometry import Rect


class GameWindow(Protocol):
    """The client's top-level window, followed for a session (``Desktop.follow``). Every call but
    ``close`` raises ``screenbot.errors.WindowGoneError`` once the window is closed, or answers as if
    nothing were there where the question has no answer then."""

    window_id: int

    def geometry(self) -> Rect: ...  # the client area, in screen pixels

    def title(self) -> str: ...

    # what the window system says the program is ("" when it says nothing): X11's WM_CLASS, Windows' class
    def program(self) -> str: ...

    def activate(self) -> None: ...  # raise it and give it the keyboard

    def supports_ping(self) -> bool: ...  # whether ``ping`` can confirm that a click was taken

    def ping(self, timeout: float) -> bool: ...  # True once the client has read all input sent before

    def is_viewable(self) -> bool: ...  # False once minimised (or hidden)

    # whether it was minimised (or hidden) since the last call, even if shown again now: a window manager
    # restores a minimised window asked to be made active, so a look at its state can come too late
    def was_hidden(self) -> bool: ...

    # other programs' windows (own: the game's own, its dialogs) stacked above it over rect
    def windows_over(self, rect: Rect, own: bool = False) -> list[str]: ...

    # other programs' windows that came over rect since the last call, whatever the stacking says now
    def appeared_over(self, rect: Rect) -> list[str]: ...

    def put_arrivals_back(self) -> None: ...  # raise those (when under the game now) back over it

    # whether a press that another program's window came under is held back or reported (Windows' press
    # guard), so that no click can reach such a window unsaid
    def guards_presses(self) -> bool: ...

    def close(self) -> None: ...


# Browsers as their windows name them (X11 WM_CLASS: "chromium", "Navigator" / "firefox"; Windows classes:
# "Chrome_WidgetWin_1", "MozillaWindowClass"; titles: "... - Chromium", "... — Mozilla Firefox").
BROWSER_NAMES = re.compile(r"chrom|firefox|mozilla|navigator|brave|opera|vivaldi|msedge|microsoft edge|epiphany|"
                           r"konqueror|falkon|safari|webkit|qutebrowser|midori", re.IGNORECASE)


def known_not_a_browser(window: GameWindow | None) -> bool:
    """Whether ``window`` is known to be no web browser's: False for a browser's and for a window not known
    at all (None), where a key a desktop client takes for a new game may do something else."""
    if window is None:
        return False
    try:
        names = f"{window.program()} {window.title()}"
    except Exception:  # a window gone or that will not say: not known
        return False
    return not BROWSER_NAMES.search(names)


@dataclass(frozen=True, slots=True)
class TargetState:
    """Where the window an overlay follows is: its client area on the screen, and whether it shows."""

    rect: Rect
    viewable: bool


class Overlay(Protocol):
    """A click-through picture kept over one game window (the live hint's marks)."""

    def target_state(self) -> TargetState: ...

    def show(self, bgr: np.ndarray, mask: np.ndarray, rect: Rect, *, boxes=None) -> None: ...

    def follow(self) -> TargetState: ...  # move with the game window, hide while it is hidden

    def hide(self) -> None: ...

    def close(self) -> None: ...


class Desktop(Protocol):
    """One platform's windows, as the sessions need them."""

    name: str  # "x11", "wayland", "windows" or "none": for messages and logs, never for branching above this layer
    overlay_refusal: str | None  # why the live hint overlay cannot be drawn here; None where it can

    # DisplayError ending with ``advice`` when there is no screen to capture and click on
    def require_screen(self, advice: str) -> None: ...

    # the screen to capture (``capture.Screen``, a context manager: closing it ends what it opened)
    def screen(self): ...

    # pointer and keys (``mouse.Mouse`` with ``size()`` and ``press(*keys)``), while the screen is open
    def mouse(self): ...

    def lost(self, exc: BaseException) -> bool: ...  # was ``exc`` the desktop itself going away?

    def window_holding(self, board: Rect) -> int | None: ...  # the smallest visible window holding the board

    def stacked(self) -> list[Rect]: ...  # visible top-level windows' client areas, bottom to top

    def follow(self, window_id: int) -> GameWindow: ...

    # a small window of ours in the screen's top-left corner that takes the keyboard while it exists
    # (``rect()``, ``close()``: learn's check whether the client pauses without the keyboard)
    def focus_probe(self): ...

    # takes this program's own overlays off the screen while a board is located (they hide cells)
    def overlays_hidden(self) -> ContextManager[object]: ...

    # the live hint's overlay over ``window_id`` (only where ``overlay_refusal`` is None)
    def overlay(self, window_id: int) -> Overlay: ...
