"""Named capture sessions on the real clients: which client, which size, how the game is played.

``RECIPES`` lists every session the fixture set and the templates are made from. Each recipe is
deterministic in what it does (seeded), though the clients place their mines at random, so a rerun
gives other boards with the same kinds of states. ``for_templates`` marks the sessions templates are
cut from; the others are held back to check that reading works on captures the templates never saw.
"""

from __future__ import annotations

import logging
import random
import time

import numpy as np
from dataclasses import dataclass, field

from solver.board import parse_board

from screenbot.capture import MssScreen
from screenbot.desktop.browser import start_react_minesweeper
from screenbot.desktop.clients import GNOME_MINES_LEVELS, start_gnome_mines, start_xdemineur
from screenbot.errors import ScreenError
from .devtools import REACT_MINESWEEPER_STATE_JS, DevToolsPage, page_websocket_url, react_minesweeper_board_text
from .labels import Looks, TruthCheckError
from .sessions import (
    LabelledShot,
    Session,
    click_at,
    gnome_mines_exploded,
    gnome_mines_lattice,
    move_pointer,
    play_desktop_game,
    react_lattice,
    xdemineur_lattice,
)

log = logging.getLogger(__name__)

@dataclass(frozen=True, slots=True)
class Recipe:
    name: str
    client: str
    options: dict = field(default_factory=dict)
    for_templates: bool = False
    seed: int = 0

def _gm_digits(name: str, custom: tuple[int, int, int], window: tuple[int, int], digits: str, high: int,
               for_templates: bool, seed: int, resize: tuple[int, int] | None = None) -> Recipe:
    """A gnome-mines recipe for high numbers (``digits``): a custom board nearly full of mines, first
    click at (1, 1), up to ``high`` games, keeping the board before each losing click (see RECIPES)."""
    options = {"custom": custom, "window_size": window}
    if resize is not None:
        options["resize"] = resize
    options.update({"first": (1, 1), "high": high, "digits": digits, "keep": "before-loss"})
    return Recipe(name, "gnome-mines", options, for_templates, seed)


