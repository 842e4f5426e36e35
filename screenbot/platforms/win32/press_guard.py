"""The last check before a press reaches a window: a press that would land on another program's window
is held back by Windows itself.

Play looks at the window list before each press, but another program can raise a window between that
look and the moment Windows decides which window takes the press (CI saw a press land on a Notepad
raised over the board in those milliseconds, in 3 of about 25 runs). No look taken before the press
can close that gap. Windows offers one place after it: a low-level mouse hook, which Windows calls
with each press before it routes it to a window, and which may drop it. So around each of the bot's
own clicks a hook is put in place that asks which top-level window is under the press at that moment;
a press over a window that is neither the game's nor one of its own (its dialogs) is dropped, with
the button's release, and the click reports the window's title.

The hook's look still comes a moment before Windows routes the press (under Wine, after the other
programs' hooks have answered too): a window that appears in those milliseconds takes the press (CI
saw it once in about 25 runs, with a second program's hook in the chain). That gap cannot be closed
from here, so it is reported instead: the hook looks again once the hooks after it have answered (the
last moment before the routing) and at the click's release (which Windows hands over after it routed
the press); another program's window under the point at either look means the press may have reached
it (``Stray.held`` False), and the click says so.

Only the bot's own presses are judged: those Windows marks as injected, while the hook is in place
(the moment of one click). A person's presses pass as always.

The hook lives in a thread of its own, with the message loop Windows calls hooks from, and is in
place only while the bot's thread waits for its click to pass (Windows drops a hook that does not
answer in time, and this process's other threads could hold Python's lock for longer than that).
"""

from __future__ import annotations

import ctypes
import logging
import threading
from dataclasses import dataclass
from typing import Callable

log = logging.getLogger(__name__)

WH_MOUSE_LL = 14
HC_ACTION = 0
LLMHF_INJECTED = 0x01
GA_ROOT = 2
WM_QUIT = 0x0012
WM_USER = 0x0400
_INSTALL, _REMOVE = WM_USER + 1, WM_USER + 2
_DOWNS = frozenset({0x0201, 0x0204, 0x0207, 0x020B})  # WM_LBUTTONDOWN, WM_RBUTTONDOWN, WM_MBUTTONDOWN, WM_XBUTTONDOWN
_UPS = frozenset({0x0202, 0x0205, 0x0208, 0x020C})
# How long a click may take to reach the hook (Windows hands it over within milliseconds; Wine under load
# in tens of them). Past it the click is taken as gone by: the hook comes off.
PASS_TIMEOUT = 1.0
START_TIMEOUT = 5.0


@dataclass(frozen=True)
class Stray:
    """A click of the bot's that met another program's top-level window (``window``): held back at its
    press (``held``), or let through with the game under it and that window found under it as the press
    passed (once the later hooks answered, or at the release), so that the press may have reached it."""

    window: int
    held: bool


class PressGuard:
    """Holds back the bot's presses that would land on another program's window (see the module's
    notes). ``is_game(hwnd)`` says whether a top-level window is the game's or one of its own."""

    def __init__(self, is_game: Callable[[int], bool], api=None) -> None:
        self._is_game = is_game
        self._api = api
        self._thread: threading.Thread | None = None
        self._thread_id = 0
        self._started = threading.Event()
        self._answer = threading.Event()
        self._installed = False
        self._released = threading.Event()  # the click's release has been through the hook
        self._held: int | None = None  # the window a press of this click was held back from
        self._under: int | None = None  # the top-level window under the click's press, as the hook saw it
        self._after: int | None = None  # another program's window under a press let through, as it passed
        self._armed = False  # a click of the bot's is on its way
        self._failed = False

    def click(self, press: Callable[[], None]) -> Stray | None:
        """Run ``press`` (one click) with the guard in place. Returns the other program's window the
        click met (``Stray``), or None when it went where it was sent (or the guard could not be put in
        place: then the click is as unguarded as on other platforms)."""
        if not self._ready():
            press()
            return None
        self._held = self._under = self._after = None
        self._released.clear()
        if not self._ask(_INSTALL) or not self._installed:
            press()
            return None
        self._armed = True
        try:
            press()
            if not self._released.wait(PASS_TIMEOUT):
                log.debug("a click did not reach the press guard within %.1f s", PASS_TIMEOUT)
        finally:
            self._armed = False
            self._ask(_REMOVE)
        log.debug("a press over window 0x%x: %s", self._under or 0,
                  "not seen" if self._under is None else "held back" if self._held else "let through")
        if self._held is not None:
            return Stray(self._held, held=True)
        if self._after is not None:
            log.info("window 0x%x came under the click as its press passed", self._after)
            return Stray(self._after, held=False)
        return None

    def in_place(self) -> bool:
        """False once the hook could not be put in place (the clicks then go unguarded)."""
        return not self._failed

    def close(self) -> None:
        if self._thread is not None and self._thread_id:
            self._native().PostThreadMessageW(self._thread_id, WM_QUIT, 0, 0)
            self._thread.join(START_TIMEOUT)
        self._thread = None

    # --- the hook's thread ---------------------------------------------------------------------

    def _native(self):
        if self._api is None:
            self._api = _HookApi()
        return self._api

    def _ready(self) -> bool:
        if self._failed:
            return False
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="press-guard", daemon=True)
            self._thread.start()
            if not self._started.wait(START_TIMEOUT) or not self._thread_id:
                log.info("the press guard did not start: clicks are not checked at the moment they land")
                self._failed = True
        return not self._failed

    def _ask(self, message: int) -> bool:
        self._answer.clear()
        if not self._native().PostThreadMessageW(self._thread_id, message, 0, 0):
            return False
        return self._answer.wait(START_TIMEOUT)

    def _run(self) -> None:
        api = self._native()
        procedure = api.HOOKPROC(self._hook)  # kept referenced while the thread runs
        message = api.MSG()
        # A thread gets its message queue at its first message call: made before anyone posts to it.
        api.PeekMessageW(ctypes.byref(message), None, 0, 0, 0)
        self._thread_id = api.GetCurrentThreadId()
        self._started.set()
        hook = None
        while api.GetMessageW(ctypes.byref(message), None, 0, 0) > 0:
            if message.message == _INSTALL:
                hook = hook or api.SetWindowsHookExW(WH_MOUSE_LL, procedure, api.GetModuleHandleW(None), 0)
                if not hook:
                    log.info("the press guard's hook was refused (error %d): this click is not checked as it lands",
                             ctypes.get_last_error())
                self._installed = bool(hook)
                self._answer.set()
            elif message.message == _REMOVE:
                if hook:
                    api.UnhookWindowsHookEx(hook)
                hook, self._installed = None, False
                self._answer.set()
            else:
                api.TranslateMessage(ctypes.byref(message))
                api.DispatchMessageW(ctypes.byref(message))
        if hook:
            api.UnhookWindowsHookEx(hook)

    def _hook(self, code, message, data):
        api = self._native()
        if code != HC_ACTION or not self._armed or not (message in _DOWNS or message in _UPS):
            return api.CallNextHookEx(None, code, message, data)
        info = ctypes.cast(data, ctypes.POINTER(api.MSLLHOOKSTRUCT)).contents
        if not info.flags & LLMHF_INJECTED:
            return api.CallNextHookEx(None, code, message, data)
        if message in _DOWNS and self._held is None:
            self._under = root = api.root_at(info.pt)
            if root and not self._is_game(root):
                self._held = root
        answer = 1  # a press held back, and its release
        if self._held is None:
            answer = api.CallNextHookEx(None, code, message, data)
            # Looked at again once the hooks after this one have answered (the last moment before
            # Windows routes the press) and at the release (after it routed it).
            root = api.root_at(info.pt)
            if self._after is None and root and not self._is_game(root):
                self._after = root
        if message in _UPS:
            self._released.set()  # last: ``click`` reads what the hook found once it is set
        return answer


