"""screenbot as a package: the shipped skins are package data, a user's skins folder is read beside
them, lab commands that need the checkout's fixtures say so, and a wheel built from the checkout
works from a venv outside it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from screenbot.cli import main
from screenbot.commands import read_bench
from screenbot.skin_folders import TEMPLATES_DIR, TEMPLATES_ENV, skin_folder, skin_folders, user_skins_folder
from screenbot.vision.skins import load_skins

ROOT = Path(__file__).resolve().parents[1]
SHOT = ROOT / "fixtures" / "screens" / "gm-medium-600-marked"


@pytest.mark.integration
def test_shipped_skins_live_inside_the_package():
    import screenbot

    assert TEMPLATES_DIR == Path(screenbot.__file__).parent / "templates"
    assert {"gnome-mines", "xdemineur", "react-minesweeper", "sgt-mines"} <= set(load_skins())


@pytest.mark.integration
def test_skin_folders_put_the_environment_and_the_option_after_the_shipped_skins(tmp_path):
    env_dir, option_dir = tmp_path / "env", tmp_path / "option"
    assert skin_folders(environ={}) == [TEMPLATES_DIR]
    assert skin_folders(environ={TEMPLATES_ENV: str(env_dir)}) == [TEMPLATES_DIR, env_dir]
    assert skin_folders(option_dir, environ={TEMPLATES_ENV: str(env_dir)}) == [TEMPLATES_DIR, env_dir, option_dir]
    assert skin_folders(TEMPLATES_DIR, environ={}) == [TEMPLATES_DIR]  # named twice, read once
    # New skins go where the user named, else into the shipped folder (a developer's checkout).
    assert user_skins_folder(option_dir, environ={TEMPLATES_ENV: str(env_dir)}) == option_dir
    assert user_skins_folder(None, environ={TEMPLATES_ENV: str(env_dir)}) == env_dir
    assert user_skins_folder(None, environ={}) == TEMPLATES_DIR


def _user_copy_of(skin: str, folder: Path, name: str | None = None) -> Path:
    shutil.copytree(TEMPLATES_DIR / skin, folder / (name or skin))
    return folder


@pytest.mark.integration
def test_a_user_skin_is_read_beside_the_shipped_ones_and_replaces_one_of_its_name(tmp_path, monkeypatch):
    mine = _user_copy_of("xdemineur", tmp_path, name="my-xdemineur")
    _user_copy_of("sgt-mines", mine)
    monkeypatch.setenv(TEMPLATES_ENV, str(mine))
    skins = load_skins()
    assert {"gnome-mines", "my-xdemineur", "sgt-mines"} <= set(skins)
    assert skins["sgt-mines"].templates[0].path.is_relative_to(mine)
    assert skins["gnome-mines"].templates[0].path.is_relative_to(TEMPLATES_DIR)
    # The play loop's rules come from the folder the skin was loaded from.
    assert skin_folder("sgt-mines") == mine / "sgt-mines"
    assert skin_folder("gnome-mines") == TEMPLATES_DIR / "gnome-mines"


@pytest.mark.integration
def test_read_takes_a_user_skin_by_option_or_environment(tmp_path, monkeypatch, capsys):
    mine = _user_copy_of("gnome-mines", tmp_path, name="my-mines")
    truth = SHOT.with_suffix(".txt").read_text(encoding="utf-8").strip()
    monkeypatch.delenv(TEMPLATES_ENV, raising=False)
    assert main(["read", str(SHOT.with_suffix(".png")), "--skin", "my-mines"]) == 2
    assert "skin 'my-mines': no such skin" in capsys.readouterr().err
    assert main(["read", str(SHOT.with_suffix(".png")), "--skin", "my-mines", "--templates", str(mine)]) == 0
    assert capsys.readouterr().out.strip() == truth
    monkeypatch.setenv(TEMPLATES_ENV, str(mine))
    assert main(["read", str(SHOT.with_suffix(".png")), "--skin", "my-mines"]) == 0
    assert capsys.readouterr().out.strip() == truth


@pytest.mark.integration
@pytest.mark.parametrize("command", ["read", "hint", "play", "demo", "read-bench", "replay", "new-skin"])
def test_every_command_that_loads_skins_takes_templates(command, tmp_path, capsys):
    """--templates DIR on each command that loads skins; a file given as the folder is refused by name."""
    assert main([command, "--help"]) == 0
    assert "--templates DIR" in capsys.readouterr().out
    (tmp_path / "file").write_text("", encoding="utf-8")
    assert main([command, "--templates", str(tmp_path / "file")]) == 2
    assert "is not a folder" in capsys.readouterr().err


@pytest.mark.integration
def test_hint_on_a_screenshot_uses_a_skin_from_templates(tmp_path, monkeypatch, capsys):
    mine = _user_copy_of("gnome-mines", tmp_path, name="my-mines")
    monkeypatch.delenv(TEMPLATES_ENV, raising=False)
    out = tmp_path / "hints.png"
    shot = ROOT / "fixtures" / "screens" / "gm-big-1023x822-flagged.png"  # a board with moves to hint
    argv = ["hint", "--image", str(shot), "--skin", "my-mines", "--out", str(out)]
    assert main(argv) == 2
    assert "my-mines" in capsys.readouterr().err
    assert main([*argv, "--templates", str(mine)]) == 0
    assert out.is_file()
    # The option holds for its command only: the next command without it does not see the folder.
    assert main(argv) == 2


@pytest.mark.integration
def test_a_missing_user_skins_folder_is_named(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(TEMPLATES_ENV, str(tmp_path / "nowhere"))
    assert main(["read", str(SHOT.with_suffix(".png"))]) == 2
    assert f"templates folder {tmp_path / 'nowhere'} does not exist" in capsys.readouterr().err


@pytest.mark.integration
def test_read_bench_outside_a_checkout_asks_for_the_fixtures(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(read_bench, "CHECKOUT_FIXTURES", tmp_path / "fixtures" / "screens")
    assert main(["read-bench", "--reads", "1", "--locates", "1"]) == 2
    err = capsys.readouterr().err
    assert "run it from a clone or give --fixtures DIR" in err and "Traceback" not in err


def _venv_env() -> dict[str, str]:
    """The environment of a user's shell: nothing pointing Python at the checkout."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSAFEPATH")}
    env.pop(TEMPLATES_ENV, None)
    return env


