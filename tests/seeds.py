"""The random seed of a test run. The tests that draw their cases at random (window sizes, boards,
games, pictures) all draw them from this one seed, so one number replays a whole run:
``SCREENBOT_RANDOM_SEED=<seed> python3 -m pytest ...``. pytest prints it in its header.

It is drawn once, at the first import (conftest.py imports this module before any test), and put in
the environment, so the worker processes of ``pytest -n`` and the subprocesses a test starts inherit
the same seed."""

from __future__ import annotations

import os
import random

ENV = "SCREENBOT_RANDOM_SEED"


def _run_seed() -> int:
    given = os.environ.get(ENV, "").strip()
    if not given:
        seed = random.SystemRandom().randrange(10**6)
        os.environ[ENV] = str(seed)
        return seed
    try:
        return int(given)
    except ValueError:
        raise SystemExit(f"{ENV} must be a whole number (the seed a run printed), got {given!r}") from None


SEED = _run_seed()
# How a failure names its draw.
REPLAY = f"seed {SEED} (replay: {ENV}={SEED})"


def with_regressions(*seeds: int) -> list:
    """Parameters for a test drawn at random: this run's seed, then the seeds of draws that once failed,
    kept as fixed cases beside it (ids "random" and "seed-N")."""
    import pytest

    return [pytest.param(SEED, id="random"), *(pytest.param(seed, id=f"seed-{seed}") for seed in seeds)]
