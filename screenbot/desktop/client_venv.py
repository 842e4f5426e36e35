"""A client from PyPI in a virtual environment of its own: its packages (PyQt6, pygame ...) are no
dependency of screenbot's, so they go into a venv made on first use in the cache folder
(``${XDG_CACHE_HOME:-~/.cache}/screenbot/<name>``), with the Python running screenbot."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

from ..errors import ClientStartError

log = logging.getLogger(__name__)


def cache_folder(name: str) -> Path:
    """``<name>``'s folder in screenbot's cache (which may not exist yet)."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "screenbot" / name


def venv_python(venv: Path) -> Path:
    return venv / "bin" / "python"


def ensure_client_venv(venv: Path, requirements: tuple[str, ...], imports: str, client: str, size: str) -> Path:
    """The Python of the venv in ``venv``, made first unless it imports ``imports`` (a comma-separated
    list of modules) already: ``python -m venv``, then ``pip install`` of ``requirements``. ``size`` is
    said in the one warning a first make gives (it downloads that much). ClientStartError says what
    failed."""
    if _imports(venv, imports):
        return venv_python(venv)
    log.warning("%s: making its own virtual environment in %s (pip install %s, %s; once)", client, venv,
                " ".join(requirements), size)
    venv.parent.mkdir(parents=True, exist_ok=True)
    made = _make(venv)
    if made.returncode != 0 and "ensurepip" in (made.stdout + made.stderr):
        from .install import ensure_debian_packages

        # Debian's own Python makes venvs only with its python3-venv package.
        ensure_debian_packages(("python3-venv",), why=f"a virtual environment for {client}")
        made = _make(venv)
    if made.returncode != 0:
        raise ClientStartError(f"could not make a venv in {venv}: {(made.stderr or made.stdout).strip()[-800:]}",
                               client=client)
    pip = subprocess.run([str(venv_python(venv)), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                          *requirements], capture_output=True, text=True)
    if pip.returncode != 0 or not _imports(venv, imports):
        raise ClientStartError(f"pip install {' '.join(requirements)} into {venv} failed: "
                               f"{(pip.stderr or pip.stdout).strip()[-800:]}", client=client)
    return venv_python(venv)


def _imports(venv: Path, imports: str) -> bool:
    python = venv_python(venv)
    if not python.exists():
        return False
    return subprocess.run([str(python), "-c", f"import {imports}"], capture_output=True).returncode == 0


def _make(venv: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], capture_output=True, text=True)
