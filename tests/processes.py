"""Ending a child process a test started, without a test that hangs when the child does."""

from __future__ import annotations

import signal
import subprocess

import pytest


def communicate_or_fail(child: subprocess.Popen, timeout: float, why: str, *,
                        stop: signal.Signals | None = None, tail: int = 3000) -> tuple:
    """The child's (stdout, stderr) once it ends within ``timeout`` seconds; else it is sent ``stop``
    (SIGABRT: a child with faulthandler on prints every thread's stack first), or killed when none is
    given (Windows has no SIGKILL), and the test fails with ``why`` and the end of its stderr."""
    try:
        return child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        if stop is None:
            child.kill()
        else:
            child.send_signal(stop)
        try:
            _, err = child.communicate(timeout=30)
        except subprocess.TimeoutExpired:  # a stop it can catch, and did not end by
            child.kill()
            _, err = child.communicate()
        if isinstance(err, bytes):
            err = err.decode(errors="replace")
        pytest.fail(f"{why}; its stderr: {(err or '')[-tail:]}")
