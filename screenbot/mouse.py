"""The mouse: the one place where a board cell becomes a point on the screen.

The play loop never handles coordinates. It asks a ``BoardMouse`` to ``open``/``flag``/``chord`` a cell by
(row, col) of the board it located; ``BoardMouse`` checks the cell is on that board, takes the centre of
the cell in screenshot pixels, converts it to click points with a ``ScreenScale`` measured at run time,
checks again that the point lies inside the board's rectangle, and only then moves the mouse. A click
outside the located board therefore cannot be expressed.

Two ``Mouse`` back ends: ``PyAutoGuiMouse`` (real input; pyautogui opens the X display when it is
imported, so it is imported inside ``PyAutoGuiMouse.__init__``, after DISPLAY is set) and
``RecordingMouse`` (a fake that records every call, for tests and ``--dry-run``).

Platform traps, in one place:
- macOS Retina / Windows scaling: screenshots have more pixels than the click coordinate space has
  points. ``ScreenScale.measure`` divides the captured screen size by pyautogui's screen size.
- Several monitors: mss numbers pixels over the whole virtual desktop, whose left/top may be negative
  (a monitor left of the primary one). Board rectangles are kept in those absolute pixels, and the
  conversion to points keeps the offset.
- pyautogui's fail-safe stays on: moving the pointer into a screen corner aborts the bot with
  ``pyautogui.FailSafeException``. The park point is chosen away from the corners for that reason.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Protocol

from .errors import ScreenError
from .geometry import Lattice, Rect

log = logging.getLogger(__name__)

LEFT, RIGHT, MIDDLE = "left", "right", "middle"

# pyautogui sleeps PAUSE seconds after every call (0.1 s by default): far too slow for a bot that
# clicks hundreds of times per game. The X server has taken the event when the call returns; waiting for
# the client to redraw is the play loop's job (it watches the pixels), not a fixed sleep's.
PYAUTOGUI_PAUSE = 0.0


class OffBoardClickError(ScreenError):
    """A click was asked for a cell that is not on the located board (a bug in the caller)."""

    def __init__(self, message: str, /, *, row: int, col: int, rows: int, cols: int) -> None:
        super().__init__(message, row=row, col=col, rows=rows, cols=cols)
        self.row, self.col = row, col


class Mouse(Protocol):
    """Pointer input in click points (pyautogui's coordinate space)."""

    def move(self, x: float, y: float) -> None: ...

    def click(self, x: float, y: float, button: str = LEFT, holding: tuple[str, ...] = ()) -> None:
        """Press and release ``button`` at (x, y), with the keys ``holding`` held down around it
        (a client that flags with Ctrl+click)."""
        ...


@dataclass(frozen=True, slots=True)
class ScreenScale:
    """Screenshot pixels per click point, and the virtual desktop's top-left corner in pixels."""

    x: float = 1.0
    y: float = 1.0
    left: int = 0
    top: int = 0

    @classmethod
    def measure(cls, captured: Rect, points: tuple[int, int]) -> ScreenScale:
        """Compare the captured virtual desktop (pixels; ``left``/``top`` its corner relative to the
        primary monitor) with the size the input system reports (points)."""
        if points[0] <= 0 or points[1] <= 0 or captured.width <= 0 or captured.height <= 0:
            raise ScreenError("the screen or the input system reports an empty screen", points=points)
        return cls(captured.width / points[0], captured.height / points[1], captured.left, captured.top)

    def to_points(self, x_px: float, y_px: float) -> tuple[float, float]:
        """From capture pixels (relative to the virtual desktop's corner, as ``Screen.grab`` regions
        are) to click points. Point (0, 0) is the primary monitor's corner, hence the offset."""
        return (x_px + self.left) / self.x, (y_px + self.top) / self.y

    def to_pixels(self, x_pt: float, y_pt: float) -> tuple[float, float]:
        return x_pt * self.x - self.left, y_pt * self.y - self.top


@dataclass(frozen=True, slots=True)
class Click:
    """A click as performed, for records and tests: the cell, the button and the point used."""

    row: int
    col: int
    button: str
    x: float
    y: float
    holding: tuple[str, ...] = ()  # keys held down around the click


@dataclass(eq=False)
class BoardMouse:
    """Clicks cells of one located board. The only code that turns a cell into a click point."""

    mouse: Mouse
    board: Lattice  # in absolute screenshot pixels
    scale: ScreenScale = ScreenScale()
    screen: Rect | None = None
    chord_button: str = field(default=MIDDLE, kw_only=True)
    # Keys held down around a left click that flags, for a client that takes no right click (Ctrl+click
    # in minesweeper-for-web); none: the right button flags.
    flag_keys: tuple[str, ...] = field(default=(), kw_only=True)

    def open(self, row: int, col: int) -> Click:
        return self._click(row, col, LEFT)

    def flag(self, row: int, col: int) -> Click:
        if self.flag_keys:
            return self._click(row, col, LEFT, self.flag_keys)
        return self._click(row, col, RIGHT)

    def chord(self, row: int, col: int) -> Click:
        return self._click(row, col, self.chord_button)

    def _click(self, row: int, col: int, button: str, holding: tuple[str, ...] = ()) -> Click:
        board = self.board
        if not board.contains_cell(row, col):
            raise OffBoardClickError(
                f"refusing to click cell ({row}, {col}): the board is {board.rows}x{board.cols}",
                row=row,
                col=col,
                rows=board.rows,
                cols=board.cols,
            )
        x_px, y_px = board.cell_center(row, col)
        # Belt and braces: the point must fall in the same cell once more, measured from the pixels.
        if board.cell_at(x_px, y_px) != (row, col) or not board.inner_rect().contains(x_px, y_px):
            raise OffBoardClickError(
                f"cell ({row}, {col}) maps outside the board rectangle", row=row, col=col, rows=board.rows, cols=board.cols
            )
        x_pt, y_pt = self.scale.to_points(x_px, y_px)
        self.mouse.click(x_pt, y_pt, button, holding)
        return Click(row, col, button, x_pt, y_pt, holding)

    def park_point(self) -> tuple[float, float]:
        """A pointer position just below the board (or above it when the board touches the screen's
        bottom), horizontally centred: off every cell, so hover highlights vanish, and far from the
        screen corners that trigger pyautogui's fail-safe."""
        rect = self.board.inner_rect()
        # Just outside the cells, on the board's own frame or margin: further out the pointer may rest on
        # another widget, and a widget under the pointer can take the next click's events (minegauler's
        # name entry below its board opened its context menu over the board on about 1 right click in 6).
        gap = max(3.0, min(self.board.pitch) * 0.15)
        x = rect.left + rect.width / 2
        y = rect.bottom + gap
        if self.screen is not None and y >= self.screen.bottom - 2:
            y = rect.top - gap
        return self.scale.to_points(x, y)

    def park(self) -> None:
        self.mouse.move(*self.park_point())


@dataclass
class RecordingMouse:
    """A fake mouse and keyboard: records every call, moves nothing. ``clicks`` holds (x, y, button), and
    ``held`` the keys held down around each click (``()`` for most)."""

    clicks: list[tuple[float, float, str]] = field(default_factory=list)
    held: list[tuple[str, ...]] = field(default_factory=list)
    moves: list[tuple[float, float]] = field(default_factory=list)
    keys: list[tuple[str, ...]] = field(default_factory=list)
    position: tuple[float, float] = (0.0, 0.0)

    def move(self, x: float, y: float) -> None:
        self.moves.append((x, y))
        self.position = (x, y)

    def click(self, x: float, y: float, button: str = LEFT, holding: tuple[str, ...] = ()) -> None:
        self.clicks.append((x, y, button))
        self.held.append(tuple(holding))
        self.position = (x, y)

    def press(self, *keys: str) -> None:
        self.keys.append(keys)


class PyAutoGuiMouse:
    """Real pointer and keyboard input through pyautogui (XTEST on X11)."""

    def __init__(self, pause: float = PYAUTOGUI_PAUSE) -> None:
        from .streams import prints_logged

        with prints_logged():
            import pyautogui  # opens the display: only once DISPLAY is set

        pyautogui.PAUSE = pause
        pyautogui.FAILSAFE = True
        self._gui = pyautogui

    def size(self) -> tuple[int, int]:
        width, height = self._gui.size()
        return int(width), int(height)

    def move(self, x: float, y: float) -> None:
        self._gui.moveTo(round(x), round(y))

    def click(self, x: float, y: float, button: str = LEFT, holding: tuple[str, ...] = ()) -> None:
        # The press and the release as two input events, each handed over before the next is sent
        # (on X11 pyautogui does so anyway). On Windows pyautogui's click is one call carrying both, and
        # under Wine, with low-level mouse hooks of two programs in place (``win32.press_guard``'s and
        # another's), the release reached winemine before the press now and then: the game kept the
        # mouse captured and ignored its F2 from then on.
        x, y = round(x), round(y)
        down: list[str] = []
        try:
            for key in holding:
                self._gui.keyDown(key)
                down.append(key)
            self._gui.mouseDown(x, y, button=button)
            self._gui.mouseUp(x, y, button=button)
        finally:
            for key in reversed(down):  # never left held down, whatever went wrong
                self._gui.keyUp(key)

    def press(self, *keys: str) -> None:
        if len(keys) == 1:
            self._gui.press(keys[0])
        else:
            self._gui.hotkey(*keys)

    def position(self) -> tuple[int, int]:
        x, y = self._gui.position()
        return int(x), int(y)
