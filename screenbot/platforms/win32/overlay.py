"""The live hint overlay on Windows: a layered, click-through, topmost window that never takes the focus.

Why this design (the same picture model as ``screenbot.platforms.x11.overlay``, by other means):

- Layered window (``WS_EX_LAYERED``) fed by ``UpdateLayeredWindow`` from a 32-bit top-down DIB section of
  premultiplied BGRA. Alpha is 255 where the mask is set and 0 elsewhere, so the marks are opaque and
  everything else shows the game untouched, as the X11 overlay's shape does. Windows keeps the picture
  and recomposes it on its own: there is no WM_PAINT to answer, and nothing to redraw when a menu closes
  over it.
- Click-through: ``WS_EX_TRANSPARENT`` on a layered window takes it out of hit testing, so clicks (a
  person's, pyautogui's, ``SendInput``'s) reach the game below. The window procedure answers
  WM_NCHITTEST with HTTRANSPARENT as well, for a click that reaches it anyway.
- Never the focus: ``WS_EX_NOACTIVATE``, WM_MOUSEACTIVATE answered with MA_NOACTIVATE, shown with
  SW_SHOWNOACTIVATE and moved with SWP_NOACTIVATE. The game keeps the keyboard and the foreground.
- ``WS_EX_TOPMOST`` keeps it above the game, which is not topmost as a rule; when the game is topmost as
  well, ``follow`` puts the overlay back above it. ``WS_EX_TOOLWINDOW``: no taskbar button, no Alt+Tab.
- No thread: the window belongs to the thread that built the overlay (every call must come from it: a
  window is destroyed by its own thread only), and its messages are pumped at each call. The hint
  session calls ``wait_for_change`` between its looks at the board, every few milliseconds, far below the
  seconds after which Windows calls a window "not responding".

Capture: the overlay is part of the screen's pixels, as on X11, and harmless for the same reason: it never
draws on the middle of a cell, where the recognizer decides a cell (``screenbot.overlay.marks``).

Coordinates are the process's: the desktop backend makes the process per-monitor DPI aware, so the game's
client rectangle, this window's position and a screen capture all count physical pixels.

``ctypes`` declarations live here, on private ``WinDLL`` objects: setting ``argtypes`` on the shared
``ctypes.windll`` would change the same functions for every other module of the process. Importing this
module is harmless on any system; Windows is touched only when an overlay is built.
"""

from __future__ import annotations

import ctypes
import logging
import time
from dataclasses import dataclass

import numpy as np

from ...errors import DisplayError, WindowGoneError
from ...geometry import Rect
from ..base import TargetState

log = logging.getLogger(__name__)

OVERLAY_NAME = "screenbot hint overlay"
CLASS_NAME = "ScreenbotHintOverlay"

WS_POPUP = 0x80000000
WS_EX_TOPMOST, WS_EX_TRANSPARENT, WS_EX_TOOLWINDOW = 0x00000008, 0x00000020, 0x00000080
WS_EX_LAYERED, WS_EX_NOACTIVATE = 0x00080000, 0x08000000
OVERLAY_EX_STYLE = WS_EX_LAYERED | WS_EX_TRANSPARENT | WS_EX_TOPMOST | WS_EX_NOACTIVATE | WS_EX_TOOLWINDOW
GWL_EXSTYLE = -20
SW_HIDE, SW_SHOWNOACTIVATE = 0, 4
HWND_TOPMOST = -1
SWP_NOSIZE, SWP_NOMOVE, SWP_NOACTIVATE, SWP_NOOWNERZORDER = 0x0001, 0x0002, 0x0010, 0x0200
GW_HWNDPREV = 3
WM_MOUSEACTIVATE, WM_NCHITTEST = 0x0021, 0x0084
MA_NOACTIVATE, HTTRANSPARENT = 3, -1
PM_REMOVE = 0x0001
ULW_ALPHA, AC_SRC_OVER, AC_SRC_ALPHA = 0x02, 0x00, 0x01
BI_RGB, DIB_RGB_COLORS = 0, 0
ERROR_CLASS_ALREADY_EXISTS = 1410

