"""The Win32 window backend's logic, against a fake of its ctypes binding (``Win32Api``).

The fake answers as Windows did: its windows are read from ``win32_windows_recorded.json``, which holds
what ``Win32Api`` answered for every top-level window (z-order, visibility, frame and client rectangles,
process ids, owners, titles) under Wine 8, with a Windows CPython, winemine and notepad running, in each
of the scenes the file's "recorded" field lists; its DPI answers are that process's first DPI calls.
Changes a scene does not hold (a cloaked window, a monitor left of the primary) are made by the tests
from recorded windows.
"""

from __future__ import annotations

import ctypes
import json
from pathlib import Path

import pytest

from screenbot.errors import WindowGoneError
from screenbot.geometry import Rect
from screenbot.platforms.win32 import Win32Desktop, Win32Window, make_dpi_aware
from screenbot.platforms.win32.api import E_ACCESSDENIED, ERROR_ACCESS_DENIED

pytestmark = pytest.mark.unit

RECORDED = json.loads((Path(__file__).parent / "win32_windows_recorded.json").read_text(encoding="utf-8"))
BOARD = Rect(*RECORDED["board"])  # where the project's vision found winemine's board on the screenshot
GAME, NOTEPAD, NOTEPAD2 = RECORDED["game"], RECORDED["notepad"], RECORDED["notepad2"]
ERROR_INVALID_PARAMETER = 87


class FakeApi:
    """``Win32Api``'s window methods over a recorded scene; a closed window answers as user32 does for
    a stale handle (nothing, zero, False)."""

    def __init__(self, scene: str) -> None:
        recorded = RECORDED["scenes"][scene]
        self.pid = recorded["current_pid"]
        self.windows = [dict(row) for row in recorded["windows"]]  # top of the z-order first
        self.foreground = 0
        self.foreground_allowed = True
        self.raised: list[int] = []

    def _row(self, hwnd: int) -> dict | None:
        return next((row for row in self.windows if row["hwnd"] == hwnd), None)

    # --- Win32Api -------------------------------------------------------------------------------
    def top_level_windows(self) -> list[int]:
        return [row["hwnd"] for row in self.windows]

    def exists(self, hwnd):
        return self._row(hwnd) is not None

    def _flag(self, hwnd, key):
        row = self._row(hwnd)
        return bool(row and row[key])

    def is_visible(self, hwnd):
        return self._flag(hwnd, "visible")

    def is_iconic(self, hwnd):
        return self._flag(hwnd, "iconic")

    def is_cloaked(self, hwnd):
        return self._flag(hwnd, "cloaked")

    def is_click_through(self, hwnd):
        return self._flag(hwnd, "click_through")

    def frame_rect(self, hwnd):
        row = self._row(hwnd)
        return Rect(*row["frame"]) if row else None

    def client_rect_on_screen(self, hwnd):
        row = self._row(hwnd)
        return Rect(*row["client"]) if row else None

    def process_id(self, hwnd):
        row = self._row(hwnd)
        return row["pid"] if row else 0

    def root_owner(self, hwnd):
        row = self._row(hwnd)
        return row["owner"] if row else 0

    def title(self, hwnd):
        row = self._row(hwnd)
        return row["title"] if row else ""

    def class_name(self, hwnd):
        row = self._row(hwnd)
        return row.get("class", "") if row else ""

    def hide(self, hwnd):
        row = self._row(hwnd)
        if row:
            row["visible"] = False
        return bool(row)

    def show_without_activating(self, hwnd):
        row = self._row(hwnd)
        if row:
            row["visible"] = True
        return bool(row)

    def current_process_id(self):
        return self.pid

    def foreground_window(self):
        return self.foreground

    def set_foreground(self, hwnd):
        if not self.exists(hwnd) or not self.foreground_allowed:
            return False
        self.to_top(hwnd)
        self.foreground = hwnd
        return True

    def raise_window(self, hwnd):
        if not self.exists(hwnd):
            return False
        self.raised.append(hwnd)
        self.to_top(hwnd)
        return True

    def restore(self, hwnd):
        row = self._row(hwnd)
        if row:  # back where it was before it was minimised
            shown = recorded_row("beside", hwnd)
            row.update(iconic=False, frame=shown["frame"], client=shown["client"])
        return bool(row)

    def answers(self, hwnd, timeout):
        return True if self.exists(hwnd) else None

    # --- what the user (or another program) does ------------------------------------------------
    def to_top(self, hwnd):
        row = self._row(hwnd)
        self.windows.remove(row)
        self.windows.insert(0, row)

    def put_under(self, hwnd, other):
        row = self._row(hwnd)
        self.windows.remove(row)
        self.windows.insert(self.windows.index(self._row(other)) + 1, row)

    def close(self, hwnd):
        self.windows.remove(self._row(hwnd))

    def move_to(self, hwnd, left, top):
        row = self._row(hwnd)
        dx, dy = left - row["frame"][0], top - row["frame"][1]
        row["frame"] = [left, top, *row["frame"][2:]]
        row["client"] = [row["client"][0] + dx, row["client"][1] + dy, *row["client"][2:]]

    def set(self, hwnd, **flags):
        self._row(hwnd).update(flags)

    def open(self, hwnd, *, pid, frame, title, owner=None):
        """A new window of ``pid`` on top, its client area inside ``frame`` as notepad's is."""
        row = dict(hwnd=hwnd, pid=pid, title=title, visible=True, iconic=False, cloaked=False, click_through=False,
                   frame=list(frame), client=[frame[0] + 4, frame[1] + 42, frame[2] - 8, frame[3] - 46],
                   owner=owner or hwnd)
        self.windows.insert(0, row)
        return hwnd


