"""The Win32 calls the window backend makes, through ctypes (with ``overlay.py``, which declares the calls
of the hint's own window, the only modules of the product that use ctypes).

Every other module of the backend is plain logic over an object with these methods, so it runs on any
system against a fake that answers as Windows did. Importing this module is harmless anywhere: the DLLs
are loaded only when ``Win32Api`` is built.

Rectangles are ``Rect`` in virtual-screen pixels (negative left of or above the primary monitor).
Calls on a window that has gone answer None or False rather than raising: the callers decide what a
gone window means.
"""

from __future__ import annotations

import ctypes

from ...geometry import Rect

# DwmGetWindowAttribute attributes.
DWMWA_EXTENDED_FRAME_BOUNDS = 9
DWMWA_CLOAKED = 14
# GetAncestor.
GA_ROOTOWNER = 3
# SetWindowPos.
HWND_TOP = 0
SWP_NOSIZE, SWP_NOMOVE, SWP_NOACTIVATE = 0x0001, 0x0002, 0x0010
# ShowWindow.
SW_HIDE, SW_SHOWNA, SW_RESTORE = 0, 8, 9
# GetWindowLongW: extended styles.
GWL_EXSTYLE = -20
WS_EX_LAYERED, WS_EX_TRANSPARENT = 0x00080000, 0x00000020
# SendMessageTimeoutW.
WM_NULL = 0x0000
SMTO_ABORTIFHUNG = 0x0002
ERROR_INVALID_WINDOW_HANDLE = 1400
# DPI awareness.
DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2 = -4
PROCESS_PER_MONITOR_DPI_AWARE = 2
ERROR_ACCESS_DENIED = 5
E_ACCESSDENIED = 0x80070005


def _optional(dll, name: str):
    """``dll.name``, or None where this Windows has no such function (DPI calls came with 8.1 and 10)."""
    try:
        return getattr(dll, name)
    except AttributeError:
        return None


