"""The ``windows`` tier: screenbot installed into python.org's Windows CPython 3.13, run under Wine
(tests/windows_python.py: a wheel of this checkout installed by the Windows pip, as a Windows user
would), reads recorded screenshots as Linux does, plays a real Windows Minesweeper (winemine), stops
when a window comes over the board, and passes the unit tier.

Each test has a Wine prefix of its own (a linked copy of the prepared one, with its own wineserver:
``WinePrefix``), in which the Windows Python and winemine both run, since Windows programs see only the
windows of their own wineserver; the tests with a screen have their own Xvfb (``VirtualDisplay``, the
allocator of the e2e tier: ``SCREENBOT_XVFB_DISPLAYS`` keeps it to a range). screenbot runs from a
folder outside the checkout, so the installed package is the one that runs.

What Wine cannot show about Windows (display scaling, Windows 10/11 window borders, foreground rules,
several monitors) stays unchecked here.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from screenbot.desktop import VirtualDisplay, start_client
from screenbot.errors import BoardNotFoundError
from screenbot.geometry import Rect

from .processes import communicate_or_fail
from .seeds import SEED
from .windows_python import (
    PrepareError,
    WinePrefix,
    WineServer,
    prepare,
    run_python,
    start_python,
    windows_path,
)

pytestmark = pytest.mark.windows

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"

# Recorded screenshots of three clients, read on both sides from the fixture's folder by its bare name,
# and one whose board goes on past the picture's edge (refused: exit 4). Each read under Wine takes
# 5-8 s (Wine's start, numpy's and OpenCV's imports): a few.
READ_CASES = [
    ("screens/gm-medium-600-marked.png", ()),  # gnome-mines
    ("screens/xd-30x16-lost.png", ("--json",)),  # xdemineur, a lost game, as JSON
    ("screens/rm-s1.5-12x12-flagged.png", ()),  # react-minesweeper at a device scale of 1.5
    ("cut/react-14x27-wider-than-page.png", ()),  # refused
]


@pytest.fixture(scope="module")
def windows_python():
    """The prepared Windows Python (instant once made; the checkout's changes are installed anew)."""
    try:
        return prepare(log=lambda text: print(text, flush=True))
    except PrepareError as exc:
        pytest.fail(f"the Windows Python could not be prepared (python3 -m tests.windows_python prepare): {exc}",
                    pytrace=False)


@pytest.fixture
def prefix(windows_python, tmp_path) -> Path:
    with WinePrefix(tmp_path / "prefix") as made:
        yield made.path


# First in the module: the tier's longest test (75-115 s), started first on its worker.
def test_the_unit_tier_passes_under_windows(prefix):
    """The whole unit tier (pure logic: solver, board text, geometry, parsing) under the Windows Python,
    from the checkout, with the solver as plain Python (no compiler on the Windows side)."""
    with WineServer(prefix):
        # No caches written into the checkout from the Windows side.
        done = run_python(["-m", "pytest", "-m", "unit", "-p", "no:cacheprovider", "-q", "--durations=5"], prefix,
                          env={"PYTHONDONTWRITEBYTECODE": "1"}, cwd=ROOT, timeout=400)
    out = done.stdout.decode(errors="replace")
    print(out[-1500:])
    assert done.returncode == 0, out[-5000:] + done.stderr.decode(errors="replace")[-2000:]
    assert " passed" in out and " failed" not in out and " error" not in out


def _last_json(stdout: bytes) -> dict:
    lines = stdout.decode("utf-8", errors="replace").strip().splitlines()
    assert lines, "no output"
    return json.loads(lines[-1])


def _linux_read(case: str, *extra: str) -> subprocess.CompletedProcess:
    path = FIXTURES / case
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "screenbot", "read", path.name, *extra], cwd=path.parent, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=120)


