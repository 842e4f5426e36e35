"""Make sure the Debian packages a feature needs are installed (the clients, Xvfb, ...).

As root we install what is missing with apt-get (running ``apt-get update`` once per process first,
because a fresh machine has empty package lists); otherwise we raise MissingPackagesError naming the
exact command to run, and never try sudo behind the user's back.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
from typing import Iterable

from ..errors import MissingPackagesError

log = logging.getLogger(__name__)


class _AptState:
    """Remembers whether this process already refreshed the package lists (no module-level flag)."""

    updated = False


def missing_debian_packages(names: Iterable[str]) -> tuple[str, ...]:
    """The subset of ``names`` that dpkg does not report as installed."""
    missing = []
    for name in names:
        if not shutil.which("dpkg-query"):
            missing.append(name)
            continue
        done = subprocess.run(
            ["dpkg-query", "-W", "-f=${db:Status-Status}", name],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0 or done.stdout.strip() != "installed":
            missing.append(name)
    return tuple(missing)


def install_command(names: Iterable[str]) -> str:
    listed = " ".join(names)
    return (
        "sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y "
        f"--no-install-recommends {listed}"
    )


def missing_packages_error(names: tuple[str, ...], why: str) -> MissingPackagesError:
    return MissingPackagesError(
        f"{why}: missing Debian package(s) {', '.join(names)}", packages=names, command=install_command(names)
    )


def ensure_debian_packages(names: Iterable[str]) -> tuple[str, ...]:
    """Install the missing packages among ``names`` when we are root; return what was installed.

    Raises MissingPackagesError (with the command to run) when not root or when apt-get fails.
    """
    wanted = tuple(names)
    missing = missing_debian_packages(wanted)
    if not missing:
        return ()
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise missing_packages_error(missing, "not running as root, cannot install")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if not _AptState.updated:
        log.info("apt-get update")
        _run_apt(["apt-get", "update", "-qq"], env, missing)
        _AptState.updated = True
    log.info("apt-get install %s", " ".join(missing))
    _run_apt(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], env, missing)
    still = missing_debian_packages(missing)
    if still:
        raise missing_packages_error(still, "apt-get finished but these are still not installed")
    return missing


def _run_apt(cmd: list[str], env: dict[str, str], missing: tuple[str, ...]) -> None:
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip()[-500:]
        raise MissingPackagesError(
            f"{' '.join(cmd[:2])} failed ({tail})", packages=missing, command=install_command(missing)
        )