def recorded_row(scene: str, hwnd: int) -> dict:
    return next(row for row in RECORDED["scenes"][scene]["windows"] if row["hwnd"] == hwnd)


def game_in(scene: str) -> tuple[FakeApi, Win32Window]:
    api = FakeApi(scene)
    return api, Win32Desktop(api).follow(GAME)


# --- finding the window -------------------------------------------------------------------------


def test_window_holding_finds_winemine_around_its_board():
    assert Win32Desktop(FakeApi("beside")).window_holding(BOARD) == GAME
    # notepad lies over the board then, and is larger, but its client area does not hold the board
    assert Win32Desktop(FakeApi("over")).window_holding(BOARD) == GAME


def test_window_holding_picks_the_smallest_containing_window():
    api = FakeApi("beside")
    api.open(0x900, pid=532, frame=(0, 0, 1280, 1024), title="big, behind")
    api.put_under(0x900, GAME)
    api.open(0x901, pid=532, frame=(50, 50, 600, 600), title="big, in front")
    assert Win32Desktop(api).window_holding(BOARD) == GAME
    api.close(GAME)
    assert Win32Desktop(api).window_holding(BOARD) == 0x901


def test_window_holding_skips_hidden_minimised_cloaked_and_own_windows():
    assert Win32Desktop(FakeApi("minimised")).window_holding(BOARD) is None
    for flags in ({"cloaked": True}, {"visible": False}):
        api = FakeApi("beside")
        api.set(GAME, **flags)
        assert Win32Desktop(api).window_holding(BOARD) is None, flags
    api = FakeApi("beside")
    api.pid = api.process_id(GAME)  # the game's window as if it were the bot's own
    assert Win32Desktop(api).window_holding(BOARD) is None


def test_window_holding_none_when_the_board_is_not_inside_a_client_area():
    desktop = Win32Desktop(FakeApi("beside"))
    assert desktop.window_holding(BOARD.translated(0, -40)) is None  # reaching into the title bar
    assert desktop.window_holding(Rect(0, 0, 1280, 1024)) is None


def test_stacked_lists_client_areas_bottom_to_top():
    assert Win32Desktop(FakeApi("beside")).stacked() == [Rect(103, 141, 154, 182), Rect(301, 142, 392, 254)]
    assert Win32Desktop(FakeApi("arrival_under")).stacked()[-1] == Rect(103, 141, 154, 182)


def test_hint_overlays_are_off_the_screen_while_a_board_is_located():
    """Every window of the overlay's class, visible before, is hidden for the block and shown after;
    the game and other windows are left alone."""
    from screenbot.platforms.win32.overlay import CLASS_NAME

    api = FakeApi("beside")
    api.windows.insert(0, {**api.windows[0], "hwnd": 0x7001, "class": CLASS_NAME, "pid": 4242, "visible": True,
                           "click_through": True, "title": "screenbot hint"})
    before = {row["hwnd"]: row["visible"] for row in api.windows}
    with Win32Desktop(api).overlays_hidden(settle=0.0) as hidden:
        assert hidden == 1
        assert {row["hwnd"]: row["visible"] for row in api.windows} == {**before, 0x7001: False}
    assert {row["hwnd"]: row["visible"] for row in api.windows} == before


