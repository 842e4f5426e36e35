"""The X session edge: a virtual display, the Debian packages, the real clients and their windows.

    from screenbot.desktop import VirtualDisplay, ensure_display, start_client, window_geometry

Everything here talks to X11 (Xvfb locally); a Wayland session is detected and refused by name.
"""

from .browser import start_react_minesweeper
from .clients import start_client, start_gnome_mines, start_xdemineur
from .display import VirtualDisplay, check_not_wayland, ensure_display
from .install import ensure_debian_packages
from .processes import ClientWindow
from ..platforms.x11.windows import find_windows, window_exists, window_geometry

__all__ = [
    "ClientWindow",
    "VirtualDisplay",
    "check_not_wayland",
    "ensure_debian_packages",
    "ensure_display",
    "find_windows",
    "start_client",
    "start_gnome_mines",
    "start_react_minesweeper",
    "start_xdemineur",
    "window_exists",
    "window_geometry",
]
