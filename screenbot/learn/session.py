"""Drive a client nobody described: play games on its board and collect what is needed to name its cell
pictures (``naming``) and to play it (its first-click rule, flags; its restart and what a win brings are
``ends.GameEnds``').

Everything the session sees is kept as cluster ids per frame (``watch.Seen``); the names come later,
from the lost games, and every kept frame is then labelled with them (``skin`` builds the skin from
those). How it looks and clicks is ``watch.Watcher``'s.
"""

from __future__ import annotations

import logging
import random
from typing import Callable

import numpy as np

from ..geometry import Rect
from ..mouse import BoardMouse
from ..play.profile import ControlAction, usual_restarts
from ..vision.new_game_control import control_above
from .clusters import Clusters
from .ends import GameEnds
from .naming import LostGame, NamingError, label, merge, name_lost_board
from .watch import (Desk, LearnError, Seen, board_lattice, crop_around, debug_dump,
                    fresh_phase, only_cell_changed, opened_ids)

log = logging.getLogger(__name__)

# Named lost games after which a client with a known mine total is played with the solver's help even
# if it never showed a wrong flag (xbomb draws none).
ASSIST_AFTER = 3
# Where the games asked for showed no win, learn plays on, up to this many times as many games in all,
# to see how the client shows one.
MORE_GAMES_FOR_A_WIN = 2
# Seconds waited before each new try of a game's first click that changed nothing.
FIRST_CLICK_RETRIES = (0.5, 1.5)
# The flag click tried where a right click places no flag: a left click with Ctrl held (minesweeper-for-web
# and other web clients; Ctrl+click on a board cell opens or navigates nothing, unlike on a link).
FLAG_KEYS = ("ctrl",)


def flag_click_name(keys: tuple[str, ...]) -> str:
    """The flag click in words: "Ctrl+click" for ``("ctrl",)``, "right click" for none."""
    return "+".join(key.capitalize() for key in keys) + "+click" if keys else "right click"