class Win32Api:
    """user32, kernel32, dwmapi and shcore, with argument and result types declared (without them
    ctypes passes handles as 32-bit ints and truncates 64-bit HWNDs)."""

    def __init__(self) -> None:
        from ctypes import wintypes as w

        self._w = w
        user32 = ctypes.WinDLL("user32", use_last_error=True)
        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        self._user32, self._kernel32 = user32, kernel32
        self._enum_proc = ctypes.WINFUNCTYPE(w.BOOL, w.HWND, w.LPARAM)

        def declare(dll, name, restype, *argtypes):
            function = _optional(dll, name)
            if function is not None:
                function.restype, function.argtypes = restype, list(argtypes)
            return function

        self.EnumWindows = declare(user32, "EnumWindows", w.BOOL, self._enum_proc, w.LPARAM)
        self.IsWindow = declare(user32, "IsWindow", w.BOOL, w.HWND)
        self.IsWindowVisible = declare(user32, "IsWindowVisible", w.BOOL, w.HWND)
        self.IsIconic = declare(user32, "IsIconic", w.BOOL, w.HWND)
        self.GetWindowThreadProcessId = declare(user32, "GetWindowThreadProcessId", w.DWORD, w.HWND,
                                                ctypes.POINTER(w.DWORD))
        self.GetWindowTextLengthW = declare(user32, "GetWindowTextLengthW", ctypes.c_int, w.HWND)
        self.GetWindowTextW = declare(user32, "GetWindowTextW", ctypes.c_int, w.HWND, w.LPWSTR, ctypes.c_int)
        self.GetClassNameW = declare(user32, "GetClassNameW", ctypes.c_int, w.HWND, w.LPWSTR, ctypes.c_int)
        self.GetWindowRect = declare(user32, "GetWindowRect", w.BOOL, w.HWND, ctypes.POINTER(w.RECT))
        self.GetClientRect = declare(user32, "GetClientRect", w.BOOL, w.HWND, ctypes.POINTER(w.RECT))
        self.ClientToScreen = declare(user32, "ClientToScreen", w.BOOL, w.HWND, ctypes.POINTER(w.POINT))
        self.GetAncestor = declare(user32, "GetAncestor", w.HWND, w.HWND, w.UINT)
        self.GetWindowLongW = declare(user32, "GetWindowLongW", w.LONG, w.HWND, ctypes.c_int)
        self.GetForegroundWindow = declare(user32, "GetForegroundWindow", w.HWND)
        self.SetForegroundWindow = declare(user32, "SetForegroundWindow", w.BOOL, w.HWND)
        self.BringWindowToTop = declare(user32, "BringWindowToTop", w.BOOL, w.HWND)
        self.AttachThreadInput = declare(user32, "AttachThreadInput", w.BOOL, w.DWORD, w.DWORD, w.BOOL)
        self.ShowWindow = declare(user32, "ShowWindow", w.BOOL, w.HWND, ctypes.c_int)
        self.SetWindowPos = declare(user32, "SetWindowPos", w.BOOL, w.HWND, w.HWND, ctypes.c_int, ctypes.c_int,
                                    ctypes.c_int, ctypes.c_int, w.UINT)
        self.SendMessageTimeoutW = declare(user32, "SendMessageTimeoutW", w.LPARAM, w.HWND, w.UINT, w.WPARAM, w.LPARAM,
                                           w.UINT, w.UINT, ctypes.POINTER(ctypes.c_size_t))
        self.GetCurrentProcessId = declare(kernel32, "GetCurrentProcessId", w.DWORD)
        self.GetCurrentThreadId = declare(kernel32, "GetCurrentThreadId", w.DWORD)
        # DPI: each may be missing (older Windows), then its method answers None.
        self.SetProcessDpiAwarenessContext = declare(user32, "SetProcessDpiAwarenessContext", w.BOOL, w.HANDLE)
        self.GetThreadDpiAwarenessContext = declare(user32, "GetThreadDpiAwarenessContext", w.HANDLE)
        self.GetAwarenessFromDpiAwarenessContext = declare(user32, "GetAwarenessFromDpiAwarenessContext",
                                                           ctypes.c_int, w.HANDLE)
        self.AreDpiAwarenessContextsEqual = declare(user32, "AreDpiAwarenessContextsEqual", w.BOOL, w.HANDLE, w.HANDLE)
        self.SetProcessDPIAware = declare(user32, "SetProcessDPIAware", w.BOOL)
        self.IsProcessDPIAware = declare(user32, "IsProcessDPIAware", w.BOOL)
        dwmapi = self._load("dwmapi")
        shcore = self._load("shcore")
        self.DwmGetWindowAttribute = declare(dwmapi, "DwmGetWindowAttribute", ctypes.c_long, w.HWND, w.DWORD,
                                             ctypes.c_void_p, w.DWORD) if dwmapi else None
        self.SetProcessDpiAwareness = declare(shcore, "SetProcessDpiAwareness", ctypes.c_long,
                                              ctypes.c_int) if shcore else None
        self.GetProcessDpiAwareness = declare(shcore, "GetProcessDpiAwareness", ctypes.c_long, w.HANDLE,
                                              ctypes.POINTER(ctypes.c_int)) if shcore else None

    @staticmethod
    def _load(name: str):
        try:
            return ctypes.WinDLL(name, use_last_error=True)
        except OSError:  # no DWM before Vista, no shcore before 8.1
            return None

    # --- windows --------------------------------------------------------------------------------

    def top_level_windows(self) -> list[int]:
        """Every top-level window, top of the z-order first (EnumWindows' order)."""
        found: list[int] = []

        def collect(hwnd, _lparam):
            found.append(hwnd or 0)
            return True

        self.EnumWindows(self._enum_proc(collect), 0)
        return found

    def exists(self, hwnd: int) -> bool:
        return bool(self.IsWindow(hwnd))

    def is_visible(self, hwnd: int) -> bool:
        return bool(self.IsWindowVisible(hwnd))

    def is_iconic(self, hwnd: int) -> bool:
        return bool(self.IsIconic(hwnd))

    def is_cloaked(self, hwnd: int) -> bool:
        """Hidden by the compositor though visible to user32: UWP windows on another virtual desktop or
        suspended. Where DWM does not know the attribute (Wine: E_NOTIMPL), nothing is cloaked."""
        if self.DwmGetWindowAttribute is None:
            return False
        cloaked = self._w.DWORD(0)
        result = self.DwmGetWindowAttribute(hwnd, DWMWA_CLOAKED, ctypes.byref(cloaked), ctypes.sizeof(cloaked))
        return result == 0 and cloaked.value != 0

    def is_click_through(self, hwnd: int) -> bool:
        """Layered and transparent to the mouse: clicks pass through it (screen-wide overlays of graphics
        drivers and recorders are such windows)."""
        style = self.GetWindowLongW(hwnd, GWL_EXSTYLE) & 0xFFFFFFFF
        return style & (WS_EX_LAYERED | WS_EX_TRANSPARENT) == (WS_EX_LAYERED | WS_EX_TRANSPARENT)

    def frame_rect(self, hwnd: int) -> Rect | None:
        """The window as drawn, title bar included. Windows 10 and 11 give windows invisible resize
        borders several pixels wide, which GetWindowRect counts and DWM's extended frame bounds do not;
        where DWM cannot tell (Wine: E_NOTIMPL), GetWindowRect."""
        rect = self._w.RECT()
        if self.DwmGetWindowAttribute is not None and self.DwmGetWindowAttribute(
                hwnd, DWMWA_EXTENDED_FRAME_BOUNDS, ctypes.byref(rect), ctypes.sizeof(rect)) == 0:
            return _rect(rect)
        if not self.GetWindowRect(hwnd, ctypes.byref(rect)):
            return None
        return _rect(rect)

    def client_rect_on_screen(self, hwnd: int) -> Rect | None:
        """The client area (no title bar, menu nor borders), where the game draws."""
        rect, origin = self._w.RECT(), self._w.POINT(0, 0)
        if not self.GetClientRect(hwnd, ctypes.byref(rect)) or not self.ClientToScreen(hwnd, ctypes.byref(origin)):
            return None
        return Rect(origin.x, origin.y, rect.right - rect.left, rect.bottom - rect.top)

    def process_id(self, hwnd: int) -> int:
        """The id of the process that made the window (0 once it is gone)."""
        pid = self._w.DWORD(0)
        self.GetWindowThreadProcessId(hwnd, ctypes.byref(pid))
        return pid.value

    def root_owner(self, hwnd: int) -> int:
        """The window at the top of the owner chain (a dialog's main window; itself when unowned)."""
        return self.GetAncestor(hwnd, GA_ROOTOWNER) or 0

    def title(self, hwnd: int) -> str:
        size = self.GetWindowTextLengthW(hwnd)
        if size <= 0:
            return ""
        text = ctypes.create_unicode_buffer(size + 1)
        self.GetWindowTextW(hwnd, text, size + 1)
        return text.value

    def current_process_id(self) -> int:
        return self.GetCurrentProcessId()

    def foreground_window(self) -> int:
        return self.GetForegroundWindow() or 0

    def set_foreground(self, hwnd: int) -> bool:
        """Raise ``hwnd`` and give it the foreground (and so the keyboard); True when Windows says it did.

        Windows raises the window it activates; Wine does not (its z-order, and the X window manager's,
        stay as they were), so the window is brought to the top first. Windows' foreground lock refuses
        SetForegroundWindow to a process that is not the foreground one and did not receive the last
        input; a thread attached to the foreground thread's input shares its right to change it, so that
        is tried next (not guaranteed either). The answer is SetForegroundWindow's own: Wine changes the
        foreground a moment after the call returns, so asking GetForegroundWindow at once can be wrong."""
        self.BringWindowToTop(hwnd)
        if self.SetForegroundWindow(hwnd):
            return True
        foreground = self.foreground_window()
        theirs = self.GetWindowThreadProcessId(foreground, None) if foreground else 0
        ours = self.GetCurrentThreadId()
        if not theirs or theirs == ours or not self.AttachThreadInput(ours, theirs, True):
            return False
        try:
            self.BringWindowToTop(hwnd)
            return bool(self.SetForegroundWindow(hwnd))
        finally:
            self.AttachThreadInput(ours, theirs, False)

    def raise_window(self, hwnd: int) -> bool:
        """Put ``hwnd`` on top of the other (not always-on-top) windows without activating it: the
        z-order of another process's window can be changed where its activation cannot."""
        return bool(self.SetWindowPos(hwnd, HWND_TOP, 0, 0, 0, 0, SWP_NOMOVE | SWP_NOSIZE | SWP_NOACTIVATE))

    def restore(self, hwnd: int) -> bool:
        return bool(self.ShowWindow(hwnd, SW_RESTORE))

    def hide(self, hwnd: int) -> bool:
        return bool(self.ShowWindow(hwnd, SW_HIDE))

    def show_without_activating(self, hwnd: int) -> bool:
        return bool(self.ShowWindow(hwnd, SW_SHOWNA))

    def class_name(self, hwnd: int) -> str:
        buffer = ctypes.create_unicode_buffer(256)
        length = self.GetClassNameW(hwnd, buffer, len(buffer))
        return buffer.value[:length] if length > 0 else ""

    def answers(self, hwnd: int, timeout: float) -> bool | None:
        """Whether the thread owning ``hwnd`` handled a WM_NULL within ``timeout`` seconds: False when
        it did not (hung or busy), None when the window is gone."""
        result = ctypes.c_size_t(0)
        done = self.SendMessageTimeoutW(hwnd, WM_NULL, 0, 0, SMTO_ABORTIFHUNG, max(1, round(timeout * 1000)),
                                        ctypes.byref(result))
        if done:
            return True
        return None if ctypes.get_last_error() == ERROR_INVALID_WINDOW_HANDLE else False

    # --- DPI ------------------------------------------------------------------------------------

    def set_process_dpi_awareness_context(self, context: int) -> int | None:
        """0 when set, else the Win32 error (ERROR_ACCESS_DENIED: already set); None before Windows 10 1703."""
        if self.SetProcessDpiAwarenessContext is None:
            return None
        if self.SetProcessDpiAwarenessContext(context):
            return 0
        return ctypes.get_last_error() or -1

    def set_process_dpi_awareness(self, level: int) -> int | None:
        """shcore's HRESULT as an unsigned number (0: set, E_ACCESSDENIED: already set); None before 8.1."""
        if self.SetProcessDpiAwareness is None:
            return None
        return self.SetProcessDpiAwareness(level) & 0xFFFFFFFF

    def set_process_dpi_aware(self) -> bool | None:
        """Vista's system-DPI awareness; None where user32 has no such call."""
        if self.SetProcessDPIAware is None:
            return None
        return bool(self.SetProcessDPIAware())

    def thread_dpi_awareness(self) -> tuple[int, bool] | None:
        """(DPI_AWARENESS: 0 unaware, 1 system, 2 per monitor; whether it is per-monitor v2) of this
        thread, which is the process's unless a thread changed its own; None before Windows 10 1607."""
        if self.GetThreadDpiAwarenessContext is None or self.GetAwarenessFromDpiAwarenessContext is None:
            return None
        context = self.GetThreadDpiAwarenessContext()
        awareness = self.GetAwarenessFromDpiAwarenessContext(context)
        v2 = bool(self.AreDpiAwarenessContextsEqual and
                  self.AreDpiAwarenessContextsEqual(context, DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2))
        return awareness, v2

    def process_dpi_awareness(self) -> int | None:
        """shcore's PROCESS_DPI_AWARENESS of this process (0, 1, 2); None before 8.1."""
        if self.GetProcessDpiAwareness is None:
            return None
        value = ctypes.c_int(-1)
        if self.GetProcessDpiAwareness(None, ctypes.byref(value)) != 0:
            return None
        return value.value

    def is_process_dpi_aware(self) -> bool | None:
        if self.IsProcessDPIAware is None:
            return None
        return bool(self.IsProcessDPIAware())


def _rect(rect) -> Rect:
    return Rect(rect.left, rect.top, rect.right - rect.left, rect.bottom - rect.top)
