"""``python3 -m lab learn-all``: its arguments and its table. The learning itself is the end-to-end tier's
(``tests/test_learn_e2e.py`` learns every client of the same table)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab.cli import main as lab_main
from lab.commands.learn_all import _line
from lab.learnt_clients import CLIENTS

pytestmark = pytest.mark.integration

SCREENS = Path(__file__).resolve().parents[1] / "fixtures" / "screens"


def test_an_unknown_client_is_named_with_the_known_ones(capsys):
    assert lab_main(["learn-all", "--clients", "gnome-mines,nope"]) == 2
    err = capsys.readouterr().err
    assert "unknown client nope" in err and "react-minesweeper" in err


def test_every_client_said_to_have_labelled_shots_has_them():
    skins = {json.loads(p.read_text(encoding="utf-8"))["lattice"]["skin"] for p in SCREENS.glob("*.json")}
    named = {case.labelled_skin for case in CLIENTS if case.labelled_skin}
    assert named and named <= skins
    assert len({case.label for case in CLIENTS}) == len(CLIENTS)  # one line of figures each


def test_a_learn_that_stopped_is_reported_as_stopped_not_as_figures():
    line = _line({"client": "kmines", "shots": {}, "learn_exit": 1, "learn_seconds": 12.5,
                  "learn_stopped": "screenbot: the client's window was closed"})
    assert line == "kmines: learn exit 1 after 12.5 s: screenbot: the client's window was closed"
    played = _line({"client": "xbomb", "learn_seconds": 80.0, "self_check_wrong": 0,
                    "learnt": {"games": 8, "states": "#0123F*", "restart": "the given restart s",
                               "first_click": "unknown", "mine_total": {"8x8": 10}, "win_requires_all_flags": True},
                    "play": {"games": 5, "wins": 3, "losses": 2, "aborted": 0, "unconfirmed": 0, "exit": 0,
                             "wins_shown": {"on the board": 3}},
                    "shots": {"right": 4, "refused": 1}})
    assert "played 5: 3 won, 2 lost, 0 aborted" in played and "(wins shown: 3 on the board)" in played
    assert played.endswith("labelled shots: 4 right, 1 refused, 0 wrong")