def test_read_gives_the_linux_output(prefix):
    """Every case read by the Windows Python prints what Linux prints, byte for byte but for Windows'
    line ending (text output ends its lines with CRLF there), with the same exit code and message;
    --json too."""
    with WineServer(prefix):
        # Started together: each waits mostly for Wine and imports.
        running = [(case, extra, start_python(["-m", "screenbot", "read", Path(case).name, *extra], prefix,
                                              cwd=(FIXTURES / case).parent)) for case, extra in READ_CASES]
        done = [(case, extra, proc.communicate(timeout=300), proc.returncode) for case, extra, proc in running]
    for case, extra, (out, err), code in done:
        linux = _linux_read(case, *extra)
        what = f"read {case} {' '.join(extra)}"
        assert code == linux.returncode, f"{what}: exit {code} under Windows, {linux.returncode} on Linux:\n{err.decode(errors='replace')}"
        assert out == linux.stdout.replace(b"\n", b"\r\n"), f"{what}: the output differs:\n{out!r}\n{linux.stdout!r}"
        assert err == linux.stderr.replace(b"\n", b"\r\n"), f"{what}: the messages differ:\n{err!r}\n{linux.stderr!r}"
        assert (code == 0) == (not case.startswith("cut/")), what
    print(f"{len(done)} reads identical")


def test_installed_as_a_windows_user_installs_it(prefix, tmp_path):
    """The wheel's requirements hold under Windows' markers (pip check), python-xlib is neither
    required there nor installed, screenbot runs from site-packages, and its command's module and
    the screenbot.exe pip made both run."""
    check = ("import importlib.metadata as m, importlib.util as u, json, screenbot, solver\n"
             "print(json.dumps({'screenbot': screenbot.__file__, 'solver': solver.__file__,\n"
             "  'requires': m.requires('screenbot-minesweeper'),\n"
             "  'installed': sorted(d.metadata['Name'].lower() for d in m.distributions()),\n"
             "  'xlib': u.find_spec('Xlib') is not None}))\n")
    with WineServer(prefix):
        facts = run_python(["-c", check], prefix, cwd=tmp_path)
        pip_check = run_python(["-m", "pip", "check"], prefix, cwd=tmp_path)
        helped = run_python(["-m", "screenbot", "--help"], prefix, cwd=tmp_path)
        # The command pip made (Scripts\\screenbot.exe), run as a Windows user types it.
        exe = run_python(["-c", "import subprocess, sys, os; sys.exit(subprocess.call([os.path.join("
                          "os.path.dirname(sys.executable), 'Scripts', 'screenbot.exe'), '--help']))"],
                         prefix, cwd=tmp_path)
    assert facts.returncode == 0, facts.stderr.decode(errors="replace")
    data = json.loads(facts.stdout)
    print(json.dumps(data))
    assert "\\Lib\\site-packages\\screenbot\\" in data["screenbot"], data["screenbot"]
    assert "\\Lib\\site-packages\\solver\\" in data["solver"], data["solver"]
    xlib = [r for r in data["requires"] if r.lower().startswith("python-xlib")]
    assert xlib and "sys_platform == \"linux\"" in xlib[0].replace("'", '"'), data["requires"]
    assert "python-xlib" not in data["installed"] and not data["xlib"]
    assert pip_check.returncode == 0, pip_check.stdout.decode(errors="replace")
    assert helped.returncode == 0 and b"play" in helped.stdout, helped.stderr.decode(errors="replace")
    assert exe.returncode == 0 and exe.stdout == helped.stdout, (exe.stdout + exe.stderr).decode(errors="replace")


WINEMINE_CLASS = "WineMine"  # the window class of winemine's main window


def _winemine(prefix: Path, monkeypatch):
    # winemine starts in the test's prefix, with the Windows Python (SCREENBOT_WINE_PREFIX).
    monkeypatch.setenv("SCREENBOT_WINE_PREFIX", str(prefix))
    return start_client("winemine", level="intermediate", position=(100, 100))


