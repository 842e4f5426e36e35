"""The pixel look's limits set from measured margins (``screenbot.vision.calibration``): pure rules,
and the files the shipped skins carry."""

from __future__ import annotations

import json
import random

import pytest

from screenbot.skin_folders import TEMPLATES_DIR
from screenbot.vision.calibration import FILE, OTHER, OWN, Margin, joined, limit_from, pooled_margin, read_margins

from .seeds import SEED

pytestmark = pytest.mark.unit

POOLED = Margin(38.0, 49.0)


def test_a_margin_that_separates_sets_its_limit_halfway():
    assert limit_from(Margin(30.0, 50.0), POOLED) == 40.0


def test_numbers_that_do_not_stand_apart_take_the_pooled_limit_over_their_own_right_reads():
    # gnome-mines' small digits: another number as near as its own; the small scale decides there.
    assert limit_from(Margin(32.0, 20.0), POOLED) == 43.5
    assert limit_from(Margin(40.0, 20.0), POOLED) == 40.0 + 5.5  # half the pooled gap over its right reads
    # ... unless that passes the pooled wrong reads: xbomb's 50 px digits against its 20 px pictures,
    # another glyph; refused past the pooled limit.
    assert limit_from(Margin(44.0, 20.0), POOLED) == 43.5
    assert limit_from(Margin(198.1, 24.1), POOLED) == 43.5
    assert limit_from(Margin(None, None), POOLED) == 43.5  # a skin with no shots


def test_a_skin_with_wrong_reads_only_keeps_its_limit_under_them():
    assert limit_from(Margin(None, 72.6), Margin(23.1, 58.3)) == 40.7
    assert limit_from(Margin(None, 40.0), POOLED) == 39.0  # halfway from the pooled right reads


def test_a_pool_that_does_not_separate_is_refused():
    with pytest.raises(ValueError):
        limit_from(Margin(None, None), Margin(40.0, 30.0))


def test_random_margins_give_limits_between_right_and_wrong():
    rng = random.Random(SEED)
    for _ in range(500):
        margins = [Margin(*sorted((rng.uniform(0, 150), rng.uniform(0, 150)), reverse=rng.random() < 0.2))
                   for _ in range(rng.randint(1, 6))]
        pooled = pooled_margin(margins)
        if not pooled.separates():
            continue
        limit = limit_from(Margin(None, None), pooled)
        assert pooled.right < limit < pooled.wrong, (SEED, pooled, limit)  # every separating skin's too
        for margin in margins:
            limit = limit_from(margin, pooled)
            if margin.separates():
                assert margin.right < limit < margin.wrong, (SEED, margin, pooled, limit)
            else:
                assert limit < pooled.wrong, (SEED, margin, pooled, limit)  # no skin's wrong read passes
                if margin.right is not None and margin.right + (pooled.wrong - pooled.right) / 2 < pooled.wrong:
                    assert limit > margin.right, (SEED, margin, pooled, limit)  # its right reads pass


def test_pooling_takes_the_farthest_right_and_the_nearest_wrong_of_the_skins_that_stand_apart():
    pooled = pooled_margin([Margin(32.0, 20.0, "gm"), Margin(0.0, 52.4, "", "xd"), Margin(35.7, 132.4, "rm"),
                            Margin(198.1, 24.1, "xb")])
    assert pooled == Margin(35.7, 52.4, "rm", "xd")


def test_the_shipped_skins_carry_their_measured_margins_and_the_pool():
    pooled = read_margins(TEMPLATES_DIR / FILE)
    assert pooled[OWN].separates() and pooled[OTHER].separates()
    for path in TEMPLATES_DIR.glob(f"*/{FILE}"):
        data = json.loads(path.read_text(encoding="utf-8"))
        margins = read_margins(path)
        assert data["measured by"] == "python3 -m lab detail-margins --write"
        for kind, limit in data["limits"].items():
            assert limit == round(limit_from(margins.get(kind, Margin(None, None)), pooled[kind]), 1), path


def test_a_file_with_distances_that_are_not_numbers_is_refused(tmp_path):
    path = tmp_path / FILE
    path.write_text(json.dumps({"margins": {OWN: {"right": "far", "wrong": 3}}}), encoding="utf-8")
    with pytest.raises(ValueError):
        read_margins(path)
    assert read_margins(tmp_path / "none.json") == {}


def test_measures_at_several_qualities_join_into_the_farthest_right_and_the_nearest_wrong():
    # gnome-mines, whose numbers do not stand apart: both ends kept (the pool leaves them out, not this).
    assert joined([Margin(26.0, 19.4, "a", "b"), Margin(26.9, 19.1, "c", "d")]) == Margin(26.9, 19.1, "c", "d")
    assert joined([Margin(None, 72.6, "", "e"), Margin(23.1, 58.3, "f", "g")]) == Margin(23.1, 58.3, "f", "g")