RECIPES: tuple[Recipe, ...] = (
    Recipe("gm-small-600", "gnome-mines", {"level": "small", "window_size": (600, 400)}, True, 1),
    Recipe("gm-medium-600", "gnome-mines", {"level": "medium", "window_size": (600, 400)}, True, 2),
    Recipe("gm-small-1000", "gnome-mines", {"level": "small", "window_size": (1000, 900)}, True, 3),
    Recipe("gm-medium-1000", "gnome-mines", {"level": "medium", "window_size": (1000, 900)}, False, 7),
    Recipe("gm-big-1100", "gnome-mines", {"level": "big", "window_size": (1100, 700)}, True, 4),
    Recipe("gm-dense-600", "gnome-mines", {"custom": (16, 16, 25), "window_size": (600, 400)}, True, 14),
    Recipe("gm-dense-900", "gnome-mines", {"custom": (12, 10, 30), "window_size": (900, 650)}, True, 15),
    Recipe("gm-big-900", "gnome-mines", {"level": "big", "window_size": (900, 640)}, True, 16),
    Recipe("gm-medium-900", "gnome-mines", {"level": "medium", "window_size": (900, 640)}, True, 17),
    Recipe("gm-custom-700", "gnome-mines", {"custom": (12, 9, 15), "window_size": (700, 500)}, False, 5),
    Recipe("gm-medium-800", "gnome-mines", {"level": "medium", "window_size": (800, 700)}, False, 6),
    Recipe("xd-16x16", "xdemineur", {"cols": 16, "rows": 16, "mines": 40}, True, 1),
    Recipe("xd-30x16", "xdemineur", {"cols": 30, "rows": 16, "mines": 99}, True, 2),
    Recipe("xd-20x12", "xdemineur", {"cols": 20, "rows": 12, "mines": 30}, False, 3),
    Recipe("xd-16x16b", "xdemineur", {"cols": 16, "rows": 16, "mines": 50}, False, 4),
    Recipe("xd-dense-a", "xdemineur", {"cols": 16, "rows": 16, "mines": 60, "solver": True}, True, 11),
    Recipe("xd-dense-b", "xdemineur", {"cols": 20, "rows": 16, "mines": 85, "solver": True}, False, 12),
    Recipe("xd-dense-c", "xdemineur", {"cols": 30, "rows": 16, "mines": 120, "solver": True}, True, 13),
    Recipe("xd-16x16-win", "xdemineur", {"cols": 16, "rows": 16, "mines": 25, "solver": True}, False, 5),
    Recipe("xd-24x14-win", "xdemineur", {"cols": 24, "rows": 14, "mines": 35, "solver": True}, False, 6),
    # The pointer over a covered cell, a flag and a "?" (the tile lit under each), at window sizes no
    # picture was taken at; only those shots are kept.
    Recipe("gm-medium-733-pointer", "gnome-mines", {"level": "medium", "window_size": (733, 517), "pointer_only": True},
           False, 31),
    Recipe("gm-big-1187-pointer", "gnome-mines", {"level": "big", "window_size": (1187, 655), "pointer_only": True},
           False, 32),
    Recipe("gm-small-862-pointer", "gnome-mines", {"level": "small", "window_size": (862, 771), "pointer_only": True},
           False, 33),
    Recipe("gm-small-600-win", "gnome-mines", {"level": "small", "window_size": (600, 400), "solver": True}, False, 8),
    Recipe("gm-medium-600-win", "gnome-mines", {"level": "medium", "window_size": (600, 400), "solver": True}, False, 9),
    # Very dense boards played to a loss over many short games: the cells opened next to many mines
    # show the 5-8 that ordinary games almost never reach. Only the lost boards that show a 5 or more
    # are kept; their numbers are computed from the mines on screen like any other game's. (gnome-mines
    # reads the custom mine setting as a count: 150 of 256 cells.) Pitch 23 px, as in the expert and
    # medium windows the player and the demo use.
    Recipe("gm-high-600", "gnome-mines", {"custom": (16, 16, 150), "window_size": (600, 400), "high": 60}, True, 21),
    Recipe("gm-high-900", "gnome-mines", {"custom": (30, 16, 280), "window_size": (900, 640), "high": 60}, True, 22),
    # The numbers each gnome-mines cell size still lacked, on the same boards and windows as the
    # recipes that made that size (the same pitch to a hundredth of a pixel). All but 9 + k cells are
    # mines: the first click opens the 3x3 block around it (gnome-mines keeps it mine-free) and a
    # random click then finds one of the k other safe cells about once in six or seven, most of them
    # next to 6-8 mines. One client plays up to ``high`` games (Ctrl+R starts the next); the board
    # before the losing click is kept (the locator finds it; the lost board is mostly mines), its
    # numbers computed from the lost board. A custom game's window is taller than a level's (its
    # settings page needs the room), so ``resize`` gives it the level's window again.
    _gm_digits("gm-digits-medium-600", (16, 16, 206), (600, 400), "78", 200, True, 31, resize=(610, 460)),
    _gm_digits("gm-digits-big-900", (30, 16, 400), (900, 640), "48", 200, True, 32, resize=(910, 696)),
    _gm_digits("gm-digits-dense-600", (16, 16, 206), (600, 400), "48", 200, True, 33),
    _gm_digits("gm-digits-medium-900", (16, 16, 206), (900, 640), "45678", 200, True, 34, resize=(910, 696)),
    _gm_digits("gm-digits-small-600", (8, 8, 46), (600, 400), "35678", 250, True, 35, resize=(610, 460)),
    _gm_digits("gm-digits-dense-900", (12, 10, 95), (900, 650), "45678", 200, True, 36),
    _gm_digits("gm-digits-small-1000", (8, 8, 46), (1000, 900), "45678", 250, True, 37, resize=(1010, 956)),
    # The same, held back: no template is cut from these, so they check the pictures above on games
    # the templates never saw.
    _gm_digits("gm-digits-small-600-b", (8, 8, 46), (600, 400), "45678", 150, False, 41, resize=(610, 460)),
    _gm_digits("gm-digits-medium-900-b", (16, 16, 206), (900, 640), "45678", 150, False, 42, resize=(910, 696)),
    _gm_digits("gm-digits-dense-900-b", (12, 10, 95), (900, 650), "45678", 150, False, 43),
    _gm_digits("gm-digits-small-1000-b", (8, 8, 46), (1000, 900), "45678", 150, False, 44, resize=(1010, 956)),
    Recipe("xd-high-a", "xdemineur", {"cols": 16, "rows": 12, "mines": 90, "high": 60}, True, 23),
    Recipe("xd-high-b", "xdemineur", {"cols": 12, "rows": 12, "mines": 70, "high": 60}, False, 24),
    Recipe("rm-s1-10x10", "react-minesweeper", {"scale": 1.0, "rows": 10, "cols": 10, "chance": 15}, True, 1),
    Recipe("rm-s1.5-12x12", "react-minesweeper", {"scale": 1.5, "rows": 12, "cols": 12, "chance": 18}, True, 2),
    Recipe("rm-s2-8x8", "react-minesweeper", {"scale": 2.0, "rows": 8, "cols": 8, "chance": 20}, True, 3),
    Recipe("rm-s1.25-16x16", "react-minesweeper", {"scale": 1.25, "rows": 16, "cols": 16, "chance": 15}, False, 4),
    Recipe("rm-s1-16x30", "react-minesweeper", {"scale": 1.0, "rows": 16, "cols": 30, "chance": 20}, False, 5),
    Recipe("rm-s1.75-9x9", "react-minesweeper", {"scale": 1.75, "rows": 9, "cols": 9, "chance": 12}, False, 6),
    # The browser shows the whole board when a game is lost, so one dense lost game shows its 5-8.
    Recipe("rm-high-s1.5", "react-minesweeper", {"scale": 1.5, "rows": 12, "cols": 12, "chance": 55}, True, 8),
    Recipe("rm-high-s1", "react-minesweeper", {"scale": 1.0, "rows": 12, "cols": 16, "chance": 55}, True, 10),
    # Every state the browser shows (covered, flag, 0-8, mine) at device scale factors 1, 1.25 and 2,
    # as at 1.5. Even seeds end in a loss, whose board shows the mines (and most numbers).
    Recipe("rm-s1-12x12", "react-minesweeper", {"scale": 1.0, "rows": 12, "cols": 12, "chance": 20}, True, 12),
    Recipe("rm-s1.25-12x12", "react-minesweeper", {"scale": 1.25, "rows": 12, "cols": 12, "chance": 20}, True, 14),
    Recipe("rm-s2-9x9", "react-minesweeper", {"scale": 2.0, "rows": 9, "cols": 9, "chance": 20}, True, 16),
    Recipe("rm-s1-12x16", "react-minesweeper", {"scale": 1.0, "rows": 12, "cols": 16, "chance": 18}, False, 18),
    Recipe("rm-s2-10x10", "react-minesweeper", {"scale": 2.0, "rows": 10, "cols": 10, "chance": 18}, False, 20),
    # The high numbers without losing: on a board where about two cells in three are mines, the
    # page's state says which covered cells are safe and show 3-8 (an 8 needs eight mines around it),
    # and one of each is opened by real clicks. The board stays mostly covered, so the locator reads
    # it, where the whole board a loss reveals would be mostly mines. The restart button deals new
    # boards until each number in ``digits`` has been shown on three of them.
    Recipe("rm-digits-s1", "react-minesweeper", {"scale": 1.0, "rows": 16, "cols": 30, "chance": 65,
           "digits": "345678", "boards": 60}, True, 30),
    Recipe("rm-digits-s1.25", "react-minesweeper", {"scale": 1.25, "rows": 16, "cols": 16, "chance": 65,
           "digits": "345678", "boards": 80}, True, 31),
    Recipe("rm-digits-s2", "react-minesweeper", {"scale": 2.0, "rows": 10, "cols": 10, "chance": 65,
           "digits": "345678", "boards": 120}, True, 32),
    Recipe("rm-digits-s1.5", "react-minesweeper", {"scale": 1.5, "rows": 12, "cols": 14, "chance": 65,
           "digits": "345678", "boards": 100}, True, 33),
    Recipe("rm-digits-s1-b", "react-minesweeper", {"scale": 1.0, "rows": 14, "cols": 24, "chance": 65,
           "digits": "345678", "boards": 60}, False, 40),
    Recipe("rm-digits-s1.25-b", "react-minesweeper", {"scale": 1.25, "rows": 14, "cols": 18, "chance": 65,
           "digits": "345678", "boards": 80}, False, 41),
    Recipe("rm-digits-s2-b", "react-minesweeper", {"scale": 2.0, "rows": 9, "cols": 12, "chance": 65,
           "digits": "345678", "boards": 120}, False, 42),
    Recipe("rm-digits-s1.5-b", "react-minesweeper", {"scale": 1.5, "rows": 10, "cols": 12, "chance": 65,
           "digits": "345678", "boards": 100}, False, 43),
)


