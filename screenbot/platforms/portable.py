"""The portable desktop (``none``): screenshots and clicks only, no windows.

What mss and pyautogui offer on any platform. The sessions then know only the board: a board that stops
reading is located again where it is now, and a window over it or a closed game shows as a board that no
longer reads.
"""

from __future__ import annotations

import contextlib
import sys

from ..errors import InputError
from ..geometry import Rect

# Systems whose desktop is not an X display, whatever DISPLAY says.
OWN_DESKTOPS = ("win32", "cygwin", "darwin")


class MssAndPyAutoGui:
    """The screen through mss and the input through pyautogui: every desktop's but Wayland's."""

    def screen(self):
        from ..capture import MssScreen

        return MssScreen()

    def mouse(self):
        from ..mouse import PyAutoGuiMouse

        return PyAutoGuiMouse()


class PortableDesktop(MssAndPyAutoGui):
    name = "none"
    overlay_refusal = ("the live overlay is a window over the game, and the window system 'none' knows no "
                       "windows (hints on a screenshot need none: --image)")

    def __init__(self, platform: str = sys.platform) -> None:
        # Where the desktop is an X display (Linux, the BSDs), mss and pyautogui still need that display.
        self._on_x = platform not in OWN_DESKTOPS

    def require_screen(self, advice: str) -> None:
        """On an X desktop, the display must answer; elsewhere the session's own desktop is there
        whenever this process runs in one, and mss or pyautogui say so when it is not."""
        if self._on_x:
            from ..desktop.display import require_x_display

            require_x_display(advice)

    def lost(self, exc: BaseException) -> bool:
        if self._on_x:
            from ..desktop.display import display_lost

            return display_lost(exc)
        return False

    def window_holding(self, board: Rect) -> int | None:
        return None

    def stacked(self) -> list[Rect]:
        return []

    def follow(self, window_id: int):
        raise InputError(f"the window system '{self.name}' follows no window")

    def focus_probe(self):
        raise InputError(f"the window system '{self.name}' opens no window")

    def overlays_hidden(self):
        return contextlib.nullcontext()

    def overlay(self, window_id: int):
        raise InputError(self.overlay_refusal)