def test_play_winemine_three_games(prefix, tmp_path, monkeypatch):
    """`play --client winemine --games 3 --json`, no window-system flag (Windows' default: the Win32
    backend, which finds and follows winemine's window):
    exit 0, each game ends in a detected win or loss, and the bot's clicks reached winemine (seen by a
    low-level mouse hook on the Windows side)."""
    print(f"seed {SEED} (winemine draws its own mines)")
    with VirtualDisplay(), WineServer(prefix), _winemine(prefix, monkeypatch):
        with ClickWatch(prefix, tmp_path) as clicks:
            played = run_python(["-m", "screenbot", "play", "--client", "winemine", "--games", "3", "--json"], prefix,
                                cwd=tmp_path, timeout=240)
    print(played.stdout.decode(errors="replace").strip().splitlines()[-1:], played.stderr.decode(errors="replace")[-1500:])
    assert played.returncode == 0, played.stderr.decode(errors="replace")[-3000:]
    # The Win32 backend found winemine's window around the board (play warns when it finds none).
    assert b"no window found around the board" not in played.stderr, played.stderr.decode(errors="replace")[-3000:]
    result = _last_json(played.stdout)
    assert result["client"] == "winemine" and result["games"] == 3
    assert result["wins"] + result["losses"] == 3 and result["aborted"] == 0, result
    assert result["steps"] >= 3 and result["actions"] >= 3, result
    on_game = [p for p in clicks.presses if p["window"] == WINEMINE_CLASS]
    elsewhere = [p for p in clicks.presses if p["window"] != WINEMINE_CLASS]
    print(f"presses: {len(on_game)} on winemine, {len(elsewhere)} elsewhere")
    # Every action the bot counts is a press on winemine (a restart is F2: a key, not a press).
    assert len(on_game) >= result["actions"], (len(on_game), result["actions"])
    assert not elsewhere, elsewhere[:5]


class ClickWatch:
    """tests/windows_clicks.py under the Windows Python in ``prefix``: every button press on the Windows
    desktop, with the class of the window under it."""

    def __init__(self, prefix: Path, folder: Path) -> None:
        self.prefix, self.folder = prefix, folder
        self.presses: list[dict] = []
        self.lines: list[dict] = []
        self._proc: subprocess.Popen | None = None
        self._reader: threading.Thread | None = None
        self._ready = threading.Event()

    def __enter__(self) -> ClickWatch:
        self._proc = start_python([windows_path(ROOT / "tests" / "windows_clicks.py")], self.prefix, cwd=self.folder,
                                  stdin=subprocess.PIPE)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        if not self._ready.wait(60):
            self._end()
            raise AssertionError(f"the click watch did not start: {self.lines} {self._proc.stderr.read()[-2000:]!r}")
        return self

    def _read(self) -> None:
        for line in self._proc.stdout:
            data = json.loads(line)
            self.lines.append(data)
            if "x" in data:
                self.presses.append(data)
            if data.get("ready") or data.get("error"):
                self._ready.set()

    def _end(self) -> None:
        # The hook reports a press from Wine's message loop, some time after the press: the last ones
        # may still be on their way when play exits (CI once saw 220 of 221). Wait until no line has
        # come for half a second (at most 5 s) before the watch is stopped.
        deadline, seen = time.monotonic() + 5, -1
        while seen != len(self.lines) and time.monotonic() < deadline:
            seen = len(self.lines)
            time.sleep(0.5)
        try:
            self._proc.stdin.close()
            self._proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._reader.join(5)

    def __exit__(self, *exc_info: object) -> None:
        self._end()


def _board_changed(window: int, first) -> bool:
    return not (_window_shot(window) == first).all()


def _window_shot(window: int):
    from screenbot.capture import MssScreen
    from screenbot.platforms.x11.windows import window_geometry

    with MssScreen() as screen:
        return screen.grab(window_geometry(window).as_region())


NOTEPAD_TEXT = '''import ctypes, sys
u = ctypes.windll.user32
top = u.FindWindowW("Notepad", None)
edit = u.FindWindowExW(top, None, "Edit", None)
print(top != 0, edit != 0, u.GetWindowTextLengthW(edit) if edit else -1)
'''