def test_the_followed_window_has_its_title():
    assert Win32Desktop(FakeApi("beside")).follow(GAME).title() == "WineMine"


# --- what lies over the game --------------------------------------------------------------------


def test_windows_over_names_a_window_above_over_the_board_only():
    assert game_in("over")[1].windows_over(BOARD) == ["Untitled - Notepad"]
    assert game_in("beside")[1].windows_over(BOARD) == []
    # notepad over the whole window, but not over a part of it away from notepad
    assert game_in("over")[1].windows_over(Rect(103, 141, 20, 20)) == []


def test_windows_over_ignores_windows_below_the_game():
    api, game = game_in("arrival_under")  # two notepads over the board's area, both under winemine
    assert game.windows_over(BOARD) == []
    api.to_top(NOTEPAD2)
    assert game.windows_over(BOARD) == ["Untitled - Notepad"]


def test_windows_over_own_names_the_games_dialog_and_not_others():
    _, game = game_in("dialog")
    assert game.windows_over(BOARD, own=True) == ["Custom Game"]
    assert game.windows_over(BOARD) == []
    _, game = game_in("over")
    assert game.windows_over(BOARD, own=True) == []


def test_a_window_the_game_owns_counts_as_the_games_whatever_its_process():
    api, game = game_in("beside")
    api.open(0x902, pid=999, frame=(120, 150, 200, 150), title="Open", owner=GAME)  # a dialog hosted elsewhere
    assert game.windows_over(BOARD, own=True) == ["Open"]
    assert game.windows_over(BOARD) == []


@pytest.mark.parametrize("flags", [{"iconic": True}, {"cloaked": True}, {"visible": False}, {"click_through": True}])
def test_windows_over_ignores_windows_not_on_the_screen(flags):
    api, game = game_in("over")
    api.set(NOTEPAD, **flags)
    assert game.windows_over(BOARD) == []


def test_windows_over_ignores_this_process_and_names_untitled_windows_by_handle():
    api = FakeApi("over")
    api.pid = api.process_id(NOTEPAD)  # notepad as if it were the bot's own window
    assert Win32Desktop(api).follow(GAME).windows_over(BOARD) == []
    api, game = game_in("over")
    api.set(NOTEPAD, title="")
    assert game.windows_over(BOARD) == [f"0x{NOTEPAD:x}"]


def test_windows_over_is_empty_when_the_game_is_minimised_or_closed():
    _, game = game_in("minimised")
    assert game.windows_over(BOARD) == []
    api, game = game_in("over")
    api.close(GAME)
    assert game.windows_over(BOARD) == []


# --- windows that came over the board -----------------------------------------------------------


def test_appeared_over_first_call_arms_and_reports_nothing():
    api, game = game_in("over")
    assert game.appeared_over(BOARD) == []  # notepad was there before the bot looked
    assert game.appeared_over(BOARD) == []


def test_appeared_over_reports_a_window_dragged_over_the_board():
    api, game = game_in("beside")
    assert game.appeared_over(BOARD) == []
    api.move_to(NOTEPAD, *recorded_row("over", NOTEPAD)["frame"][:2])  # where it was dragged to
    assert game.appeared_over(BOARD) == ["Untitled - Notepad"]
    assert game.appeared_over(BOARD) == []  # reported once


def test_appeared_over_reports_a_new_window_even_under_the_game():
    api, game = game_in("beside")
    game.appeared_over(BOARD)
    api.open(NOTEPAD2, pid=568, frame=(139, 185, 300, 200), title="Untitled - Notepad")
    api.put_under(NOTEPAD2, GAME)  # the bot's click brought the game forward
    assert game.windows_over(BOARD) == []
    assert game.appeared_over(BOARD) == ["Untitled - Notepad"]


def test_appeared_over_reports_a_window_raised_or_restored_over_the_board():
    api, game = game_in("arrival_under")
    game.appeared_over(BOARD)
    api.to_top(NOTEPAD)
    assert game.appeared_over(BOARD) == ["Untitled - Notepad"]
    api.set(NOTEPAD2, iconic=True)
    assert game.appeared_over(BOARD) == []
    api.set(NOTEPAD2, iconic=False)
    assert game.appeared_over(BOARD) == ["Untitled - Notepad"]


