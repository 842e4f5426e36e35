"""The Windows desktop as the bot sees it: which window holds a board, how windows are stacked, and
following one of them. Client areas throughout: the part of a window a program draws in, where the
board is, without title bar, menu or borders."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator

from ...errors import WindowGoneError
from ...geometry import Rect
from ..portable import MssAndPyAutoGui
from .stacking import shown_windows
from .window import Win32Window


class Win32Desktop(MssAndPyAutoGui):
    name = "windows"
    overlay_refusal = None

    def __init__(self, api=None) -> None:
        self._given = api
        self._built = None
        self._followed: Win32Window | None = None  # the game window, whose press guard the clicks go through

    @property
    def api(self):
        """The Win32 binding, loaded on first use (so that a desktop can be made, and tested, anywhere)."""
        if self._given is not None:
            return self._given
        if self._built is None:
            from .api import Win32Api

            self._built = Win32Api()
        return self._built

    def _client_areas(self) -> Iterator[tuple[int, Rect]]:
        """(hwnd, client area) of the windows on the screen other than this process's, top to bottom."""
        api = self.api
        own_pid = api.current_process_id()
        for window in shown_windows(api):
            if window.pid == own_pid:
                continue
            client = api.client_rect_on_screen(window.hwnd)
            if client is not None:
                yield window.hwnd, client

    def window_holding(self, board: Rect) -> int | None:
        """The smallest window on the screen whose client area contains ``board`` (screen pixels): the
        game's, rather than a larger one behind it."""
        best: tuple[int, int] | None = None
        for hwnd, client in self._client_areas():
            if client.contains_rect(board):
                area = client.width * client.height
                if best is None or area < best[0]:
                    best = (area, hwnd)
        return best[1] if best else None

    def stacked(self) -> list[Rect]:
        """Client areas of the windows on the screen, bottom to top (the X11 side's order)."""
        return [client for _hwnd, client in self._client_areas()][::-1]

    def follow(self, hwnd: int) -> Win32Window:
        if not self.api.exists(hwnd):
            raise WindowGoneError(f"the game window 0x{hwnd:x} was closed", window=hwnd)
        self._followed = Win32Window(hwnd, self.api)
        return self._followed

    def mouse(self):
        """pyautogui's input, each click of it through the followed game window's press guard (a press
        that would land on another program's window is held back: ``press_guard``)."""
        return GuardedMouse(super().mouse(), lambda: self._followed)

    def require_screen(self, advice: str) -> None:
        """The session's own desktop is there whenever this process runs in one (mss and pyautogui say
        so when it is not: a service, a locked session)."""

    def lost(self, exc: BaseException) -> bool:
        return False  # a Windows desktop does not go away under a running program as an X server does

    @contextlib.contextmanager
    def overlays_hidden(self, settle: float = 0.15) -> Iterator[int]:
        """Take every hint overlay (this process's or another's) off the screen for the block, as the
        X11 desktop does: a screen capture shows layered windows, and locating looks at whole cells,
        which the overlay's marks around them would hide. Yields how many were hidden."""
        from .overlay import CLASS_NAME

        api = self.api
        hidden = [hwnd for hwnd in api.top_level_windows() if api.is_visible(hwnd) and api.class_name(hwnd) == CLASS_NAME]
        for hwnd in hidden:
            api.hide(hwnd)
        try:
            if hidden:
                time.sleep(settle)  # for the game to repaint what the overlays covered
            yield len(hidden)
        finally:
            for hwnd in hidden:
                api.show_without_activating(hwnd)

    def overlay(self, hwnd: int):
        from .overlay import Win32Overlay

        return Win32Overlay(self.follow(hwnd))

    def focus_probe(self):
        raise NotImplementedError("learn's focus probe is an X11 window; on Windows the rule is not probed")


class GuardedMouse:
    """A ``mouse.Mouse`` whose clicks reach no window but the game's (``Win32Window.guarded``); the
    rest is the wrapped mouse's."""

    def __init__(self, mouse, window: Callable[[], Win32Window | None]) -> None:
        self._mouse = mouse
        self._window = window

    def click(self, x: float, y: float, button: str = "left", holding: tuple[str, ...] = ()) -> None:
        window = self._window()
        if window is None:
            self._mouse.click(x, y, button, holding)
        else:
            window.guarded(lambda: self._mouse.click(x, y, button, holding))

    def __getattr__(self, name: str):
        return getattr(self._mouse, name)
