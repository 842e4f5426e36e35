"""``screenbot play`` / ``demo`` argument handling and refusals that need no display."""

from __future__ import annotations

import pytest

from screenbot.cli import main

pytestmark = pytest.mark.integration


def test_play_refuses_without_a_display(monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    assert main(["play"]) == 3
    err = capsys.readouterr().err
    assert "no X display" in err and "screenbot demo" in err


def test_play_on_wayland_without_its_session_bus_is_refused(monkeypatch, capsys, tmp_path):
    """A Wayland session is served through GNOME's services on the session bus: none there, exit 3.
    (A bus without GNOME's services: tests/test_platform_wayland.py.)"""
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))  # where the bus socket would be: absent
    assert main(["play", "--games", "2"]) == 3
    assert "Wayland" in capsys.readouterr().err


def test_play_refuses_an_unreachable_display(monkeypatch, capsys):
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    monkeypatch.setenv("DISPLAY", ":987")
    assert main(["play"]) == 3
    assert "DISPLAY=':987'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [["play", "--games", "0"], ["play", "--first", "a,b"], ["play", "--mines", "-3"], ["demo", "--client", "nosuch"]],
    ids=["zero-games", "bad-first", "negative-mines", "unknown-client"],
)
def test_bad_arguments_exit_2(argv, capsys):
    assert main(argv) == 2
    assert "usage" in capsys.readouterr().err


def test_help_works_without_display(monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    assert main(["play", "--help"]) == 0
    assert "--dry-run" in capsys.readouterr().out
    assert main(["demo", "--help"]) == 0
    assert "Xvfb" in capsys.readouterr().out


def test_a_skin_without_a_play_section_is_refused_for_play_before_the_screen():
    """A skin taught for reading only (no "play" section: no way to start a game) cannot be played."""
    from screenbot.errors import SkinError
    from screenbot.play.live import check_playable
    from screenbot.play.profile import profile_from_dict

    with pytest.raises(SkinError, match="not played"):
        check_playable(profile_from_dict("reader-only", {"client": "reader-only", "mine_total": 10}))
    check_playable(profile_from_dict("playable", {"play": {"restart": {"keys": ["n"]}}}))


def test_a_look_taken_over_a_client_s_skin_keeps_the_client_s_rules_only_in_that_client_s_window():
    """``play`` (auto) that gives way from a client's pictures, chosen on its covered cells, to the
    classic look (gnome-mines in another tile theme) keeps that client's rules, its restart keys and
    mine totals, where the game's window is still that client's by its title; another window's
    title, or no window, and the look's own rules apply."""
    from screenbot.commands.play import _same_client
    from screenbot.play.live import profile_for

    class Window:
        def __init__(self, title: str) -> None:
            self._title = title

        def title(self) -> str:
            return self._title

    gnome = profile_for("gnome-mines")
    assert _same_client(Window("Mines"), gnome)
    assert not _same_client(Window("Minesweeper - Chromium"), gnome)
    assert not _same_client(None, gnome)
    assert not _same_client(Window("Mines"), profile_for("classic"))  # the look names no window
