"""A skin's profile.json is checked against the profile reference when the skin is loaded: a file of the
wrong shape stops with exit 2 naming the key and what it should be (it was a traceback, or a negative
mine total blamed on the board); every shipped and written profile fits."""

from __future__ import annotations

import json
import shutil

import pytest

from screenbot.errors import SkinError
from screenbot.vision.profile_schema import check_profile
from screenbot.vision.skins import TEMPLATES_DIR

BAD = [
    ([], "the whole file: [] is not of type 'object'"),
    ("x", "the whole file: 'x' is not of type 'object'"),
    ({"play": 5}, "play: 5 is not of type 'object'"),
    ({"mine_total": -5}, "mine_total: -5 is less than the minimum of 0"),
    ({"mine_total": {"16x16": -3}}, "mine_total.16x16: -3 is less than the minimum of 0"),
    ({"mine_total": {"big": 3}}, "mine_total: {'big': 3} is not a whole number of 0 or more"),
    ({"mine_total": 2.5}, "mine_total: 2.5 is not a whole number"),
    ({"play": {"restart": 3}}, 'play.restart: 3 is not "find" or an action'),
    ({"play": {"restart": {"wait": 1}}}, 'play.restart: {\'wait\': 1} is not "find" or an action'),
    ({"play": {"settle": "x"}}, "play.settle: 'x' is not of type 'number'"),
    ({"play": {"redraw_timeout": -1}}, "play.redraw_timeout: -1 is less than the minimum of 0"),
    ({"play": {"after_win": {"keys": ["f2"], "wait": -1}}}, "play.after_win.wait: -1 is less than the minimum of 0"),
    ({"play": {"after_loss": {"click": [1]}}}, "play.after_loss.click: [1] is too short"),
    ({"first_click": "maybe"}, "first_click: 'maybe' is not one of"),
    ({"play": {"flood": 8}}, "play.flood: 8 is not one of"),
    ({"hover_highlight": "yes"}, "hover_highlight: 'yes' is not of type 'boolean'"),
    ({"win_requires_all_flags": "maybe"}, 'win_requires_all_flags: \'maybe\' is not true, false or "unknown"'),
]


@pytest.mark.unit
@pytest.mark.parametrize("data, words", BAD, ids=[json.dumps(data)[:40] for data, _ in BAD])
def test_a_profile_that_does_not_fit_names_the_key_and_the_rule(data, words):
    with pytest.raises(SkinError) as caught:
        check_profile(data, "sim", "skins/sim/profile.json")
    assert f"skins/sim/profile.json: {words}" in str(caught.value)


@pytest.mark.unit
@pytest.mark.parametrize("folder", sorted(p.name for p in TEMPLATES_DIR.iterdir() if (p / "profile.json").is_file()))
def test_every_shipped_profile_fits(folder):
    check_profile(json.loads((TEMPLATES_DIR / folder / "profile.json").read_text(encoding="utf-8")), folder, folder)


@pytest.mark.unit
def test_an_unknown_win_rule_is_a_rule_play_reads_as_unknown():
    from screenbot.play.profile import profile_from_dict

    check_profile({"win_requires_all_flags": "unknown"}, "sim", "profile.json")
    assert profile_from_dict("sim", {"win_requires_all_flags": "unknown"}).win_requires_all_flags is None
    assert profile_from_dict("sim", {"win_requires_all_flags": True}).win_requires_all_flags is True
    assert profile_from_dict("sim", {}).win_requires_all_flags is False


@pytest.mark.unit
def test_keys_the_reference_does_not_name_are_left_alone():
    check_profile({"learnt": {"wins": 3}, "detail": 5, "play": {"someday": [1]}}, "sim", "profile.json")


@pytest.mark.integration
def test_read_with_a_skin_whose_profile_does_not_fit_exits_2_naming_it(tmp_path, capsys):
    from screenbot.cli import main

    skin = tmp_path / "xdemineur"
    shutil.copytree(TEMPLATES_DIR / "xdemineur", skin)
    (skin / "profile.json").write_text('{"mine_total": -5}', encoding="utf-8")
    shot = TEMPLATES_DIR.parents[1] / "fixtures" / "screens" / "xd-16x16-lost.png"
    assert main(["read", str(shot), "--templates", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "profile.json: mine_total: -5 is less than the minimum of 0" in err and "Traceback" not in err
