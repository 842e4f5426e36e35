"""The Windows window backend: find the game's window around a board and follow it (where its client
area is, whether something lies over it), and make the process DPI aware. Pure logic over ``api``,
the one module that calls Windows, so that everything but ``api`` runs anywhere against a fake."""

from .desktop import Win32Desktop
from .dpi import make_dpi_aware
from .window import Win32Window

__all__ = ["Win32Desktop", "Win32Window", "make_dpi_aware"]