def run_recipe(recipe: Recipe, screen: MssScreen, attempts: int = 4) -> list[LabelledShot]:
    """Run one session on its client (the current DISPLAY) and return its labelled shots.

    A desktop game whose rules check fails (e.g. a "?" placed on a mine draws differently) is
    discarded and replayed with the next seed, up to ``attempts`` times.
    """
    runner = {"gnome-mines": _gnome_mines, "xdemineur": _xdemineur, "react-minesweeper": _react}[recipe.client]
    last: Exception | None = None
    for attempt in range(attempts):
        try:
            return runner(recipe, screen, random.Random(recipe.seed * 100 + attempt))
        except TruthCheckError as exc:
            log.warning("%s: attempt %d discarded: %s", recipe.name, attempt + 1, exc)
            last = exc
    raise TruthCheckError(f"{recipe.name}: no game passed the rules check in {attempts} attempts ({last})")


def _gnome_mines(recipe: Recipe, screen: MssScreen, rng: random.Random) -> list[LabelledShot]:
    options = dict(recipe.options)
    if "high" in options:
        return _high_numbers(recipe, screen, rng)
    solver = options.pop("solver", False)
    pointer_only = options.pop("pointer_only", False)
    if "custom" in options:
        cols, rows, _ = options["custom"]
        mines = None
    else:
        cols, rows, mines = GNOME_MINES_LEVELS[options["level"]]
    with start_gnome_mines(**options) as client:
        session = Session(client, None, screen, **gnome_mines_exploded(options.get("theme")),  # type: ignore[arg-type]
                          mines=mines if mines is not None else options["custom"][2])
        session.away()
        fresh = session.frame()
        session.lattice, session.starts = gnome_mines_lattice(fresh, client, rows, cols)
        look = Looks(session.cells(fresh), strict=_integer_pitch(session.lattice.pitch))
        start = (min(3, rows // 2), min(3, cols // 2))
        choose = None
        if solver:
            choose, session.won = _solver_driver(session, mines, won_when="all-safe-open")
            session.dismiss_win = lambda: _press("Escape")
        shots = play_desktop_game(session, look, recipe.name, rng, start, flags=0 if solver else 3, question=True,
                                  hover_shots=1, hover_marks=pointer_only, keep_every=2 if not solver else 6,
                                  choose=choose)
        if pointer_only:
            return [shot for shot in shots if "hover" in shot.tags]
        fresh_board = parse_board("\n".join("#" * cols for _ in range(rows)))
        return [LabelledShot(client.client, f"{recipe.name}-fresh", fresh, session.lattice, fresh_board,
                             shots[0].window, ("fresh",)), *shots]


def _xdemineur(recipe: Recipe, screen: MssScreen, rng: random.Random) -> list[LabelledShot]:
    options = dict(recipe.options)
    if "high" in options:
        return _high_numbers(recipe, screen, rng)
    solver = options.pop("solver", False)
    with start_xdemineur(**options) as client:
        session = Session(client, xdemineur_lattice(client, options["rows"], options["cols"]), screen,
                          exploded_red_fraction=0.4, inset=0.0)
        session.away()
        start = session.frame()
        covered = _probe_covered(session, start, rng)
        look = Looks(np.broadcast_to(covered, (options["rows"], options["cols"], *covered.shape)).copy(), strict=True)
        choose = None
        if solver:
            choose, session.won = _solver_driver(session, options["mines"], won_when="no-covered")
        return play_desktop_game(session, look, recipe.name, rng, None, flags=0 if solver else 3, question=True,
                                 hover_shots=1, keep_every=3 if not solver else 8, choose=choose)


HIGH = "5678"


def _high_numbers(recipe: Recipe, screen: MssScreen, rng: random.Random) -> list[LabelledShot]:
    """Up to ``high`` short games on a very dense board, each opened at random until it is lost.

    A safe cell on such a board usually borders many mines, so the games show 5-8 now and then.
    Each game is labelled by the rules like any other (the mines on the lost screen, every number
    recomputed); a game the rules check rejects is skipped. Only games showing a number not yet
    kept among ``digits`` (default 5-8) are returned, so the fixtures stay few. With
    ``keep="before-loss"`` the shot kept is the board just before the losing click (labelled from the
    lost board like every earlier shot of a game): mostly covered cells, which the locator finds,
    where the lost board is mostly mines.
    """
    options = dict(recipe.options)
    games = options.pop("high")
    wanted = frozenset(options.pop("digits", HIGH))
    keep = options.pop("keep", "lost")
    kept: list[LabelledShot] = []
    seen: set[str] = set()
    failures = 0
    with _DenseGames(recipe, options, screen, rng, snapshots=keep != "lost") as dense:
        for game in range(games):
            try:
                shots = dense.play(game)
            except TruthCheckError as exc:
                log.warning("%s: game %d discarded: %s", recipe.name, game, exc)
                continue
            except ScreenError as exc:  # e.g. the client closed its window: the games kept so far still count
                log.warning("%s: game %d lost to a client error: %s", recipe.name, game, exc)
                dense.reset()
                failures += 1
                if failures > 3:
                    break
                continue
            if shots is None:
                continue
            final = shots[0] if keep == "lost" else shots[-1]
            shown = {ch for _, _, ch in final.board.cells()} & wanted
            log.info("%s: game %d lost showing %s", recipe.name, game,
                     "".join(sorted(shown)) or "none of " + "".join(sorted(wanted)))
            if shown - seen:
                seen |= shown
                tags = final.tags if keep == "lost" else ("mid-game",)
                kept.append(LabelledShot(final.client, f"{recipe.name}-g{game}", final.frame, final.lattice,
                                         final.board, final.window, tags))
            if seen >= wanted:
                break
    if not kept:
        raise TruthCheckError(f"{recipe.name}: no game showed any of {''.join(sorted(wanted))} in {games} games")
    missing = wanted - seen
    if missing:
        log.warning("%s: no game showed %s in %d games", recipe.name, "".join(sorted(missing)), games)
    return kept


class _DenseGames:
    """Short games on one dense board, played by random clicks to their end.

    gnome-mines keeps one client for all the games (Ctrl+R starts the next one on the same window,
    so the lattice and the covered pictures of the fresh board stay valid); ``resize`` sets the
    window's size once the game shows (the custom page makes the window taller than a level's, and
    the cell size follows the window). xdemineur gets a new client per game.
    """

    def __init__(self, recipe: Recipe, options: dict, screen: MssScreen, rng: random.Random,
                 snapshots: bool = False) -> None:
        self.recipe, self.screen, self.rng = recipe, screen, rng
        self.snapshots = snapshots  # label a shot after every move (else only the lost board)
        self.options = dict(options)
        self.resize = self.options.pop("resize", None)
        self.first = self.options.pop("first", None)
        self.session: Session | None = None
        self.look: Looks | None = None

    def __enter__(self) -> _DenseGames:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.reset()

    def reset(self) -> None:
        if self.session is not None:
            self.session.client.close()
        self.session = self.look = None

    def play(self, game: int) -> list[LabelledShot] | None:
        """The game's labelled shots, the lost board first and the board before the losing click
        last, or None if it was won."""
        prefix = f"{self.recipe.name}-g{game}"
        if self.recipe.client == "gnome-mines":
            session, look, start = self._gnome_mines_game()
        else:
            session, look, start = self._xdemineur_game()
        try:
            shots = play_desktop_game(session, look, prefix, self.rng, start, flags=0, question=False,
                                      hover_shots=0, keep_every=1 if self.snapshots else 10**6)
        finally:
            if self.recipe.client != "gnome-mines":
                self.reset()
        return shots if "lost" in shots[0].tags else None

    def _gnome_mines_game(self) -> tuple[Session, Looks, tuple[int, int]]:
        cols, rows, _ = self.options["custom"]
        if self.session is None:
            client = start_gnome_mines(**self.options)
            self.session = Session(client, None, self.screen, **gnome_mines_exploded(self.options.get("theme")),  # type: ignore[arg-type]
                                   mines=self.options["custom"][2])
            if self.resize:
                _resize_window(client, self.resize)
            self.session.away()
            fresh = self.session.frame()
            self.session.lattice, self.session.starts = gnome_mines_lattice(fresh, client, rows, cols)
            log.info("%s: %dx%d board at a %.2f x %.2f px pitch", self.recipe.name, cols, rows,
                     *self.session.lattice.pitch)
            self.look = Looks(self.session.cells(fresh), strict=_integer_pitch(self.session.lattice.pitch))
        else:
            _press("Control_L", "r")  # the next game on the same window
            self.session.away()
            cells = self.session.cells(self.session.frame())
            if not all(self.look.is_covered(cells[r, c], r, c) for r in range(rows) for c in range(cols)):
                raise ScreenError("Ctrl+R did not bring a fresh board")
        start = self.first or (self.rng.randrange(1, rows - 1), self.rng.randrange(1, cols - 1))
        return self.session, self.look, start

    def _xdemineur_game(self) -> tuple[Session, Looks, None]:
        options = self.options
        client = start_xdemineur(**options)
        session = Session(client, xdemineur_lattice(client, options["rows"], options["cols"]), self.screen,
                          exploded_red_fraction=0.4, inset=0.0)
        self.session = session
        session.away()
        covered = _probe_covered(session, session.frame(), self.rng)
        look = Looks(np.broadcast_to(covered, (options["rows"], options["cols"], *covered.shape)).copy(), strict=True)
        return session, look, None


def _resize_window(client, size: tuple[int, int], timeout: float = 3.0) -> None:
    """Ask for the client area ``size`` (width, height) and wait until the window has it."""
    from screenbot.platforms.x11.windows import connect

    conn = connect()
    try:
        conn.create_resource_object("window", client.window).configure(width=int(size[0]), height=int(size[1]))
        conn.sync()
    finally:
        conn.close()
    deadline = time.monotonic() + timeout
    while (client.geometry().width, client.geometry().height) != tuple(size):
        if time.monotonic() > deadline:
            raise ScreenError(f"the window did not take the size {size[0]}x{size[1]}: {client.geometry()}")
        time.sleep(0.05)
    time.sleep(0.3)  # GTK lays the board out again after the resize


def _press(*keys: str) -> None:
    """Press ``keys`` together (held in order, released in reverse) through XTEST, as a user would."""
    from Xlib import X, XK
    from screenbot.platforms.x11.windows import connect
    from Xlib.ext import xtest

    conn = connect()
    try:
        codes = [conn.keysym_to_keycode(XK.string_to_keysym(key)) for key in keys]
        for code in codes:
            xtest.fake_input(conn, X.KeyPress, code)
            conn.sync()
        for code in reversed(codes):
            xtest.fake_input(conn, X.KeyRelease, code)
            conn.sync()
    finally:
        conn.close()


def _solver_driver(session: Session, mines: int | None, won_when: str):
    """Steer a game with the recognizer and the solver, so that some games are won. Only the moves
    come from here; the screenshots' truth still comes from the rules at the end of the game."""
    from solver.errors import InconsistentBoardError
    from solver.policy import PolicyConfig, decide

    from screenbot.errors import ScreenError
    from screenbot.vision import load_skins, read_board

    skins = load_skins()

    def board_of(frame):
        try:
            return read_board(frame, session.lattice, skins, mines=mines).board
        except ScreenError:
            return None

    def choose(frame):
        board = board_of(frame)
        if board is None or board.count("#?") == 0:
            return None
        try:
            move = decide(board, PolicyConfig(flag_mines=True)).moves[0]
        except InconsistentBoardError:
            return None
        return (move.action, move.row, move.col)

    def won(frame) -> bool:
        board = board_of(frame)
        if board is None or board.is_over:
            return False
        hidden = board.count("#?F")
        if won_when == "no-covered":
            return board.count("#?") == 0
        return mines is not None and hidden == mines

    return choose, won


def _probe_covered(session: Session, frame, rng: random.Random):
    """The covered picture of a board the client opened by itself: of the most common pictures, the
    one whose cell changes when right-clicked (a flag appears), after which the flag is taken off."""
    from .labels import _classes

    cells = session.cells(frame)
    ids = _classes(cells)
    counts = np.bincount(ids.ravel())
    for cls in np.argsort(-counts):
        rows, cols = np.nonzero(ids == cls)
        i = rng.randrange(len(rows))
        r, c = int(rows[i]), int(cols[i])
        session.click(r, c, button=3)
        changed = not _same(session.cells(session.frame())[r, c], cells[r, c])
        if changed:
            session.click(r, c, button=3)  # flag -> "?"
            session.click(r, c, button=3)  # "?" -> covered
            return cells[r, c]
    raise TruthCheckError("no picture on the board reacts to a right-click: cannot tell covered cells")


def _integer_pitch(pitch: tuple[float, float]) -> bool:
    return all(abs(p - round(p)) < 0.02 for p in pitch)


def _same(a, b) -> bool:
    from .labels import same

    return same(a, b)


def _react(recipe: Recipe, screen: MssScreen, rng: random.Random) -> list[LabelledShot]:
    options = dict(recipe.options)
    rows, cols, chance = options.pop("rows"), options.pop("cols"), options.pop("chance")
    digits = options.pop("digits", None)
    with start_react_minesweeper(scale=options["scale"], devtools=True) as client:
        with DevToolsPage(page_websocket_url(client.devtools_port, client.url)) as page:
            if digits:
                return _react_digits(recipe, client, page, screen, rng, rows, cols, chance, digits, options["boards"])
            return _react_game(recipe, client, page, screen, rng, rows, cols, chance)


_SET_INPUT_JS = """
((id, value) => {
  const el = document.getElementById(id);
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(el, String(value));
  el.dispatchEvent(new Event('input', {bubbles: true}));
})(%r, %d)
"""


def _react_setup(page, rows: int, cols: int, chance: int) -> None:
    page.evaluate(_SET_INPUT_JS % ("bomb-chance", chance))
    page.evaluate(_SET_INPUT_JS % ("fields-horizontally", cols))
    page.evaluate(_SET_INPUT_JS % ("fields-vertically", rows))
    page.evaluate("document.querySelector('table.minesweeper').scrollIntoView({block: 'center'})")
    time.sleep(0.5)


def _react_shot(recipe, client, page, screen, rows, cols, tag: str, name: str,
                hover: tuple[int, int] | None = None) -> LabelledShot:
    """One screenshot labelled with the page's state, read just before and just after the grab (a
    page that changed in between is refused). The pointer rests in the screen's corner, or on
    ``hover``."""
    width, height = screen.size
    lattice = react_lattice(screen.grab(), page, rows, cols)
    if hover is not None:
        move_pointer(*map(int, lattice.cell_center(*hover)))
        time.sleep(0.2)
    else:
        move_pointer(width - 1, height - 1)
        time.sleep(0.1)
    before = page.evaluate(REACT_MINESWEEPER_STATE_JS)
    frame = screen.grab()
    after = page.evaluate(REACT_MINESWEEPER_STATE_JS)
    if before != after:
        raise TruthCheckError(f"{recipe.name}-{name}: the page changed while the screenshot was taken")
    board = parse_board(react_minesweeper_board_text(after))
    return LabelledShot(client.client, f"{recipe.name}-{name}", frame, lattice, board,
                        client.geometry().as_region(), (tag,))


def _react_digits(recipe, client, page, screen, rng, rows, cols, chance, digits: str, boards: int,
                  times: int = 3) -> list[LabelledShot]:
    """Open, by real clicks, one safe cell of each count in ``digits`` that has been kept fewer than
    ``times`` times, on up to ``boards`` dense boards (the page's state only says where they are);
    keep each board where one was opened. Such a cell opens alone (only a zero opens its
    neighbours), so nothing is lost, and the board stays mostly covered cells, as the locator needs
    (it finds where cells start from the commonest states: covered, flag, 0-2, mine)."""
    _react_setup(page, rows, cols, chance)
    wanted = sorted(set(digits))
    width, height = screen.size
    kept = {d: 0 for d in wanted}
    shots: list[LabelledShot] = []
    for game in range(boards):
        if game:
            page.evaluate("document.querySelector('.minesweeper__restart').click()")  # a new board
            time.sleep(0.2)
        board = page.evaluate(REACT_MINESWEEPER_STATE_JS)["board"]
        targets = []
        for digit in (d for d in wanted if kept[d] < times):
            cells = [(r, c) for r in range(rows) for c in range(cols)
                     if not board[r][c]["b"] and str(board[r][c]["n"]) == digit]
            targets += rng.sample(cells, min(1, len(cells)))
        if not targets:
            continue
        lattice = react_lattice(screen.grab(), page, rows, cols)
        for r, c in targets:
            # Chromium drops clicks sent back to back: each waits until the page has opened its cell.
            if not _click_until(page, lambda: click_at(*lattice.cell_center(r, c)),
                                lambda state: state["board"][r][c]["r"]):
                raise TruthCheckError(f"{recipe.name}: board {game}: a click did not open the safe cell ({r}, {c})")
        move_pointer(width - 1, height - 1)
        time.sleep(0.2)
        if page.evaluate(REACT_MINESWEEPER_STATE_JS)["lost"]:
            raise TruthCheckError(f"{recipe.name}: board {game}: lost while opening safe cells")
        shot = _react_shot(recipe, client, page, screen, rows, cols, "mid-game", f"g{game}")
        shown = sorted({ch for _, _, ch in shot.board.cells()} & set(wanted))
        log.info("%s: board %d shows %s", recipe.name, game, "".join(shown))
        for digit in shown:
            kept[digit] += 1
        shots.append(shot)
        if min(kept.values()) >= times:
            break
    if not shots:
        raise TruthCheckError(f"{recipe.name}: no board showed any of {digits} in {boards} boards")
    missing = "".join(d for d in wanted if not kept[d])
    if missing:
        log.warning("%s: no board showed %s in %d boards", recipe.name, missing, boards)
    return shots


def _click_until(page, click, done, attempts: int = 3, timeout: float = 1.0) -> bool:
    """Click, then poll the page's state until ``done(state)``; click again if it never comes."""
    for _ in range(attempts):
        click()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if done(page.evaluate(REACT_MINESWEEPER_STATE_JS)):
                return True
            time.sleep(0.02)
    return False


def _react_game(recipe, client, page, screen, rng, rows, cols, chance) -> list[LabelledShot]:
    _react_setup(page, rows, cols, chance)
    shots: list[LabelledShot] = []
    width, height = screen.size

    def state():
        return page.evaluate(REACT_MINESWEEPER_STATE_JS)

    def shoot(tag: str, name: str, hover: tuple[int, int] | None = None) -> None:
        shots.append(_react_shot(recipe, client, page, screen, rows, cols, tag, name, hover))

    def click(r: int, c: int, button: int = 1) -> None:
        lattice = react_lattice(screen.grab(), page, rows, cols)
        click_at(*lattice.cell_center(r, c), button=button)
        move_pointer(width - 1, height - 1)
        time.sleep(0.2)

    shoot("fresh", "fresh")
    board = state()["board"]
    safe = [(r, c) for r in range(rows) for c in range(cols) if not board[r][c]["b"]]
    mines = [(r, c) for r in range(rows) for c in range(cols) if board[r][c]["b"]]
    # Open zeros first (a larger opening), using the page's knowledge only to steer the game.
    zeros = [rc for rc in safe if board[rc[0]][rc[1]]["n"] == 0]
    for r, c in (zeros or safe)[:1] + rng.sample(safe, min(2, len(safe))):
        click(r, c)
    shoot("mid-game", "opened")
    for r, c in rng.sample(mines, min(3, len(mines))):
        click(r, c, button=3)
    covered_safe = [(r, c) for r, c in safe if not state()["board"][r][c]["r"]]
    # A wrong flag: the client shows it like any other flag, as long as no flood fill opens its cell
    # (then it draws the flag on an open cell), so it goes where no zero can open it.
    unreachable = [(r, c) for r, c in covered_safe if board[r][c]["n"] and not any(
        0 <= r + dr < rows and 0 <= c + dc < cols and not board[r + dr][c + dc]["b"] and board[r + dr][c + dc]["n"] == 0
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))]
    for r, c in rng.sample(unreachable or covered_safe, min(1, len(covered_safe))):
        click(r, c, button=3)
    shoot("flagged", "flagged")
    hidden = [(r, c) for r in range(rows) for c in range(cols) if not state()["board"][r][c]["r"]]
    shoot("hover", "hover", hover=rng.choice(hidden))
    if recipe.seed % 2:
        for r, c in safe:
            if not state()["board"][r][c]["r"]:
                if state()["board"][r][c]["f"]:
                    click(r, c, button=3)
                click(r, c)
        if not state()["won"]:
            raise TruthCheckError(f"{recipe.name}: opening every safe cell did not win")
        shoot("won", "won")
    else:
        for r, c in rng.sample(safe, min(6, len(safe))):
            if not state()["board"][r][c]["r"] and not state()["board"][r][c]["f"]:
                click(r, c)
        shoot("mid-game", "more")
        flagged = {(r, c) for r, c in mines if state()["board"][r][c]["f"]}
        target = next((m for m in mines if m not in flagged), None)
        if target is None:
            raise TruthCheckError(f"{recipe.name}: every mine is flagged, cannot lose")
        click(*target)
        if not state()["lost"]:
            raise TruthCheckError(f"{recipe.name}: opening a mine did not lose")
        shoot("lost", "lost")
    return shots