def _run(cmd: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, cwd=cwd, env=_venv_env(), capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.mark.integration
def test_the_lab_commands_run_from_the_checkout_and_are_not_screenbot_commands(capsys):
    from lab.cli import main as lab_main

    assert main(["shots", "--list"]) == 2
    capsys.readouterr()
    assert lab_main(["shots", "--list"]) == 0
    assert "gm-small-600" in capsys.readouterr().out


def _build_isolation_flags() -> list[str]:
    # The build needs setuptools>=64 (pyproject's build-system) and bdist_wheel (the wheel package, or
    # setuptools>=70.1 which has it): when they are installed already, a download is spared; otherwise
    # pip fetches them into an isolated build environment.
    import importlib.util

    try:
        from importlib.metadata import version

        major, minor = (int(part) for part in version("setuptools").split(".")[:2])
    except Exception:  # not installed, or a version we cannot parse: let pip fetch one
        return []
    has_bdist_wheel = (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None
    return ["--no-build-isolation"] if major >= 64 and has_bdist_wheel else []


@pytest.mark.e2e
@pytest.mark.wheel
def test_a_wheel_built_from_the_checkout_reads_a_fixture_from_a_venv_outside_it(tmp_path):
    started = time.monotonic()
    # Build from a copy of the sources: setuptools builds in-tree and leaves build/ behind, whose
    # stale files (a module since deleted) would otherwise end up in the wheel.
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", "fixtures",
        "*.so", "*.pyd", "compiled_sources.json"))  # the checkout's own compiled solver (setup.py)
    wheels = tmp_path / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", *_build_isolation_flags(), "-w", str(wheels),
          str(source)], cwd=tmp_path)
    (wheel,) = wheels.glob("*.whl")
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    assert "screenbot/templates/gnome-mines/profile.json" in names
    assert sum(n.startswith("screenbot/templates/") and n.endswith(".png") for n in names) > 100
    # The lab's capture and bench tools run from a checkout only.
    assert not [n for n in names if n.startswith(("fixtures/", "tests/", "templates/", "lab/"))]

    # The venv sees the machine's numpy/opencv (no download) but gets screenbot from the wheel only.
    # No pip of its own: the machine's pip, run by the venv's python, installs into the venv.
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(venv)], cwd=tmp_path)
    python = venv / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "-q", "--no-index", "--no-deps", "--force-reinstall", str(wheel)],
         cwd=tmp_path)
    # Its dependencies are met (pip check lists every broken requirement on the machine: ours must
    # not be among them).
    check = subprocess.run([str(python), "-m", "pip", "check"], cwd=tmp_path, env=_venv_env(), capture_output=True,
                           text=True)
    assert "screenbot-minesweeper" not in check.stdout.lower(), check.stdout

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = _run([str(python), "-c", "import screenbot; print(screenbot.__file__)"], cwd=elsewhere).stdout.strip()
    assert Path(where).is_relative_to(venv), where
    read = _run([str(venv / "bin" / "screenbot"), "read", str(SHOT.with_suffix(".png"))], cwd=elsewhere)
    assert read.stdout.strip() == SHOT.with_suffix(".txt").read_text(encoding="utf-8").strip()
    # The fixtures are not in the wheel: the bench that needs them says so instead of a traceback.
    bench = subprocess.run([str(venv / "bin" / "screenbot"), "read-bench"], cwd=elsewhere, env=_venv_env(),
                           capture_output=True, text=True, timeout=120)
    assert bench.returncode == 2 and "give --fixtures DIR" in bench.stderr, bench.stderr
    print(f"wheel built, installed and read in {time.monotonic() - started:.1f} s")
