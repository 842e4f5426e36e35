"""The window system choice (``screenbot.desktop.window_system``) and ``play`` with X11 switched off:
only mss screenshots and pyautogui input, the portable fallback, on a real gnome-mines."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from screenbot.cli import main
from screenbot.desktop.window_system import ENV, NONE, X11, window_system
from screenbot.errors import InputError

from .test_e2e_play import ROOT


@pytest.mark.integration
def test_auto_is_x11_on_an_x_display_and_none_without():
    assert window_system({"DISPLAY": ":3"}) == X11
    assert window_system({}) == NONE
    assert window_system({ENV: "none", "DISPLAY": ":3"}) == NONE
    assert window_system({ENV: " X11 "}) == X11


@pytest.mark.integration
def test_auto_is_none_on_windows_and_macos_whatever_display_says():
    """Wine gives every Windows program its X DISPLAY: taken as X11, play under Windows' Python
    failed on a missing Xlib (exit 3 "no X display" with the window system none)."""
    for platform in ("win32", "darwin"):
        assert window_system({"DISPLAY": ":3"}, platform) == NONE
        assert window_system({ENV: "x11", "DISPLAY": ":3"}, platform) == X11  # when asked for
    assert window_system({"DISPLAY": ":3"}, "linux") == X11


@pytest.mark.integration
def test_a_screen_is_an_x_display_only_where_the_desktop_is_x(monkeypatch):
    import screenbot.desktop.display as display
    from screenbot.errors import DisplayError

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    monkeypatch.setenv(ENV, "none")
    display.require_screen("advice", platform="win32")  # the session's desktop: nothing to name
    display.require_screen("advice", platform="darwin")
    with pytest.raises(DisplayError, match="no X display.*advice"):
        display.require_screen("advice", platform="linux")
    monkeypatch.setenv(ENV, "x11")  # asked for X11 on Windows: its display must be there
    with pytest.raises(DisplayError):
        display.require_screen("advice", platform="win32")


@pytest.mark.integration
def test_an_unknown_window_system_is_a_usage_error(monkeypatch, capsys):
    with pytest.raises(InputError, match="x11, none"):
        window_system({ENV: "wayland"})
    monkeypatch.setenv(ENV, "wayland")
    assert main(["play", "--games", "1"]) == 2
    assert ENV in capsys.readouterr().err


@pytest.mark.integration
def test_live_hints_need_x11(monkeypatch, capsys):
    """On an X display, turning X11 off is refused by name for the live overlay; without a display
    the answer stays "no display" (exit 3)."""
    import screenbot.desktop.display as display

    monkeypatch.setenv(ENV, "none")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main(["hint"]) == 3
    monkeypatch.setenv("DISPLAY", ":97")
    monkeypatch.setattr(display, "display_reachable", lambda name, timeout=2.0: True)
    assert main(["hint"]) == 2
    assert "X11" in capsys.readouterr().err


# The child plays with every X11 window-system entry point made to fail: window lookup and geometry,
# the window tracker (pings, stacking, viewability) and the overlay hiding. Only mss and pyautogui
# remain, as on a platform without an X11 backend.
_PLAY_WITHOUT_X11 = """
import json, sys
import screenbot.desktop.windows as windows, screenbot.play.window as window, screenbot.overlay.hiding as hiding
def refuse(*args, **kwargs):
    raise AssertionError("an X11 window-system call with the window system switched off")
windows.find_windows = windows.window_geometry = windows.windows_over = refuse
window.WindowTracker.__init__ = refuse
hiding.overlays_hidden = refuse
from screenbot.cli import main
sys.exit(main(["play", "--window-system", "none", "--games", "3", "--json", "--failure-dir", sys.argv[1]]))
"""


@pytest.mark.e2e
def test_play_gnome_mines_with_x11_switched_off(tmp_path):
    from screenbot.desktop import VirtualDisplay, start_client

    with VirtualDisplay():
        with start_client("gnome-mines", level="medium", window_size=(640, 560)):
            done = subprocess.run([sys.executable, "-c", _PLAY_WITHOUT_X11, str(tmp_path)], cwd=ROOT,
                                  env=dict(os.environ), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout)
    assert summary["games"] == 3 and summary["wins"] + summary["losses"] == 3, (summary, done.stderr[-3000:])
    assert "window system: none" in done.stderr, done.stderr[-3000:]