class Session(GameEnds):
    """One learning session: the games played on the board of one client window, and what they tell."""

    # -- the steps -----------------------------------------------------------------------------------

    def start(self) -> None:
        """Find the board, take the fresh board's picture as covered, see whether cells light up."""
        screen_frame = self.desk.screen.grab()
        found = board_lattice(screen_frame, self.name)
        self.look_at(fresh_phase(screen_frame, found), screen_frame)
        self.park()
        self.desk.sleep(0.2)
        image, ids = self.settled()
        values, counts = np.unique(ids, return_counts=True)
        if len(values) == 1:
            self.seen.covered.add(int(values[0]))
        else:
            # Not one picture: a client that opens an area of each game itself (or a board still being
            # drawn). The boxes stay as found (fresh_phase looks for a board of one picture), and the
            # board must hold still a while before its pictures are trusted.
            self.look_at(found, screen_frame)
            image, ids = self.settled()
            for _ in range(3):
                self.desk.sleep(0.5)
                image, again = self.settled()
                if np.array_equal(again, ids):
                    break
                ids = again
            values, counts = np.unique(ids, return_counts=True)
            self.seen.covered.add(self.preopened_covered(ids, values, counts))
            self.seen.preopened = True
            log.info("learn: the client opened an area of the new game itself")
        self.keep(image, ids, "fresh")
        lattice = self.seen.lattice
        log.info("learn: %dx%d board at %s, pitch %.2fx%.2f", lattice.rows, lattice.cols, lattice.board_rect(),
                 *lattice.pitch)

    def look_at(self, lattice, screen_frame: np.ndarray) -> None:
        """Look at the board of ``lattice`` from now on (a new ``Seen``), with a mouse for it."""
        height, width = screen_frame.shape[:2]
        crop = crop_around(lattice, self.desk.window, width, height)
        self.seen = Seen(lattice, crop, Clusters())
        self.mouse = BoardMouse(self.desk.mouse, lattice, self.desk.scale, Rect(0, 0, width, height))
        if self.desk.window is not None:
            try:
                self.seen.window_title = self.desk.window.title() or None
            except Exception:  # a title is only a convenience for the profile
                self.seen.window_title = None

    def preopened_covered(self, ids: np.ndarray, values: np.ndarray, counts: np.ndarray) -> int:
        """The covered picture of a new game the client opened an area of by itself: the commonest
        picture, if a right click on one of its cells shows something else (a flag), then put back. The
        area may be most of the board, so the commonest picture need hold only a quarter of the cells:
        the right click is the evidence (a 0 or a number takes no flag)."""
        lat = self.seen.lattice
        # Said as seen: a fresh game's cells look one way; this grid may be a board cut by its window
        # (scroll bars), another grid taken for the board, or a game already started.
        refusal = (f"the cells of the {lat.rows}x{lat.cols} grid found look {len(values)} different ways, where "
                   "a fresh game's all look one way")
        advice = "show the whole board (no scroll bars) with a new game, leave it untouched and run learn again"
        candidate = int(values[int(np.argmax(counts))])
        if counts.max() < ids.size / 4:
            raise LearnError(f"{refusal}: {advice}", code=1)
        cells = [(int(r), int(c)) for r, c in np.argwhere(ids == candidate)]
        cell = self.rng.choice(cells)
        image, marked = self.right(ids, cell)
        if int(marked[cell]) == candidate:
            raise LearnError(f"{refusal}, and a right click on the commonest picture changed nothing: {advice}", code=1)
        if not self.right_until(image, marked, cell, candidate)[2]:  # round the flag's cycle, back to covered
            raise LearnError("a right click on a covered cell did not come back to covered after three more", code=1)
        return candidate

    def hover(self, image: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Point at a covered cell and see whether it lights up (then parked again)."""
        covered = self.covered_cells(ids)
        if not covered:
            return image, ids
        r, c = self.rng.choice(covered)
        x, y = self.seen.lattice.cell_center(r, c)
        self.desk.mouse.move(*self.desk.scale.to_points(x, y))
        self.desk.sleep(0.1)
        lit_image, lit_ids = self.settled(previous=ids, timeout=0.3)
        if int(lit_ids[r, c]) not in self.seen.covered and (lit_ids != ids).sum() == 1:
            self.seen.lit = int(lit_ids[r, c])
            self.seen.covered.add(self.seen.lit)
            self.keep(lit_image, lit_ids, "hover")
        self.park()
        return self.settled(previous=lit_ids, timeout=0.3)

    def play_game(self, first_game: bool) -> None:
        """One game: the first click, a flag (and, once, the flag's cycle), then random opens until
        the clicks change nothing any more; the last change is the loss, named by the rules."""
        seen = self.seen
        lat = seen.lattice
        seen.opened = set()
        self.desk.sleep(0.05)
        image, ids = self.settled()
        if seen.preopened:
            # The client opened an area itself: the game is on.
            seen.games_played += 1
            opened_at_first, first_id = int((~np.isin(ids, list(seen.covered))).sum()), None
        else:
            if set(np.unique(ids).tolist()) - seen.covered:
                raise LearnError("the board did not start as a fresh game", code=1)
            first = (lat.rows // 2, lat.cols // 2)
            image, after = self.open(ids, first)
            # A client just started may draw its board before it takes clicks (minegauler, once, on a
            # busy machine): the first click is tried again, a little later each time.
            for wait in FIRST_CLICK_RETRIES:
                if not np.array_equal(after, ids):
                    break
                self.desk.sleep(wait)
                image, after = self.open(ids, first)
            if np.array_equal(after, ids):
                if self.desk.window is not None:
                    self.desk.window.geometry()  # WindowGoneError when the client closed (or crashed)
                raise LearnError("the client does not react to clicks on its board (a left click on a covered "
                                 f"cell changed nothing, {1 + len(FIRST_CLICK_RETRIES)} times): nothing was written",
                                 code=1)
            seen.games_played += 1
            opened_at_first = int((after != ids).sum())
            first_id = int(after[first])
            seen.opened.add(first)
            self.keep(image, after, "first click")
            # A small board's first click may open every safe cell with its flood: the game is won.
            if self._won_by(ids, after, first, opened_at_first, first_id):
                return
            ids = after
        if first_game:
            image, ids = self.hover(image, ids)
            image, ids = self.probe_focus(image, ids)
        opened_seen = opened_ids(seen, ids) | {cid for cid, n in seen.names.items() if n.isdigit()}
        # Flags: right clicks on a covered cell. The first game with a covered cell left after its first
        # click follows the cell round its whole cycle (flag, maybe a question mark, covered again: a
        # first game lost at its first click has none); every game leaves one flag standing, which the
        # loss shows as a flag (a mine) or a wrong flag.
        # Once a lost game has been named (and a wrong flag seen), the solver picks safe cells from what
        # is named: games then go further (more numbers) and some are won (the win's look). A flag left
        # on a cell that may be safe would mislead the solver, so those games place none. A client
        # that never draws a wrong flag (xbomb) is assisted after ASSIST_AFTER named games instead.
        assisted = self._mine_total() is not None and ("W" in seen.names.values() or seen.games_named >= ASSIST_AFTER)
        flagged: set[tuple[int, int]] = set()
        if not assisted:
            image, ids, flagged = self.flag_one(image, ids, cycle=seen.flag is None)
        # Random opens until the game is over.
        before, before_image = ids, image
        last_click: tuple[int, int] | None = None
        still = 0
        for _ in range(lat.rows * lat.cols + 5):
            choices = [c for c in self.covered_cells(ids) if c not in flagged]
            if not choices:
                break
            cell, board = self.pick(ids, choices, assisted)
            if board is not None and board.is_over:
                break  # the loss is on the board already
            image_next, after = self.clear_board(ids, *self.open(ids, cell))
            if self._won_by(ids, after, cell, opened_at_first, first_id):
                return
            if np.array_equal(after, ids):
                still += 1
                if still >= 2:
                    break
                continue
            if still:
                seen.dropped_clicks += 1  # a click changed nothing, yet the game went on
            still = 0
            seen.opened.add(cell)
            opened_seen |= opened_ids(seen, ids)
            before, before_image, last_click, ids, image = ids, image, cell, after, image_next
        if last_click is None:
            seen.refused.append("no open after the first click changed the board")
            self._first_click_evidence(opened_at_first, first_id, None)
            return
        lost = LostGame(before, ids, last_click, frozenset(seen.covered),
                        frozenset(seen.flags()), frozenset(opened_seen),
                        seen.clusters.alike, flagged=frozenset(flagged))
        try:
            naming = name_lost_board(lost)
            seen.names = merge(seen.names, naming.names)
        except NamingError as exc:
            seen.refused.append(f"game {seen.games_played}: {exc}")
            debug_dump(seen.games_played, lost, before_image, image, exc)
            log.info("learn: game %d not used: %s", seen.games_played, exc)
            self._first_click_evidence(opened_at_first, first_id, None)
            return
        seen.games_named += 1
        if naming.mines is not None:
            seen.mine_counts.append(naming.mines)
        debug_dump(seen.games_played, lost, before_image, image, "named:\n" + "\n".join(naming.board.grid))
        self.keep(before_image, before, "before the loss", opened=seen.opened - {last_click})
        self.keep(image, ids, "lost", all_mines_shown=naming.mines is not None, flagged=flagged)
        self._first_click_evidence(opened_at_first, first_id, naming.names)
        flood = flood_seen(label(before, seen.all_names()))
        if flood is not None:
            seen.floods.append(flood)
        log.info("learn: game %d lost after %d cells opened; %s mines; names so far %s", seen.games_played,
                 int((~np.isin(ids, list(seen.covered))).sum()), naming.mines,
                 "".join(sorted(set(seen.names.values()))))

    def probe_focus(self, image: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Does the client hide its board when its window loses the keyboard (gnome-mines pauses)?
        A small window of ours takes the keyboard for a moment, then the client's window gets it back."""
        window = self.desk.window
        if window is None or self.desk.desktop is None:
            return image, ids
        try:
            probe = self.desk.desktop.focus_probe()
        except Exception as exc:  # no window of ours to take the keyboard: the rule stays unknown (false)
            log.info("learn: could not open a window to take the keyboard (%s)", exc)
            return image, ids
        try:
            if probe.rect().intersects(self.seen.lattice.board_rect()):
                away = ids  # the window manager put it over the board: no answer from this
            else:
                _, away = self.settled(previous=ids, timeout=0.6)
        finally:
            probe.close()
        self.seen.pauses_on_focus_loss = bool((away != ids).mean() > 0.5)
        window.activate()
        self.desk.sleep(0.1)
        image, back = self.settled(previous=away if self.seen.pauses_on_focus_loss else None, timeout=1.0)
        if self.seen.pauses_on_focus_loss and not np.array_equal(back, ids):
            raise LearnError("the board did not come back after the client's window got the keyboard again", code=1)
        log.info("learn: the board is %s when the window loses the keyboard",
                 "hidden" if self.seen.pauses_on_focus_loss else "still shown")
        return image, back

    def flag_one(self, image: np.ndarray, ids: np.ndarray, cycle: bool) -> tuple[np.ndarray, np.ndarray, set]:
        """Right-click a covered cell until it shows a flag; returns the frame and the flagged cells.
        With ``cycle``, first learn what successive right clicks show."""
        seen = self.seen
        covered = self.covered_cells(ids)
        if not covered:
            return image, ids, set()
        cell = self.rng.choice(covered)
        shown: list[int] = []
        frames = []
        for k in range(4 if cycle else 1):
            image, ids = self.right(ids, cell, again=k > 0)
            state = int(ids[cell])
            if k == 0 and state in seen.covered:
                # Not taken (a toolkit may count it with the click before as a double click): once more.
                image, ids = self.right(ids, cell, again=True)
                state = int(ids[cell])
            shown.append(state)
            frames.append((image, ids))
            if state in seen.covered:
                break
        log.info("learn: %ss on covered cell %s show %s", flag_click_name(self.mouse.flag_keys), cell, shown)
        if cycle and shown and shown[0] in seen.covered and not self.mouse.flag_keys:
            # No right click taken: the client's own flag click may be a left click with a key held.
            found, image, ids = self.flag_by_keys(ids, cell)
            if found:
                return self.flag_one(image, ids, cycle=True)
        if cycle and shown and shown[0] not in seen.covered:
            seen.flag = shown[0]
            self.keep(*frames[0], "flag")
            if len(shown) >= 3 and shown[1] not in seen.covered and shown[1] != shown[0] and shown[2] in seen.covered:
                seen.question = shown[1]
                self.keep(*frames[1], "question")
        if seen.flag is None:
            return image, ids, set()
        # The flag as drawn in this cell's box (another picture of it in a box of another size).
        flag = shown[0] if shown and seen.shows_flag(shown[0]) else seen.flag
        image, ids, shown = self.right_until(image, ids, cell, flag)  # back round to the flag
        if not shown:
            seen.refused.append("a right click did not come back to the flag")
        return image, ids, {cell}

    def flag_by_keys(self, ids: np.ndarray, cell: tuple[int, int]) -> tuple[bool, np.ndarray, np.ndarray]:
        """Whether a left click with FLAG_KEYS held flags ``cell`` (a covered cell a right click left
        as it was), with the frame and the cells after. A mark is what a few more such clicks take
        round back to covered (a flag, maybe a "?"), nothing else on the board changing; a client that
        ignores the key opens the cell instead (this game then goes on from there, or is lost). From
        then on every flag is sent so."""
        self.mouse.flag_keys = FLAG_KEYS
        image, marked = self.right(ids, cell, again=True, others_may_change=True)
        if int(marked[cell]) not in self.seen.covered and only_cell_changed(ids, marked, cell):
            for _ in range(3):
                image, after = self.right(marked, cell, again=True, others_may_change=True)
                if not only_cell_changed(marked, after, cell):
                    break
                marked = after
                if int(marked[cell]) in self.seen.covered:
                    self.seen.flag_keys = FLAG_KEYS
                    log.info("learn: no right click taken; %s marks cell %s and takes the mark off again",
                             flag_click_name(FLAG_KEYS), cell)
                    return True, image, marked
        self.mouse.flag_keys = ()
        self.seen.refused.append(f"a right click placed no flag, nor did {flag_click_name(FLAG_KEYS)}")
        return False, image, marked

    def right_until(self, image: np.ndarray, ids: np.ndarray, cell: tuple[int, int], picture: int,
                    tries: int = 3) -> tuple[np.ndarray, np.ndarray, bool]:
        """Right-click ``cell`` again until it shows ``picture`` (round a flag's cycle), at most ``tries``
        times: the frame, the cells, and whether it shows it."""
        for _ in range(tries):
            if int(ids[cell]) == picture:
                break
            image, ids = self.right(ids, cell, again=True)
        return image, ids, int(ids[cell]) == picture

    def wants_a_win(self) -> bool:
        """No win has shown how this client shows one, and games can be played to win (the mine total
        is known, so the solver helps)."""
        return self.seen.flags_to_win is None and self._mine_total() is not None

    def opened_by(self, ids: np.ndarray, after: np.ndarray, cell: tuple[int, int]) -> set[tuple[int, int]]:
        """The cells a click on ``cell`` opened (``ids`` before it, ``after`` after): the cell, and where
        it shows a 0, the flood the client opened around it (closed cells beside a 0 that changed; a
        mine is never beside a 0, so the marks a win puts on the mines are not taken for it)."""
        from solver.board import neighbours

        names = self.seen.all_names()
        closed = np.isin(ids, list(self.seen.covered))
        opened, zeros = {cell}, [cell] if names.get(int(after[cell])) == "0" else []
        while zeros:
            for n in neighbours(*ids.shape, *zeros.pop()):
                if n not in opened and closed[n] and after[n] != ids[n]:
                    opened.add(n)
                    if names.get(int(after[n])) == "0":
                        zeros.append(n)
        return opened

    def _won_by(self, ids: np.ndarray, after: np.ndarray, cell: tuple[int, int], opened_at_first: int,
                first_id: int | None) -> bool:
        """Did the click on ``cell`` (``ids`` before it, ``after`` after) open the last safe cells, proved
        so or guessed (a final 50/50 wins as often as it loses), alone or with the flood of a 0? Then the
        win is learnt from (``finish_win``) and the game is over."""
        opened = self.opened_by(ids, after, cell)
        if not (self._shows_safe(after, cell) and self._all_safe_open(ids, opened)):
            return False
        self.seen.opened |= opened
        # A won game's first click is as much evidence of the first-click rule as a lost one's
        # (solver-assisted games after the first named loss are often won: CI once named 1 of 6).
        self._first_click_evidence(opened_at_first, first_id, None)
        self.finish_win(ids, opened)
        return True

    def _shows_safe(self, ids: np.ndarray, cell: tuple[int, int]) -> bool:
        """Did the cell just opened show it was safe: a number (0-8), or a picture never named once the
        client's hit mine is known (a number not seen before: a 5 first shown by a game's last click
        was taken for a mine going off, and the won game named as a lost one)? A mine hit there shows
        the hit mine, and the other mines, which is not how the client shows a win."""
        names = self.seen.all_names()
        name = names.get(int(ids[cell]))
        return name.isdigit() if name is not None else "X" in names.values()

    def pick(self, ids: np.ndarray, choices: list[tuple[int, int]], assisted: bool):
        """The next cell to open, and the board as named (None when some picture has no name yet):
        when ``assisted``, one of the likeliest safe (proved safe where one is, so that games are won
        too: a win is learnt from); otherwise a random one."""
        from solver.errors import MinesweeperError
        from solver.probability import analyze

        board = label(ids, self.seen.all_names())
        if assisted and board is not None and not board.is_over:
            try:
                analysis = analyze(board.with_mines(self._mine_total()))
            except MinesweeperError:
                return self.rng.choice(choices), board
            risk = {c: analysis.probability(*c) for c in choices}
            lowest = min(risk.values())
            return self.rng.choice([c for c in choices if risk[c] == lowest]), board
        return self.rng.choice(choices), board

    def _first_click_evidence(self, opened: int, first_id: int | None, names: dict[int, str] | None) -> None:
        if self.seen.preopened:
            self.seen.first_clicks.append("preopened")
            return
        name = (names or self.seen.names).get(first_id)
        if name == "0" and opened > 1:
            self.seen.first_clicks.append("opening")
        elif name is not None and name.isdigit():
            self.seen.first_clicks.append("number")
        elif name in ("X", "*"):
            self.seen.first_clicks.append("lost")
        else:
            self.seen.first_clicks.append("unknown")



def flood_seen(board) -> str | None:
    """Which neighbours of a 0 the client opened by itself, as a game in play shows it (the board just
    before a loss; a lost board may show every cell, which says nothing): "none" when some 0 has a
    covered (or flagged) cell beside it, "4" when only diagonally, "8" when none has; None without a 0
    (or a board not all named)."""
    from solver.board import neighbours

    if board is None:
        return None
    zeros = [(r, c) for r, c, ch in board.cells() if ch == "0"]
    if not zeros:
        return None
    shut = [(r, c, n) for r, c in zeros for n in neighbours(board.rows, board.cols, r, c) if board[n] in "#F?"]
    if any(abs(n[0] - r) + abs(n[1] - c) == 1 for r, c, n in shut):
        return "none"
    return "4" if shut else "8"


def learn(desk: Desk, name: str, games: int, rng: random.Random | None = None,
          progress: Callable[[str], None] | None = None, restart: ControlAction | None = None) -> Seen:
    """Play ``games`` games on the board on screen and return what was seen (names, frames, rules).
    ``restart``: the way the user says the client starts a new game, tried before the usual ones."""
    session = Session(desk, name, rng)
    given = (("the given restart " + "+".join(restart.keys), restart),) if restart is not None else ()
    session.start()
    # A face or button seen above the board is clicked before the fixed guess at where one may be.
    control = control_above(desk.screen.grab(), session.seen.lattice)
    session.restarts = given + usual_restarts(desk.window, control)
    played = 0
    # A skin whose win rule is unknown has play count no win it cannot see the client show: where the
    # games asked for showed none, up to as many more are played to see one.
    while played < games or (session.wants_a_win() and played < games * MORE_GAMES_FOR_A_WIN):
        if played:
            session.restart()
        session.play_game(first_game=played == 0)
        played += 1
        if progress:
            of = f"of {games}" if played <= games else f"(no win seen yet: at most {games * MORE_GAMES_FOR_A_WIN})"
            progress(f"game {played} {of}: {session.seen.games_named} lost game(s) named so far; states "
                     f"seen: {''.join(sorted(set(session.seen.names.values())))}")
    # Leave a fresh game behind, and know how to start one.
    session.restart()
    return session.seen