def test_appeared_over_ignores_the_games_dialogs_windows_elsewhere_and_lowered_ones():
    api, game = game_in("over")
    game.appeared_over(BOARD)
    api.open(0x903, pid=api.process_id(GAME), frame=(100, 119, 251, 188), title="Custom Game", owner=GAME)
    api.open(0x904, pid=700, frame=(900, 600, 200, 200), title="far away")
    api.put_under(NOTEPAD, GAME)
    assert game.appeared_over(BOARD) == []
    api.set(0x904, frame=[100, 100, 200, 200])  # moved over the board, above the game
    assert game.appeared_over(BOARD) == ["far away"]


def test_put_arrivals_back_raises_those_under_the_game_only():
    api, game = game_in("beside")
    game.appeared_over(BOARD)
    api.open(NOTEPAD2, pid=568, frame=(139, 185, 300, 200), title="Untitled - Notepad")
    api.put_under(NOTEPAD2, GAME)
    api.open(0x905, pid=701, frame=(130, 180, 100, 100), title="on top")
    assert game.appeared_over(BOARD) == ["on top", "Untitled - Notepad"]
    game.put_arrivals_back()
    assert api.raised == [NOTEPAD2]
    assert game.windows_over(BOARD) == ["Untitled - Notepad", "on top"]
    assert game.appeared_over(BOARD) == []  # raised by the bot: not news
    game.put_arrivals_back()
    assert api.raised == [NOTEPAD2]


def test_put_arrivals_back_before_any_look_does_nothing():
    api, game = game_in("arrival_under")
    game.put_arrivals_back()
    assert api.raised == []


# --- following the game -------------------------------------------------------------------------


def test_geometry_is_the_client_area_also_at_negative_coordinates():
    assert game_in("beside")[1].geometry() == Rect(103, 141, 154, 182)
    assert game_in("negative")[1].geometry() == Rect(-57, 1, 154, 182)
    api, game = game_in("beside")
    api.move_to(GAME, -1820, -200)  # on a monitor left of and above the primary
    assert game.geometry() == Rect(-1817, -159, 154, 182)
    assert Win32Desktop(api).window_holding(BOARD.translated(-1920, -300)) == GAME


def test_is_viewable_and_activate_restores_a_minimised_window():
    api, game = game_in("minimised")
    assert not game.is_viewable() and game.was_hidden()
    game.activate()
    assert game.is_viewable() and api.foreground == GAME
    assert not game.was_hidden()  # Windows keeps no record of it: what it is now
    assert game.geometry() == Rect(103, 141, 154, 182)


def test_activate_refused_by_the_foreground_lock_is_not_an_error():
    api, game = game_in("over")
    api.foreground_allowed = False
    game.activate()
    assert api.foreground == 0


def test_ping_is_not_offered_but_answers_while_the_window_lives():
    api, game = game_in("beside")
    assert game.supports_ping() is False
    assert game.ping(0.5) is True


@pytest.mark.parametrize("call", ["geometry", "activate", "ping"])
def test_window_gone_error_once_closed(call):
    api, game = game_in("beside")
    api.windows = [dict(row) for row in RECORDED["scenes"]["closed"]["windows"]]
    args = (0.5,) if call == "ping" else ()
    with pytest.raises(WindowGoneError, match=f"0x{GAME:x}") as caught:
        getattr(game, call)(*args)
    assert caught.value.window == GAME
    assert not game.is_viewable()
    assert game.appeared_over(BOARD) == [] and game.windows_over(BOARD) == []
    game.put_arrivals_back()
    game.close()


def test_follow_a_closed_window_is_window_gone():
    with pytest.raises(WindowGoneError, match=f"0x{GAME:x}"):
        Win32Desktop(FakeApi("closed")).follow(GAME)


# --- DPI awareness ------------------------------------------------------------------------------


class FakeDpi:
    """The DPI calls, answering in turn as scripted; what the process is afterwards as ``now``."""

    def __init__(self, context=0, shcore=0, legacy=True, *, thread=(2, True), process=2, aware=True):
        self.answers = {"context": context, "shcore": shcore, "legacy": legacy}
        self.now = {"thread": thread, "process": process, "aware": aware}
        self.calls: list[str] = []

    def set_process_dpi_awareness_context(self, context):
        assert context == -4
        self.calls.append("context")
        return self.answers["context"]

    def set_process_dpi_awareness(self, level):
        assert level == 2
        self.calls.append("shcore")
        return self.answers["shcore"]

    def set_process_dpi_aware(self):
        self.calls.append("legacy")
        return self.answers["legacy"]

    def thread_dpi_awareness(self):
        return self.now["thread"]

    def process_dpi_awareness(self):
        return self.now["process"]

    def is_process_dpi_aware(self):
        return self.now["aware"]


