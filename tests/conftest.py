"""Shared by every test module: the run's random seed, printed in pytest's header, and the test tiers.

Every test belongs to exactly one tier, by a marker on its module (``pytestmark``) or on the test itself:

- ``unit``: pure logic (solver, board text, geometry, parsing). No pictures, no processes: a unit test
  that starts a process or decodes, scales or matches a picture with OpenCV fails, so the tier stays
  what its name says (and fast: ``python3 -m pytest -m unit``).
- ``integration``: pictures, fakes, rendered boards, simulated sessions, the CLI in a subprocess.
  ``integration(seconds=N)`` marks the few that take many seconds: they are started first.
- ``e2e``: a virtual display and real clients. ``e2e(minutes=N)`` marks the few that take minutes: they
  are started first.
- ``windows``: screenbot installed into python.org's Windows CPython, run under Wine
  (tests/windows_python.py): reads, plays winemine, live hint over it, the unit tier.
- ``wayland``: a headless GNOME Shell on Wayland (screenbot.desktop.gnome): reads, plays and follows
  gnome-mines as a native Wayland client.

A test with no tier, or with two, stops the collection with its name.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from .seeds import REPLAY

TIERS = ("unit", "integration", "e2e", "windows", "wayland")


def pytest_report_header(config) -> str:
    return f"random cases: {REPLAY}"


def tier_of(item: pytest.Item) -> str | None:
    """The item's one tier, or None when it has none or several."""
    tiers = {mark.name for mark in item.iter_markers() if mark.name in TIERS}
    return tiers.pop() if len(tiers) == 1 else None


# A module's tier, when it marks all its tests with one: ``pytestmark = pytest.mark.<tier>`` at the start
# of a line.
MODULE_TIER = re.compile(rf"^pytestmark = pytest\.mark\.({'|'.join(TIERS)})\b", re.MULTILINE)


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    """Leave unimported a test module whose tier the ``-m`` expression does not select: importing every
    module to read its marks took about 7 of the unit tier's 30 s (OpenCV, the desktop layer). A module
    without a tier of its own is collected as usual, and its tests filtered by their marks.
    ``SCREENBOT_COLLECT_ALL=1`` imports every module (to check that this leaves out no test)."""
    expression = config.getoption("markexpr", "")
    if not expression or os.environ.get("SCREENBOT_COLLECT_ALL"):
        return None
    if collection_path.suffix != ".py" or not collection_path.name.startswith("test_"):
        return None
    found = MODULE_TIER.search(collection_path.read_text(encoding="utf-8"))
    if found is None:
        return None
    try:
        from _pytest.mark.expression import Expression  # the parser -m itself uses

        selected = Expression.compile(expression).evaluate(lambda name, **kwargs: name == found.group(1))
    except Exception:  # an expression or a pytest this does not understand: collect as usual
        return None
    return None if selected else True


def pytest_collection_modifyitems(config, items) -> None:
    untiered = [item.nodeid for item in items if tier_of(item) is None]
    if untiered:
        shown = "\n  ".join(untiered[:20]) + (f"\n  ... and {len(untiered) - 20} more" if len(untiered) > 20 else "")
        raise pytest.UsageError(
            f"{len(untiered)} test(s) belong to no tier or to several (mark each with exactly one of "
            f"{', '.join(TIERS)}; see tests/conftest.py):\n  {shown}")
    # Tests that take minutes (``e2e(minutes=N)``) or many seconds (``integration(seconds=N)``) first,
    # longest first: workers that take the next test as they finish one (``--maxschedchunk 1``, and
    # xdist's own scheduling once its first round is handed out) then end at about the same time, not
    # one of them starting a four-minute test (or a twenty-second one) as the other runs out of work.
    # The rest keep their order.
    items.sort(key=lambda item: -seconds_of(item))


def minutes_of(item: pytest.Item) -> float:
    mark = item.get_closest_marker("e2e")
    return float(mark.kwargs.get("minutes", 0)) if mark else 0.0


def seconds_of(item: pytest.Item) -> float:
    """How long the test is marked as taking (``e2e(minutes=N)``, ``integration(seconds=N)``); 0 if not."""
    mark = item.get_closest_marker("integration")
    return 60.0 * minutes_of(item) + (float(mark.kwargs.get("seconds", 0)) if mark else 0.0)


# What a unit test may not call: starting a process, and the OpenCV calls that decode, write, scale,
# convert or match pictures (everything vision does with a picture goes through some of these).
_PROCESS = (subprocess.Popen, "__init__")
_PICTURE_CALLS = ("imread", "imdecode", "imwrite", "imencode", "resize", "cvtColor", "matchTemplate")


@pytest.fixture(autouse=True)
def _unit_tests_stay_pure(request, monkeypatch):
    if tier_of(request.node) != "unit":
        yield
        return

    def refuse(what: str):
        def call(*args, **kwargs):
            raise AssertionError(f"a unit test {what}: mark it integration (tests/conftest.py)")
        return call

    monkeypatch.setattr(*_PROCESS, refuse("started a process"))
    import cv2

    for name in _PICTURE_CALLS:
        monkeypatch.setattr(cv2, name, refuse(f"used a picture (cv2.{name})"))
    yield
