"""How to play one client, from its skin's ``templates/<skin>/profile.json``.

The skin profile describes the client (its first-click rule, mine total, whether a win needs every mine
flagged, or ``"unknown"`` when that was never seen, whether cells light up under the pointer). The keys under ``"play"`` are the loop's: how to
restart, which dialog to dismiss after a win or a loss, how long the client takes to redraw. The loop
reads all of this from here, so supporting a client is data, not ``if client == ...`` branches.

``"play"`` keys (all optional):
- ``restart``: a control action that starts a new game once one is over, or ``"find"``: try the usual
  ways (``usual_restarts``) at the first restart and keep the first that shows a new game.
- ``after_win`` / ``after_loss``: a control action run first (e.g. close a "Congratulations" dialog).
- ``window_title``: regex of the client's window title (to follow the window and notice it closing).
- ``redraw_timeout``: seconds to wait for a click to show before treating it as ignored.
- ``settle``: seconds a picture must stay unchanged to count as fully drawn.
- ``restart_timeout``: seconds a restart may take to show a fresh board.
- ``end_mark``: seconds a mark the client draws over the board when a game ends may stay (KMines writes
  "You have lost." across it for 4 s): a board that stops reading is waited for that long before
  anything else is made of it. 0 (the default): none.
- ``chord_button``: the button that opens around a satisfied number (``middle`` or ``left``).
- ``flag_keys``: the keys held down around a left click that flags (``["ctrl"]``: minesweeper-for-web
  takes no right click); none (the default): the right button flags.
- ``flood``: which neighbours the client opens around a revealed zero ("8", "4" or "none"); a zero
  still next to a covered cell means the frame was caught mid-redraw.
- ``confirm_clicks``: ``"board"`` waits until each click shows on the board and the board has settled
  before the next click (xdemineur and Chromium read the pointer position when they get round to a
  click, so queued clicks land on the wrong cell); ``"cell"`` only until the clicked cell changes;
  ``"ping"`` only until the client has read the click (a _NET_WM_PING round trip through the client),
  with flags still confirmed by their cell (gnome-mines: see ``play.clicking``); ``"none"`` sends a
  batch of clicks back to back.
- ``drops_clicks``: the client may ignore a click now and then; an opened cell still covered
  afterwards is then chosen again instead of stopping the game as a misreading. Only for clients where
  a lost click is just lost, or lands on a cell the bot itself clicked before (gnome-mines), never on
  a cell the bot did not choose. Without it, an open ignored while the client took the same batch's
  other clicks is still chosen again (``GameRules.some_clicks_ignored``): what it adds is a step whose
  clicks all changed nothing going on too.
- ``frozen_board_means_won``: the client shows a win only outside the board and then ignores clicks
  (react-minesweeper); an open on a covered cell that changes nothing, sent twice with a redraw wait
  after each (a client under load may ignore a lone click), is then the sign of a win.

A control action is ``{"keys": ["ctrl", "r"], "wait": 0.2}`` (a key chord sent to the client window,
focused first unless ``"focus": false``, for keys meant for a dialog that already has the keyboard;
with ``"dialog": true`` only while a window of the game lies over the board) or ``{"click": [dx, dy],
"wait": 0.2}`` (a click at the board's top-centre plus dx, dy times the cell pitch; the loop refuses it
unless it lands outside the board and inside the client's window).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import SkinError
from ..geometry import Rect
from ..vision.skins import read_profile

CONFIRM_NONE, CONFIRM_PING, CONFIRM_CELL, CONFIRM_BOARD = "none", "ping", "cell", "board"
CONFIRM_MODES = (CONFIRM_NONE, CONFIRM_PING, CONFIRM_CELL, CONFIRM_BOARD)
UNKNOWN = "unknown"  # a rule not seen while learning (win_requires_all_flags)
FIND = "find"  # the "restart" of a profile that leaves it to be found by trying the usual ways


@dataclass(frozen=True, slots=True)
class ControlAction:
    keys: tuple[str, ...] = ()
    click: tuple[float, float] | None = None
    wait: float = 0.0
    # Give the game window the keyboard first. Not for keys meant for a dialog the client opened
    # (focusing the main window would take the keyboard away from its modal dialog).
    focus: bool = True
    # Only while a window of the game lies over the board: keys meant for a dialog that may not come
    # (learn's guess at closing a win's window) must not reach the game itself (Escape quits xdemineur).
    dialog: bool = False

    @property
    def is_empty(self) -> bool:
        return not self.keys and self.click is None

    def click_point(self, board) -> tuple[float, float]:
        """Where ``click`` lands on the screen for ``board`` (a ``geometry.Lattice``): (dx, dy) pitches
        from the top centre of its whole cells (a face or a button just above the board)."""
        assert self.click is not None
        rect = board.inner_rect()
        return rect.left + rect.width / 2 + self.click[0] * board.pitch[0], rect.top + self.click[1] * board.pitch[1]

    def guarded_click_point(self, board, within: Rect) -> tuple[float, float] | None:
        """``click_point``, or None when it would land on the board's whole cells or outside ``within``
        (the client's window; the screen when no window is known): a control click may only press the
        client's own controls. The one rule for play (which refuses such a profile) and learn (which
        skips such a candidate)."""
        x, y = self.click_point(board)
        if board.inner_rect().contains(x, y) or not within.contains(x, y):
            return None
        return x, y


NO_ACTION = ControlAction()

# The ways a new game may be started without being told, tried in this order by ``learn`` and by ``play``
# under ``"restart": "find"`` (``usual_restarts``). No key that may reload, close, open or navigate
# anything is among them (Ctrl+R reloads a browser's page, Ctrl+N opens a window, Ctrl+W and Alt+F4
# close one, F5 and Backspace reload or go back, Escape quits xdemineur, Enter presses whatever has
# the focus). What is tried: a click at the board's top centre plus (dx, dy) pitches, where clients
# put their own new-game control (a face or button just above the board); and, only in a window
# known to be no browser's (where a key may be a page's shortcut), F2, the new-game key of Windows'
# Minesweeper and its clones, before it, and N (sgt-mines) after it. Any other client is told its
# restart (learn's --restart, a profile's "restart").
RESTART_F2 = ("F2", ControlAction(keys=("f2",), wait=0.1))
RESTART_FACE = ("a click just above the board", ControlAction(click=(0.0, -1.5), wait=0.1))
RESTART_N = ("N", ControlAction(keys=("n",), wait=0.1))


def usual_restarts(window, control: tuple[float, float] | None = None) -> tuple[tuple[str, ControlAction], ...]:
    """The usual restarts to try on the client of ``window`` (a ``platforms.GameWindow``, or None when
    not known), as (label, action) in order. ``control``: where a face or button was seen above the
    board (``vision.new_game_control.control_above``), clicked before the fixed guess."""
    from ..platforms.base import known_not_a_browser

    clicks: tuple[tuple[str, ControlAction], ...] = (RESTART_FACE,)
    if control is not None:
        seen = (f"a click on the button seen above the board ({control[0]:+.2f}, {control[1]:+.2f} cells)",
                ControlAction(click=(round(control[0], 2), round(control[1], 2)), wait=RESTART_FACE[1].wait))
        clicks = (seen, RESTART_FACE)
    if known_not_a_browser(window):
        return RESTART_F2, *clicks, RESTART_N
    return clicks



@dataclass(frozen=True, slots=True)
class PlayProfile:
    skin: str
    client: str
    first_click: str  # "opening", "safe", "none" (can lose) or "preopened" (the client opens an area itself)
    mines: int | dict[str, int] | None  # a number, a table "ROWSxCOLS" -> mines, or None (unknown)
    # None: not known (a client learnt without a win seen). Play then opens every safe cell, flags the
    # mines left and counts the game won only if the client shows it (``rules.GameRules.assess``).
    win_requires_all_flags: bool | None
    hover_highlight: bool
    pauses_on_focus_loss: bool = False  # gnome-mines hides the board ("Paused") when unfocused
    # With win_requires_all_flags: the win also waits for every safe cell to be open (xbomb).
    win_requires_all_open: bool = False
    restart: ControlAction = NO_ACTION
    find_restart: bool = False  # "restart": "find": try ``usual_restarts`` at the first restart
    after_win: ControlAction = NO_ACTION
    after_loss: ControlAction = NO_ACTION
    window_title: str | None = None
    redraw_timeout: float = 0.5
    settle: float = 0.004
    restart_timeout: float = 3.0
    end_mark: float = 0.0
    chord_button: str = "middle"
    flag_keys: tuple[str, ...] = ()  # keys held around a left click that flags; (): a right click flags
    frozen_board_means_won: bool = False
    flood: str = "8"  # which neighbours the client opens around a zero by itself: "8", "4" or "none"
    confirm_clicks: str = "none"  # what each click waits for before the next: "none", "ping", "cell" or "board"
    drops_clicks: bool = False  # an open may be ignored by the client; it is then chosen again

    def mine_total(self, rows: int, cols: int) -> int | None:
        if isinstance(self.mines, dict):
            return self.mines.get(f"{rows}x{cols}")
        return self.mines

    def first_click_cell(self, rows: int, cols: int) -> tuple[int, int]:
        """Where to open an untouched board. Under the ``opening`` rule a cell a few steps in from the
        corner wins more often (its opening is larger and lies off the edges): (3,3) on expert-sized
        boards, (2,2) on smaller ones, the cells the published figures and ``screenbot bench`` use.
        Otherwise the corner, the cell most likely to be a zero."""
        if self.first_click == "opening":
            step = 3 if rows * cols >= 400 else 2
            return min(step, (rows - 1) // 2), min(step, (cols - 1) // 2)
        return 0, 0


def load_profile(skin: str, templates_dir: Path) -> PlayProfile:
    return profile_from_dict(skin, read_profile(templates_dir / skin))


def profile_from_dict(skin: str, data: dict) -> PlayProfile:
    play = data.get("play", {})
    if not isinstance(play, dict):
        raise SkinError('"play" in profile.json must be an object', skin=skin)
    try:
        return PlayProfile(
            skin=skin,
            client=str(data.get("client", skin)),
            first_click=str(data.get("first_click", "safe")),
            mines=_mines(data.get("mine_total")),
            win_requires_all_flags=_win_rule(data.get("win_requires_all_flags", False)),
            hover_highlight=bool(data.get("hover_highlight", False)),
            pauses_on_focus_loss=bool(data.get("pauses_on_focus_loss", False)),
            win_requires_all_open=bool(data.get("win_requires_all_open", False)),
            restart=_action(None if play.get("restart") == FIND else play.get("restart")),
            find_restart=play.get("restart") == FIND,
            after_win=_action(play.get("after_win")),
            after_loss=_action(play.get("after_loss")),
            window_title=play.get("window_title"),
            redraw_timeout=float(play.get("redraw_timeout", 0.5)),
            settle=float(play.get("settle", 0.004)),
            restart_timeout=float(play.get("restart_timeout", 3.0)),
            end_mark=float(play.get("end_mark", 0.0)),
            chord_button=str(play.get("chord_button", "middle")),
            flag_keys=tuple(str(key) for key in play.get("flag_keys", ())),
            frozen_board_means_won=bool(play.get("frozen_board_means_won", False)),
            flood=_choice(play.get("flood", "8"), ("8", "4", "none"), "flood"),
            confirm_clicks=_choice(play.get("confirm_clicks", CONFIRM_NONE), CONFIRM_MODES, "confirm_clicks"),
            drops_clicks=bool(play.get("drops_clicks", False)),
        )
    except (TypeError, ValueError) as exc:
        raise SkinError(f"bad value in profile.json: {exc}", skin=skin) from None


def _choice(value, allowed: tuple[str, ...], key: str) -> str:
    if str(value) not in allowed:
        raise ValueError(f"{key} must be one of {', '.join(map(repr, allowed))}, not {value!r}")
    return str(value)


def _win_rule(value) -> bool | None:
    if value == UNKNOWN:
        return None
    if isinstance(value, bool):
        return value
    raise ValueError(f'win_requires_all_flags must be true, false or "unknown", not {value!r}')


def _mines(value) -> int | dict[str, int] | None:
    if value is None or isinstance(value, int):
        return value
    if isinstance(value, dict):
        return {str(k): int(v) for k, v in value.items()}
    raise ValueError(f"mine_total must be a number, a table of sizes or null, not {value!r}")


def _action(value) -> ControlAction:
    if value is None:
        return NO_ACTION
    if not isinstance(value, dict):
        raise ValueError(f"a control action must be an object, not {value!r}")
    keys = tuple(str(k) for k in value.get("keys", ()))
    click = value.get("click")
    if click is not None:
        dx, dy = click
        click = (float(dx), float(dy))
    return ControlAction(keys, click, float(value.get("wait", 0.0)), bool(value.get("focus", True)),
                         bool(value.get("dialog", False)))


def action_json(action: ControlAction) -> dict:
    """``action`` as a profile writes it (what ``_action`` reads back)."""
    out: dict = {}
    if action.keys:
        out["keys"] = list(action.keys)
    if action.click is not None:
        out["click"] = list(action.click)
    out["wait"] = action.wait
    if not action.focus:
        out["focus"] = False
    if action.dialog:
        out["dialog"] = True
    return out
