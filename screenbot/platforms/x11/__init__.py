"""The X11 desktop (python-xlib): the one package that talks to an X server.

``windows`` finds top-level windows and what is stacked over a region, ``tracker`` follows the game's
window for a session, ``overlay`` (with ``overlay_pictures`` and ``overlay_events``) is the hint's
click-through window and ``hiding`` takes such windows off the screen while a board is located, ``keys``
presses keys and clicks through XTEST for the client starters, ``focus_probe`` is ``learn``'s
keyboard check.
"""

from __future__ import annotations

from ...geometry import Rect
from ..portable import MssAndPyAutoGui


class X11Desktop(MssAndPyAutoGui):
    name = "x11"
    overlay_refusal = None

    def require_screen(self, advice: str) -> None:
        from ...desktop.display import require_x_display

        require_x_display(advice)

    def lost(self, exc: BaseException) -> bool:
        from ...desktop.display import display_lost

        return display_lost(exc)

    def _visible(self) -> list[tuple[int, Rect]]:
        """(id, client area) of the viewable application windows, bottom to top as the X server
        stacks them; windows closed while they are listed are left out."""
        from .windows import find_windows, window_geometry

        found = []
        for window_id in find_windows():
            try:
                found.append((window_id, window_geometry(window_id)))
            except Exception:  # closed meanwhile
                continue
        return found

    def window_holding(self, board: Rect) -> int | None:
        holding = [(rect.width * rect.height, window_id) for window_id, rect in self._visible() if rect.contains_rect(board)]
        return min(holding)[1] if holding else None

    def stacked(self) -> list[Rect]:
        return [rect for _, rect in self._visible()]

    def follow(self, window_id: int):
        from .tracker import WindowTracker

        return WindowTracker(window_id)

    def focus_probe(self):
        from .focus_probe import FocusProbe

        return FocusProbe()

    def overlays_hidden(self):
        from .hiding import overlays_hidden

        return overlays_hidden()

    def overlay(self, window_id: int):
        from .overlay import X11Overlay

        return X11Overlay(window_id)
