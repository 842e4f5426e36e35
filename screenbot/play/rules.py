"""The client's rules applied to a board read off the screen: its mine total, whether the game is over,
and what the solver should do about it.

Pure: no screen, no clock. ``loop.Player`` and its collaborators ask one ``GameRules`` so that every
place judges a board by the same rules (``--mines`` and ``--first`` over the profile's own); the hint
overlay and ``hint --image`` take the mine total and the first click from the same two functions.
"""

from __future__ import annotations

from solver.board import EXPLODED, FLAG, MINE, NUMBERS, UNKNOWN_CHARS, WRONG_FLAG, neighbours
from solver.constraints import build_constraints, deduce
from solver.policy import PolicyConfig, decide

from .consistency import OPEN_UNSHOWN, Problem, reading_problems
from .observer import UNCONFIRMED, WON, Action
from .outcome import PLAYING, every_covered_may_be_a_mine, game_status, is_fresh, only_mines_left
from .planner import FLAG_ACTION, OPEN, plan_actions
from .profile import PlayProfile
from .types import PlayConfig


def mine_total(given: int | None, profile: PlayProfile | None, rows: int, cols: int) -> int | None:
    """The mine total a board is judged with: the user's (--mines), else the client profile's for the
    board's size, else None (unknown)."""
    if given is not None:
        return given
    return profile.mine_total(rows, cols) if profile is not None else None


def first_click(given: tuple[int, int] | None, profile: PlayProfile | None, rows: int, cols: int) -> tuple[int, int] | None:
    """Where to open an untouched board: the user's cell, else the profile's choice for the board's size,
    else None (the solver's own)."""
    if given is not None:
        return given
    return profile.first_click_cell(rows, cols) if profile is not None else None


def hint_policy(given_first: tuple[int, int] | None, profile: PlayProfile | None, board) -> PolicyConfig:
    """The solver settings hints are made with: every cell's probability, not only the move."""
    return PolicyConfig(first_click=first_click(given_first, profile, board.rows, board.cols), full_analysis=True)


