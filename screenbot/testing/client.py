"""``SimulatedClient``: a Minesweeper window backed by ``solver.game.Game``, at once screen, mouse and window."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from solver.board import NUMBERS, UNREAD
from solver.game import LOST, PLAYING, WON, Game

from ..errors import WindowGoneError
from ..geometry import Rect
from ..mouse import LEFT, MIDDLE, RIGHT
from .renderers import BACKGROUND, WINDOW_FACE, FlatRenderer

IGNORED = "ignored"  # a click the client does nothing with (``flag_keys``)

END_MARK = (250, 250, 215)  # the colour of the band a loss draws across the board (end_mark_grabs)


@dataclass
class ClickRecord:
    x: float
    y: float
    button: str
    cell: tuple[int, int] | None  # None: the click fell outside the board
    on_control: bool = False


@dataclass
class SimulatedClient:
    """A game window on a fake screen. Use it as ``screen``, ``mouse`` and ``window`` of a Player.

    ``restart_keys``: the key chord that starts a new game; ``face``: optional (dx, dy) offset in pitches
    from the board's top-centre of a restart button (like xdemineur's face). ``on_click`` lets a test
    interfere (move or close the window, cover the board) at a given click.
    """

    rows: int
    cols: int
    mines: int
    renderer: object = field(default_factory=FlatRenderer)
    rules: str = "opening"
    seed: int = 0
    screen_size: tuple[int, int] = (1280, 1024)
    board_origin: tuple[int, int] = (100, 120)
    margin: int = 40  # window pixels around the board
    restart_keys: tuple[str, ...] = ("ctrl", "r")
    # The program the window system names (a browser's: the restart search then tries no key).
    window_class: str = "simulated-minesweeper"
    face: tuple[float, float] | None = None
    preopen: bool = False  # open a random zero area at each start (xdemineur)
    wins_need_flags: bool = False  # xdemineur: won only when every mine is flagged
    ignore_clicks_after_win: bool = True
    # Like sgt-mines ("F"): a win draws this state on every mine left covered; None: they stay covered.
    win_marks: str | None = None
    win_dialog_keys: tuple[str, ...] | None = None  # a win shows a dialog over the board until these keys
    # Like gnome-mines' scores window on a loaded machine: for this many grabs after it opens, a dialog
    # covers the whole board, then only its lower part (its place once drawn).
    dialog_whole_grabs: int = 0
    quit_keys: tuple[str, ...] | None = None  # these keys close the game (Escape quits xdemineur)
    # Like KMines: a loss brings a window over the board ("Reset the game?") until these keys close it.
    loss_dialog_keys: tuple[str, ...] | None = None
    # Like KMines' "You have lost.": a band drawn across the board's middle row for this many grabs
    # after a loss, over opened cells as well as covered ones.
    end_mark_grabs: int = 0
    # Like a client that shows a full-window "YOU LOSE!", then its menu, instead of the lost board: after
    # a loss its window shows another screen until a new game is started.
    lost_screen: bool = False
    # Like gnome-mines' "classic" and "default" tile themes: a loss redraws the whole board in darker
    # tiles, each picture as one other, until a new game is started.
    lost_palette: bool = False
    # Grabs after the winning click that still show its cell covered and no win dialog yet (a client
    # slow to draw them): the dialog then comes over the board.
    late_win_dialog: int = 0
    # Like KMines on a busy machine: the loss dialog comes this many grabs after the losing click, and
    # a key pressed before it is lost.
    late_loss_dialog: int = 0
    # Like gnome-mines' best-times window on a busy machine: once a look at the whole board has shown
    # the won board, it shows for this many seconds of ``clock``, then the win dialog comes (over the
    # whole board for ``dialog_whole_grabs``); a key pressed before it is lost.
    win_dialog_after: float = 0.0
    # Like gnome-mines and Chromium, draw a clicked cell "pressed" (here: looking like an open 0, the
    # worst case for a reader) during the next ``pressed_grabs`` grabs before showing the result.
    pressed_grabs: int = 0
    # Like gnome-mines at 200% under load (as it seems: CI runs 127, 138): a number just shown holds
    # half drawn for this long (seconds of ``clock``), longer than the settle time a frame is taken as
    # drawn after (here: in the colour of a number the skin has no picture of, ``UNREAD``).
    half_drawn_for: float = 0.0
    # Like xdemineur: clicks are handled only at the next grab (the client is busy), each at wherever
    # the pointer is by then, not where the click was made.
    late_clicks: bool = False
    # Like gnome-mines when clicks queue up: every n-th click on a covered cell is ignored (0: none).
    drop_every: int = 0
    # Like Chromium under load: every n-th click on a covered cell is ignored when another click was
    # taken since the last look at the board (0: none), so the board the bot sees took some of its clicks.
    drop_among_taken: int = 0
    # Like Chromium under load: every n-th open that comes first after a look at the board (a lone
    # click, or the first of a batch) is ignored (0: none). A lone one changes nothing on the board.
    drop_first: int = 0
    # Like a client starved of CPU (Xvfb and xdemineur beside a compiler): the clicks of every n-th batch
    # (from its first click after a look at the board) show only ``stall_seconds`` of ``clock`` later,
    # all at once, each where it was made (0: none).
    stall_every: int = 0
    stall_seconds: float = 0.0
    clock: Callable[[], float] | None = None
    # Like a client just started (minegauler on a busy machine): its first n clicks do nothing.
    deaf_clicks: int = 0
    # Like Chromium under heavy load: the opens of covered cells numbered in [first, last) (counted over
    # the session, from 0) are ignored, a lone open and its resend alike.
    deaf_opens: tuple[int, int] = (0, 0)
    # Like gnome-mines on Wayland while the focus comes back from a dialog just closed: the first
    # restart after each game's end reaches no window.
    deaf_first_restart: bool = False
    # Like gnome-mines' pointer grab: a click that comes before the client has read the previous one
    # (no ping answered, fewer than two grabs since: the client had no time) goes to the cell pressed
    # before it; a left click there on a number chords, a right click toggles its flag.
    grab_misdelivery: bool = False
    answers_ping: bool = True  # the window speaks _NET_WM_PING
    # Like Windows with the press guard (``platforms.win32.press_guard``): no press reaches another
    # program's window unsaid (here: only what the window says of itself, ``guards_presses``).
    press_guard: bool = False
    # Like gnome-mines and xdemineur with their marks on: a right click takes a covered cell to a flag,
    # a flag to "?", and "?" back to covered.
    question_marks: bool = False
    # Like KMines: the window shows a picture (here a smooth gradient across the screen) behind the board,
    # and opened cells let this share of it show through, so each state looks a shade different in
    # every part of the board. Covered cells, flags and question marks are opaque.
    see_through: float = 0.0
    # Like gnome-mines when another window takes the focus: the board is hidden behind a "Paused" panel,
    # here every cell drawn covered (what the reader makes of that panel), until the window is activated.
    paused: bool = False
    # Like minesweeper-for-web: a right click does nothing; a left click with these keys held flags.
    flag_keys: tuple[str, ...] = ()
    on_click: Callable[[SimulatedClient, int], None] | None = None

    clicks: list[ClickRecord] = field(default_factory=list)
    keys: list[tuple[str, ...]] = field(default_factory=list)
    games_started: int = 0
    dialog_open: bool = False
    dialog_keys: tuple[str, ...] | None = None  # the keys that close the dialog open
    dialog_whole: int = 0  # grabs left with the dialog over the whole board (dialog_whole_grabs)
    loss_dialog_in: int = 0  # grabs until a late loss dialog opens
    # When a late win dialog opens (``clock``); -1 until the won board was seen (win_dialog_after).
    win_dialog_at: float | None = None
    stale_win: list = field(default_factory=list)  # [winning cell, grabs left] (late_win_dialog)
    end_mark: int = 0  # grabs left with the end mark drawn (end_mark_grabs)
    pressed: list = field(default_factory=list)  # [cell, grabs left]
    half_drawn: dict = field(default_factory=dict)  # cell -> the time it is drawn whole (half_drawn_for)
    shown_grid: tuple | None = None  # the board as the last grab showed it, numbers whole (half_drawn_for)
    queued: list = field(default_factory=list)  # [button, grabs to wait] of clicks not handled yet
    held: list = field(default_factory=list)  # (x, y, button) of clicks held through a stall
    stall_until: float | None = None  # the clock's time a stall ends (stall_every)
    batches: int = 0  # first clicks after a look at the board (stall_every)
    stalls: int = 0
    closed: bool = False
    covered: bool = False
    minimised: bool = False
    # Minimised since play's last look, then shown again (``minimise_and_restore``): what a window
    # manager does when play asks it to make the game active just after the user minimised it.
    hidden_since_look: bool = False
    other_windows: list = field(default_factory=list)  # (title, Rect) of other programs' windows above
    # (title, Rect) of windows just mapped under the game (a window manager's focus-stealing prevention
    # puts a new window under the one being clicked): the next appeared_over reports them and puts
    # them over the game (into other_windows), as play then asks the window manager to.
    mapped_below: list = field(default_factory=list)
    # Set once the window is resized (``resize_window``): its client area, no longer the board's margin.
    window_rect: Rect | None = None
    redraw_in: int = 0  # grabs until a resized window's board is drawn at its new place
    redraw_shift: tuple[int, int] = (0, 0)
    pointer: tuple[float, float] = (0.0, 0.0)
    pings: int = 0
    activations: int = 0
    misdelivered: int = 0
    unread_grabs: int = 0  # grabs left before the last click counts as read (grab_misdelivery)
    taken_since_grab: int = 0  # clicks on the board taken since the last look at it (drop_among_taken)
    dropped: int = 0  # clicks ignored by drop_among_taken, drop_first and deaf_opens
    covered_opens: int = 0  # opens of covered cells that reached the deaf_opens test
    first_opens: int = 0  # opens that came first after a look at the board (drop_first)
    grab_cell: tuple[int, int] | None = None  # the cell holding the pointer grab (grab_misdelivery)
    # Covered cells drawn "?": the right click's cycle (question_marks), or a user's marks (a test puts
    # them, say from on_click). Cleared at each new game.
    questions: set = field(default_factory=set)

    def __post_init__(self) -> None:
        self.pitch = self.renderer.pitch
        self._cache: tuple | None = None
        self._backdrop_cache: np.ndarray | None = None
        self._restart_missed = False
        self._new_game()

    # -- game state --

    def _new_game(self) -> None:
        self.game = Game.new(self.rows, self.cols, self.mines, rules=self.rules, seed=self.seed + self.games_started)
        self.games_started += 1
        self.questions = set()
        if self.preopen:
            # Like xdemineur: the client opens an area by itself; pick a cell whose opening is a zero.
            self.game.open(self.rows // 2, self.cols // 2)

    @property
    def status(self) -> str:
        status = self.game.status
        if self.wins_need_flags and status != LOST:
            # Like xdemineur: won as soon as every mine is flagged (and only then).
            board = self.game.board()
            flagged = [(r, c) for r, c, ch in board.cells() if ch == "F"]
            if len(flagged) == self.mines and all(self.game.is_mine(r, c) for r, c in flagged):
                return WON
            return PLAYING
        return status

    @property
    def board_rect(self) -> Rect:
        x, y = self.board_origin
        return Rect(x, y, self.cols * self.pitch, self.rows * self.pitch)

    # -- window --

    def geometry(self) -> Rect:
        if self.closed:
            raise WindowGoneError("the simulated window was closed", window=0)
        return self.window_rect if self.window_rect is not None else self.board_rect.expanded(self.margin)

    def activate(self) -> None:
        if self.closed:
            raise WindowGoneError("the simulated window was closed", window=0)
        self.activations += 1
        self.paused = False

    window_id = 1  # as a desktop's window id (``screenbot.testing.FakeDesktop``)

    def title(self) -> str:
        return "Simulated Minesweeper"

    def program(self) -> str:
        return self.window_class

    def close(self) -> None:
        return None  # a followed window lets go of its connection here; the fake holds none

    def supports_ping(self) -> bool:
        return self.answers_ping

    def is_viewable(self) -> bool:
        return not self.minimised

    def was_hidden(self) -> bool:
        hidden, self.hidden_since_look = self.hidden_since_look or self.minimised, False
        return hidden

    def minimise_and_restore(self) -> None:
        """The user minimises the window and it is shown again before play looks (see ``hidden_since_look``);
        having lost the focus, the client pauses."""
        self.hidden_since_look = self.paused = True

    def windows_over(self, rect: Rect, own: bool = False) -> list[str]:
        if own:
            return ["Congratulations"] if self.dialog_open and self.board_rect.intersects(rect) else []
        return [title for title, over in self.other_windows if over.intersects(rect)]

    def appeared_over(self, rect: Rect) -> list[str]:
        arrived = [(title, over) for title, over in self.mapped_below if over.intersects(rect)]
        self.mapped_below = [window for window in self.mapped_below if window not in arrived]
        self.other_windows.extend(arrived)
        if arrived:
            self.covered = True
        return [title for title, _ in arrived]

    def put_arrivals_back(self) -> None:
        return None  # appeared_over put them over the game already

    def guards_presses(self) -> bool:
        return self.press_guard

    def ping(self, timeout: float) -> bool:
        if self.closed:
            raise WindowGoneError("the simulated window was closed", window=0)
        self.pings += 1
        self.unread_grabs = 0
        return self.answers_ping

    def move_window(self, dx: int, dy: int) -> None:
        x, y = self.board_origin
        self.board_origin = (x + dx, y + dy)
        if self.window_rect is not None:
            self.window_rect = self.window_rect.translated(dx, dy)

    def resize_window(self, grow: tuple[int, int], shift: tuple[int, int], redrawn_after: int) -> None:
        """Like gnome-mines resized on a busy machine: the window has its new size at once, but shows
        its old picture (the board where it was) for ``redrawn_after`` more grabs, then draws the board
        ``shift`` pixels away, at its place in the bigger window."""
        old = self.geometry()
        self.window_rect = Rect(old.left, old.top, old.width + grow[0], old.height + grow[1])
        self.redraw_in, self.redraw_shift = redrawn_after, shift

    # -- screen --

    @property
    def screen_rect(self) -> Rect:
        return Rect(0, 0, *self.screen_size)

    def grab(self, region: tuple[int, int, int, int] | None = None) -> np.ndarray:
        width, height = self.screen_size
        self.unread_grabs = max(0, self.unread_grabs - 1)
        if self.redraw_in:
            self.redraw_in -= 1
            if not self.redraw_in:
                x, y = self.board_origin
                self.board_origin = (x + self.redraw_shift[0], y + self.redraw_shift[1])
        if self.stall_until is not None and self.clock() >= self.stall_until:
            self.stall_until, held, self.held = None, self.held, []
            for x, y, button in held:
                self._click(x, y, button)
        if region is None or max(region[2], region[3]) > 2 * self.pitch:
            # A look at the board (not at one cell), which shows the held clicks just taken: the next
            # click is the first of a batch.
            self.taken_since_grab = 0
        for entry in self.queued:
            entry[1] -= 1
        while self.queued and self.queued[0][1] <= 0:
            self._click(*self.pointer, self.queued.pop(0)[0])
        frame = self._render()
        for look, state in (("0", self.pressed), ("#", self.stale_win)):
            if state and not self.closed:
                (r, c), left = state
                frame = frame.copy()
                ox, oy = self.board_origin
                y, x = oy + r * self.pitch, ox + c * self.pitch
                frame[y : y + self.pitch, x : x + self.pitch] = self._tile(look, x, y)
                state[:] = [(r, c), left - 1] if left > 1 else []
                if look == "#" and not state:
                    self._open_dialog(self.win_dialog_keys)
        if self.loss_dialog_in and not self.closed:
            self.loss_dialog_in -= 1
            if not self.loss_dialog_in:
                self._open_dialog(self.loss_dialog_keys)
        if self.win_dialog_at is not None and self.win_dialog_at >= 0 and self.clock() >= self.win_dialog_at:
            self.win_dialog_at = None
            self._open_dialog(self.win_dialog_keys)
        if self.end_mark and not self.closed:
            self.end_mark -= 1
            frame = frame.copy()
            rect = self.board_rect
            y = rect.top + (self.rows // 2) * self.pitch
            frame[y + self.pitch // 4 : y + 3 * self.pitch // 4, rect.left + self.pitch // 2 : rect.right - self.pitch // 2] = END_MARK
        if self.lost_palette and self.game.status == LOST and not self.closed:
            frame = frame.copy()
            rect = self.board_rect
            frame[rect.top : rect.bottom, rect.left : rect.right] //= 2
        if self.lost_screen and self.game.status == LOST and not self.closed:
            frame = frame.copy()
            win = self.geometry().clipped(self.screen_rect)
            frame[win.top : win.bottom, win.left : win.right] = (40, 20, 120)
            frame[win.top + win.height // 2 - 12 : win.top + win.height // 2 + 12,
                  win.left + win.width // 4 : win.right - win.width // 4] = (250, 250, 250)
        if self.win_dialog_at is not None and self.win_dialog_at < 0 and (
                region is None or Rect(*region).contains_rect(self.board_rect)):
            self.win_dialog_at = self.clock() + self.win_dialog_after  # the won board was seen whole
        if region is None:
            return frame.copy()
        left, top, w, h = region
        if left < 0 or top < 0 or left + w > width or top + h > height:
            raise ValueError(f"region {region} is outside the {width}x{height} screen")
        return frame[top : top + h, left : left + w].copy()

    def _render(self) -> np.ndarray:
        # The loop grabs far more often than anything changes: keep the last picture and repaint only
        # the cells whose state changed since (a full repaint per click made the tests slow).
        whole = self.dialog_open and self.dialog_whole > 0
        self.dialog_whole = max(0, self.dialog_whole - 1)
        layout = (self.board_origin, self.closed, self.covered or self.minimised, self.dialog_open, whole)
        grid = self.game.board().grid
        if self.questions:
            grid = tuple("".join("?" if ch == "#" and (r, c) in self.questions else ch for c, ch in enumerate(row))
                         for r, row in enumerate(grid))
        if self.win_marks is not None and self.status == WON:
            grid = tuple(row.replace("#", self.win_marks) for row in grid)
        if self.paused:
            grid = tuple("#" * self.cols for _ in range(self.rows))
        if self.half_drawn_for:
            grid = self._half_drawn(grid)
        if self._cache is None or self._cache[0] != layout:
            width, height = self.screen_size
            frame = np.empty((height, width, 3), np.uint8)
            frame[:] = BACKGROUND
            if not self.closed:
                win = self.geometry().clipped(self.screen_rect)
                frame[win.top : win.bottom, win.left : win.right] = (
                    self._backdrop()[win.top : win.bottom, win.left : win.right] if self.see_through else WINDOW_FACE)
            painted = None
        else:
            frame, painted = self._cache[1], self._cache[2]
        if not self.closed:
            ox, oy = self.board_origin
            for r, row in enumerate(grid):
                if painted is not None and painted[r] == row:
                    continue
                for c, ch in enumerate(row):
                    if painted is None or painted[r][c] != ch:
                        y, x = oy + r * self.pitch, ox + c * self.pitch
                        frame[y : y + self.pitch, x : x + self.pitch] = self._tile(ch, x, y)
            if self.dialog_open:
                rect = self.board_rect
                top = rect.top if whole else rect.top + rect.height // 4
                frame[top : rect.bottom, rect.left : rect.right] = (230, 230, 230)
            if self.covered or self.minimised:
                # Another window over the middle of the board.
                rect = self.board_rect
                frame[rect.top + 10 : rect.bottom - 10, rect.left + 10 : rect.right - 10] = (90, 160, 30)
        self._cache = (layout, frame, grid)
        return frame

    def _half_drawn(self, grid: tuple[str, ...]) -> tuple[str, ...]:
        """``grid`` with the numbers first shown less than ``half_drawn_for`` ago caught half drawn."""
        now = self.clock()
        before, self.shown_grid = self.shown_grid, grid
        for r, row in enumerate(grid):
            for c, ch in enumerate(row):
                if ch in NUMBERS[1:] and (before is None or before[r][c] != ch):
                    self.half_drawn[(r, c)] = now + self.half_drawn_for
        cells = [list(row) for row in grid]
        for (r, c), whole_at in list(self.half_drawn.items()):
            if now >= whole_at:
                del self.half_drawn[(r, c)]
            elif grid[r][c] in NUMBERS[1:]:
                cells[r][c] = UNREAD
        return tuple("".join(row) for row in cells)

    def _tile(self, ch: str, x: int, y: int) -> np.ndarray:
        """The picture of a cell showing ``ch`` whose box starts at screen pixel (x, y)."""
        tile = self.renderer.cell(ch)
        if not self.see_through or ch in "#F?":
            return tile
        behind = self._backdrop()[y : y + self.pitch, x : x + self.pitch].astype(np.float32)
        return np.round((1 - self.see_through) * tile + self.see_through * behind).astype(np.uint8)

    def _backdrop(self) -> np.ndarray:
        """The picture behind the board (``see_through``): a smooth gradient over the whole screen."""
        width, height = self.screen_size
        if self._backdrop_cache is None:
            v, u = np.mgrid[0.0 : 1.0 : height * 1j, 0.0 : 1.0 : width * 1j]
            picture = np.stack([110 + 70 * u, 150 - 40 * u + 40 * v, 200 - 60 * v], axis=-1)
            self._backdrop_cache = np.clip(picture, 0, 255).astype(np.uint8)
        return self._backdrop_cache

    # -- mouse and keyboard --

    def move(self, x: float, y: float) -> None:
        self.pointer = (x, y)

    def click(self, x: float, y: float, button: str = LEFT, holding: tuple[str, ...] = ()) -> None:
        if self.flag_keys:
            # The client's own flag click, as the right button; its right button does nothing.
            button = RIGHT if button == LEFT and tuple(holding) == self.flag_keys else \
                IGNORED if button == RIGHT or holding else button
        elif holding:
            button = IGNORED  # a click with keys held is none this client knows
        if self.stall_every and self.stall_until is None and not self.taken_since_grab and not self.held:
            self.batches += 1
            if self.batches % self.stall_every == 0:
                self.stall_until, self.stalls = self.clock() + self.stall_seconds, self.stalls + 1
        if self.stall_until is not None:
            self.pointer = (x, y)
            self.held.append((x, y, button))
            return
        if self.late_clicks:
            self.pointer = (x, y)
            self.queued.append([button, 2])  # handled two grabs later, wherever the pointer is then
            return
        self._click(x, y, button)

    def _click(self, x: float, y: float, button: str) -> None:
        self.pointer = (x, y)
        cell = self._cell_at(x, y)
        on_control = cell is None and self._on_face(x, y)
        self.clicks.append(ClickRecord(x, y, button, cell, on_control))
        if self.on_click is not None:
            self.on_click(self, len(self.clicks))
        if on_control:
            self._new_game()
            return
        if cell is None or self.closed or button == IGNORED:
            return
        if self.status != PLAYING and self.ignore_clicks_after_win:
            return
        if self.game.status != PLAYING:
            # Only reachable for flag-counting clients: every safe cell is open, flags still go on, and
            # the last right one shows the win (its dialog, if the client has one).
            if button == RIGHT:
                self._right_click(*cell)
                if self.win_dialog_keys and self.status == WON:
                    self._open_dialog(self.win_dialog_keys)
            return
        r, c = cell
        if self.drop_every and len(self.clicks) % self.drop_every == 0 and self.game.board()[r, c] == "#":
            return
        if (self.drop_among_taken and self.taken_since_grab and len(self.clicks) % self.drop_among_taken == 0
                and self.game.board()[r, c] == "#"):
            self.dropped += 1
            return
        if self.drop_first and not self.taken_since_grab and button == LEFT and self.game.board()[r, c] == "#":
            self.first_opens += 1
            if self.first_opens % self.drop_first == 0:
                self.dropped += 1
                return
        if len(self.clicks) <= self.deaf_clicks:
            return
        if button == LEFT and self.game.board()[r, c] == "#":
            self.covered_opens += 1
            if self.deaf_opens[0] <= self.covered_opens - 1 < self.deaf_opens[1]:
                self.dropped += 1
                return
        self.taken_since_grab += 1
        if self.grab_misdelivery:
            if self.unread_grabs and self.grab_cell is not None and self.grab_cell != cell:
                self.misdelivered += 1
                self.unread_grabs = 2
                self._misdelivered_click(*self.grab_cell, button)
                return
            self.grab_cell, self.unread_grabs = cell, 2
        if button == RIGHT:
            self._right_click(r, c)
        elif button == MIDDLE:
            self._chord(r, c)
        else:
            self.questions.discard((r, c))  # a "?" opens as a covered cell does
            if self.pressed_grabs and self.game.board()[r, c] == "#":
                self.pressed = [(r, c), self.pressed_grabs]
            self.game.open(r, c)
        if self.game.status == LOST:
            self.end_mark = self.end_mark_grabs
            if self.loss_dialog_keys is not None and self.late_loss_dialog:
                self.loss_dialog_in = self.late_loss_dialog
            elif self.loss_dialog_keys is not None:
                self._open_dialog(self.loss_dialog_keys)
        if self.win_dialog_keys and self.status == WON:
            if self.late_win_dialog:
                self.stale_win = [(r, c), self.late_win_dialog]
            elif self.win_dialog_after:
                self.win_dialog_at = -1.0
            else:
                self._open_dialog(self.win_dialog_keys)

    def _open_dialog(self, closing: tuple[str, ...]) -> None:
        self.dialog_open, self.dialog_keys, self.dialog_whole = True, closing, self.dialog_whole_grabs

    def _right_click(self, r: int, c: int) -> None:
        if (r, c) in self.questions:
            self.questions.discard((r, c))
        elif self.game.board()[r, c] == "F":
            self.game.flag(r, c)
            if self.question_marks:
                self.questions.add((r, c))
        else:
            self.game.flag(r, c)

    def _misdelivered_click(self, r: int, c: int, button: str) -> None:
        if button == RIGHT:
            self._right_click(r, c)
        elif self.game.board()[r, c].isdigit():
            self._chord(r, c)

    def _chord(self, r: int, c: int) -> None:
        board = self.game.board()
        ch = board[r, c]
        if not ch.isdigit():
            return
        from solver.board import neighbours

        around = list(neighbours(self.rows, self.cols, r, c))
        if sum(board[p] == "F" for p in around) != int(ch):
            return
        for p in around:
            if board[p] == "#" and self.game.status == PLAYING:
                self.game.open(*p)

    def press(self, *keys: str) -> None:
        self.keys.append(keys)
        if self.loss_dialog_in or self.win_dialog_at is not None:
            return  # busy bringing up a dialog
        if self.dialog_open:
            # A modal dialog takes the keyboard: only its own key closes it.
            if tuple(keys) == tuple(self.dialog_keys or ()):
                self.dialog_open = False
            return
        if tuple(keys) == tuple(self.quit_keys or ()):
            self.closed = True
        if tuple(keys) == tuple(self.restart_keys) and not self.closed:
            if self.deaf_first_restart and not self._restart_missed:
                self._restart_missed = True
                return
            self._restart_missed = False
            self._new_game()

    def _cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        rect = self.board_rect
        if not rect.contains(x, y):
            return None
        return int((y - rect.top) // self.pitch), int((x - rect.left) // self.pitch)

    def _on_face(self, x: float, y: float) -> bool:
        if self.face is None:
            return False
        rect = self.board_rect
        fx = rect.left + rect.width / 2 + self.face[0] * self.pitch
        fy = rect.top + self.face[1] * self.pitch
        return abs(x - fx) <= self.pitch / 2 and abs(y - fy) <= self.pitch / 2

    @property
    def outside_clicks(self) -> list[ClickRecord]:
        return [c for c in self.clicks if c.cell is None and not c.on_control]


class SimulatedTime:
    """A clock for the loop that moves only when the loop sleeps, and by a millisecond each time it is
    read (a wait that never sleeps still ends). On the real clock with sleeps that return at once, a
    wait for a new game that does not come (the full restart timeout, 3 s) grabs and reads the board as
    fast as the machine goes, thousands of times; here it looks 150 times, as often as it would on a
    real screen, and takes no wall time. The simulated client counts its grabs, not seconds."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.001
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)