Box = tuple[int, int, int, int]  # (x0, y0, x1, y1) in picture pixels, right and bottom exclusive


# --- pure logic: what goes into the window, and where it goes ---------------------------------------


def premultiplied_bgra(bgr: np.ndarray, mask: np.ndarray, out: np.ndarray | None = None, box: Box | None = None) -> np.ndarray:
    """The layered window's pixels for ``bgr`` shown where ``mask`` is set: premultiplied BGRA, alpha 255
    (colour as given) where the mask is set and 0 (all four bytes 0) elsewhere. With ``out`` and ``box``
    only that part of ``out`` is written."""
    height, width = mask.shape
    if out is None:
        out = np.empty((height, width, 4), np.uint8)
    x0, y0, x1, y1 = box if box is not None else (0, 0, width, height)
    part, visible = out[y0:y1, x0:x1], mask[y0:y1, x0:x1]
    # Premultiplied by 0 or 255: the colour itself where opaque, black where fully transparent.
    np.multiply(bgr[y0:y1, x0:x1], visible[:, :, None], out=part[:, :, :3], casting="unsafe")
    part[:, :, 3] = visible
    part[:, :, 3] *= 255
    return out


def union(boxes: list[Box]) -> Box:
    """The smallest box holding all of ``boxes`` (what is redrawn when only they changed)."""
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


@dataclass(frozen=True, slots=True)
class Placement:
    """Where the overlay sits relative to the game's client area: ``show`` sets it, ``follow`` keeps it."""

    dx: int
    dy: int

    @classmethod
    def of(cls, picture: Rect, client: Rect) -> Placement:
        return cls(picture.left - client.left, picture.top - client.top)

    def on(self, client: Rect) -> tuple[int, int]:
        """The overlay's top-left on the screen for the game's client area ``client``."""
        return client.left + self.dx, client.top + self.dy


# --- the overlay ------------------------------------------------------------------------------------