# Notepad put over a rectangle through Windows itself, as a user bringing it forward there would: Wine
# takes a restack made from the X side (xdotool) into its own window list only once the window's
# program next reads its X events, so presses were routed, and judged, by a stacking Windows did not
# have yet. Arguments: left, top, width, height.
NOTEPAD_OVER = '''import ctypes, sys, time
from ctypes import wintypes
u = ctypes.windll.user32
u.FindWindowW.restype = wintypes.HWND
u.SetWindowPos.argtypes = [wintypes.HWND, wintypes.HWND] + [ctypes.c_int] * 4 + [wintypes.UINT]
deadline = time.monotonic() + 30
while not u.FindWindowW("Notepad", None) and time.monotonic() < deadline:
    time.sleep(0.05)
top = u.FindWindowW("Notepad", None)
SWP_SHOWWINDOW = 0x0040
ok = u.SetWindowPos(top, None, *map(int, sys.argv[1:5]), SWP_SHOWWINDOW)  # hWndInsertAfter None: HWND_TOP
u.SetForegroundWindow(top)
sys.exit(0 if top and ok else 1)
'''


def _notepad_over(prefix: Path, folder: Path, rect: Rect) -> None:
    left, top = max(0, rect.left - 30), max(0, rect.top - 30)
    done = run_python(["-c", NOTEPAD_OVER, str(left), str(top), str(rect.width + 60), str(rect.height + 60)], prefix,
                      cwd=folder)
    assert done.returncode == 0, f"Notepad could not be put over the board: {done.stderr.decode(errors='replace')[-2000:]}"


