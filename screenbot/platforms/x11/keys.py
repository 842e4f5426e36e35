"""Keys and clicks sent through XTEST, for the client starters (a new game's size chosen in a client's
own dialog) before the bot's mouse exists."""

from __future__ import annotations

import time

from .windows import connect


def press_key(keysym_name: str) -> None:
    """Press and release a key through XTEST: GTK ignores synthetic XSendEvent keys (xdotool --window)."""
    from Xlib import X, XK
    from Xlib.ext import xtest

    conn = connect()
    try:
        code = conn.keysym_to_keycode(XK.string_to_keysym(keysym_name))
        xtest.fake_input(conn, X.KeyPress, code)
        conn.sync()
        xtest.fake_input(conn, X.KeyRelease, code)
        conn.sync()
    finally:
        conn.close()


def click(x: int, y: int) -> None:
    from Xlib import X
    from Xlib.ext import xtest

    conn = connect()
    try:
        xtest.fake_input(conn, X.MotionNotify, x=x, y=y)
        conn.sync()
        time.sleep(0.05)
        xtest.fake_input(conn, X.ButtonPress, 1)
        conn.sync()
        time.sleep(0.05)
        xtest.fake_input(conn, X.ButtonRelease, 1)
        conn.sync()
    finally:
        conn.close()