class Win32Overlay:
    """One overlay window that follows one game window.

    ``window`` has ``geometry()`` (client area in screen pixels; WindowGoneError once closed),
    ``is_viewable()`` and ``window_id`` (its HWND). Use: ``overlay.show(bgr, mask, rect)`` with a picture
    of ``rect``'s size to place at ``rect``, then ``overlay.follow()`` regularly: it moves the overlay
    with the game, keeps it above it, hides it while the game is minimised, and raises
    ``WindowGoneError`` (after closing the overlay) once the game window is gone. ``native`` is for tests:
    by default the real window (Windows only).
    """

    def __init__(self, window, *, native=None) -> None:
        self.window = window
        self._native = native if native is not None else NativeWindow()
        self._placement = Placement(0, 0)
        self._size: tuple[int, int] | None = None  # of the picture in the window, None before any
        self._shown = False  # on the screen now
        self._wanted = False  # shown and not hidden on request: follow() shows it while the game shows
        self._last_target: TargetState | None = None

    @property
    def mapped(self) -> bool:
        return self._shown

    @property
    def hwnd(self) -> int | None:
        return self._native.hwnd if self._native is not None else None

    def target_state(self) -> TargetState:
        """Where the game's client area is and whether it shows; WindowGoneError once it is closed."""
        self._pump()
        return TargetState(self.window.geometry(), bool(self.window.is_viewable()))

    def show(self, bgr: np.ndarray, mask: np.ndarray, rect: Rect, *, boxes: list[Box] | None = None) -> None:
        """Show ``bgr`` where ``mask`` is True, with the picture's top-left at ``rect`` (screen pixels).

        ``boxes``, when given, are the only places where the picture may differ from the one shown
        before: only they are converted and recomposed."""
        height, width = mask.shape
        if (width, height) != (rect.width, rect.height) or bgr.shape[:2] != mask.shape:
            raise ValueError(f"picture {bgr.shape[1::-1]} / mask {mask.shape[::-1]} do not fit {rect}")
        native = self._require_open()
        # follow() has just looked at the game window (each tick starts with it): no need to ask again.
        target = self._last_target if self._last_target is not None else self.target_state()
        self._placement = Placement.of(rect, target.rect)
        if self._size != (width, height):
            native.resize(width, height)
            self._size = (width, height)
            boxes = None
        if not boxes:
            boxes = [(0, 0, width, height)]
        pixels = native.pixels()
        for box in boxes:
            premultiplied_bgra(bgr, mask, pixels, box)
        native.update(rect.left, rect.top, union(boxes))
        self._wanted = True
        if target.viewable:
            self._show_window()
        self._last_target = target
        self._pump()

    def follow(self) -> TargetState:
        """Track the game window once: move with it, stay above it, hide while it is not viewable.

        Raises WindowGoneError (after closing the overlay) once the game window is gone."""
        self._pump()
        try:
            state = self.target_state()
        except WindowGoneError:
            self.close()
            raise
        if self._native is None or self._size is None:
            self._last_target = state
            return state
        if not state.viewable:
            self._hide_window()
        else:
            last = self._last_target
            if last is None or (state.rect.left, state.rect.top) != (last.rect.left, last.rect.top):
                self._native.move(*self._placement.on(state.rect))
            if self._wanted and not self._shown:
                self._show_window()
            elif self._shown and self._native.is_below(self.window.window_id):
                self._native.raise_top()
        self._last_target = state
        return state

    def wait_for_change(self, timeout: float) -> bool:
        """Wait ``timeout`` seconds with the window's messages pumped before and after; always False
        (Windows tells another process nothing of the game drawing without a hook in it).

        Why pump here: where the system's hit test does not know the window is click-through (Wine, whose
        X server sees an ordinary window over the marks), a click on a mark is queued to this thread and
        only passed on to the game when the window procedure answers HTTRANSPARENT. Not a
        MsgWaitForMultipleObjects: its timeout is rounded to the system tick (about 16 ms), several times
        the hint session's poll, where ``time.sleep`` keeps to it."""
        self._pump()
        time.sleep(timeout)
        self._pump()
        return False

    def hide(self) -> None:
        """Take the overlay off the screen until the next ``show`` (or ``restore``)."""
        self._wanted = False
        self._hide_window()
        self._pump()

    def restore(self) -> None:
        """Put the last picture back on the screen after ``hide``."""
        if self._native is not None and self._size is not None:
            self._wanted = True
            if self.target_state().viewable:
                self._show_window()

    def close(self) -> None:
        """Destroy the window and free what it held (bitmap, DC, the window class when it was the last
        overlay); safe to call twice."""
        native, self._native = self._native, None
        self._shown = self._wanted = False
        if native is not None:
            native.destroy()

    def __enter__(self) -> Win32Overlay:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- internals ------------------------------------------------------------------------------

    def _require_open(self):
        if self._native is None:
            raise WindowGoneError("the hint overlay was closed", window=self.window.window_id)
        return self._native

    def _show_window(self) -> None:
        if self._native is not None and not self._shown:
            self._native.show()
            self._shown = True

    def _hide_window(self) -> None:
        if self._native is not None and self._shown:
            self._native.hide()
            self._shown = False

    def _pump(self) -> None:
        if self._native is not None:
            self._native.pump()


# --- Windows --------------------------------------------------------------------------------------


