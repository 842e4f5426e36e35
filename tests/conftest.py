"""Shared by every test module: the run's random seed, printed in pytest's header."""

from __future__ import annotations

from .seeds import REPLAY


def pytest_report_header(config) -> str:
    return f"random cases: {REPLAY}"
