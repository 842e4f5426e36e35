"""How clients are started is data: the ``launch`` section of each shipped profile, used by
``start_client`` and ``screenbot demo``. No client is started here (the e2e tests do that)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from screenbot.desktop import clients, launch
from screenbot.desktop.launch import demo_clients, launch_for
from screenbot.errors import ClientStartError
from screenbot.skin_folders import TEMPLATES_DIR

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(p.parent.name for p in TEMPLATES_DIR.glob("*/profile.json"))


@pytest.mark.parametrize("client", SHIPPED)
def test_every_shipped_client_says_how_it_starts(client):
    found = launch_for(client)
    assert found.packages and found.command and re.compile(found.window_title)
    # start_client has a starter for it, and CI installs its packages.
    with pytest.raises(TypeError):  # the starter exists: it is only called with a bad option
        clients.start_client(client, no_such_option=1)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert all(re.search(rf"\b{re.escape(package)}\b", ci) for package in found.packages), found.packages


def test_the_demo_offers_the_clients_whose_profile_has_demo_options():
    assert demo_clients() == {
        "gnome-mines": {"level": "big", "window_size": [900, 640]},
        "minegauler": {"level": "expert", "button_size": 24},
        "react-minesweeper": {},
        "sgt-mines": {"game_id": "30x16n99"},
        "xbomb": {"level": 3},
        "xdemineur": {"cols": 30, "rows": 16, "mines": 99},
        "winemine": {"level": "intermediate"},
    }
    from screenbot.commands.demo import DEMO_CLIENTS

    assert DEMO_CLIENTS == demo_clients()


def test_a_starter_takes_packages_command_and_title_from_the_profile(monkeypatch, tmp_path):
    asked = {}
    monkeypatch.setattr(clients, "ensure_debian_packages", lambda names, why="": asked.setdefault("packages", names))

    class Window:
        window = 0x123

        def geometry(self):
            return "somewhere"

    def fake_launch(client, cmd, env, home, timeout, title, then=None):
        asked.update(cmd=cmd, title=title)
        return Window()

    monkeypatch.setattr(clients, "launch_client", fake_launch)
    monkeypatch.setattr(clients.time, "sleep", lambda seconds: None)
    profile = launch_for("xdemineur")
    clients.start_xdemineur(cols=16, rows=16, mines=40)
    assert asked["packages"] == profile.packages
    assert asked["cmd"][: len(profile.command)] == list(profile.command)
    assert asked["cmd"][len(profile.command) :] == ["-geometry", "16x16", "-m", "40"]
    assert asked["title"] == profile.window_title


def test_a_profile_without_a_launch_section_is_named(monkeypatch, tmp_path):
    (tmp_path / "mine-x").mkdir()
    (tmp_path / "mine-x" / "profile.json").write_text(json.dumps({"client": "mine-x"}), encoding="utf-8")
    monkeypatch.setattr(launch, "TEMPLATES_DIR", tmp_path)
    with pytest.raises(ClientStartError, match="has no launch section: screenbot cannot start it"):
        launch_for("mine-x")
    (tmp_path / "mine-x" / "profile.json").write_text(json.dumps({"launch": {"command": ["x"]}}), encoding="utf-8")
    with pytest.raises(ClientStartError, match="launch needs packages, command and window_title"):
        launch_for("mine-x")
    (tmp_path / "mine-x" / "profile.json").write_text(json.dumps({"client": "mine-x"}), encoding="utf-8")
    assert demo_clients() == {}  # a skin taught by a user is read, not started


def test_winemine_settings_set_the_level_the_place_and_unbeatable_best_times():
    from screenbot.desktop.winemine import settings_reg

    text = settings_reg("expert", (100, 120))
    assert text.startswith("REGEDIT4\n\n[HKEY_CURRENT_USER\\Software\\Microsoft\\WinMine]\n")
    values = dict(line.split("=") for line in text.splitlines()[3:])
    assert values == {'"Difficulty"': "dword:00000002", '"Width"': "dword:0000001e", '"Height"': "dword:00000010",
                      '"Mines"': "dword:00000063", '"Xpos"': "dword:00000064", '"Ypos"': "dword:00000078",
                      '"Time1"': "dword:00000000", '"Time2"': "dword:00000000", '"Time3"': "dword:00000000"}
    with pytest.raises(ClientStartError, match="unknown level 'huge'"):
        clients.start_client("winemine", level="huge")
