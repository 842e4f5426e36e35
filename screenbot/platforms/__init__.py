"""The platform layer: the one place that knows which desktop the bot runs on.

Screenshots (mss) and clicks (pyautogui) work on every platform those libraries support. Everything else
the sessions ask of a desktop (the game's window, where it is, what lies over it, the hint overlay) goes
through a ``Desktop`` (``base.py``), opened once per session by ``open_desktop``:

- ``x11`` (python-xlib, ``x11/``): the game's window is found around its board and followed (moved,
  resized, minimised, closed, windows and dialogs over it), pings confirm gnome-mines' clicks, hint
  overlays are click-through X windows, hidden while a board is located, and of several boards the one
  in the topmost window is played.
- ``windows`` (the Win32 API through ctypes, ``win32/``): the game's window found and followed the same
  way, from the window list and its z-order; no ping (clicks are confirmed by the cells they change) and
  no live overlay yet.
- ``wayland`` (GNOME's Mutter remote-desktop services over D-Bus, ``wayland/``): screenshots from a
  screen cast of the monitor and clicks and keys through the same session, since Wayland lets no program
  read another's pixels or move the pointer otherwise. No window is known (GNOME tells no positions):
  the board is all the bot follows, as with ``none``, and there is no live overlay.
- ``none``, the portable fallback (``portable.py``): screenshots and clicks only. The board is all the bot
  knows: a board that stops reading is located again where it is now, clicks are confirmed by the cells
  they change, several complete boards on the screen are refused, and there is no live overlay.

``auto`` (the default) is ``windows`` on Windows, ``wayland`` in a Wayland session (WAYLAND_DISPLAY or
XDG_SESSION_TYPE=wayland: its DISPLAY, if any, is XWayland, which shows no native window), ``x11`` when
an X display is set on a system whose desktop is X (Linux, the BSDs), else ``none``: on Windows and macOS a DISPLAY names at most an X server
beside the desktop (Wine passes its own to every Windows program). ``--window-system`` chooses, or the
environment variable ``SCREENBOT_WINDOW_SYSTEM`` where no option is given (for the bot started by
another program).
"""

from __future__ import annotations

import logging
import os
import sys

from ..errors import InputError
from .base import Desktop, GameWindow, Overlay, TargetState
from .portable import OWN_DESKTOPS, PortableDesktop

ENV = "SCREENBOT_WINDOW_SYSTEM"
AUTO, X11, WAYLAND, WINDOWS, NONE = "auto", "x11", "wayland", "windows", "none"
CHOICES = (AUTO, X11, WAYLAND, WINDOWS, NONE)

log = logging.getLogger(__name__)


def chosen(choice: str | None = None, environ: dict[str, str] | None = None, platform: str = sys.platform) -> str:
    """The window system to use: ``choice`` (an option's value; None: the environment's, else auto),
    resolved to ``x11``, ``wayland``, ``windows`` or ``none``. InputError for a name that is none of CHOICES, or for a
    backend this system cannot have."""
    env = os.environ if environ is None else environ
    where = "--window-system" if choice is not None else ENV
    value = (choice if choice is not None else env.get(ENV, AUTO)).strip().lower() or AUTO
    if value not in CHOICES:
        raise InputError(f"{where}={value!r}: the window system must be one of {', '.join(CHOICES)}")
    if value == AUTO:
        if platform == "win32":
            return WINDOWS
        if platform in OWN_DESKTOPS:
            return NONE
        if env.get("WAYLAND_DISPLAY") or env.get("XDG_SESSION_TYPE", "").lower() == "wayland":
            return WAYLAND
        return X11 if env.get("DISPLAY") else NONE
    if value == WINDOWS and platform != "win32":
        raise InputError(f"{where}=windows: the Win32 window system exists only on Windows (this is {platform})")
    if value == WAYLAND and platform in OWN_DESKTOPS:
        raise InputError(f"{where}=wayland: Wayland desktops exist only on Linux and the BSDs (this is {platform})")
    if value == X11 and platform == "win32":
        raise InputError(f"{where}=x11: Windows programs' windows are not X11 windows here (use windows or none)")
    return value


def open_desktop(choice: str | None = None, platform: str = sys.platform) -> Desktop:
    """The desktop of this session (see the module's docstring for the choice). Backends are imported
    only here and only when chosen: python-xlib is not installed on Windows, ctypes' windll exists only
    there. The Windows backend makes the process DPI aware now, before mss or pyautogui is imported."""
    name = chosen(choice, platform=platform)
    if name == X11:
        from .x11 import X11Desktop

        return X11Desktop()
    if name == WAYLAND:
        from .wayland import WaylandDesktop

        return WaylandDesktop()
    if name == WINDOWS:
        from .win32 import Win32Desktop, make_dpi_aware

        log.info("DPI awareness: %s", make_dpi_aware())
        return Win32Desktop()
    return PortableDesktop(platform)


__all__ = ["CHOICES", "OWN_DESKTOPS", "Desktop", "ENV", "GameWindow", "Overlay", "TargetState", "chosen", "open_desktop"]
