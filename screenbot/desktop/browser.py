"""Browser clients: an npm package's page fetched and served, Chromium started on it in its own profile,
and its window handed back like every other client's. react-minesweeper (the package's demo page) is
the one shipped."""

from __future__ import annotations

import functools
import http.server
import logging
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from ..errors import ClientStartError
from .client_venv import cache_folder
from .install import ensure_debian_packages
from .launch import launch_for
from .processes import ClientWindow, client_env, free_port, spawn, stop_group, temp_home, wait_window
from ..platforms.x11.windows import find_windows

log = logging.getLogger(__name__)

def react_minesweeper_dist(cache_dir: Path | None = None) -> Path:
    """The demo's static files (``package/demo/dist``) of the npm package named by the profile's
    ``launch.page``, fetched once with ``npm pack`` into a cache."""
    page = str(launch_for("react-minesweeper").extra["page"])
    return npm_package(page, "demo/dist/index.html", "react-minesweeper", cache_dir) / "demo" / "dist"


def npm_package(spec: str, needed: str, client: str, cache_dir: Path | None = None) -> Path:
    """The folder of npm package ``spec`` (``name@version``) unpacked in the cache, fetched once with
    ``npm pack``; ``needed`` is a file in it that must be there."""
    target = cache_dir / spec.replace("@", "-") if cache_dir else cache_folder(spec.replace("@", "-"))
    cache = target.parent
    package = target / "package"
    if (package / needed).is_file():
        return package
    if not shutil.which("npm"):
        # Only when npm is not on PATH: a Node.js from elsewhere brings its own npm, and Debian's npm
        # package conflicts with it.
        ensure_debian_packages(("npm",), why=f"the browser client {client} is fetched with npm")
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="screenbot-npm-", dir=cache))
    try:
        done = subprocess.run(["npm", "pack", spec, "--silent"], cwd=work, capture_output=True, text=True,
                              timeout=300)
        tarballs = list(work.glob("*.tgz"))
        if done.returncode != 0 or not tarballs:
            raise ClientStartError(f"npm pack {spec} failed: {done.stderr.strip()[-500:]}", client=client)
        import tarfile

        # Unpacked beside the cache and renamed into place whole: processes that start the client at
        # the same time (tests on several workers) never see a half-unpacked page.
        unpacked = work / "unpacked"
        with tarfile.open(tarballs[0]) as tar:
            tar.extractall(unpacked, filter="data")
        if not (package / needed).is_file():  # else another process put its copy there first
            shutil.rmtree(target, ignore_errors=True)  # a copy left half-unpacked by an older version
            try:
                unpacked.rename(target)
            except OSError as exc:
                if not (package / needed).is_file():
                    raise ClientStartError(f"could not put the page in {target}: {exc}", client=client) from exc
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if not (package / needed).is_file():
        raise ClientStartError(f"the npm package {spec} has no {needed}", client=client)
    return package


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib signature
        log.debug("page server: " + format, *args)


def _serve(directory: Path) -> tuple[http.server.ThreadingHTTPServer, int]:
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, name="page-server", daemon=True).start()
    return server, int(server.server_address[1])


def _chromium_binary(program: str) -> str:
    # The profile names Debian's; other distributions call it otherwise.
    for name in (program, "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return name
    from .install import missing_packages_error

    raise missing_packages_error(("chromium",), "the browser client runs in Chromium")


def start_react_minesweeper(
    scale: float = 1.0,
    window_size: tuple[int, int] = (1280, 1024),
    devtools: bool = False,
    cache_dir: Path | None = None,
    timeout: float = 60.0,
) -> ClientWindow:
    """Serve the react-minesweeper demo on 127.0.0.1 and open it in a new Chromium profile.

    ``scale`` is Chromium's device scale factor (1, 1.25, 1.5, 2 ...). With ``devtools`` Chromium also
    listens for the DevTools protocol on a free 127.0.0.1 port (``handle.devtools_port``), which
    the lab's DevTools reader (``lab/shots/devtools.py``) uses to read the page's own game state.
    """
    launch = launch_for("react-minesweeper")
    ensure_debian_packages(launch.packages, why="the browser client runs in Chromium")
    return start_page("react-minesweeper", react_minesweeper_dist(cache_dir), "index.html", launch.window_title,
                      launch.command, scale=scale, window_size=window_size, devtools=devtools, timeout=timeout)


def start_page(client: str, folder: Path, page: str, title: str, command: tuple[str, ...] | list[str], *,
               scale: float = 1.0, window_size: tuple[int, int] = (1280, 1024), devtools: bool = False,
               timeout: float = 60.0) -> ClientWindow:
    """Serve ``folder`` on 127.0.0.1 and open its ``page`` (a path with its query) in Chromium (``command``:
    the program and its options) with a new profile; the window is the one titled ``title``."""
    server, port = _serve(folder)
    home = temp_home("chromium")
    url = f"http://127.0.0.1:{port}/{page}"
    # react-minesweeper's profile's command has --no-sandbox: root in a container cannot use the
    # sandbox. It also makes Chromium show an info bar that pushes the page down, which is why nothing
    # may assume where the board is.
    cmd = [
        _chromium_binary(command[0]),
        *command[1:],
        f"--user-data-dir={home / 'profile'}",
        f"--window-size={int(window_size[0])},{int(window_size[1])}",
    ]
    if scale != 1.0:
        cmd.append(f"--force-device-scale-factor={scale}")
    devtools_port = None
    if devtools:
        devtools_port = free_port()
        cmd += [f"--remote-debugging-port={devtools_port}", "--remote-debugging-address=127.0.0.1",
                "--remote-allow-origins=*"]
    cmd.append(url)
    log_path = home / "client.log"
    there = set(find_windows(name=title))  # another copy's windows are not this one's
    proc = spawn(cmd, client_env(home), log_path)
    handle = ClientWindow(client, 0, proc.pid, url=url, devtools_port=devtools_port)
    handle._stoppers += [
        functools.partial(shutil.rmtree, home, ignore_errors=True),
        server.server_close,
        server.shutdown,
        stop_group(proc),
    ]
    try:
        handle.window = wait_window(client, proc, log_path, timeout, there, name=title)
        time.sleep(1.0)  # the title appears before the page has painted the board
    except BaseException:
        handle.close()
        raise
    log.info("%s started: window 0x%x at %s (%s)", client, handle.window, handle.geometry(), url)
    return handle