def test_dpi_as_wine_answered():
    dpi = RECORDED["dpi"]
    api = FakeDpi(dpi["ctx_v2"], dpi["shcore2"], dpi["aware"], thread=tuple(dpi["thread_before"]),
                  process=dpi["process_before"], aware=dpi["isaware_before"])
    assert make_dpi_aware(api) == "per-monitor"
    assert api.calls == ["context", "shcore"]  # shcore said it was set already: no older call


def test_dpi_per_monitor_v2_at_the_first_call():
    api = FakeDpi(0)
    assert make_dpi_aware(api) == "per-monitor v2"
    assert api.calls == ["context"]


def test_dpi_first_call_fails_second_succeeds():
    api = FakeDpi(ERROR_INVALID_PARAMETER, 0, thread=(2, False))
    assert make_dpi_aware(api) == "per-monitor"
    assert api.calls == ["context", "shcore"]


def test_dpi_access_denied_is_not_an_error_and_the_real_state_is_read_back():
    api = FakeDpi(ERROR_ACCESS_DENIED, thread=(1, False), process=1)  # a manifest made it system aware
    assert make_dpi_aware(api) == "system"
    assert api.calls == ["context"]


def test_dpi_all_calls_fail():
    api = FakeDpi(ERROR_INVALID_PARAMETER, 0x80004005, False, thread=(0, False), process=0, aware=False)
    assert make_dpi_aware(api) == "unaware"
    assert api.calls == ["context", "shcore", "legacy"]


def test_dpi_on_a_windows_without_the_newer_calls():
    api = FakeDpi(None, None, True, thread=None, process=None, aware=True)  # Windows 7
    assert make_dpi_aware(api) == "system"
    assert api.calls == ["context", "shcore", "legacy"]
    api = FakeDpi(None, E_ACCESSDENIED, thread=None, process=2)  # 8.1, set already
    assert make_dpi_aware(api) == "per-monitor"


# --- the press guard ------------------------------------------------------------------------------


def test_the_games_own_windows_are_its_own_and_other_programs_are_not():
    api, game = game_in("dialog")
    dialog = next(row["hwnd"] for row in api.windows if row["title"] == "Custom Game")
    assert game.is_its_own(GAME) and game.is_its_own(dialog)
    assert not game.is_its_own(NOTEPAD)
    api.open(0x903, pid=api.pid, frame=(0, 0, 50, 50), title="overlay")  # this process's (the hint's overlay)
    assert game.is_its_own(0x903)
    api.open(0x904, pid=999, frame=(0, 0, 50, 50), title="Open", owner=GAME)  # owned by the game, another process
    assert game.is_its_own(0x904)
    assert not game.is_its_own(0x905)  # a window closed meanwhile (process id 0)


class FakeGuard:
    def __init__(self, stray) -> None:
        self.stray, self.clicks = stray, 0

    def click(self, press):
        self.clicks += 1
        if self.stray is None or not self.stray.held:
            press()
        return self.stray


class PlainMouse:
    def __init__(self) -> None:
        self.clicks: list[tuple] = []

    def click(self, x, y, button="left", holding=()):
        self.clicks.append((x, y, button))

    def size(self):
        return (1280, 1024)


@pytest.mark.parametrize("stray", ["none", "held", "strayed"])
def test_the_desktops_clicks_go_through_the_followed_windows_guard(stray):
    from screenbot.errors import PressHeldBackError, PressStrayedError
    from screenbot.platforms.win32.desktop import GuardedMouse
    from screenbot.platforms.win32.press_guard import Stray

    api = FakeApi("over")
    desktop = Win32Desktop(api)
    plain = PlainMouse()
    mouse = GuardedMouse(plain, lambda: desktop._followed)
    mouse.click(10, 20)  # no game window followed yet: as on any desktop
    assert plain.clicks == [(10, 20, "left")] and mouse.size() == (1280, 1024)
    game = desktop.follow(GAME)
    game._guard = guard = FakeGuard(None if stray == "none" else Stray(NOTEPAD, held=stray == "held"))
    if stray == "none":
        mouse.click(30, 40, "right")
        assert plain.clicks[-1] == (30, 40, "right")
    elif stray == "held":
        with pytest.raises(PressHeldBackError, match="another window .'Untitled - Notepad', which came over it just as"):
            mouse.click(30, 40)
        assert len(plain.clicks) == 1
    else:  # let through, and a window was under it by its release: said, not kept quiet
        with pytest.raises(PressStrayedError, match="another window .'Untitled - Notepad'.* that click may have reached it"):
            mouse.click(30, 40)
        assert plain.clicks[-1] == (30, 40, "left")
    assert guard.clicks == 1


