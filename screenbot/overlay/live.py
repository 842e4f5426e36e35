"""The live hint session: watch the game's board, and redraw the overlay whenever it changes.

Each tick: follow the game window (the overlay moves with it; a closed window ends the session), grab the
board region, read it, and when the board differs from the last one solve it and show the new hints.
Reading happens with the overlay up: the ``FRAME`` style never draws over the part of a cell the
recognizer looks at, so our own marks are not read as cells (the same holds for ``screenbot play``
running next to us). Only a fresh locate (start, resized window) hides the overlay first, because
locating looks at the whole window.

Everything it touches is passed in (screen, vision, overlay window, observer), so the session runs in
tests against the package's fakes as well as on a real X display.
"""

from __future__ import annotations

import logging
import math
import statistics
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import numpy as np

from solver.board import UNKNOWN_CHARS, Board
from solver.errors import InconsistentBoardError
from solver.policy import PolicyConfig, decide

from ..errors import BoardNotFoundError, UnrecognizedCellError
from ..geometry import Rect
from ..vision.read import INTERIOR
from .draw import FRAME_STYLE, CellGrid, Hints, OverlayStyle, render_layer

log = logging.getLogger(__name__)

DRAWN, UNCHANGED, HIDDEN, UNREADABLE = "drawn", "unchanged", "hidden", "unreadable"


@dataclass(frozen=True, slots=True)
class HintConfig:
    mines: int | None = None  # the game's mine total; None: the profile's, or unknown
    first_click: tuple[int, int] | None = None  # the recommended first move on an untouched board
    poll: float = 0.008  # seconds between captures while nothing changes: half a 60 Hz frame
    style: OverlayStyle = FRAME_STYLE
    # The share of each cell, centred, that readers compare and the overlay must leave alone
    # (``screenbot.vision.read.INTERIOR``); a pixel of margin on each side is added per board pitch.
    protect: float = INTERIOR
    # Frames in a row the board may be unreadable (a dialog over it, a redraw in progress) before the
    # overlay is hidden rather than left showing stale hints.
    hide_after_misreads: int = 5
    relocate_wait: float = 0.15  # after hiding the overlay, time for the game to repaint before locating


@dataclass(frozen=True, slots=True)
class TickResult:
    kind: str  # DRAWN, UNCHANGED, HIDDEN or UNREADABLE
    board: Board | None = None
    hints: Hints | None = None
    seconds: float = 0.0  # from the start of the capture to the overlay showing the new hints


@dataclass
class HintStats:
    ticks: int = 0
    updates: int = 0
    update_seconds: list[float] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        median = statistics.median(self.update_seconds) if self.update_seconds else None
        return {
            "ticks": self.ticks,
            "updates": self.updates,
            "update_ms_median": None if median is None else round(median * 1000, 2),
            "update_ms_max": round(max(self.update_seconds) * 1000, 2) if self.update_seconds else None,
        }


@dataclass(frozen=True, slots=True)
class _Located:
    window: Rect  # the game window's client area when the board was located
    region: Rect  # the screen area captured and covered by the overlay
    lattice: Any  # the vision lattice with its origin inside ``region``
    mines: int | None


