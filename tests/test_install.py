"""Installing what a fresh machine lacks: the decision (pure), carried out with a fake apt, and the
virtual display asking for Xvfb and openbox. No real apt-get runs here."""

from __future__ import annotations

import pytest

from screenbot.desktop import display, install
from screenbot.desktop.display import VirtualDisplay
from screenbot.desktop.install import LOCK_TIMEOUT, ensure_debian_packages, plan_install
from screenbot.errors import DisplayError, MissingPackagesError

pytestmark = pytest.mark.unit

WAIT = ("-o", f"DPkg::Lock::Timeout={LOCK_TIMEOUT}")


class FakeApt:
    """A machine where ``installed`` are the packages dpkg knows; ``run`` installs what apt-get is
    asked for (unless ``fail``), and every command line is kept in ``ran``."""

    def __init__(self, installed=(), root=True, has_apt=True, fail=False):
        self.installed = set(installed)
        self.root, self.has_apt, self.fail = root, has_apt, fail
        self.ran: list[tuple[str, ...]] = []

    def missing(self, names):
        return tuple(n for n in names if n not in self.installed)

    def can_install(self):
        return self.root, self.has_apt

    def run(self, cmd):
        self.ran.append(cmd)
        if self.fail:
            return 100, "E: Could not get lock /var/lib/dpkg/lock-frontend"
        if "install" in cmd:
            self.installed.update(cmd[cmd.index("--no-install-recommends") + 1 :])
        return 0, ""


@pytest.fixture(autouse=True)
def fresh_process(monkeypatch):
    # Each test is a new process as far as "apt-get update already ran" is concerned.
    monkeypatch.setattr(install._AptState, "updated", False)


def test_plan_nothing_missing_does_nothing():
    assert plan_install((), root=False, has_apt=False, lists_updated=False) == install.InstallPlan(())


def test_plan_as_root_refreshes_the_lists_once_then_installs_waiting_for_the_lock():
    first = plan_install(("xvfb", "openbox"), root=True, has_apt=True, lists_updated=False)
    assert first.refusal is None
    assert first.commands == (
        ("apt-get", *WAIT, "update", "-qq"),
        ("apt-get", *WAIT, "install", "-y", "-qq", "--no-install-recommends", "xvfb", "openbox"),
    )
    later = plan_install(("xvfb",), root=True, has_apt=True, lists_updated=True)
    assert later.commands == (("apt-get", *WAIT, "install", "-y", "-qq", "--no-install-recommends", "xvfb"),)


@pytest.mark.parametrize("root, has_apt, why", [(False, True, "not running as root"), (True, False, "apt-get is not available")])
def test_plan_refuses_without_root_or_apt(root, has_apt, why):
    plan = plan_install(("xvfb",), root=root, has_apt=has_apt, lists_updated=False)
    assert plan.commands == () and plan.missing == ("xvfb",) and why in plan.refusal


def test_root_installs_the_missing_packages_and_updates_the_lists_once_per_process():
    apt = FakeApt(installed={"dbus"})
    assert ensure_debian_packages(("gnome-mines", "dbus"), apt=apt) == ("gnome-mines",)
    assert [cmd[3] for cmd in apt.ran] == ["update", "install"]
    assert ensure_debian_packages(("xdemineur",), apt=apt) == ("xdemineur",)
    assert [cmd[3] for cmd in apt.ran] == ["update", "install", "install"]
    assert ensure_debian_packages(("xdemineur", "dbus"), apt=apt) == ()  # all there: apt is not run
    assert len(apt.ran) == 3


def test_not_root_gets_the_command_and_nothing_runs():
    apt = FakeApt(root=False)
    with pytest.raises(MissingPackagesError) as caught:
        ensure_debian_packages(("xvfb",), why="the virtual display needs Xvfb", apt=apt)
    assert apt.ran == []
    assert caught.value.packages == ("xvfb",)
    message = str(caught.value)
    assert message.startswith("the virtual display needs Xvfb (not running as root")
    assert "sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends xvfb" in message


def test_a_failing_apt_get_is_reported_with_its_output():
    with pytest.raises(MissingPackagesError) as caught:
        ensure_debian_packages(("xvfb",), apt=FakeApt(fail=True))
    assert "apt-get update failed (E: Could not get lock" in str(caught.value)


def test_a_package_apt_did_not_install_is_named():
    class Stubborn(FakeApt):
        def run(self, cmd):
            self.ran.append(cmd)
            return 0, ""

    with pytest.raises(MissingPackagesError) as caught:
        ensure_debian_packages(("xvfb",), apt=Stubborn())
    assert "still not installed" in str(caught.value) and caught.value.packages == ("xvfb",)


def _machine_without(monkeypatch, programs, apt):
    """Programs on PATH as ``apt`` has installed their packages; apt-get is ``apt``."""
    package_of = {"Xvfb": "xvfb", "openbox": "openbox"}

    def which(name):
        absent = name in programs and package_of[name] not in apt.installed
        return None if absent else f"/usr/bin/{name}"

    monkeypatch.setattr(display.shutil, "which", which)
    monkeypatch.setattr(install, "DebianApt", lambda: apt)


def test_the_virtual_display_installs_xvfb_and_openbox_as_root(monkeypatch):
    apt = FakeApt()
    _machine_without(monkeypatch, {"Xvfb", "openbox"}, apt)
    VirtualDisplay()._ensure_programs()
    assert apt.ran[-1][-2:] == ("xvfb", "openbox")
    assert {"xvfb", "openbox"} <= apt.installed


def test_the_virtual_display_without_a_window_manager_needs_only_xvfb(monkeypatch):
    apt = FakeApt()
    _machine_without(monkeypatch, {"Xvfb", "openbox"}, apt)
    VirtualDisplay(window_manager=False)._ensure_programs()
    assert apt.ran[-1][-1] == "xvfb" and "openbox" not in apt.installed


def test_the_virtual_display_not_as_root_names_the_command_before_starting_anything(monkeypatch):
    apt = FakeApt(root=False, installed={"openbox"})
    _machine_without(monkeypatch, {"Xvfb"}, apt)
    started = []
    monkeypatch.setattr(display.subprocess, "Popen", lambda *a, **k: started.append(a))
    with pytest.raises(MissingPackagesError) as caught:
        VirtualDisplay().start()
    assert started == [] and apt.ran == []
    assert caught.value.packages == ("xvfb",)
    assert "install them with: sudo apt-get" in str(caught.value)


def test_packages_installed_yet_programs_not_on_path_are_named(monkeypatch):
    apt = FakeApt(installed={"xvfb", "openbox"})
    monkeypatch.setattr(display.shutil, "which", lambda name: None)
    monkeypatch.setattr(install, "DebianApt", lambda: apt)
    with pytest.raises(DisplayError, match="Xvfb and openbox not found on PATH"):
        VirtualDisplay()._ensure_programs()
    assert apt.ran == []