class HookApi:
    """The press guard's hook calls: the window under a point, and the next hook (which counts what
    reached it)."""

    def __init__(self, under: int) -> None:
        from ctypes import wintypes

        class MSLLHOOKSTRUCT(ctypes.Structure):
            _fields_ = [("pt", wintypes.POINT), ("mouseData", wintypes.DWORD), ("flags", wintypes.DWORD),
                        ("time", wintypes.DWORD), ("dwExtraInfo", ctypes.c_size_t)]

        self.MSLLHOOKSTRUCT = MSLLHOOKSTRUCT
        self.under = under
        self.passed: list[int] = []
        self.calls: list[str] = []

    def root_at(self, point) -> int:
        self.calls.append("look")
        return self.under if isinstance(self.under, int) else self.under.pop(0)

    def CallNextHookEx(self, hook, code, message, data):
        self.calls.append("next")
        self.passed.append(message)
        return 0


DOWN, UP, MOVE = 0x0201, 0x0202, 0x0200


def _event(api: HookApi, injected: bool):
    info = api.MSLLHOOKSTRUCT()
    info.pt.x, info.pt.y, info.flags = 100, 200, 1 if injected else 0
    return info, ctypes.addressof(info)


@pytest.mark.parametrize("under, dropped", [(GAME, False), (NOTEPAD, True)])
def test_the_hook_drops_a_press_and_its_release_over_another_programs_window(under, dropped):
    from screenbot.platforms.win32.press_guard import PressGuard

    api = HookApi(under)
    guard = PressGuard(lambda hwnd: hwnd == GAME, api=api)
    guard._armed = True
    info, address = _event(api, injected=True)
    answers = [guard._hook(0, message, address) for message in (MOVE, DOWN, UP)]
    assert answers == ([0, 1, 1] if dropped else [0, 0, 0])
    assert api.passed == ([MOVE] if dropped else [MOVE, DOWN, UP])
    assert guard._held == (NOTEPAD if dropped else None) and guard._released.is_set()


@pytest.mark.parametrize("came", [None, "as the other hooks answered", "by the release"])
def test_the_hook_looks_again_after_a_press_it_let_through(came):
    """A window that comes over the point after the press's look, by the time the hooks after this
    one have answered or by the release (Windows routed the press in between: it may have gone to
    that window), is reported; the press and its release go on."""
    from screenbot.platforms.win32.press_guard import PressGuard, Stray

    looks = {None: [GAME, GAME, GAME], "as the other hooks answered": [GAME, NOTEPAD, NOTEPAD],
             "by the release": [GAME, GAME, NOTEPAD]}[came]
    api = HookApi(looks)
    guard = PressGuard(lambda hwnd: hwnd == GAME, api=api)
    guard._ready = lambda: True
    guard._ask = lambda message: True
    guard._installed = True
    _info, address = _event(api, injected=True)
    answers = []
    stray = guard.click(lambda: answers.extend(guard._hook(0, message, address) for message in (DOWN, UP)))
    assert answers == [0, 0] and api.passed == [DOWN, UP]
    assert api.calls == ["look", "next", "look", "next", "look"]  # the second look after the other hooks
    assert stray == (None if came is None else Stray(NOTEPAD, held=False))


def test_the_hook_lets_a_persons_presses_and_presses_between_clicks_through():
    from screenbot.platforms.win32.press_guard import PressGuard

    api = HookApi(NOTEPAD)
    guard = PressGuard(lambda hwnd: hwnd == GAME, api=api)
    guard._armed = True
    _info, person = _event(api, injected=False)
    assert guard._hook(0, DOWN, person) == 0  # not injected: a person's press
    guard._armed = False
    _info, bots = _event(api, injected=True)
    assert guard._hook(0, DOWN, bots) == 0  # no click of the bot's on its way
    assert api.passed == [DOWN, DOWN] and guard._held is None
