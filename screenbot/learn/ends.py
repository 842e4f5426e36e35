"""How a learnt client's games end and start again: what a win shows (a window over the board, flags on
every mine, or mines left covered that want a flag each) and how a new game is started (the way the
user gave, else the usual ones in turn). The base of ``session.Session``; how it looks and clicks is
``watch.Watcher``'s.
"""

from __future__ import annotations

import logging
from dataclasses import replace

import numpy as np

from ..play.controls import GAME_END_PAUSE
from ..play.profile import ControlAction
from .watch import LearnError, Watcher

log = logging.getLogger(__name__)

RESTART_TIMEOUT = 2.0  # s a restart candidate may take to show a fresh board
# s a win's window (gnome-mines' "Congratulations!") may take to come over the board. It came after
# 1.5 s, the wait before, on a machine running three end-to-end tests at once: the skin was written
# with no way to close it, and `play` stopped at the first win. Costs a clean win this much once.
WIN_WINDOW_WAIT = 3.0
# s a mark drawn over the board at the end of a game may stay (KMines' "You have lost." stays 4 s).
END_MARK_TIMEOUT = 8.0
# Share of the opened cells that, changed for longer than that, are another screen, not a mark.
OTHER_SCREEN_SHARE = 0.5

# What may close a window a win brings (gnome-mines' "Congratulations"), tried in turn; the keys go to the
# dialog, which has the keyboard, so the game window is not focused first.
AFTER_WIN_CANDIDATES: tuple[tuple[str, ControlAction], ...] = (
    ("Escape", ControlAction(keys=("escape",), wait=0.05, focus=False)),
    ("Enter", ControlAction(keys=("enter",), wait=0.05, focus=False)),
)


def redrawn(before: np.ndarray, after: np.ndarray) -> bool:
    """Whether a loss redrew the opened cells (``before`` and ``after``: their ids, in one order) in
    another look: no two pictures drawn as one, and more than one picture to show it (gnome-mines'
    "classic" and "default" tile themes draw a lost board in other tiles; a picture may come out as
    two, a pixel's shading apart). A message, a menu or another screen where the board was draws
    cells of different pictures alike (its background)."""
    before, after = np.asarray(before).ravel(), np.asarray(after).ravel()
    sources: dict[int, set[int]] = {}
    for old, new in zip(before.tolist(), after.tolist()):
        sources.setdefault(new, set()).add(old)
    return len(set(before.tolist())) > 1 and all(len(olds) == 1 for olds in sources.values())