class _HookApi:
    """The user32 and kernel32 calls of a low-level hook and its message loop, with their types
    declared (LPARAM and HHOOK are pointer sized)."""

    def __init__(self) -> None:
        from ctypes import wintypes as w

        user32 = ctypes.WinDLL("user32", use_last_error=True)
        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)

        class MSLLHOOKSTRUCT(ctypes.Structure):
            _fields_ = [("pt", w.POINT), ("mouseData", w.DWORD), ("flags", w.DWORD), ("time", w.DWORD),
                        ("dwExtraInfo", ctypes.c_size_t)]

        def declare(dll, name, restype, *argtypes):
            function = getattr(dll, name)
            function.restype, function.argtypes = restype, list(argtypes)
            return function

        lresult = w.LPARAM
        self.MSG, self.MSLLHOOKSTRUCT = w.MSG, MSLLHOOKSTRUCT
        self.HOOKPROC = ctypes.WINFUNCTYPE(lresult, ctypes.c_int, w.WPARAM, w.LPARAM)
        P = ctypes.POINTER
        self.SetWindowsHookExW = declare(user32, "SetWindowsHookExW", w.HHOOK, ctypes.c_int, self.HOOKPROC,
                                         w.HINSTANCE, w.DWORD)
        self.UnhookWindowsHookEx = declare(user32, "UnhookWindowsHookEx", w.BOOL, w.HHOOK)
        self.CallNextHookEx = declare(user32, "CallNextHookEx", lresult, w.HHOOK, ctypes.c_int, w.WPARAM, w.LPARAM)
        self.GetMessageW = declare(user32, "GetMessageW", w.BOOL, P(w.MSG), w.HWND, w.UINT, w.UINT)
        self.PeekMessageW = declare(user32, "PeekMessageW", w.BOOL, P(w.MSG), w.HWND, w.UINT, w.UINT, w.UINT)
        self.TranslateMessage = declare(user32, "TranslateMessage", w.BOOL, P(w.MSG))
        self.DispatchMessageW = declare(user32, "DispatchMessageW", lresult, P(w.MSG))
        self.PostThreadMessageW = declare(user32, "PostThreadMessageW", w.BOOL, w.DWORD, w.UINT, w.WPARAM, w.LPARAM)
        self.WindowFromPoint = declare(user32, "WindowFromPoint", w.HWND, w.POINT)
        self.GetAncestor = declare(user32, "GetAncestor", w.HWND, w.HWND, w.UINT)
        self.GetModuleHandleW = declare(kernel32, "GetModuleHandleW", w.HMODULE, w.LPCWSTR)
        self.GetCurrentThreadId = declare(kernel32, "GetCurrentThreadId", w.DWORD)

    def root_at(self, point) -> int:
        """The top-level window under ``point`` now (0 for none)."""
        window = self.WindowFromPoint(point)
        return (self.GetAncestor(window, GA_ROOT) or 0) if window else 0