class GameRules:
    def __init__(self, profile: PlayProfile, config: PlayConfig) -> None:
        self.profile = profile
        self.config = config

    def policy_for(self, board) -> PolicyConfig:
        """The solver settings a decision on this board is made with (recorders store them)."""
        first = first_click(self.config.first_click, self.profile, board.rows, board.cols)
        # A client that counts flags (xdemineur) only declares a win once every mine is flagged. One
        # that also wants every safe cell open (xbomb, and every client learnt with flags) gets its
        # flags once no safe cell is left: flags placed earlier would win nothing sooner.
        flag = self.config.flag_mines or (self.profile.win_requires_all_flags and (
            not self.profile.win_requires_all_open or self._only_mines_covered(board)))
        return PolicyConfig(first_click=first, flag_mines=flag)

    def _only_mines_covered(self, board) -> bool:
        mines = self.mine_total_for(board)
        return mines is not None and board.count(UNKNOWN_CHARS) + board.count(FLAG) == mines

    def mine_total_for(self, board) -> int | None:
        """The mine total used for this board: --mines, else the profile's, else None (unknown)."""
        return mine_total(self.config.mines, self.profile, board.rows, board.cols)

    def status(self, board) -> str:
        """PLAYING, WON or LOST, by the client's rules (its mine total, whether a win needs all flags)."""
        return game_status(board, mines=self.mine_total_for(board), win_requires_all_flags=self.profile.win_requires_all_flags,
                           win_requires_all_open=self.profile.win_requires_all_open)

    def over(self, board) -> bool:
        return self.status(board) != PLAYING

    def assess(self, board) -> tuple[str, tuple[Action, ...], object]:
        """(status, actions, decision) for a board read off the screen. Raises InconsistentBoardError
        when no placement of mines fits the board."""
        mines = self.mine_total_for(board)
        status = self.status(board)
        if status == PLAYING and mines is None and not self.profile.win_requires_all_flags and only_mines_left(board):
            status = WON
        if status == WON and self.profile.win_requires_all_flags is None:
            rest = tuple(Action(FLAG_ACTION, r, c) for r, c, ch in board.cells() if ch in UNKNOWN_CHARS)
            if rest:
                # How this client shows a win was never seen. Every safe cell is open: flag the mines
                # left, since a client that counts flags shows its win only then, and look again.
                return PLAYING, rest, None
        if status != PLAYING:
            return status, (), None
        decision = decide(board.with_mines(mines), self.policy_for(board))
        return PLAYING, plan_actions(board, decision.moves, chord=self.config.chord), decision

    def win_shown(self, previous, board, last_actions: tuple[Action, ...] = ()) -> tuple[str, str]:
        """(outcome, how the client showed it) for a board read as won. Under a known win rule the board
        shows it by that rule. Under an unknown one (``assess``), only a sign of the client's own is a
        win: mines it marked by itself (gnome-mines and Windows' Minesweeper flag every mine left); a
        board the bot itself finished by flagging the mines left shows nothing the client did, and is
        UNCONFIRMED (a win shown off the board, say by a face, cannot be seen)."""
        if self.profile.win_requires_all_flags is not None:
            rule = "every mine flagged" if self.profile.win_requires_all_flags else "every safe cell open"
            return WON, f"on the board ({rule}, the client's rule)"
        marked = client_marks(previous, board, last_actions)
        if marked:
            return WON, f"on the board (the client marked the {marked} mine(s) left itself)"
        return UNCONFIRMED, ("every safe cell open and every mine flagged, and the client showed no win on or over "
                             "the board (its win rule was not learnt)")

    def final_flags_ignored(self, previous, board, last_actions: tuple[Action, ...]) -> bool:
        """Under an unknown win rule (``assess``): the last actions flagged every cell left covered once
        every safe cell was open, and the client took none of them (``board``, read after a redraw wait,
        is ``previous``). A client that ends its game at the last safe cell takes no click after it
        (react-minesweeper shows its win only off the board); no mine shows, so the game was won, and
        the client's refusing the board is how it showed that."""
        if self.profile.win_requires_all_flags is not None or previous is None or not last_actions:
            return False
        if any(action.kind != FLAG_ACTION for action in last_actions) or board.grid != previous.grid:
            return False
        covered = {(r, c) for r, c, ch in previous.cells() if ch in UNKNOWN_CHARS}
        return covered == {(action.row, action.col) for action in last_actions}

    def is_new_game(self, board) -> bool:
        if is_fresh(board):
            return True
        # Clients that open an area by themselves (xdemineur) start with some cells open.
        status = self.status(board)
        return self.profile.first_click == "preopened" and status == PLAYING and board.count("F") == 0

    def some_clicks_ignored(self, previous, board, last_actions: tuple[Action, ...]) -> bool:
        """Whether ``board`` is ``previous`` after ``last_actions`` but for opens the client ignored:
        it changed (some clicks were taken), and each cell it cannot be right about is an open that still
        reads covered."""
        if previous is None or not last_actions or board.grid == previous.grid:
            return False
        if not reading_problems(previous, board, last_actions, flood=self.profile.flood):
            return False
        return not reading_problems(previous, board, last_actions, flood=self.profile.flood, allow_dropped=True)

    @staticmethod
    def opens_still_covered(board, last_actions: tuple[Action, ...]) -> tuple[Action, ...]:
        """The opens of ``last_actions`` whose cells still read covered on ``board``."""
        return tuple(a for a in last_actions if a.kind == OPEN and board[a.row, a.col] in UNKNOWN_CHARS)

    def cannot_be_won(self, previous, board, last_actions: tuple[Action, ...]) -> bool:
        """Whether ``board``, which does not show some of the opens of ``last_actions``, cannot be a won
        game's: it shows no open cell at all, a number with fewer mines than covered cells around it,
        or one of those opens was of a cell proven safe on ``previous``. A won game shows every safe
        cell open, so however still such a board holds, it is not won (the client missed the click:
        Chromium under load can miss an open and its resend, most of all the first of a game, just
        after its page was loaded anew)."""
        opens = self.opens_still_covered(board, last_actions)
        if not opens:
            return False
        if is_fresh(board) or not every_covered_may_be_a_mine(board):
            return True
        if previous is None:
            return False
        safe = deduce(build_constraints(previous.with_mines(self.mine_total_for(previous)))).safe
        return any(safe >> (a.row * previous.cols + a.col) & 1 for a in opens)

    def frozen_means_won(self, board, problems: list[Problem]) -> bool:
        """An open on a covered cell changed nothing, for a whole redraw timeout. Clients that show a
        win only outside the board (react-minesweeper) ignore clicks once won; a loss would have shown
        its mines. Only for unknown mine totals: with a known total the board itself proves a win. Also
        under an unknown win rule: such a client ignores the open of the last covered cell no number
        touches (a mine among mines, which without the total cannot be proven one), and a learnt
        profile cannot say whether it is one (``frozen_outcome``)."""
        return self._stops_when_won(board) and all(p.kind == OPEN_UNSHOWN for p in problems)

    def _stops_when_won(self, board) -> bool:
        """Whether the client may show a won game only by taking no more clicks (``frozen_means_won``)."""
        return ((self.profile.frozen_board_means_won or self.profile.win_requires_all_flags is None)
                and self.mine_total_for(board) is None)

    def none_taken_may_be_won(self, previous, board, last_actions: tuple[Action, ...]) -> bool:
        """Whether ``board`` shows none of ``last_actions``, some of them opens, where the client may show
        a won game only by taking no more clicks and this board may be a won game's (not
        ``cannot_be_won``). Whether the client stopped taking clicks is then for the resend to tell
        (``frozen_means_won``), not passed over as a click dropped under load: the React page, learnt
        dropping clicks now and then, opened the mine among mines left after its win, twice, and play
        stopped as if the client took no clicks at all."""
        return (previous is not None and board.grid == previous.grid and self._stops_when_won(board)
                and bool(self.opens_still_covered(board, last_actions))
                and not self.cannot_be_won(previous, board, last_actions))

    def frozen_outcome(self) -> tuple[str, str]:
        """(outcome, how it showed) of a game whose board stopped taking clicks where it may be won
        (``frozen_means_won``, not ``cannot_be_won``): a win for a client known to end its won games so;
        under an unknown win rule the game is over, but its win was not shown."""
        if self.profile.frozen_board_means_won:
            return WON, "the board stopped taking clicks, twice (how the client ends a won game)"
        return UNCONFIRMED, ("the board stopped taking clicks, twice, with only cells that may all be mines left "
                             "covered (its win rule was not learnt)")

    def could_have_won(self, previous, last_actions: tuple[Action, ...] = (), *, certain_only: bool = False) -> bool:
        """Whether the game may just have been won, so a win dialog may now cover the board: the client
        shows one (``after_win``) and the mine total is known. Any step may have won it: one open can
        flood any number of cells, and a click skipped as already shown may have been the winning one.

        ``certain_only``: only when the last actions by themselves opened every covered cell but as
        many as there are mines (no flood needed)."""
        if previous is None or self.profile.after_win.is_empty:
            return False
        total = self.mine_total_for(previous)
        if total is None or not certain_only:
            return total is not None
        opened = _opened_by(last_actions, previous.rows, previous.cols)
        left = sum(1 for r, c, ch in previous.cells()
                   if ch == FLAG or (ch in UNKNOWN_CHARS and (r, c) not in opened))
        return left <= total

    def won_showing_mines(self, previous, board, last_actions: tuple[Action, ...]) -> bool:
        """Whether ``board``, which shows mines, is a won game's all the same: some clients show every
        mine once a game is won, not only once it is lost (a clone of Windows 3.1's Minesweeper). A lost
        game shows the mine it hit where the bot opened, so the board is won when no cell is left
        covered, none of the last opens (or chords) shows a mine, no mine shown is a hit one or a wrong
        flag, every mine shown was covered before, and with a known total, as many mines show (or
        flags) as there are."""
        if previous is None or not last_actions or board.count(UNKNOWN_CHARS) or board.count(EXPLODED + WRONG_FLAG):
            return False
        if any(board[r, c] == MINE for r, c in _opened_by(last_actions, board.rows, board.cols)):
            return False
        shown = [(r, c) for r, c, ch in board.cells() if ch == MINE]
        if not shown or any(previous[r, c] not in UNKNOWN_CHARS | {FLAG} for r, c in shown):
            return False
        total = self.mine_total_for(board)
        return total is None or len(shown) + board.count(FLAG) == total

    @staticmethod
    def won_as_far_as_shown(previous, visible, last_actions: tuple[Action, ...] = ()) -> bool:
        """Whether what still shows of a board covered in part (``visible``: a state per cell, None
        where covered) is a won game's, as clients that flag every mine at a win show it (gnome-mines,
        Windows' Minesweeper): a flag the bot did not place on a cell covered before, and no cell in
        sight covered, a mine or a wrong flag. Over a game in progress, another program's window
        leaves no flag of the client's in sight, however little of the board it leaves."""
        if previous is None:
            return False
        placed = {(action.row, action.col) for action in last_actions if action.kind == "flag"}
        flagged_by_client = False
        for r, row in enumerate(visible):
            for c, ch in enumerate(row):
                if ch is None:
                    continue
                if ch == FLAG:
                    flagged_by_client = flagged_by_client or (previous[r, c] in UNKNOWN_CHARS and (r, c) not in placed)
                elif ch not in NUMBERS:
                    return False  # covered, "?", a mine, an explosion, a wrong flag, an unread number
        return flagged_by_client


def _opened_by(actions: tuple[Action, ...], rows: int, cols: int) -> set[tuple[int, int]]:
    """The cells ``actions`` open: each open's cell and each chord's neighbours."""
    opened: set[tuple[int, int]] = set()
    for action in actions:
        if action.kind == "open":
            opened.add((action.row, action.col))
        elif action.kind == "chord":
            opened.update(neighbours(rows, cols, action.row, action.col))
    return opened


def client_marks(previous, board, last_actions: tuple[Action, ...] = ()) -> int:
    """How many cells covered on ``previous`` show a mark now (a flag, a mine) that the last actions did
    not place: marks of the client's own."""
    if previous is None:
        return 0
    placed = {(action.row, action.col) for action in last_actions if action.kind == FLAG_ACTION}
    return sum(1 for r, c, ch in board.cells()
               if previous[r, c] in UNKNOWN_CHARS and ch not in UNKNOWN_CHARS and ch not in NUMBERS and (r, c) not in placed)


__all__ = ["GameRules", "client_marks", "first_click", "hint_policy", "mine_total"]
