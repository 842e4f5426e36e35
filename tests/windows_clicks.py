"""Run by the Windows Python of the ``windows`` tier (tests/windows_python.py), beside ``screenbot play``:
every mouse button press any program makes on the Windows desktop, seen through a low-level mouse
hook (which sees the presses that SendInput injects, the bot's, and a user's alike), with the class
of the top-level window under it, one JSON line each:

    {"t": 12.345, "x": 120, "y": 230, "button": "left", "window": "Notepad"}

It ends when its standard input closes. The first line, {"ready": true}, says the hook is in place.
"""

from __future__ import annotations

import ctypes
import json
import sys
import threading
import time
from ctypes import wintypes

WH_MOUSE_LL = 14
WM_QUIT = 0x0012
PRESSES = {0x0201: "left", 0x0204: "right", 0x0207: "middle"}  # WM_LBUTTONDOWN, WM_RBUTTONDOWN, WM_MBUTTONDOWN
GA_ROOT = 2

user32 = ctypes.WinDLL("user32", use_last_error=True)
kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)


class MSLLHOOKSTRUCT(ctypes.Structure):
    _fields_ = [("pt", wintypes.POINT), ("mouseData", wintypes.DWORD), ("flags", wintypes.DWORD),
                ("time", wintypes.DWORD), ("dwExtraInfo", ctypes.c_size_t)]


HOOKPROC = ctypes.WINFUNCTYPE(ctypes.c_ssize_t, ctypes.c_int, wintypes.WPARAM, wintypes.LPARAM)
user32.SetWindowsHookExW.argtypes = [ctypes.c_int, HOOKPROC, wintypes.HINSTANCE, wintypes.DWORD]
user32.SetWindowsHookExW.restype = wintypes.HHOOK
user32.CallNextHookEx.argtypes = [wintypes.HHOOK, ctypes.c_int, wintypes.WPARAM, wintypes.LPARAM]
user32.CallNextHookEx.restype = ctypes.c_ssize_t
user32.WindowFromPoint.argtypes = [wintypes.POINT]
user32.WindowFromPoint.restype = wintypes.HWND
user32.GetAncestor.argtypes = [wintypes.HWND, wintypes.UINT]
user32.GetAncestor.restype = wintypes.HWND
user32.GetClassNameW.argtypes = [wintypes.HWND, wintypes.LPWSTR, ctypes.c_int]
user32.PostThreadMessageW.argtypes = [wintypes.DWORD, wintypes.UINT, wintypes.WPARAM, wintypes.LPARAM]
kernel32.GetModuleHandleW.restype = wintypes.HMODULE

START = time.monotonic()


def _top_class(point: wintypes.POINT) -> str:
    window = user32.WindowFromPoint(point)
    top = user32.GetAncestor(window, GA_ROOT) if window else None
    if not top:
        return ""
    name = ctypes.create_unicode_buffer(256)
    user32.GetClassNameW(top, name, 256)
    return name.value


def _say(data: dict) -> None:
    sys.stdout.write(json.dumps(data) + "\n")
    sys.stdout.flush()


@HOOKPROC
def _hook(code, message, data):
    if code == 0 and message in PRESSES:
        info = ctypes.cast(data, ctypes.POINTER(MSLLHOOKSTRUCT)).contents
        _say({"t": round(time.monotonic() - START, 3), "x": info.pt.x, "y": info.pt.y, "button": PRESSES[message],
              "window": _top_class(info.pt)})
    return user32.CallNextHookEx(None, code, message, data)


def main() -> int:
    thread = kernel32.GetCurrentThreadId()
    hook = user32.SetWindowsHookExW(WH_MOUSE_LL, _hook, kernel32.GetModuleHandleW(None), 0)
    if not hook:
        _say({"error": f"SetWindowsHookExW failed: {ctypes.get_last_error()}"})
        return 1

    def end_with_input() -> None:
        sys.stdin.read()
        user32.PostThreadMessageW(thread, WM_QUIT, 0, 0)

    threading.Thread(target=end_with_input, daemon=True).start()
    _say({"ready": True})
    message = wintypes.MSG()
    while user32.GetMessageW(ctypes.byref(message), None, 0, 0) > 0:  # the hook runs in this loop
        user32.TranslateMessage(ctypes.byref(message))
        user32.DispatchMessageW(ctypes.byref(message))
    user32.UnhookWindowsHookEx(hook)
    _say({"ended": True})
    return 0


if __name__ == "__main__":
    sys.exit(main())
