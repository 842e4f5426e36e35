"""The Wayland backend's pure parts (keys, the click's order, cropping frames) against fakes, and its
refusal where GNOME's remote-desktop services are missing (a real D-Bus bus without them). Real GNOME:
tests/test_wayland_tier.py."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from screenbot.errors import CaptureError, DesktopGoneError, DisplayError, InputError, WaylandSessionError
from screenbot.platforms.wayland.desktop import WaylandDesktop, WaylandInput, WaylandScreen
from screenbot.platforms.wayland.keysyms import keysym


class FakeSession:
    size = (64, 48)

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def pointer_to(self, x, y):
        self.calls.append(("to", x, y))

    def button(self, button, pressed):
        self.calls.append(("button", button, pressed))

    def key(self, sym, pressed):
        self.calls.append(("key", sym, pressed))

    def close(self):
        self.calls.append(("close",))


class FakeStream:
    size = (64, 48)

    def __init__(self, frame) -> None:
        self.frame, self.closed = frame, False

    def latest(self):
        return self.frame

    def close(self):
        self.closed = True


@pytest.mark.unit
def test_key_names_become_keysyms():
    assert keysym("escape") == 0xFF1B and keysym("Enter") == 0xFF0D
    assert keysym("f2") == 0xFFBF and keysym("F12") == 0xFFC9
    assert keysym("r") == ord("r") and keysym("4") == ord("4")
    assert keysym("ctrl") == 0xFFE3
    with pytest.raises(InputError, match="'f13' cannot be sent on Wayland"):
        keysym("f13")
    with pytest.raises(InputError, match="'printscreen'"):
        keysym("printscreen")


@pytest.mark.unit
def test_a_click_moves_first_then_presses_and_lets_go():
    session = FakeSession()
    WaylandInput(session).click(10.5, 20, "right")
    assert session.calls == [("to", 10.5, 20), ("button", "right", True), ("button", "right", False)]


@pytest.mark.unit
def test_keys_are_held_in_order_and_let_go_in_reverse():
    session = FakeSession()
    WaylandInput(session).press("ctrl", "r")
    assert session.calls == [("key", 0xFFE3, True), ("key", ord("r"), True), ("key", ord("r"), False),
                             ("key", 0xFFE3, False)]
    session.calls.clear()
    with pytest.raises(InputError):
        WaylandInput(session).press("ctrl", "printscreen")
    assert session.calls == []  # nothing held down when a key cannot be sent


@pytest.mark.unit
def test_the_mouse_needs_the_screen_session():
    with pytest.raises(InputError, match="open the screen first"):
        WaylandDesktop().mouse()


@pytest.mark.unit
def test_only_the_session_ending_is_the_desktop_lost():
    desktop = WaylandDesktop()
    assert desktop.lost(DesktopGoneError("GNOME's screen cast ended"))
    assert not desktop.lost(CaptureError("region outside"))
    assert not desktop.lost(OSError("disk full"))
    assert desktop.overlay_refusal and "--image" in desktop.overlay_refusal


@pytest.mark.integration
def test_a_grab_is_the_region_of_the_latest_frame_in_bgr():
    frame = np.zeros((48, 64, 4), np.uint8)
    frame[10:20, 30:40] = (1, 2, 3, 255)  # BGRx
    session, stream = FakeSession(), FakeStream(frame)
    screen = WaylandScreen(session, stream)
    assert screen.size == (64, 48) and screen.origin == (0, 0)
    part = screen.grab((30, 10, 10, 10))
    assert part.shape == (10, 10, 3) and (part == (1, 2, 3)).all()
    assert screen.grab().shape == (48, 64, 3)
    with pytest.raises(CaptureError, match="outside"):
        screen.grab((60, 0, 10, 10))
    screen.close()
    assert stream.closed and session.calls == [("close",)]


@pytest.fixture
def bare_session_bus(tmp_path, monkeypatch):
    """A real D-Bus session bus with nothing on it: a desktop that is not GNOME."""
    if shutil.which("dbus-daemon") is None:
        pytest.fail("dbus-daemon is not installed (apt-get install dbus)")
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    address = bus.stdout.readline().decode().strip()
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-test")
    monkeypatch.delenv("DISPLAY", raising=False)
    yield address
    bus.terminate()
    bus.wait(5)
    bus.stdout.close()


@pytest.mark.integration
def test_a_wayland_desktop_without_gnome_is_refused_naming_what_is_missing(bare_session_bus):
    with pytest.raises(WaylandSessionError, match="no org.gnome.Mutter.RemoteDesktop or org.gnome.Mutter.ScreenCast on its session bus"):
        WaylandDesktop().require_screen("advice")
    done = subprocess.run([sys.executable, "-m", "screenbot", "play", "--games", "1"], capture_output=True,
                          text=True, timeout=60, env=dict(os.environ))
    assert done.returncode == 3, done.stderr
    assert "org.gnome.Mutter.RemoteDesktop" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.integration
def test_no_gstreamer_is_refused_naming_the_packages(monkeypatch):
    from screenbot.platforms.wayland import frames

    monkeypatch.setattr(frames.shutil, "which", lambda name: None)
    with pytest.raises(DisplayError, match="gstreamer1.0-tools gstreamer1.0-pipewire"):
        frames.FrameStream(1, (64, 48))


@pytest.mark.integration
@pytest.mark.parametrize("pipeline", ["exec sleep 30", "echo 'ERROR: pipeline could not be set up' >&2; exit 1"])
def test_a_screen_cast_that_sends_no_first_frame_is_refused_by_name(pipeline, monkeypatch, tmp_path):
    """A pipeline that sends no frame (a shell too busy to start the cast, on a loaded machine) or ends
    at once is refused with a DisplayError that says so, in the pipeline's own words where it said any:
    the stream was closed before its error output was read, and a ValueError ("read of closed file")
    came out instead, a traceback for the user."""
    from screenbot.platforms.wayland import frames

    fake = tmp_path / "gst-launch-1.0"
    fake.write_text(f"#!/bin/sh\n{pipeline}\n", encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setattr(frames.shutil, "which", lambda name: str(fake))
    monkeypatch.setattr(frames, "FIRST_FRAME_TIMEOUT", 0.5)
    with pytest.raises(DisplayError, match="GNOME's screen cast sent no frame in") as raised:
        frames.FrameStream(1, (64, 48))
    if "exit" in pipeline:
        assert "pipeline could not be set up" in str(raised.value)
