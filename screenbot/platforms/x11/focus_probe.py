"""``learn``'s focus probe: a window of ours that takes the keyboard for a moment, to see whether the
client hides its board when its window loses the keyboard (gnome-mines pauses)."""

from __future__ import annotations

from ...geometry import Rect


class FocusProbe:
    """A small window in the screen's top-left corner that takes the keyboard while it exists."""

    def __init__(self) -> None:
        import time as _time

        from Xlib import X, Xutil

        from .windows import connect

        self.conn = connect(purpose="to open a window on")
        screen = self.conn.screen()
        self.window = screen.root.create_window(0, 0, 40, 40, 0, screen.root_depth, X.InputOutput, X.CopyFromParent,
                                                background_pixel=screen.black_pixel)
        self.window.set_wm_name("screenbot learn: focus probe")
        self.window.set_wm_normal_hints(flags=Xutil.USPosition | Xutil.PPosition, x=0, y=0)
        self.window.map()
        self.conn.sync()
        _time.sleep(0.2)
        self.window.set_input_focus(X.RevertToParent, X.CurrentTime)
        self.conn.sync()

    def rect(self) -> Rect:
        geom = self.window.get_geometry()
        origin = self.window.translate_coords(self.conn.screen().root, 0, 0)
        return Rect(-origin.x, -origin.y, geom.width, geom.height)

    def close(self) -> None:
        try:
            self.window.destroy()
            self.conn.sync()
        finally:
            self.conn.close()