def test_a_window_over_the_board_stops_play(prefix, tmp_path, monkeypatch):
    """Notepad opened and put over the board while play plays many games: play stops with exit 1,
    naming Notepad as the window over the board (the Win32 backend looks at the window list before
    every batch of clicks), and Notepad's text stays empty. No press lands on Notepad but the one
    that may be on its way in the milliseconds Notepad appears (the press guard's look and Windows'
    routing of the press are not one step): that one is the last press, and play says so by name."""
    rng = random.Random(SEED)
    delay = rng.uniform(0.0, 1.0)
    print(f"seed {SEED}: Notepad put over the board {delay:.2f} s after the first click")
    with VirtualDisplay(), WineServer(prefix) as server, _winemine(prefix, monkeypatch) as game:
        first = _window_shot(game.window)
        with ClickWatch(prefix, tmp_path) as clicks:
            bot = start_python(["-m", "screenbot", "play", "--client", "winemine", "--games", "500", "--json"], prefix,
                               cwd=tmp_path)
            notepad = None
            try:
                deadline = time.monotonic() + 90
                while not _board_changed(game.window, first):
                    assert bot.poll() is None, bot.communicate()[1].decode(errors="replace")[-3000:]
                    assert time.monotonic() < deadline, "the bot made no move within 90 s"
                    time.sleep(0.1)
                time.sleep(delay)
                notepad = subprocess.Popen(["wine", "notepad"], env=server.env, stdin=subprocess.DEVNULL,
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                # Over the whole game window (not only the board), raised as a user bringing it forward.
                _notepad_over(prefix, tmp_path, game.geometry())
                out, err = communicate_or_fail(bot, 90, "play went on for 90 s with Notepad over the board")
                text = run_python(["-c", NOTEPAD_TEXT], prefix, cwd=tmp_path)
            finally:
                if bot.poll() is None:
                    bot.kill()
                    bot.wait()
                if notepad is not None and notepad.poll() is None:
                    notepad.kill()
                    notepad.wait()
    err_text = err.decode(errors="replace")
    on_notepad = [p for p in clicks.presses if p["window"] == "Notepad"]
    print(out.decode(errors="replace").strip().splitlines()[-1:], err_text[-1500:])
    print(f"presses: {len(clicks.presses)}, {len(on_notepad)} on Notepad; Notepad's window, edit, text length: "
          f"{text.stdout.split()}")
    assert bot.returncode == 1, err_text[-3000:]
    result = _last_json(out)
    # Stopped in a game (aborted) or between two (Notepad came while the next one was started).
    assert result["aborted"] <= 1 and result["wins"] + result["losses"] + result["aborted"] == result["games"], result
    assert clicks.presses, "the click watch saw none of the bot's presses"
    assert text.returncode == 0 and text.stdout.split() == [b"True", b"True", b"0"], (text.stdout, text.stderr)
    # What the README says of a window over the board: stopped at once, by the window's name.
    stopped = result.get("stopped", "")
    assert stopped.startswith("the board is covered by another window") and "Notepad" in stopped, stopped
    assert f"screenbot: stopped: {stopped}" in err_text
    if on_notepad:
        assert on_notepad == clicks.presses[-1:], on_notepad
        assert "that click may have reached it" in stopped, stopped


GUARDED_CLICK = '''import ctypes, json, logging, sys, time
from ctypes import wintypes
from screenbot.errors import PressHeldBackError
from screenbot.platforms.win32.desktop import Win32Desktop
logging.basicConfig(level=logging.DEBUG)
u = ctypes.windll.user32
u.WindowFromPoint.argtypes, u.WindowFromPoint.restype = [wintypes.POINT], wintypes.HWND
u.GetAncestor.argtypes, u.GetAncestor.restype = [wintypes.HWND, wintypes.UINT], wintypes.HWND
x, y, expected = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
# The window Windows has under the point (after Notepad's window went away, a moment later): the
# click is sent once it is the one expected.
deadline, under = time.monotonic() + 20, ""
while time.monotonic() < deadline:
    name = ctypes.create_unicode_buffer(256)
    u.GetClassNameW(u.GetAncestor(u.WindowFromPoint(wintypes.POINT(x, y)), 2), name, 256)
    under = name.value
    if under == expected:
        break
    time.sleep(0.1)
desktop = Win32Desktop()
desktop.follow(u.FindWindowW("WineMine", None))
try:
    desktop.mouse().click(x, y)
    print(json.dumps({"under": under, "held_back": None}))
except PressHeldBackError as exc:
    print(json.dumps({"under": under, "held_back": exc.title}))
'''


def _point_on_board(rect: Rect) -> tuple[int, int]:
    """A point on winemine's board (the lower middle of its window ``rect``), drawn at random."""
    rng = random.Random(SEED)
    return (rect.left + rect.width // 4 + rng.randrange(rect.width // 2),
            rect.top + rect.height // 2 + rng.randrange(rect.height // 3))


def test_a_press_over_another_window_is_held_back(prefix, tmp_path, monkeypatch):
    """The Win32 mouse's last check, where no look before the press can reach: a click on winemine's
    board while Notepad lies over that point is held back as it reaches Windows (the press guard's
    low-level hook), naming Notepad, and no press reaches Notepad; once Notepad is gone, the same
    click goes through to winemine."""
    with VirtualDisplay(), WineServer(prefix) as server, _winemine(prefix, monkeypatch) as game:
        rect = game.geometry()
        x, y = _point_on_board(rect)
        print(f"seed {SEED}: clicking ({x}, {y}) in winemine's window {rect}")
        with ClickWatch(prefix, tmp_path) as clicks:
            notepad = subprocess.Popen(["wine", "notepad"], env=server.env, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                _notepad_over(prefix, tmp_path, rect)
                covered = run_python(["-c", GUARDED_CLICK, str(x), str(y), "Notepad"], prefix, cwd=tmp_path)
                seen_covered = list(clicks.presses)
            finally:
                notepad.kill()
                notepad.wait()
            uncovered = run_python(["-c", GUARDED_CLICK, str(x), str(y), WINEMINE_CLASS], prefix, cwd=tmp_path)
    print(covered.stdout, uncovered.stdout, clicks.presses)
    print(covered.stderr.decode(errors="replace")[-2000:])
    assert covered.returncode == 0, covered.stderr.decode(errors="replace")[-3000:]
    assert uncovered.returncode == 0, uncovered.stderr.decode(errors="replace")[-3000:]
    first = json.loads(covered.stdout.decode().strip().splitlines()[-1])
    assert first["under"] == "Notepad", first  # Windows saw Notepad there when the click was sent
    assert first["held_back"] is not None and "Notepad" in first["held_back"], first
    assert not seen_covered, seen_covered  # no press went on to anyone
    second = json.loads(uncovered.stdout.decode().strip().splitlines()[-1])
    assert second == {"under": WINEMINE_CLASS, "held_back": None}, second
    assert [p["window"] for p in clicks.presses] == [WINEMINE_CLASS], clicks.presses


# Clicks (the middle button: nothing for winemine's covered cells nor for Notepad) sent through the
# guarded mouse at random pauses; one JSON line of what each came to. Arguments: x, y, clicks, seed.
GUARDED_CLICKS = '''import ctypes, json, random, sys, time
from screenbot.errors import PressHeldBackError, PressStrayedError
from screenbot.platforms.win32.desktop import Win32Desktop
x, y, n, seed = map(int, sys.argv[1:5])
desktop = Win32Desktop()
desktop.follow(ctypes.windll.user32.FindWindowW("WineMine", None))
mouse, rng, came = desktop.mouse(), random.Random(seed), []
for _ in range(n):
    try:
        mouse.click(x, y, "middle")
        came.append("through")
    except PressHeldBackError:
        came.append("held")
    except PressStrayedError:
        came.append("reported")
    time.sleep(rng.uniform(0.0, 0.03))
print(json.dumps(came))
'''

# Notepad moved on and off a rectangle at random pauses (5-60 ms), through Windows, without taking the
# foreground. Arguments: left, top, width, height, seconds, seed.
NOTEPAD_FLASHING = '''import ctypes, random, sys, time
from ctypes import wintypes
u = ctypes.windll.user32
u.FindWindowW.restype = wintypes.HWND
u.SetWindowPos.argtypes = [wintypes.HWND, wintypes.HWND] + [ctypes.c_int] * 4 + [wintypes.UINT]
left, top, width, height, seconds, seed = map(int, sys.argv[1:7])
deadline = time.monotonic() + 30
while not u.FindWindowW("Notepad", None) and time.monotonic() < deadline:
    time.sleep(0.05)
notepad, rng, end = u.FindWindowW("Notepad", None), random.Random(seed), time.monotonic() + seconds
SWP_NOACTIVATE, SWP_SHOWWINDOW = 0x0010, 0x0040
while notepad and time.monotonic() < end:
    for x in (left, left + width + 200):  # over the rectangle (at the top), then beside it
        u.SetWindowPos(notepad, None, x, top, width, height, SWP_NOACTIVATE | SWP_SHOWWINDOW)
        time.sleep(rng.uniform(0.005, 0.06))
sys.exit(0 if notepad else 1)
'''
FLASHED_CLICKS = 200


def test_every_press_a_flashing_window_takes_is_reported(prefix, tmp_path, monkeypatch):
    """The press guard against a window that comes and goes over the board every few milliseconds
    (Notepad, moved on and off it): a click is held back, let through, or reported as one that may
    have reached that window; every press that the click watch (a second hook, later in the chain)
    saw land on Notepad is among those reported, and no press held back reaches anyone."""
    with VirtualDisplay(), WineServer(prefix) as server, _winemine(prefix, monkeypatch) as game:
        rect = game.geometry()
        x, y = _point_on_board(rect)
        print(f"seed {SEED}: {FLASHED_CLICKS} clicks at ({x}, {y}) in winemine's window {rect}")
        notepad = subprocess.Popen(["wine", "notepad"], env=server.env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            with ClickWatch(prefix, tmp_path) as clicks:
                flashing = start_python(["-c", NOTEPAD_FLASHING, str(rect.left - 30), str(rect.top - 30),
                                         str(rect.width + 60), str(rect.height + 60), "300", str(SEED)], prefix,
                                        cwd=tmp_path)
                try:
                    done = run_python(["-c", GUARDED_CLICKS, str(x), str(y), str(FLASHED_CLICKS), str(SEED)], prefix,
                                      cwd=tmp_path, timeout=300)
                finally:
                    flashing.kill()
                    flashing.wait()
        finally:
            notepad.kill()
            notepad.wait()
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
    came = json.loads(done.stdout.decode().strip().splitlines()[-1])
    # Held-back presses reach no hook after the guard's: the watch's presses are the others, in order.
    passed = [what for what in came if what != "held"]
    landed = [p["window"] for p in clicks.presses]
    counts = {what: came.count(what) for what in ("held", "through", "reported")}
    on_notepad = [what for what, window in zip(passed, landed) if window == "Notepad"]
    print(f"{counts}; the watch saw {len(landed)} presses, {len(on_notepad)} on Notepad, reported as {on_notepad}")
    assert len(came) == FLASHED_CLICKS and counts["held"] > 0 and counts["through"] > 0, counts
    assert len(landed) == len(passed), (len(landed), len(passed))
    assert set(landed) <= {WINEMINE_CLASS, "Notepad"}, landed
    assert all(what == "reported" for what in on_notepad), on_notepad


def test_hint_draws_over_winemine_without_hiding_its_cells(prefix, tmp_path, monkeypatch):
    """Live `hint` under the Windows Python: the Win32 overlay (a layered, click-through, topmost
    window) shows marks around winemine's cells, never over a cell's middle, so the board reads the
    same through it; the overlay is gone once hint ends. Captured from outside (the X display Wine
    draws on), as a user sees it."""
    from screenbot.capture import MssScreen
    from screenbot.vision import load_skins, locate_board, read_board

    with VirtualDisplay(), WineServer(prefix), _winemine(prefix, monkeypatch) as game:
        with MssScreen() as screen:
            # Room around the window: a board is located only with the pixels around it in sight.
            window = game.geometry().expanded(48).clipped(Rect(0, 0, *screen.size))
            skins = load_skins()
            # winemine's window can be up before its board is drawn (CI grabbed it black once).
            deadline = time.monotonic() + 15
            while True:
                clean = screen.grab(window.as_region())
                try:
                    lattice = locate_board(clean, skins, skin="winemine")
                    break
                except BoardNotFoundError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
            hint = start_python(["-m", "screenbot", "hint", "--client", "winemine", "--seconds", "12", "--json"],
                                prefix, cwd=tmp_path)
            try:
                deadline, up = time.monotonic() + 60, clean
                while (up == clean).all():
                    assert hint.poll() is None, hint.communicate()[1].decode(errors="replace")[-3000:]
                    assert time.monotonic() < deadline, "no overlay within 60 s"
                    time.sleep(0.2)
                    up = screen.grab(window.as_region())
                time.sleep(1.0)  # the first picture whole
                up = screen.grab(window.as_region())
                out, err = hint.communicate(timeout=120)
                after = screen.grab(window.as_region())
            finally:
                if hint.poll() is None:
                    hint.kill()
                    hint.wait()
    import cv2

    cv2.imwrite(str(tmp_path / "hint-over-winemine.png"), up)  # what the overlay looked like, to look at
    print(f"the overlay as captured: {tmp_path / 'hint-over-winemine.png'}")
    assert hint.returncode == 0, err.decode(errors="replace")[-3000:]
    summary = _last_json(out)
    print(summary)
    assert summary["updates"] >= 1 and summary["ended"] == "stopped", summary
    marked = 0
    for row in range(lattice.rows):
        for col in range(lattice.cols):
            inner = lattice.cell_inner_rect(row, col)
            middle = inner.expanded(-(inner.width // 4), -(inner.height // 4))
            assert (up[middle.top:middle.bottom, middle.left:middle.right]
                    == clean[middle.top:middle.bottom, middle.left:middle.right]).all(), f"a mark over cell ({row},{col})"
            around = lattice.cell_rect(row, col).expanded(1).clipped(Rect(0, 0, clean.shape[1], clean.shape[0]))
            marked += bool((up[around.top:around.bottom, around.left:around.right]
                            != clean[around.top:around.bottom, around.left:around.right]).any())
    print(f"cells with a mark around them: {marked} of {lattice.rows * lattice.cols}")
    assert marked == lattice.rows * lattice.cols  # a fresh board: every cell is covered and hinted
    assert read_board(up, lattice, skins).board.grid == read_board(clean, lattice, skins).board.grid
    assert (after == clean).all(), "the overlay is still on the screen after hint ended"
