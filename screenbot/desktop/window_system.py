"""Which window system the bot talks to besides the screen and the mouse, chosen at run time.

- ``x11`` (python-xlib): the game's window is found around its board and followed (moved, resized,
  minimised, closed, windows and dialogs over it), pings confirm gnome-mines' clicks, hint overlays are
  hidden while a board is located, and of several boards the one in the topmost window is played.
- ``none``, the portable fallback: mss screenshots and pyautogui input only, which is all any platform
  those two libraries run on offers. The board is all the bot knows: a board that stops reading is
  located again where it is now, clicks are confirmed by the cells they change, several complete boards
  on the screen are refused, and the live hint overlay (an X11 window) is not available.

``auto`` (the default) is ``x11`` when an X display is set on a system whose desktop is X (Linux, the
BSDs), else ``none``: on Windows and macOS a DISPLAY names at most an X server beside the desktop
(Wine passes its own to every Windows program). The environment variable ``SCREENBOT_WINDOW_SYSTEM``
or ``--window-system`` chooses.
"""

from __future__ import annotations

import os
import sys

from ..errors import InputError

ENV = "SCREENBOT_WINDOW_SYSTEM"
X11, NONE, AUTO = "x11", "none", "auto"
CHOICES = (AUTO, X11, NONE)


# Systems whose desktop is not an X display, whatever DISPLAY says.
OWN_DESKTOPS = ("win32", "cygwin", "darwin")


def window_system(environ: dict[str, str] | None = None, platform: str = sys.platform) -> str:
    """``x11`` or ``none``, as chosen (InputError for a value that is neither, nor ``auto``)."""
    env = os.environ if environ is None else environ
    value = env.get(ENV, AUTO).strip().lower() or AUTO
    if value not in CHOICES:
        raise InputError(f"{ENV}={env.get(ENV)!r}: the window system must be one of {', '.join(CHOICES)}")
    if value == AUTO:
        return X11 if env.get("DISPLAY") and platform not in OWN_DESKTOPS else NONE
    return value


def choose(value: str | None) -> str:
    """Apply a ``--window-system`` option (None: keep the environment's choice) for this process and
    the ones it starts; returns the window system in use."""
    if value is not None:
        os.environ[ENV] = value
    return window_system()


def uses_x11() -> bool:
    return window_system() == X11
