"""The platform layer's choice of a desktop (``screenbot.platforms``), and ``play`` with X11 switched
off: only mss screenshots and pyautogui input, the portable fallback, on a real gnome-mines."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from screenbot.cli import main
from screenbot.errors import InputError
from screenbot.platforms import ENV, NONE, WAYLAND, WINDOWS, X11, chosen, open_desktop

from .test_e2e_play import ROOT


@pytest.mark.unit
def test_auto_is_x11_on_an_x_display_and_none_without():
    assert chosen(environ={"DISPLAY": ":3"}, platform="linux") == X11
    assert chosen(environ={}, platform="linux") == NONE
    assert chosen(environ={ENV: "none", "DISPLAY": ":3"}, platform="linux") == NONE
    assert chosen(environ={ENV: " X11 "}, platform="linux") == X11
    assert chosen("none", environ={ENV: "x11", "DISPLAY": ":3"}, platform="linux") == NONE  # the option wins


@pytest.mark.unit
def test_auto_is_the_windows_backend_on_windows_and_none_on_macos_whatever_display_says():
    """Wine gives every Windows program its X DISPLAY: taken as X11, play under Windows' Python
    failed on a missing Xlib (exit 3 "no X display" with the window system none)."""
    assert chosen(environ={"DISPLAY": ":3"}, platform="win32") == WINDOWS
    assert chosen(environ={ENV: "none", "DISPLAY": ":3"}, platform="win32") == NONE  # when asked for
    assert chosen(environ={"DISPLAY": ":3"}, platform="darwin") == NONE
    assert chosen(environ={ENV: "x11", "DISPLAY": ":3"}, platform="darwin") == X11  # an X server beside it
    assert chosen(environ={"DISPLAY": ":3"}, platform="cygwin") == NONE  # no windll in Cygwin's Python


@pytest.mark.unit
def test_a_backend_the_system_cannot_have_is_refused_by_name():
    with pytest.raises(InputError, match="only on Windows"):
        chosen("windows", environ={}, platform="linux")
    with pytest.raises(InputError, match="--window-system=x11.*not X11"):
        chosen("x11", environ={}, platform="win32")
    with pytest.raises(InputError, match="--window-system=wayland.*only on Linux"):
        chosen("wayland", environ={}, platform="darwin")
    with pytest.raises(InputError, match=f"{ENV}='mir'.*auto, x11, wayland, windows, none"):
        chosen(environ={ENV: "mir"}, platform="linux")


@pytest.mark.unit
def test_auto_is_wayland_in_a_wayland_session_whatever_display_says():
    """A GNOME Wayland session sets DISPLAY for XWayland too, which shows no native window."""
    assert chosen(environ={"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, platform="linux") == WAYLAND
    assert chosen(environ={"XDG_SESSION_TYPE": "Wayland"}, platform="linux") == WAYLAND
    assert chosen(environ={"XDG_SESSION_TYPE": "x11", "DISPLAY": ":0"}, platform="linux") == X11
    assert chosen(environ={"WAYLAND_DISPLAY": "wayland-0"}, platform="darwin") == NONE
    assert chosen("x11", environ={"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, platform="linux") == X11


@pytest.mark.integration
def test_a_screen_is_an_x_display_only_where_the_desktop_is_x(monkeypatch):
    from screenbot.errors import DisplayError

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    open_desktop("none", platform="win32").require_screen("advice")  # the session's desktop: nothing to name
    open_desktop("none", platform="darwin").require_screen("advice")
    with pytest.raises(DisplayError, match="no X display.*advice"):
        open_desktop("none", platform="linux").require_screen("advice")
    with pytest.raises(DisplayError, match="no X display.*advice"):
        open_desktop("x11", platform="darwin").require_screen("advice")  # asked for X11: its display must be there


@pytest.mark.integration
def test_an_unknown_window_system_is_a_usage_error(monkeypatch, capsys):
    monkeypatch.setenv(ENV, "mir")
    assert main(["play", "--games", "1"]) == 2
    assert ENV in capsys.readouterr().err
    monkeypatch.delenv(ENV)
    assert main(["play", "--games", "1", "--window-system", "windows"]) == 2
    assert "only on Windows" in capsys.readouterr().err


@pytest.mark.integration
def test_live_hints_need_a_window_system(monkeypatch, capsys):
    """On an X display, turning the window system off is refused by name for the live overlay;
    without a display the answer stays "no display" (exit 3)."""
    import screenbot.desktop.display as display

    monkeypatch.setenv(ENV, "none")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main(["hint"]) == 3
    monkeypatch.setenv("DISPLAY", ":97")
    monkeypatch.setattr(display, "display_reachable", lambda name, timeout=2.0: True)
    assert main(["hint"]) == 2
    assert "'none' knows no windows" in capsys.readouterr().err


# The child plays with every X11 window-system entry point made to fail: window lookup and geometry,
# the window tracker (pings, stacking, viewability) and the overlay hiding. Only mss and pyautogui
# remain, as on a platform without an X11 backend.
_PLAY_WITHOUT_X11 = """
import json, sys
import screenbot.platforms.x11.windows as windows, screenbot.platforms.x11.tracker as tracker, screenbot.platforms.x11.hiding as hiding
def refuse(*args, **kwargs):
    raise AssertionError("an X11 window-system call with the window system switched off")
windows.find_windows = windows.window_geometry = windows.windows_over = refuse
tracker.WindowTracker.__init__ = refuse
hiding.overlays_hidden = refuse
from screenbot.cli import main
sys.exit(main(["play", "--window-system", "none", "--games", "3", "--json", "--failure-dir", sys.argv[1]]))
"""


@pytest.mark.e2e
def test_play_gnome_mines_with_x11_switched_off(tmp_path):
    from screenbot.desktop import VirtualDisplay, start_client

    # Best times no game beats: with no window known, play presses no key into a best-times dialog that
    # came over the board with the win itself, and stops (exit 1, as the README says; seen in CI run 99).
    # What is tested here is play with no X11 call.
    with VirtualDisplay():
        with start_client("gnome-mines", level="medium", window_size=(640, 560), unbeaten_best_times=True):
            done = subprocess.run([sys.executable, "-c", _PLAY_WITHOUT_X11, str(tmp_path)], cwd=ROOT,
                                  env=dict(os.environ), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout)
    assert summary["games"] == 3 and summary["wins"] + summary["losses"] == 3, (summary, done.stderr[-3000:])
    assert "window system: none" in done.stderr, done.stderr[-3000:]


@pytest.mark.integration
def test_demo_says_its_virtual_display_is_for_linux_on_windows_and_macos(monkeypatch):
    """Wine sets DISPLAY for Windows programs: demo must not take Wine's X server for one to play on."""
    from screenbot.desktop.display import ensure_display
    from screenbot.errors import DisplayError

    monkeypatch.setenv("DISPLAY", ":3")
    for platform in ("win32", "darwin"):
        with pytest.raises(DisplayError, match=f"Linux only \\(this is {platform}\\).*screenbot play"):
            ensure_display(platform)