def _declare_api():
    """user32, gdi32 and kernel32 with every argument and result type declared: without them ctypes
    passes and returns C ints, which truncates 64-bit handles (HWND, HDC, HBITMAP) and LPARAMs."""
    from ctypes import wintypes as w

    user32 = ctypes.WinDLL("user32", use_last_error=True)
    gdi32 = ctypes.WinDLL("gdi32", use_last_error=True)
    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    # LRESULT is pointer sized (LONG_PTR); wintypes has no name for it. WPARAM and LPARAM in wintypes
    # are pointer sized already.
    lresult = w.LPARAM
    wndproc = ctypes.WINFUNCTYPE(lresult, w.HWND, w.UINT, w.WPARAM, w.LPARAM)

    class WNDCLASSEXW(ctypes.Structure):
        _fields_ = [("cbSize", w.UINT), ("style", w.UINT), ("lpfnWndProc", wndproc), ("cbClsExtra", ctypes.c_int),
                    ("cbWndExtra", ctypes.c_int), ("hInstance", w.HINSTANCE), ("hIcon", w.HICON),
                    ("hCursor", w.HANDLE), ("hbrBackground", w.HBRUSH), ("lpszMenuName", w.LPCWSTR),
                    ("lpszClassName", w.LPCWSTR), ("hIconSm", w.HICON)]

    class BITMAPINFOHEADER(ctypes.Structure):
        _fields_ = [("biSize", w.DWORD), ("biWidth", w.LONG), ("biHeight", w.LONG), ("biPlanes", w.WORD),
                    ("biBitCount", w.WORD), ("biCompression", w.DWORD), ("biSizeImage", w.DWORD),
                    ("biXPelsPerMeter", w.LONG), ("biYPelsPerMeter", w.LONG), ("biClrUsed", w.DWORD),
                    ("biClrImportant", w.DWORD)]

    class BITMAPINFO(ctypes.Structure):
        _fields_ = [("bmiHeader", BITMAPINFOHEADER), ("bmiColors", w.DWORD * 1)]

    class BLENDFUNCTION(ctypes.Structure):
        _fields_ = [("BlendOp", w.BYTE), ("BlendFlags", w.BYTE), ("SourceConstantAlpha", w.BYTE), ("AlphaFormat", w.BYTE)]

    class UPDATELAYEREDWINDOWINFO(ctypes.Structure):
        _fields_ = [("cbSize", w.DWORD), ("hdcDst", w.HDC), ("pptDst", ctypes.POINTER(w.POINT)),
                    ("psize", ctypes.POINTER(w.SIZE)), ("hdcSrc", w.HDC), ("pptSrc", ctypes.POINTER(w.POINT)),
                    ("crKey", w.DWORD), ("pblend", ctypes.POINTER(BLENDFUNCTION)), ("dwFlags", w.DWORD),
                    ("prcDirty", ctypes.POINTER(w.RECT))]

    def declare(dll, name, restype, *argtypes):
        function = getattr(dll, name)
        function.restype, function.argtypes = restype, list(argtypes)
        return function

    P = ctypes.POINTER
    api = {
        "wndproc": wndproc, "WNDCLASSEXW": WNDCLASSEXW, "BITMAPINFO": BITMAPINFO, "BLENDFUNCTION": BLENDFUNCTION,
        "UPDATELAYEREDWINDOWINFO": UPDATELAYEREDWINDOWINFO, "MSG": w.MSG, "POINT": w.POINT, "SIZE": w.SIZE, "RECT": w.RECT,
        "GetModuleHandleW": declare(kernel32, "GetModuleHandleW", w.HMODULE, w.LPCWSTR),
        "RegisterClassExW": declare(user32, "RegisterClassExW", w.ATOM, P(WNDCLASSEXW)),
        "UnregisterClassW": declare(user32, "UnregisterClassW", w.BOOL, w.LPCWSTR, w.HINSTANCE),
        "DefWindowProcW": declare(user32, "DefWindowProcW", lresult, w.HWND, w.UINT, w.WPARAM, w.LPARAM),
        "CreateWindowExW": declare(user32, "CreateWindowExW", w.HWND, w.DWORD, w.LPCWSTR, w.LPCWSTR, w.DWORD,
                                   ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, w.HWND, w.HMENU,
                                   w.HINSTANCE, w.LPVOID),
        "DestroyWindow": declare(user32, "DestroyWindow", w.BOOL, w.HWND),
        "IsWindow": declare(user32, "IsWindow", w.BOOL, w.HWND),
        "ShowWindow": declare(user32, "ShowWindow", w.BOOL, w.HWND, ctypes.c_int),
        "SetWindowPos": declare(user32, "SetWindowPos", w.BOOL, w.HWND, w.HWND, ctypes.c_int, ctypes.c_int,
                                ctypes.c_int, ctypes.c_int, w.UINT),
        "GetWindow": declare(user32, "GetWindow", w.HWND, w.HWND, w.UINT),
        "GetWindowLongW": declare(user32, "GetWindowLongW", w.LONG, w.HWND, ctypes.c_int),
        "PeekMessageW": declare(user32, "PeekMessageW", w.BOOL, P(w.MSG), w.HWND, w.UINT, w.UINT, w.UINT),
        "TranslateMessage": declare(user32, "TranslateMessage", w.BOOL, P(w.MSG)),
        "DispatchMessageW": declare(user32, "DispatchMessageW", lresult, P(w.MSG)),
        "UpdateLayeredWindow": declare(user32, "UpdateLayeredWindow", w.BOOL, w.HWND, w.HDC, P(w.POINT), P(w.SIZE),
                                       w.HDC, P(w.POINT), w.COLORREF, P(BLENDFUNCTION), w.DWORD),
        "UpdateLayeredWindowIndirect": declare(user32, "UpdateLayeredWindowIndirect", w.BOOL, w.HWND,
                                               P(UPDATELAYEREDWINDOWINFO)),
        "CreateCompatibleDC": declare(gdi32, "CreateCompatibleDC", w.HDC, w.HDC),
        "DeleteDC": declare(gdi32, "DeleteDC", w.BOOL, w.HDC),
        "CreateDIBSection": declare(gdi32, "CreateDIBSection", w.HBITMAP, w.HDC, P(BITMAPINFO), w.UINT,
                                    P(ctypes.c_void_p), w.HANDLE, w.DWORD),
        "SelectObject": declare(gdi32, "SelectObject", w.HGDIOBJ, w.HDC, w.HGDIOBJ),
        "DeleteObject": declare(gdi32, "DeleteObject", w.BOOL, w.HGDIOBJ),
        "GdiFlush": declare(gdi32, "GdiFlush", w.BOOL),
    }
    return api