class GameEnds(Watcher):
    """Wins and restarts of one learning session. ``restarts``: the ways to start a new game to try, in
    order (``learn`` gives the user's and the usual ones)."""

    restarts: tuple[tuple[str, ControlAction], ...] = ()

    def _mine_total(self) -> int | None:
        counts = set(self.seen.mine_counts)
        return counts.pop() if len(counts) == 1 else None

    def _all_safe_open(self, ids: np.ndarray, opened: set[tuple[int, int]]) -> bool:
        """Were the cells just ``opened`` the last safe ones (``ids`` the board before)? Counted on the
        pictures, so that a number never named yet does not hide a win."""
        total = self._mine_total()
        return total is not None and int(np.isin(ids, self.seen.closed_ids()).sum()) - len(opened) == total

    def finish_win(self, ids: np.ndarray, last: set[tuple[int, int]]) -> None:
        """Every safe cell is open (``last``: the cells the last click opened; ``ids``: the board before):
        close the dialog a win may bring (the usual keys, in turn) and learn what the won board shows on
        its mines (clients flag them all), or, when it leaves them covered, whether it takes a flag on
        each."""
        seen = self.seen
        seen.wins += 1
        board_rect = seen.lattice.board_rect()
        window = self.desk.window
        deadline = self.desk.clock() + WIN_WINDOW_WAIT
        over: list[str] = []
        while window is not None and self.desk.clock() < deadline:
            over = window.windows_over(board_rect, own=True)
            if over:
                break
            self.desk.sleep(0.1)
        shown_won = bool(over)
        if over:
            seen.after_win = self._close_window(window, board_rect)
            if seen.after_win is None:
                seen.refused.append(f"a win brought a window ({', '.join(over)}) that none of the usual keys closed")
                raise LearnError(f"a win brought a window over the board ({', '.join(over)}) that neither Escape "
                                 "nor Enter closed: close it by hand and learn again", code=1)
        won_image, won = self.clear_board(ids, *self.settled())
        opened = tuple(np.array(sorted(last)).T)
        changed = won != ids
        changed[opened] = False
        mines = np.isin(ids, list(seen.covered))  # every safe cell is open: each cell still covered is a mine
        mines[opened] = False
        # What every mine shows now, if one look: one picture, or pictures alike (a flag in boxes of two sizes).
        shown = sorted(set(won[mines].tolist()))
        names = seen.all_names()
        one_look = bool(shown) and all(names.get(cid, "F") == "F" and seen.clusters.alike(shown[0], cid) for cid in shown)
        if one_look and np.array_equal(changed, mines):
            # Every mine shows one look, a flag or a picture never seen: the win is on the board.
            for picture in shown:
                if picture not in names:
                    seen.names[picture] = "F"
            self.keep(won_image, won, "won")
            shown_won = True
            if seen.flags_to_win is None:
                seen.flags_to_win = False
        elif changed.any():
            # Anything else (some mines changed, or to different pictures, or cells that were open) is
            # no evidence of how a win shows: a picture read before the client had drawn it all, say.
            names = seen.all_names()
            log.info("learn: game %d: at its last safe cell %d cells changed (%s), not the %d mines to one "
                     "picture a win would show: nothing learnt from this win", seen.games_played,
                     int(changed.sum()), "".join(sorted({names.get(int(i), "?") for i in won[changed]})),
                     int(mines.sum()))
            seen.unclear_wins += 1
        elif seen.flag is not None:
            won_image, won, taken = self.flag_the_rest(won)
            seen.flags_to_win = taken and seen.flags_to_win is not False  # every win seen must agree
            if taken:
                self.keep(won_image, won, "won")
                shown_won = True
        if shown_won:
            seen.won_mine_counts.append(int(mines.sum()))
        log.info("learn: game %d won%s", seen.games_played,
                 f"; {seen.after_win[0]} closed the window it brought" if seen.after_win else "")

    def clear_board(self, ids: np.ndarray, image: np.ndarray, after: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A click's result (``image``, ``after``; ``ids`` the board before it) with what the end of a game
        may put over the board taken away: a window of the client (closed with the usual keys, and the
        key kept as what a loss needs) or a message drawn across the board (waited out). Cells opened
        before never change in a game, so one that did shows something over the board."""
        window = self.desk.window
        if window is not None and window.windows_over(self.seen.lattice.board_rect(), own=True):
            self.close_loss_window()
            image, after = self.settled()
        seen = self.seen
        opened = ~np.isin(ids, seen.closed_ids())
        if not (opened & (after != ids)).any():
            return image, after
        start = self.desk.clock()
        log.info("learn: opened cells changed: waiting for what came over the board to go")
        while self.desk.clock() < start + END_MARK_TIMEOUT:
            self.desk.sleep(0.2)
            image, after = self.settled()
            if not (opened & (after != ids)).any():
                seen.end_mark_seconds = max(seen.end_mark_seconds, self.desk.clock() - start)
                log.info("learn: it went after %.1f s", self.desk.clock() - start)
                break
        else:
            stayed = opened & (after != ids)
            if stayed.sum() > OTHER_SCREEN_SHARE * opened.sum():
                # Not a mark drawn over the board: the board drawn in another look (``redrawn``), or gone
                # from where it was, for good.
                if redrawn(ids[opened], after[opened]):
                    raise LearnError(
                        f"at the loss the client redrew the opened cells in another look ({int(stayed.sum())} of "
                        f"the {int(opened.sum())}, for good, no two pictures drawn as one): learn names the cells "
                        "from the lost board and cannot follow such a redraw; teach this client from screenshots "
                        "and their boards with screenbot new-skin NAME; nothing was written", code=1)
                raise LearnError(
                    f"after a click the client showed another screen where its board was ({int(stayed.sum())} of "
                    f"the {int(opened.sum())} opened cells changed and stayed so for {END_MARK_TIMEOUT:.0f} s; a "
                    "client that shows a message or its menu instead of the lost board, say): learn names the "
                    "cells from the lost board, so it cannot learn this client; nothing was written", code=1)
        return image, after

    def close_loss_window(self) -> None:
        """A window of the client over the board in the middle of a game's clicks: what a loss brings
        (a win's is closed by ``finish_win``). Closed with the usual keys, which go to it."""
        window, board_rect = self.desk.window, self.seen.lattice.board_rect()
        over = window.windows_over(board_rect, own=True)
        closed = self._close_window(window, board_rect)
        if closed is not None:
            self.seen.after_loss = (closed[0], replace(closed[1], dialog=True))
            log.info("learn: %s closed the window a loss brought (%s)", closed[0], ", ".join(over))
            return
        raise LearnError(f"the game brought a window over the board ({', '.join(over)}) that neither Escape nor "
                         "Enter closed: close it by hand and learn again", code=1)

    def _close_window(self, window, board_rect) -> tuple[str, ControlAction] | None:
        """The first of the usual keys that takes the client's window off the board, or None."""
        for label_, action in AFTER_WIN_CANDIDATES:
            self.control(action)
            self.desk.sleep(0.3)
            if not window.windows_over(board_rect, own=True):
                return label_, action
        return None

    def flag_the_rest(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
        """Right-click every cell still covered (all mines: every safe cell is open). Returns the board
        after and whether each showed the flag. A client whose game ended at the last safe cell takes
        no click any more; one that wants the mines flagged for a win takes them (and may show the win
        at the last one: that click is not checked for other cells changing)."""
        image = None
        covered = self.covered_cells(ids)
        for k, cell in enumerate(covered):
            image, after = self.right(ids, cell, others_may_change=k == len(covered) - 1)
            if not self.seen.shows_flag(int(after[cell])):
                log.info("learn: a right click on mine %s after the last safe cell showed no flag", cell)
                return image, after, False
            ids = after
        log.info("learn: the client took a flag on each of the %d mines left after the last safe cell", len(covered))
        return image, ids, bool(covered)

    def restart(self) -> None:
        """Start a new game: with the way found before, or by trying the usual ones in turn."""
        seen = self.seen
        self.desk.sleep(GAME_END_PAUSE)  # the client may still be ending the last game (see the constant)
        if seen.restart is not None:
            if self._try_restart(seen.restart[1]):
                return
            if not np.isin(self.cells(self.grab()), list(seen.covered)).any():
                raise LearnError("no cell looks covered as at the start any more (did the client's look change?): "
                                 "nothing was written", code=1)
            shown = self.cells(self.grab())
            still = int((~np.isin(shown, list(seen.covered))).sum())
            # Said as seen: the game may still have been running (a loss misread), or the key not taken.
            raise LearnError(f"{seen.restart[0]} started a new game before, but this time {still} of {shown.size} "
                             f"cells were still not covered {RESTART_TIMEOUT:g} s after it: nothing was written",
                             code=1)
        for label, action in self.restarts:
            if action.click is not None and self.control_click_point(action) is None:
                log.info("learn: not trying %s: it would land on the board or outside the window", label)
                continue
            seen.restarts_tried.append(label)
            shown = self.cells(self.grab())
            log.info("learn: trying %s to start a new game", label)
            if self._try_restart(action):
                seen.restart = (label, action)
                return
            if not self._board_still_there(shown):
                raise LearnError(f"after {label} the board is gone (the client shows something else) and no "
                                 f"new game came (tried: {', '.join(seen.restarts_tried)}): nothing was written; "
                                 "start a new game by hand and learn again with the client's own new-game keys "
                                 "(--restart KEYS)", code=1)
        raise LearnError(f"no new game came with what may be tried safely (tried: "
                         f"{', '.join(seen.restarts_tried) or 'nothing'}; keys that may reload, close or open a "
                         "window are never tried): give the client's own new-game keys with --restart KEYS",
                         code=1)

    def _try_restart(self, action: ControlAction) -> bool:
        before = self.cells(self.grab())
        self.control(action)
        deadline = self.desk.clock() + RESTART_TIMEOUT
        while self.desk.clock() < deadline:
            if self._fresh(self.cells(self.grab()), before):
                self.desk.sleep(0.1)
                if self._fresh(self.settled()[1], before):
                    return True
            self.desk.sleep(0.05)
        return False

    def _fresh(self, ids: np.ndarray, before: np.ndarray) -> bool:
        """A new game: every cell covered; for a client that opens an area itself, another board with
        covered cells, showing no picture seen only on finished games (mines, flags). Until those
        pictures are known, the board must also be mostly covered; once they are, the area opened may
        be most of the board (it was 57% of one, and that restart was taken for a failure)."""
        covered = np.isin(ids, list(self.seen.covered))
        if not self.seen.preopened:
            return bool(covered.all())
        finished = [cid for cid, name in self.seen.names.items() if name in "*XWF"]
        finished.extend(self.seen.flags())
        enough = covered.any() if finished else covered.mean() >= 0.5
        return bool(enough) and not np.array_equal(ids, before) and not np.isin(ids, finished).any()

    def _board_still_there(self, shown: np.ndarray) -> bool:
        """Does the board still show what it showed (or covered cells), after a restart that failed?"""
        ids = self.cells(self.grab())
        same = (ids == shown) | np.isin(ids, list(self.seen.covered))
        return float(same.mean()) > 0.9
