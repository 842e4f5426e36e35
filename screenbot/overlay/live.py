"""The live hint session: watch the game's board, and redraw the overlay whenever it changes.

Each tick (every few milliseconds) grabs the board region. The same picture as last time ends the tick
there. Otherwise: follow the game window (the overlay moves with it; a closed window ends the session),
read again only the cells whose middle changed, and when the board differs from the last one solve it
(or reuse a recent analysis of the same board) and redraw only the cells whose mark changed. That keeps
a change of the game to the overlay showing it at about one display frame (``python3 -m lab hint-bench`` in a checkout).
Reading happens with the overlay up: the ``FRAME`` style never draws over the part of a cell the
recognizer looks at, so our own marks are not read as cells (the same holds for ``screenbot play``
running next to us). Over a look told by its cells' edges (``HintConfig.edges_tell_cells``) the marks
leave windows over those edges, and a changed cell is read only once its mark is taken off. Only a
fresh locate (start, resized window) hides the overlay first, because locating looks at the whole
window.

Everything it touches is passed in (screen, vision, overlay window, observer), so the session runs in
tests against the package's fakes as well as on a real X display.
"""

from __future__ import annotations

import logging
import math
import statistics
from collections import OrderedDict
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import numpy as np

from solver.board import UNKNOWN_CHARS, Board
from solver.errors import InconsistentBoardError
from solver.policy import PolicyConfig, decide

from ..errors import BoardNotFoundError, InputError, UnrecognizedCellError
from ..geometry import Rect
from ..play.consistency import unopened_zeros
from ..play.locating import find_board
from ..play.reading import ChangedCellsReader
from ..play.rules import hint_policy, mine_total
from ..play.types import Located, Surroundings
from ..vision.read import INTERIOR
from .cell_reading import MiddleChanges, hold_half_drawn
from .layer import OverlayPainter
from .marks import FRAME_STYLE, Hints, OverlayStyle

log = logging.getLogger(__name__)

DRAWN, UNCHANGED, HIDDEN, UNREADABLE = "drawn", "unchanged", "hidden", "unreadable"

# The share of the pitch, centred on a cell's left and right sides, the overlay leaves clear over a look
# told by its edges: a few pixels of each side's bevel even on 16 px cells.
SIDE_WINDOW = 0.3


@dataclass(frozen=True, slots=True)
class HintConfig:
    mines: int | None = None  # the game's mine total; None: the profile's, or unknown
    first_click: tuple[int, int] | None = None  # the recommended first move on an untouched board
    # Seconds between captures while nothing changes: a quarter of a 60 Hz frame. A look that finds the
    # same picture costs a capture and a comparison (well under a millisecond for an expert board).
    poll: float = 0.004
    # While the picture stays the same, the game window's place is still checked this often (X round
    # trips); any change of the picture (a moved, covered or closed window) checks it at once.
    follow_every: float = 0.1
    style: OverlayStyle = FRAME_STYLE
    # The share of each cell, centred, that readers compare and the overlay must leave alone
    # (``screenbot.vision.read.INTERIOR``); a pixel of margin on each side is added per board pitch.
    protect: float = INTERIOR
    # A look whose covered and open cells differ only at their edges (the classic look read untaught):
    # the bands round each cell, where the marks are, are what tells them apart. The marks then leave a
    # window in each cell's left and right band (``SIDE_WINDOW`` of the pitch), so that a cell opened under
    # its mark shows that it changed, and a changed cell is read only once its mark is off the screen.
    edges_tell_cells: bool = False
    # How long (looks in a row, and seconds) the board may be unreadable (a dialog over it, a redraw in
    # progress) before the overlay is hidden rather than left showing stale hints. Both must pass: at
    # a look every few milliseconds, one "pressed" cell (a display frame or two) is several looks.
    hide_after_misreads: int = 5
    hide_after_seconds: float = 0.2
    relocate_wait: float = 0.15  # after hiding the overlay, time for the game to repaint before locating

    def style_at(self, pitch: tuple[float, float]) -> OverlayStyle:
        """``style`` with its keep-out widened to ``protect`` and a pixel each side at this pitch."""
        keep_out = min(0.95, self.protect + 2.0 / min(pitch))
        side_window = SIDE_WINDOW if self.edges_tell_cells else self.style.side_window
        return replace(self.style, keep_out=max(self.style.keep_out, keep_out), side_window=side_window)


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