def _window_procedure(hwnd, message, wparam, lparam):
    # Clicks must never activate the overlay nor stop on it (WS_EX_TRANSPARENT already keeps most away).
    if message == WM_MOUSEACTIVATE:
        return MA_NOACTIVATE
    if message == WM_NCHITTEST:
        return HTTRANSPARENT
    return _Class.api["DefWindowProcW"](hwnd, message, wparam, lparam)


class _Class:
    """The window class, registered by the first overlay and unregistered when the last one closes. The
    callback object is kept here: Windows calls it for as long as the class exists, and a collected
    ctypes callback would crash the process."""

    api: dict | None = None
    procedure = None
    users = 0
    instance = None

    @classmethod
    def acquire(cls) -> dict:
        if cls.api is None:
            cls.api = _declare_api()
        api = cls.api
        if cls.users == 0:
            cls.instance = api["GetModuleHandleW"](None)
            cls.procedure = api["wndproc"](_window_procedure)
            spec = api["WNDCLASSEXW"](cbSize=ctypes.sizeof(api["WNDCLASSEXW"]), lpfnWndProc=cls.procedure,
                                      hInstance=cls.instance, lpszClassName=CLASS_NAME)
            if not api["RegisterClassExW"](ctypes.byref(spec)):
                error = ctypes.get_last_error()
                if error != ERROR_CLASS_ALREADY_EXISTS:
                    raise DisplayError(f"cannot register the overlay's window class: {ctypes.WinError(error)}")
        cls.users += 1
        return api

    @classmethod
    def release(cls) -> None:
        cls.users -= 1
        if cls.users == 0 and cls.api is not None:
            if not cls.api["UnregisterClassW"](CLASS_NAME, cls.instance):
                log.debug("overlay window class not unregistered: %s", ctypes.WinError(ctypes.get_last_error()))
            cls.procedure = None


