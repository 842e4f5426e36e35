"""The test tiers of tests/conftest.py: a test with no tier or two stops the collection, naming it; a
unit test that starts a process or uses a picture fails, naming the tier it should have."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]
pytestmark = pytest.mark.integration

CONFTEST = """
from tests.conftest import pytest_collection_modifyitems, _unit_tests_stay_pure  # noqa: F401

def pytest_configure(config):
    for tier in ("unit", "integration", "e2e"):
        config.addinivalue_line("markers", tier + ": a tier")
"""


def _run(pytester, source: str):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_cases=source)
    return pytester.runpytest_inprocess("-p", "no:cacheprovider")


def test_a_test_without_a_tier_stops_the_collection(pytester):
    result = _run(pytester, """
import pytest

@pytest.mark.unit
def test_tiered():
    pass

def test_forgotten():
    pass
""")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*1 test(s) belong to no tier or to several*", "*test_cases.py::test_forgotten*"])


def test_a_test_in_two_tiers_stops_the_collection(pytester):
    result = _run(pytester, """
import pytest

pytestmark = pytest.mark.integration

@pytest.mark.e2e
def test_both():
    pass
""")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*test_cases.py::test_both*"])


def test_a_unit_test_may_not_start_a_process_nor_use_a_picture(pytester):
    result = _run(pytester, """
import subprocess, sys
import numpy as np
import pytest

@pytest.mark.unit
def test_process():
    subprocess.run([sys.executable, "-c", "pass"])

@pytest.mark.unit
def test_picture():
    import cv2
    cv2.resize(np.zeros((4, 4, 3), np.uint8), (2, 2))

@pytest.mark.integration
def test_both_allowed_here():
    import cv2
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    cv2.resize(np.zeros((4, 4, 3), np.uint8), (2, 2))
""")
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines(["*a unit test started a process: mark it integration*",
                                 "*a unit test used a picture (cv2.resize): mark it integration*"])


def test_a_module_of_a_tier_not_selected_is_not_even_imported(pytester):
    """``-m`` naming tiers leaves the modules marked with another tier unimported (their imports cost
    seconds); modules marked test by test are collected and filtered as usual."""
    # Without the unit tier's purity check, which imports numpy (a second import in one process fails).
    pytester.makeconftest(CONFTEST.replace("pytest_collection_modifyitems, _unit_tests_stay_pure",
                                           "pytest_collection_modifyitems, pytest_ignore_collect"))
    pytester.makepyfile(
        test_unit="import pytest\npytestmark = pytest.mark.unit\ndef test_u():\n    pass\n",
        test_e2e="import pytest\npytestmark = pytest.mark.e2e\nraise RuntimeError('imported')\n",
        test_mixed="import pytest\n@pytest.mark.unit\ndef test_m1():\n    pass\n@pytest.mark.e2e\ndef test_m2():\n    pass\n",
    )
    for expression in ("unit", "not e2e", "unit or integration"):
        result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-m", expression)
        assert result.ret == pytest.ExitCode.OK, expression
        result.assert_outcomes(passed=2)
    # Selected, the module is imported (and here fails to be).
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-m", "e2e")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*RuntimeError: imported*"])
