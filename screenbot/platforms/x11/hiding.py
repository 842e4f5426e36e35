"""Taking every screenbot hint overlay on the display off the screen for a moment (this process's or
another's), found by the X class the overlay window carries (``x11.X11Overlay`` sets it)."""

from __future__ import annotations

import contextlib
import time
from typing import Iterator

from ...errors import DisplayError

WM_CLASS = ("screenbot-overlay", "Screenbot")  # how other processes find overlay windows


@contextlib.contextmanager
def overlays_hidden(*, display: str | None = None, settle: float = 0.15) -> Iterator[int]:
    """Take every screenbot overlay on the display (this process's or another's) off the screen for
    the ``with`` block; yields how many there were.

    Reading cells works through the overlay, but locating a board looks at whole cells, so ``play``
    hides a running ``hint`` overlay while it locates (rare: at the start, after a window move).
    ``settle`` is the time given to the games to repaint what the overlays covered.
    """
    from Xlib import X, error as xerror

    from .windows import connect

    try:
        conn = connect(display)
    except DisplayError:  # no X here: there is no overlay to hide either
        conn = None
    if conn is None:
        yield 0
        return
    hidden = []
    try:
        for child in conn.screen().root.query_tree().children:
            try:
                if child.get_wm_class() == WM_CLASS and child.get_attributes().map_state == X.IsViewable:
                    child.unmap()
                    hidden.append(child)
            except (xerror.BadWindow, xerror.BadDrawable):
                continue
        conn.sync()
        if hidden:
            time.sleep(settle)
        yield len(hidden)
    finally:
        for child in hidden:
            try:
                child.map()
                child.configure(stack_mode=X.Above)
            except (xerror.BadWindow, xerror.BadDrawable):
                continue
        conn.sync()
        conn.close()