class HintSession:
    """``overlay`` follows the game window: ``target_state()``, ``follow()``, ``show(bgr, mask, rect)``,
    ``hide()`` (a ``screenbot.platforms.Overlay``). ``vision`` has ``locate(frame, origin)`` and
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
        self.env = Surroundings(screen, screen_rect, vision, None, clock, sleep)
        self.overlay = overlay
        self.profile = profile
        self.config = config
        self.observer = observer
        self.stats = HintStats()
        self.style = config.style  # with the keep-out fitted to the board's pitch once located
        self.shown: TickResult | None = None  # the update the overlay shows now
        self._located: Located | None = None  # its region is what is captured and covered by the overlay
        self._last_frame: np.ndarray | None = None
        self._last_board: Board | None = None
        self._shown = False
        self._misreads = 0
        self._misread_since = 0.0
        self._followed_at = -math.inf
        # Which neighbours the client opens around a zero ("8", "4", "none": from its play profile).
        self._flood = getattr(profile, "flood", "none") if profile is not None else "none"
        # What each cell was read as, and the middle pixels it was read from (see ``tick``).
        self._cells = ChangedCellsReader(vision, MiddleChanges(self.style))
        self._decisions: OrderedDict[Board, Any] = OrderedDict()  # the last few boards' solver results
        self._painter = OverlayPainter()

    @property
    def located(self) -> Located | None:
        return self._located

    # --- locating -------------------------------------------------------------------------------

    def locate(self) -> Located:
        """Find the board inside the game window (with our overlay hidden, so it cannot confuse it)."""
        if self._shown:
            self.overlay.hide()
            self._shown = False
            self.env.sleep(self.config.relocate_wait)
        window = self.overlay.target_state().rect
        if window.clipped(self.env.screen_rect).width <= 0 or window.clipped(self.env.screen_rect).height <= 0:
            raise BoardNotFoundError("the game window is off the screen", reason="window off screen")
        # The whole screen, not just the window: the locator wants some room around a board to tell a
        # complete board from one cut by the frame's edge.
        frame = self.env.screen.grab(self.env.screen_rect.as_region())
        geometry = find_board(self.env.vision, frame, self.env.screen_rect, window)
        # The overlay's rings reach half a pitch around the outer cells; it stays inside the window.
        px, py = geometry.pitch
        located = Located.around(geometry, window, (math.ceil(px / 2) + 1, math.ceil(py / 2) + 1), window.clipped(self.env.screen_rect))
        rows, cols = geometry.rows, geometry.cols
        first = self.config.first_click
        if first is not None and not (first[0] < rows and first[1] < cols):
            raise InputError(f"--first-click {first[0]},{first[1]} is off the {rows}x{cols} board")
        self._located = located
        self.style = self.config.style_at(geometry.pitch)
        self._last_frame = None
        self._last_board = None
        self._cells = ChangedCellsReader(self.env.vision, MiddleChanges(self.style))
        self._painter.forget()
        return located

    # --- one tick -------------------------------------------------------------------------------

    def tick(self) -> TickResult:
        """Look at the board once and redraw what changed. WindowGoneError ends it.

        The common case, nothing changed, costs one capture and one comparison: the game window is
        asked where it is (X round trips) only when the picture changed or every ``follow_every``
        seconds, since a moved, covered or closed window changes the picture too."""
        self.stats.ticks += 1
        located = self._located
        start = self.env.clock()
        frame = None
        if located is not None and self._last_frame is not None and start - self._followed_at < self.config.follow_every:
            frame = self.env.screen.grab(located.region.as_region())
            if np.array_equal(frame, self._last_frame):
                return TickResult(UNCHANGED, self._last_board)
        state = self.overlay.follow()
        self._followed_at = self.env.clock()
        if not state.viewable:
            self._shown = False
            return TickResult(HIDDEN)
        moved = False
        if located is None or (state.rect.width, state.rect.height) != (located.window.width, located.window.height):
            located, moved = self.locate(), True
        elif (state.rect.left, state.rect.top) != (located.window.left, located.window.top):
            located = located.moved(state.rect)
            self._located, moved = located, True
            if not self.env.screen_rect.contains_rect(located.region):
                # Partly off screen: relocating finds out whether a full board is still visible.
                located = self.locate()
        if frame is None or moved:
            start = self.env.clock()
            frame = self.env.screen.grab(located.region.as_region())
        self._last_frame = frame
        t_read = self.env.clock()
        if self.config.edges_tell_cells and self._unmark_redrawn(frame, located):
            # In a look told by its edges a cell is never read through a mark (the mark hides what it
            # is): the changed cells' marks come off first, and the next tick reads them bare.
            self._last_frame = None
            return TickResult(UNREADABLE)
        # Only cells whose middle (never drawn on by any overlay) changed are read again: identical
        # pixels read identically, and our own marks changing around a cell change nothing in it.
        try:
            board = self._cells.read(frame, located.lattice).board
        except (UnrecognizedCellError, BoardNotFoundError) as exc:
            if self._unmark_redrawn(frame, located):
                # Our marks were on cells the game has redrawn since (a number just opened under the
                # ring it had while covered need not read through it): they are taken off, and the
                # next tick reads those cells bare, the rest of the overlay staying up.
                self._last_frame = None
                return TickResult(UNREADABLE)
            return self._unreadable(str(exc))
        if self._last_board is not None and not self._cells.changed.any():
            self._cells.discard()
            return TickResult(UNCHANGED, self._last_board)
        t_solve = self.env.clock()
        timings = {"capture": t_read - start, "read": t_solve - t_read, "solve": 0.0, "draw": 0.0}
        if board.mines is None:
            board = board.with_mines(self.mines_for(board))
        # A clicked cell drawn "pressed" (it reads as a 0) a frame before its result: hints for that
        # picture would mark its neighbours safe. Such cells keep what they were read as before and are
        # looked at again at the next tick; the rest of the change is shown now (a bot clicking every
        # 20 ms beside us always has some cell half drawn).
        held = hold_half_drawn(self._cells, self._flood) if not board.is_over else []
        if held:
            board = self._cells.pending.board.with_mines(board.mines)
            self._last_frame = None  # the held cells are read again even if the picture stays
        if held and not self._cells.changed.any() and self._last_board is not None:
            # Only cells drawn pressed changed: a button held on a cell (a player's, for as long as
            # they like), or a click a frame before its result. The board is what the overlay shows;
            # it stays up (a misread would hide it after a moment), and those cells are read again.
            self._cells.discard()
            return TickResult(UNCHANGED, self._last_board)
        if unopened_zeros(board, self._flood):
            return self._unreadable(f"half-drawn frame: {len(held)} cells pressed")
        reading = _Reading(board, located.lattice, self._cells.pending.min_confidence)
        if self._shown and board == self._last_board and not held:
            self._cells.accept()
            self._misreads = 0
            return TickResult(UNCHANGED, board)
        if board.is_over or board.count(UNKNOWN_CHARS) == 0:
            # Game over: nothing left to advise; the board stays fully visible.
            self._hide()
            self._cells.accept()
            self._last_board = board
            self._notify(frame, reading, None, timings)
            return TickResult(HIDDEN, board)
        try:
            decision = self._decide(board)
        except InconsistentBoardError as exc:
            # Numbers that no mine placement satisfies: a frame caught mid-redraw, or a misread.
            return self._unreadable(str(exc))
        # A held cell has changed on screen: it must not keep a mark computed before; it gets none
        # until its result is read.
        hints = Hints.from_decision(decision).without(held)
        t_draw = self.env.clock()
        timings["solve"] = t_draw - t_solve
        self._painter.draw(self.overlay, hints, located, self.style, self._shown)
        end = self.env.clock()
        timings["draw"] = end - t_draw
        seconds = end - start
        self._cells.accept()
        self._shown = True
        self._misreads = 0
        self._last_board = board
        self.stats.updates += 1
        self.stats.update_seconds.append(seconds)
        if not held:
            # A frame with a cell held back is not what a reader makes of the whole picture (``replay``
            # would report it); the step that reads the cell's result is recorded.
            self._notify(frame, reading, decision, timings)
        self.shown = TickResult(DRAWN, board, hints, seconds)
        return self.shown

    def run(self, *, should_stop: Callable[[], bool] = lambda: False) -> HintStats:
        """Tick until ``should_stop()`` or the game window closes (WindowGoneError propagates)."""
        # The X11 overlay wakes us as soon as the game draws (DAMAGE); otherwise look every ``poll``.
        wait = getattr(self.overlay, "wait_for_change", None)
        while not should_stop():
            result = self.tick()
            if result.kind != DRAWN:
                if wait is not None:
                    wait(self.config.poll)
                else:
                    self.env.sleep(self.config.poll)
        return self.stats

    def policy_for(self, board: Board) -> PolicyConfig:
        """The solver settings the hints for ``board`` come from (a recorder stores them per step)."""
        return hint_policy(self.config.first_click, self.profile, board)

    def mines_for(self, board: Board) -> int | None:
        return mine_total(self.config.mines, self.profile, board.rows, board.cols)

    # --- internals ------------------------------------------------------------------------------

    def _decide(self, board: Board):
        decision = self._decisions.get(board)
        if decision is None:
            decision = decide(board, self.policy_for(board))
            self._decisions[board] = decision
            while len(self._decisions) > 4:
                self._decisions.popitem(last=False)
        else:
            self._decisions.move_to_end(board)
        return decision

    def _unmark_redrawn(self, frame: np.ndarray, located: Located) -> bool:
        """Take our marks off the cells whose middles changed since the reading they were drawn for
        (those marks belong to what the cells were): True when any mark was taken off."""
        if not self._shown or self.shown is None or self.shown.hints is None:
            return False
        changed = self._cells.changes.changed(frame, located.lattice)
        if changed is None:
            return False
        hints = self.shown.hints.without(zip(*(index.tolist() for index in np.nonzero(changed))))
        if hints == self.shown.hints:
            return False
        self._painter.draw(self.overlay, hints, located, self.style, self._shown)
        self.shown = replace(self.shown, hints=hints)
        return True

    def _unreadable(self, why: str) -> TickResult:
        # Look again at the next tick even if the picture stays the same: it may settle differently.
        self._last_frame = None
        if self._misreads == 0:
            self._misread_since = self.env.clock()
        self._misreads += 1
        log.debug("board unreadable (%d in a row): %s", self._misreads, why)
        self._cells.discard()
        late = self.env.clock() - self._misread_since >= self.config.hide_after_seconds
        if self._misreads >= self.config.hide_after_misreads and late:
            self._hide()
            self._last_board = None
            self._cells.forget()
        return TickResult(UNREADABLE)

    def _hide(self) -> None:
        if self._shown:
            self.overlay.hide()
            self._shown = False

    def _notify(self, frame, reading, decision, timings: dict[str, float]) -> None:
        # The play loop's observer hook; a hint session takes no actions.
        if self.observer is not None:
            self.observer.on_step(frame, reading, decision, (), timings)


@dataclass(frozen=True, slots=True)
class _Reading:
    """What an observer (the recorder) gets for a step: the board and where its cells are."""

    board: Board
    lattice: Any
    min_confidence: float | None = None
