"""GNOME on Wayland: capture and input through Mutter's remote-desktop services (``mutter``), frames
from its PipeWire stream (``frames``), keys as keysyms (``keysyms``), the desktop (``desktop``)."""

from .desktop import WaylandDesktop

__all__ = ["WaylandDesktop"]