class NativeWindow:
    """The Windows side of one overlay: its window, and the DIB section its picture is composed from.

    ``pixels()`` is the DIB's memory as a (height, width, 4) array; ``update`` hands it to the window.
    The window is created hidden at the first ``resize`` (a layered window shows nothing before its
    first ``UpdateLayeredWindow``)."""

    def __init__(self) -> None:
        self._api = _Class.acquire()
        self.hwnd: int | None = None
        self._dc = None
        self._bitmap = None
        self._old_bitmap = None
        self._pixels: np.ndarray | None = None
        self._size = (0, 0)
        self._origin: tuple[int, int] | None = None  # the window's top-left on the screen, once drawn
        try:
            self._dc = self._api["CreateCompatibleDC"](None)
            if not self._dc:
                raise DisplayError(f"cannot create the overlay's memory DC: {self._error()}")
            self.hwnd = self._api["CreateWindowExW"](OVERLAY_EX_STYLE, CLASS_NAME, OVERLAY_NAME, WS_POPUP,
                                                     0, 0, 1, 1, None, None, _Class.instance, None)
            if not self.hwnd:
                raise DisplayError(f"cannot create the overlay window: {self._error()}")
        except BaseException:
            self.destroy()
            raise
        self._msg = self._api["MSG"]()
        self._blend = self._api["BLENDFUNCTION"](AC_SRC_OVER, 0, 255, AC_SRC_ALPHA)

    @staticmethod
    def _error() -> OSError:
        return ctypes.WinError(ctypes.get_last_error())

    def resize(self, width: int, height: int) -> None:
        """A new DIB section of this size (top-down 32-bit BGRA), selected into the memory DC."""
        api = self._api
        info = api["BITMAPINFO"]()
        header = info.bmiHeader
        header.biSize = ctypes.sizeof(header)
        # A negative height makes the DIB top-down: row 0 first in memory, as numpy's row 0.
        header.biWidth, header.biHeight, header.biPlanes, header.biBitCount = width, -height, 1, 32
        header.biCompression = BI_RGB
        bits = ctypes.c_void_p()
        bitmap = api["CreateDIBSection"](self._dc, ctypes.byref(info), DIB_RGB_COLORS, ctypes.byref(bits), None, 0)
        if not bitmap or not bits.value:
            raise DisplayError(f"cannot create a {width}x{height} picture for the overlay: {self._error()}")
        self._free_bitmap()
        self._old_bitmap = api["SelectObject"](self._dc, bitmap)
        self._bitmap = bitmap
        # 32 bits a pixel: rows are DWORD aligned with no padding, so the memory is one dense array.
        buffer = (ctypes.c_uint8 * (width * height * 4)).from_address(bits.value)
        self._pixels = np.ctypeslib.as_array(buffer).reshape(height, width, 4)
        self._size = (width, height)

    def pixels(self) -> np.ndarray:
        # GDI may still be working on the bitmap in a batch: finish before the CPU writes into it.
        self._api["GdiFlush"]()
        return self._pixels

    def update(self, left: int, top: int, dirty: Box) -> None:
        """Give the window the DIB's picture, with its top-left at (left, top) on the screen. Only
        ``dirty`` (picture pixels) has changed: Windows recomposes just that part."""
        api = self._api
        self._origin = (left, top)
        width, height = self._size
        origin, size, source = api["POINT"](left, top), api["SIZE"](width, height), api["POINT"](0, 0)
        dirty_rect = api["RECT"](*dirty)
        info = api["UPDATELAYEREDWINDOWINFO"](ctypes.sizeof(api["UPDATELAYEREDWINDOWINFO"]), None,
                                              ctypes.pointer(origin), ctypes.pointer(size), self._dc,
                                              ctypes.pointer(source), 0, ctypes.pointer(self._blend), ULW_ALPHA,
                                              ctypes.pointer(dirty_rect))
        if api["UpdateLayeredWindowIndirect"](self.hwnd, ctypes.byref(info)):
            return
        # A dirty rectangle is refused when the size changes: then the whole picture goes.
        if not api["UpdateLayeredWindow"](self.hwnd, None, ctypes.byref(origin), ctypes.byref(size), self._dc,
                                          ctypes.byref(source), 0, ctypes.byref(self._blend), ULW_ALPHA):
            raise DisplayError(f"cannot draw the overlay: {self._error()}")

    def move(self, left: int, top: int) -> None:
        self._origin = (left, top)
        self._api["SetWindowPos"](self.hwnd, HWND_TOPMOST, left, top, 0, 0, SWP_NOSIZE | SWP_NOACTIVATE | SWP_NOOWNERZORDER)

    def show(self) -> None:
        self._api["ShowWindow"](self.hwnd, SW_SHOWNOACTIVATE)
        self.raise_top()
        # Windows keeps a hidden layered window's picture, Wine does not (a restored overlay showed
        # nothing there): hand it the DIB again, which still holds the picture.
        if self._origin is not None:
            self.update(*self._origin, (0, 0, *self._size))

    def hide(self) -> None:
        self._api["ShowWindow"](self.hwnd, SW_HIDE)

    def raise_top(self) -> None:
        self._api["SetWindowPos"](self.hwnd, HWND_TOPMOST, 0, 0, 0, 0,
                                  SWP_NOMOVE | SWP_NOSIZE | SWP_NOACTIVATE | SWP_NOOWNERZORDER)

    def is_below(self, game: int) -> bool:
        """Whether ``game`` is stacked above the overlay. Only a topmost game can be: the z-order walk is
        made only then."""
        api = self._api
        if not api["GetWindowLongW"](game, GWL_EXSTYLE) & WS_EX_TOPMOST:
            return False
        above = api["GetWindow"](self.hwnd, GW_HWNDPREV)
        while above:
            if above == game:
                return True
            above = api["GetWindow"](above, GW_HWNDPREV)
        return False

    def exists(self) -> bool:
        return self.hwnd is not None and bool(self._api["IsWindow"](self.hwnd))

    def pump(self) -> None:
        """Dispatch what waits for the overlay window (only its messages: the thread's others, WM_QUIT
        among them, are left to whoever else runs a loop here)."""
        api, msg = self._api, self._msg
        while api["PeekMessageW"](ctypes.byref(msg), self.hwnd, 0, 0, PM_REMOVE):
            api["TranslateMessage"](ctypes.byref(msg))
            api["DispatchMessageW"](ctypes.byref(msg))

    def destroy(self) -> None:
        """Free everything, window class last (once no overlay uses it); safe to call twice."""
        if self._api is None:
            return
        api, self._api = self._api, None
        try:
            if self.hwnd:
                api["DestroyWindow"](self.hwnd)
            self._free_bitmap(api)
            if self._dc:
                api["DeleteDC"](self._dc)
        finally:
            self.hwnd = self._dc = None
            _Class.release()

    def _free_bitmap(self, api=None) -> None:
        api = api or self._api
        self._pixels = None  # no view of memory the bitmap's deletion frees
        if self._bitmap:
            api["SelectObject"](self._dc, self._old_bitmap)
            api["DeleteObject"](self._bitmap)
            self._bitmap = self._old_bitmap = None
