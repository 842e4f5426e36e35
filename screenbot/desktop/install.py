"""Make sure the Debian packages a feature needs are installed (the clients, Xvfb, ...).

As root we install what is missing with apt-get (running ``apt-get update`` once per process first,
because a fresh machine has empty package lists); otherwise we raise MissingPackagesError naming the
exact command to run, and never try sudo behind the user's back. ``plan_install`` is that decision,
pure; ``ensure_debian_packages`` carries it out with an ``Apt`` (the real one, or a fake in tests).
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
from dataclasses import dataclass
from typing import Iterable, Protocol

from ..errors import MissingPackagesError

log = logging.getLogger(__name__)

# How long apt-get waits for another apt/dpkg (unattended-upgrades on a fresh machine, a second
# screenbot) to release its lock before giving up, in seconds.
LOCK_TIMEOUT = 600


class _AptState:
    """Remembers whether this process already refreshed the package lists (no module-level flag)."""

    updated = False


@dataclass(frozen=True, slots=True)
class InstallPlan:
    """What to do about ``missing`` packages: run ``commands`` in order, or refuse with ``refusal``."""

    missing: tuple[str, ...]
    commands: tuple[tuple[str, ...], ...] = ()
    refusal: str | None = None


def plan_install(missing: Iterable[str], *, root: bool, has_apt: bool, lists_updated: bool) -> InstallPlan:
    """The decision: nothing when nothing is missing; as root on a machine with apt-get, refresh the
    package lists (once per process) and install; otherwise refuse, saying why."""
    missing = tuple(missing)
    if not missing:
        return InstallPlan(())
    if not root:
        return InstallPlan(missing, refusal="not running as root, so not installing them")
    if not has_apt:
        return InstallPlan(missing, refusal="apt-get is not available to install them")
    wait = ("-o", f"DPkg::Lock::Timeout={LOCK_TIMEOUT}")
    install = ("apt-get", *wait, "install", "-y", "-qq", "--no-install-recommends", *missing)
    update = ("apt-get", *wait, "update", "-qq")
    return InstallPlan(missing, (install,) if lists_updated else (update, install))


class Apt(Protocol):
    """The machine's package manager as ``ensure_debian_packages`` sees it."""

    def missing(self, names: tuple[str, ...]) -> tuple[str, ...]: ...

    def can_install(self) -> tuple[bool, bool]:
        """(running as root, apt-get present)."""
        ...

    def run(self, cmd: tuple[str, ...]) -> tuple[int, str]:
        """Run an apt-get command line; its exit code and the tail of its output."""
        ...


class DebianApt:
    """The real one: dpkg-query for what is installed, apt-get to install."""

    def missing(self, names: tuple[str, ...]) -> tuple[str, ...]:
        return missing_debian_packages(names)

    def can_install(self) -> tuple[bool, bool]:
        root = hasattr(os, "geteuid") and os.geteuid() == 0  # Windows has no user ids (nor apt-get)
        return root, shutil.which("apt-get") is not None

    def run(self, cmd: tuple[str, ...]) -> tuple[int, str]:
        log.info("%s", " ".join(cmd))
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        done = subprocess.run(cmd, env=env, capture_output=True, text=True)
        return done.returncode, (done.stderr or done.stdout).strip()[-500:]


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


def ensure_debian_packages(names: Iterable[str], why: str = "needed", apt: Apt | None = None) -> tuple[str, ...]:
    """Install the missing packages among ``names`` when we are root; return what was installed.

    ``why`` says what needs them (it opens the error message). Raises MissingPackagesError (with the
    command to run) when not root, without apt-get, or when apt-get fails.
    """
    apt = apt or DebianApt()
    missing = apt.missing(tuple(names))
    if not missing:
        return ()
    root, has_apt = apt.can_install()
    plan = plan_install(missing, root=root, has_apt=has_apt, lists_updated=_AptState.updated)
    if plan.refusal is not None:
        raise missing_packages_error(plan.missing, f"{why} ({plan.refusal})")
    # Shown without -v: apt-get on a fresh machine takes minutes, which must not look like a hang.
    log.warning("%s: installing Debian package(s) %s with apt-get", why, ", ".join(plan.missing))
    for cmd in plan.commands:
        step = "update" if "update" in cmd else "install"
        code, output = apt.run(cmd)
        if code != 0:
            raise MissingPackagesError(f"apt-get {step} failed ({output})", packages=plan.missing,
                                       command=install_command(plan.missing))
        if step == "update":
            _AptState.updated = True
    still = apt.missing(plan.missing)
    if still:
        raise missing_packages_error(still, "apt-get finished but these are still not installed")
    return plan.missing