class HintSession:
    """``overlay`` follows the game window: ``target_state()``, ``follow()``, ``show(bgr, mask, rect)``,
    ``hide()`` (``screenbot.overlay.x11.X11Overlay``). ``vision`` has ``locate(frame)`` and
    ``read(frame, lattice)``; ``profile`` (optional) gives ``mine_total(rows, cols)`` and
    ``first_click_cell(rows, cols)``; ``observer`` (optional) gets ``on_step`` like the play loop's."""

    def __init__(
        self,
        *,
        screen,
        screen_rect: Rect,
        vision,
        overlay,
        profile=None,
        config: HintConfig = HintConfig(),
        observer=None,
        clock: Callable[[], float] = time.perf_counter,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.screen = screen
        self.screen_rect = screen_rect
        self.vision = vision
        self.overlay = overlay
        self.profile = profile
        self.config = config
        self.observer = observer
        self.clock = clock
        self.sleep = sleep
        self.stats = HintStats()
        self.style = config.style  # with the keep-out fitted to the board's pitch once located
        self.shown: TickResult | None = None  # the update the overlay shows now
        self._located: _Located | None = None
        self._last_frame: np.ndarray | None = None
        self._last_board: Board | None = None
        self._shown = False
        self._misreads = 0

    @property
    def located(self) -> _Located | None:
        return self._located

    # --- locating -------------------------------------------------------------------------------

    def locate(self) -> _Located:
        """Find the board inside the game window (with our overlay hidden, so it cannot confuse it)."""
        if self._shown:
            self.overlay.hide()
            self._shown = False
            self.sleep(self.config.relocate_wait)
        window = self.overlay.target_state().rect
        if window.clipped(self.screen_rect).width <= 0 or window.clipped(self.screen_rect).height <= 0:
            raise BoardNotFoundError("the game window is off the screen", reason="window off screen")
        # The whole screen, not just the window: the locator wants some room around a board to tell a
        # complete board from one cut by the frame's edge.
        area = self.screen_rect
        frame = self.screen.grab(area.as_region())
        lattice = self.vision.locate(frame)
        ox, oy = (float(v) for v in _pair(lattice.origin))
        px, py = (float(v) for v in _pair(lattice.pitch))
        board = Rect(int(ox), int(oy), math.ceil(lattice.cols * px), math.ceil(lattice.rows * py))
        if not window.contains_rect(board):
            raise BoardNotFoundError(
                f"the board found at {board} is not inside the game window {window}", reason="board outside window"
            )
        area = window.clipped(self.screen_rect)
        ox, oy = ox - area.left, oy - area.top
        # The overlay's rings reach half a pitch around the outer cells; stay inside the window.
        margin_x, margin_y = math.ceil(px / 2), math.ceil(py / 2)
        left = area.left + math.floor(ox) - margin_x
        top = area.top + math.floor(oy) - margin_y
        right = area.left + math.ceil(ox + lattice.cols * px) + margin_x
        bottom = area.top + math.ceil(oy + lattice.rows * py) + margin_y
        region = Rect(left, top, right - left, bottom - top).clipped(area)
        local = replace(lattice, origin=(area.left + ox - region.left, area.top + oy - region.top))
        self._located = _Located(window, region, local, self._mine_total(lattice.rows, lattice.cols))
        keep_out = min(0.95, self.config.protect + 2.0 / min(px, py))
        self.style = replace(self.config.style, keep_out=max(self.config.style.keep_out, keep_out))
        self._last_frame = None
        self._last_board = None
        log.info("board %dx%d located at %s (pitch %.1f x %.1f)", lattice.rows, lattice.cols, region, px, py)
        return self._located

    # --- one tick -------------------------------------------------------------------------------

    def tick(self) -> TickResult:
        """Follow the window, look at the board once, redraw if it changed. WindowGoneError ends it."""
        self.stats.ticks += 1
        state = self.overlay.follow()
        if not state.viewable:
            self._shown = False
            return TickResult(HIDDEN)
        located = self._located
        if located is None or (state.rect.width, state.rect.height) != (located.window.width, located.window.height):
            located = self.locate()
        elif (state.rect.left, state.rect.top) != (located.window.left, located.window.top):
            dx, dy = state.rect.left - located.window.left, state.rect.top - located.window.top
            located = replace(located, window=state.rect, region=located.region.translated(dx, dy))
            self._located = located
            if not self.screen_rect.contains_rect(located.region):
                # Partly off screen: relocating finds out whether a full board is still visible.
                located = self.locate()
        start = self.clock()
        frame = self.screen.grab(located.region.as_region())
        t_read = self.clock()
        if self._last_frame is not None and np.array_equal(frame, self._last_frame):
            return TickResult(UNCHANGED, self._last_board)
        self._last_frame = frame
        try:
            reading = self.vision.read(frame, located.lattice)
        except (UnrecognizedCellError, BoardNotFoundError) as exc:
            return self._unreadable(str(exc))
        t_solve = self.clock()
        timings = {"capture": t_read - start, "read": t_solve - t_read, "solve": 0.0, "draw": 0.0}
        board = reading.board
        if board.mines is None and located.mines is not None:
            board = board.with_mines(located.mines)
        if self._shown and board == self._last_board:
            self._misreads = 0
            return TickResult(UNCHANGED, board)
        if board.is_over or board.count(UNKNOWN_CHARS) == 0:
            # Game over: nothing left to advise; the board stays fully visible.
            self._hide()
            self._last_board = board
            self._notify(frame, reading, None, timings)
            return TickResult(HIDDEN, board)
        try:
            decision = decide(board, self.policy_for(board))
        except InconsistentBoardError as exc:
            # Numbers that no mine placement satisfies: a frame caught mid-redraw, or a misread.
            return self._unreadable(str(exc))
        hints = Hints.from_decision(decision)
        t_draw = self.clock()
        timings["solve"] = t_draw - t_solve
        region = located.region
        layer = render_layer((region.height, region.width), CellGrid.from_lattice(located.lattice), hints, self.style)
        self.overlay.show(layer.bgr, layer.shape_mask, region)
        end = self.clock()
        timings["draw"] = end - t_draw
        seconds = end - start
        self._shown = True
        self._misreads = 0
        self._last_board = board
        self.stats.updates += 1
        self.stats.update_seconds.append(seconds)
        self._notify(frame, reading, decision, timings)
        self.shown = TickResult(DRAWN, board, hints, seconds)
        return self.shown

    def run(self, *, should_stop: Callable[[], bool] = lambda: False) -> HintStats:
        """Tick until ``should_stop()`` or the game window closes (WindowGoneError propagates)."""
        while not should_stop():
            result = self.tick()
            if result.kind != DRAWN:
                self.sleep(self.config.poll)
        return self.stats

    def policy_for(self, board: Board) -> PolicyConfig:
        """The solver settings the hints for ``board`` come from (a recorder stores them per step)."""
        first = self.config.first_click
        if first is None and self.profile is not None:
            first = self.profile.first_click_cell(board.rows, board.cols)
        return PolicyConfig(first_click=first, full_analysis=True)

    def mines_for(self, board: Board) -> int | None:
        return self._mine_total(board.rows, board.cols)

    # --- internals ------------------------------------------------------------------------------

    def _mine_total(self, rows: int, cols: int) -> int | None:
        if self.config.mines is not None:
            return self.config.mines
        return self.profile.mine_total(rows, cols) if self.profile is not None else None

    def _unreadable(self, why: str) -> TickResult:
        # Look again at the next tick even if the picture stays the same: it may settle differently.
        self._last_frame = None
        self._misreads += 1
        log.debug("board unreadable (%d in a row): %s", self._misreads, why)
        if self._misreads >= self.config.hide_after_misreads:
            self._hide()
            self._last_board = None
        return TickResult(UNREADABLE)

    def _hide(self) -> None:
        if self._shown:
            self.overlay.hide()
            self._shown = False

    def _notify(self, frame, reading, decision, timings: dict[str, float]) -> None:
        # The play loop's observer hook; a hint session takes no actions.
        if self.observer is not None:
            self.observer.on_step(frame, reading, decision, (), timings)


def _pair(value) -> tuple[float, float]:
    if isinstance(value, (int, float)):
        return value, value
    return value[0], value[1]
