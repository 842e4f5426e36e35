"""Reading a board that is safe to act on, or finding out why it is not.

A reading that cannot be right (it disagrees with the last one or with the clicks just made, or no mine
placement fits it) is captured again after the client's next redraw, a few times, and then the game
stops with the frame saved: it is never acted on. A board that does not read at all is explained
before anything else: a closed, minimised or covered window, the game's own dialog (a win dialog is
closed, any other stops the session), or a moved board, located again.
"""

from __future__ import annotations

import itertools
import logging
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from solver.errors import InconsistentBoardError

from ..errors import BoardNotFoundError, UnrecognizedCellError
from ..vision.classic import TEACH
from ..vision.skins import CLASSIC
from .clicking import Clicker
from .consistency import (INCONSISTENT, UNREADABLE, Problem, clicks_unshown, flags_unshown, newly_unread,
                          reading_problems)
from .controls import ClientControls
from .evidence import save_frame
from .locating import BoardTracker
from .observer import WON, Action
from .profile import PlayProfile
from .reading import ChangedCellsReader
from .rules import GameRules
from .types import InconsistentReadingError, Located, PlayConfig, Surroundings, WindowLostError

log = logging.getLogger(__name__)

# Seconds of rechecks a board is given while the only doubt about it is clicks it has not shown yet,
# before the game stops: a 2-core CI machine running two tests had Xvfb and xdemineur show a batch's
# clicks 1.5-2 s late, and once more than 2 s.
STALL_SECONDS = 6.0

# Redraw timeouts the opens sent once more to a board that took none of its clicks are given to show
# before the game counts as won by a client that ends a won game by ignoring clicks: a won game costs
# this once, a client stalled under load is not taken for a won one (Chromium under load was).
RESENT_PATIENCE = 6.0


@dataclass(frozen=True, slots=True)
class Step:
    """A reading judged safe, with what to do about it."""

    reading: object | None
    frame: np.ndarray
    status: str
    actions: tuple[Action, ...]
    decision: object | None
    read_seconds: float
    solve_seconds: float
    shown: str = ""  # how the client showed a win seen other than on the board (see ``GameRules.win_shown``)


def _won_behind_dialog(frame: np.ndarray) -> Step:
    """A game won whose dialog the bot closed, the board behind it read as won."""
    return Step(None, frame, WON, (), None, 0.0, 0.0, shown="a window of the game over the board")


@dataclass(eq=False)
class SafeReader:
    env: Surroundings
    profile: PlayProfile
    config: PlayConfig
    rules: GameRules
    tracker: BoardTracker
    controls: ClientControls
    clicker: Clicker
    wait_for_redraw: Callable[..., object]  # (located, before frame, patience=redraw timeouts to wait)
    # Step after step only the changed part of the board is read again (the same result, faster).
    reader: ChangedCellsReader = field(init=False)

    def __post_init__(self) -> None:
        self.reader = ChangedCellsReader(self.env.vision)

    def read(self, located: Located, frame: np.ndarray, changed: bool, previous, last_actions, glimpses=()):
        """Read and assess the board (see ``_read``; ``glimpses``: pictures of the board seen since the
        last clicks before ``frame``, oldest first). A client that hides its board when it loses the
        focus (gnome-mines: a grey "Paused" panel, which reads as covered cells) gets the focus back
        once before a reading that cannot be right stops the game: another window that took the focus
        (a second game opened beside it) is not a reason to stop."""
        if not self.profile.pauses_on_focus_loss or self.env.window is None:
            return self._read(located, frame, changed, previous, last_actions, glimpses, last_try=True)
        try:
            return self._read(located, frame, changed, previous, last_actions, glimpses, last_try=False)
        except InconsistentReadingError as exc:
            # Never raised over a window the user put on the board, nor a minimised one: stop instead.
            self.tracker.check_board_shown(located)
            log.info("%s: giving the game the focus back (it hides its board when unfocused), then reading again", exc)
            self.tracker.activate(located.geometry.inner_rect())
            self.env.sleep(0.1)
            frame = self.env.screen.grab(located.region.as_region())
            return self._read(located, frame, True, previous, last_actions, last_try=True)

    def _read(self, located: Located, frame: np.ndarray, changed: bool, previous, last_actions, glimpses=(), *,
              last_try: bool):
        """Read and assess the board, or find out why that is not safe (the frame is saved only on the
        ``last_try``).

        Returns a ``Step`` to act on (or telling that the game is over), or a new ``Located`` when the
        window moved. A reading that cannot be right is re-captured after the client's next redraw,
        up to ``config.rechecks`` times (while its only fault is clicks not shown yet, until the
        rechecks have waited ``STALL_SECONDS``); then the game stops with the frame saved. A board that cannot
        be read at all (covered, gone, a dialog over it) goes to ``recover_lost_board``."""
        unreadable: Exception | None = None
        problems: list[Problem] = []
        looked_for_dialogs = waited_for_mark = resent = looked_again = False
        win_unseen = False  # the game may have been won, but no frame yet showed enough of the board to tell
        allow_dropped = self.profile.drops_clicks
        stalled = 0.0  # seconds waited through the rechecks
        glimpses = list(glimpses)  # and those the rechecks' waits see (``Settled.earlier``)
        for attempt in itertools.count():
            t_read = self.env.clock()
            reading, unreadable = None, None
            try:
                reading = self.reader.read(frame, located.lattice)
                self.reader.accept()  # the next frame is compared with this one, whatever is made of it
                # Flags on every cell left covered that the client did not take are not dropped clicks
                # under an unknown win rule, nor opens none of which it took on a board that may be
                # won: whether it takes them is how its win shows (waited for below).
                dropped = allow_dropped and not (self.rules.final_flags_ignored(previous, reading.board, last_actions)
                                                 or self.rules.none_taken_may_be_won(previous, reading.board, last_actions))
                problems = reading_problems(
                    previous, reading.board, last_actions, flood=self.profile.flood, allow_dropped=dropped
                )
            except (UnrecognizedCellError, BoardNotFoundError) as exc:
                unreadable, problems = exc, [Problem(str(exc), UNREADABLE)]
                if self._withdraw_taught("read", problems):
                    continue  # the same frame, read again without them, before anything is done about it
                # At the first unreadable frame, which may come after a frame that did not yet show the
                # last click (the winning one, whose dialog then covers the board).
                if not looked_for_dialogs:
                    looked_for_dialogs = True
                    # A window moved or resized shows something else where the board was: not a dialog
                    # (taking it for the win's had the bot press Escape for seconds at the old place).
                    # So does a board located just after a resize, before the client drew it anew.
                    moved = self.tracker.window_moved(located) or self.tracker.drawn_anew(located)
                    if moved is not None:
                        return moved
                    self.tracker.check_board_shown(located)
                    dialogs = self.tracker.own_windows_over(located)
                    seen, dismissed = "the game was not won", False
                    if self.may_have_won(located, frame, previous, last_actions):
                        seen, dismissed = self.controls.dismiss_win_dialog(located), True
                        if not seen:
                            # The usual reason a board stops reading right after a move: the win dialog.
                            return _won_behind_dialog(frame)
                    else:
                        won = self._won_before_covered(located, glimpses, previous, last_actions)
                        if won is not None:
                            return won
                        # With no window known, only what shows of the board tells a win, and a dialog
                        # may first hide all of it (gnome-mines' scores window before it is placed).
                        win_unseen = self.env.window is None and self.rules.could_have_won(previous)
                    if dialogs and self.profile.after_loss.dialog:
                        # The client asks something at a loss (KMines: "Reset the game?"): the profile
                        # says how to close it; the board behind is then read as any other.
                        log.info("a window of the game (%r) came over the board: closing it as a loss's", dialogs[0])
                        self.controls.control(located, self.profile.after_loss)
                    elif dialogs:
                        if dismissed:
                            # The win dialog closed, the board behind it may be drawn in another look
                            # than the one the skin took it for on its covered cells (gnome-mines' other
                            # tiles: a won board their pictures do not read, behind "Congratulations!").
                            self.tracker.give_way(f"a window of the game ({dialogs[0]!r}) came over the board, "
                                                  f"and with the {located.lattice.skin} skin (chosen on its covered "
                                                  f"cells) {seen}")
                        # Not the win dialog (a question the user brought up, such as "new game?"):
                        # the user is at the game; stop rather than answer it. The screen as it is now
                        # (after any dismissing) is the evidence.
                        path = save_frame(self.env.screen.grab(located.region.as_region()), self.config.failure_dir, "dialog")
                        raise WindowLostError(
                            f"a window of the game itself ({dialogs[0]!r}: a dialog?) came over the board and "
                            f"{seen}: stopped", frame_path=path
                        )
                elif win_unseen:
                    won = self._won_before_covered(located, glimpses, previous, last_actions)
                    if won is not None:
                        return won
                    if self.may_have_won(located, frame, previous, last_actions):
                        win_unseen = False
                        if not self.controls.dismiss_win_dialog(located):
                            return _won_behind_dialog(frame)
                if self.profile.end_mark and not waited_for_mark:
                    # A mark the client draws over the board when a game ends (KMines' "You have lost."):
                    # waited out, then read again.
                    waited_for_mark = True
                    frame, changed = self.outlast_end_mark(located), True
                    continue
            if (reading is not None and problems and self.rules.over(reading.board)
                    and not self.rules.final_flags_ignored(previous, reading.board, last_actions)):
                # A finished game ignores the rest of a batch (xdemineur is won by its last flag even
                # if opens follow in the same batch): what the bot did last no longer has to show.
                # Not the flags on the mines left under an unknown win rule: whether the client takes
                # them is what tells its win (waited for below).
                problems = []
            read_seconds = self.env.clock() - t_read
            if reading is not None and not problems and not looked_again and newly_unread(previous, reading.board):
                # A number no picture matches may be one caught half drawn (gnome-mines at 200% under
                # load): looked at once more after the next redraw. Drawn whole by then, it is read;
                # still unread, it is a number the skin lacks, played as telling nothing.
                looked_again = True
                log.info("a number the skin has no picture of: reading again after the next redraw")
                again = self.wait_for_redraw(located, frame, patience=1.0)
                moved = self.tracker.window_moved(located)
                if moved is not None:
                    return moved
                frame, changed = again.frame, changed or again.changed
                continue
            if reading is not None and not problems:
                t_solve = self.env.clock()
                try:
                    status, actions, decision = self.rules.assess(reading.board)
                except InconsistentBoardError as exc:
                    problems = [Problem(str(exc), INCONSISTENT)]
                else:
                    return Step(reading, frame, status, actions, decision, read_seconds, self.env.clock() - t_solve)
            # A client starved of CPU (Chromium or Xvfb beside a compiler, in CI) can stall for seconds
            # before it shows the last clicks: while that is all that is wrong, the rechecks go on
            # until they have waited STALL_SECONDS in all. Any other doubt ends after the profile's
            # rechecks.
            if attempt >= self.config.rechecks and not (clicks_unshown(problems) and stalled < STALL_SECONDS):
                break
            log.info("reading not safe to act on (%s): waiting for the next redraw", "; ".join(problems[:3]))
            self.clicker.park(located)
            # Each recheck waits twice as long as the one before, up to a second or the profile's own
            # redraw wait where that is longer (KMines: 2.7 s): a redraw that does come ends the wait at
            # once, so a client that answers loses no time.
            longest = max(1.0, 1.0 / self.profile.redraw_timeout)
            again = self.wait_for_redraw(located, frame, patience=min(2.0 ** attempt, longest))
            stalled += again.waited
            if again.earlier is not None:
                glimpses.append(again.earlier)
            moved = self.tracker.window_moved(located)
            if moved is not None:
                return moved
            if not again.changed and not changed and reading is not None and self.rules.frozen_means_won(reading.board, problems):
                # A board with no cell open, or a cell proven safe still covered, is no won game's: the
                # client missed the clicks, and they are sent again at each recheck.
                not_won = self.rules.cannot_be_won(previous, reading.board, last_actions)
                if not resent or not_won:
                    # A client under load may also ignore a lone click (Chromium): sent once more, an
                    # open a won game ignores changes nothing again, and one the client missed shows.
                    resent = True
                    opens = self.rules.opens_still_covered(reading.board, last_actions)
                    log.info("the board took none of the last clicks: sending %d open(s) once more, to tell a "
                             "won game that ignores clicks from clicks ignored under load", len(opens))
                    self.clicker.act(located, opens, frame, lambda: self.tracker.board_disturbed(located))
                    again = self.wait_for_redraw(located, frame, patience=RESENT_PATIENCE)
                    if again.changed:
                        frame, changed = again.frame, True
                        continue
                if not not_won:
                    log.info("the board no longer reacts to clicks: the game is over, and no mine shows")
                    outcome, shown = self.rules.frozen_outcome()
                    return Step(reading, frame, outcome, (), None, read_seconds, 0.0, shown=shown)
                log.info("the board took none of the clicks sent again, and it cannot be a won game's (no cell "
                         "open, a number short of covered cells, or a cell proven safe still covered): waiting "
                         "for the client to show them")
            if not again.changed and not changed and reading is not None and self.rules.final_flags_ignored(
                    previous, reading.board, last_actions):
                log.info("the client took none of the flags on the mines left: its game ended at the last safe cell")
                return Step(reading, frame, WON, (), None, read_seconds, 0.0,
                            shown="the client took no more clicks once every safe cell was open")
            if not again.changed and reading is not None and not allow_dropped and self.rules.some_clicks_ignored(
                    previous, reading.board, last_actions):
                # Any client may miss a click under load (Chromium at 1.5x now and then): the board took
                # the batch's other clicks, so the game goes on, and held still through a redraw wait,
                # so it is not being drawn. A cell read covered is at worst less known, never wrongly
                # known: it is chosen again at the next step.
                log.info("the client took the other clicks and ignored the opens or flags of cells still "
                         "covered: those are chosen again")
                allow_dropped = True
                continue
            frame, changed = again.frame, changed or again.changed
        if unreadable is not None:
            return self.recover_lost_board(located, frame, unreadable, previous)
        if reading is not None and self._withdraw_taught("right", problems):
            return self._read(located, frame, True, None, (), last_try=last_try)
        if reading is not None and last_try:
            # Pictures chosen on covered cells alone may belong to another look than the one the cells
            # open in (gnome-mines' pictures fit the covered cells of its other tile themes): they may
            # read what they do not know as a number they lack (``unread``), so the board reads but
            # cannot be right. Where another look reads it whole, the game goes on in that look.
            self.tracker.give_way(f"the board read as {located.lattice.skin} (chosen on its covered cells) cannot be "
                                  f"right ({'; '.join(problems[:2])})")
        path = save_frame(frame, self.config.failure_dir, "inconsistent") if last_try else None
        if reading is not None and previous is not None:
            log.info("the board before the last clicks (%s):\n%s\nand as read now:\n%s",
                     ", ".join(f"{a.kind} ({a.row},{a.col})" for a in last_actions),
                     "\n".join(previous.grid), "\n".join(reading.board.grid))
        raise InconsistentReadingError(
            f"the board read from the screen cannot be right{self.tracker.dialog_note(located)} ({'; '.join(problems[:3])}); "
            f"nothing was clicked on it{self.tracker.overlay_note()}"
            + ("; the client took none of the flag clicks: if it flags another way (Ctrl+click), 'screenbot learn' "
               "finds it, or set \"flag_keys\" in the \"play\" section of the skin's profile.json" if flags_unshown(problems)
               else ""),
            frame_path=path,
        )

    def _withdraw_taught(self, what: str, problems: list[Problem]) -> bool:
        """Withdraw the pictures taught this session, if any, because the board cannot be ``what``
        ("read", "right") with them; True when there were some. Pictures named at a game's end are a
        guess from one frame: a 4 named a 3 makes boards impossible (KMines in CI), and a picture of
        something else named a 1 makes every real 1 unlike "the" 1 of its size, refused (CI run 75)."""
        forget = getattr(self.env.vision, "forget_taught", None)
        if forget is None or not forget():
            return False
        log.warning("the board cannot be %s with the pictures taught this session (%s): read again without them",
                    what, "; ".join(str(p) for p in problems[:3]))
        # The last reading came from them too: it is no measure of the next.
        self.reader = ChangedCellsReader(self.env.vision)
        return True

    def may_have_won(self, located: Located, frame: np.ndarray, previous, last_actions) -> bool:
        """Whether to close a win dialog that may now hide the board (with the profile's after-win
        action). Where no window is followed, that action (keys) would reach whichever window has the
        keyboard, another program's over the board too: it is taken only when the last actions alone
        could have won, or when what still shows of the board is a won game's (the client's own flags
        on its mines). Otherwise play stops with the board hidden, rather than press keys into a
        window that may not be the game's."""
        if not self.rules.could_have_won(previous):
            return False
        if self.env.window is not None:
            return True
        if self.rules.could_have_won(previous, last_actions, certain_only=True):
            return True
        visible = getattr(self.env.vision, "read_visible", None)
        if visible is not None and self.rules.won_as_far_as_shown(previous, visible(frame, located.lattice), last_actions):
            log.info("what shows of the board around what covers it is a won game's")
            return True
        return False

    def _won_before_covered(self, located: Located, glimpses: list[np.ndarray], previous, last_actions) -> Step | None:
        """The game won on the board a moment before something came over it, or None. A game's own
        window can come over its board right after the winning click, before the won board held still
        for the profile's ``settle`` (gnome-mines' best-times dialog, on a busy machine): with no window
        known, no key is pressed into what covers the board, and play would stop. A picture of the board
        held for a moment meanwhile, while the client redrew (``Settled.earlier``; newest first), that
        reads whole as a won game, with the last board and clicks, is the game's end as the board itself
        showed it. Where the screen never showed the won board alone (the dialog came in the same
        frame), nothing here helps: play stops as before."""
        if not self.rules.could_have_won(previous):
            return None
        for picture in reversed(glimpses):
            try:
                reading = self.reader.read(picture, located.lattice)
            except (UnrecognizedCellError, BoardNotFoundError):
                continue
            if reading_problems(previous, reading.board, last_actions, flood=self.profile.flood, allow_dropped=False):
                continue
            try:
                status, _, _ = self.rules.assess(reading.board)
            except InconsistentBoardError:
                continue
            if status == WON:
                self.reader.accept()
                log.info("the board showed a won game a moment before a window came over it")
                return Step(reading, picture, WON, (), None, 0.0, 0.0,
                            shown="on the board, a moment before a window came over it")
        return None

    def outlast_end_mark(self, located: Located) -> np.ndarray:
        """A frame of the board once it reads again, or the last one after ``profile.end_mark`` seconds."""
        deadline = self.env.clock() + self.profile.end_mark
        while True:
            self.env.sleep(0.1)
            frame = self.env.screen.grab(located.region.as_region())
            try:
                self.env.vision.read(frame, located.lattice)
                return frame
            except (UnrecognizedCellError, BoardNotFoundError):
                if self.env.clock() > deadline:
                    return frame

    def recover_lost_board(self, located: Located, frame, exc: Exception, previous=None):
        """The board region no longer reads as a board: moved window, dialog, or closed window.
        Returns the board located anew only if it also reads cleanly there."""
        if self.env.window is not None:
            self.env.window.geometry()  # raises WindowGoneError when it was closed
            self.tracker.check_board_shown(located)
            if self.profile.pauses_on_focus_loss:
                # Another window took the focus and the client hid its board behind "Paused".
                self.tracker.activate(located.geometry.inner_rect())
                self.env.sleep(0.1)
        try:
            found = self.tracker.locate()
            self.env.vision.read(self.env.screen.grab(found.region.as_region()), found.lattice)
            # Found again, the board is read anew, whole, as it just was: a part read on its own (the
            # cells changed since the last reading) that failed where the whole board reads would fail
            # again the same way, and the board be found again, without end.
            self.reader.forget()
            return found
        except (BoardNotFoundError, UnrecognizedCellError) as again:
            self.tracker.give_way(f"the board no longer reads as {located.lattice.skin} (chosen on its covered cells: "
                                  f"{exc})", cause=exc)
            path = save_frame(frame, self.config.failure_dir, "board-lost")
            # Asked only now: a dialog of the game may be mapped a moment after its first pixels show.
            note = self.tracker.dialog_note(located)
            if self.env.window is None and self.rules.could_have_won(previous):
                note += (" right after a move that may have won the game (with no window known, the game's win "
                         "dialog and another program's window look alike, so no key was pressed into it: close "
                         "what covers the board, then play again)")
            if isinstance(exc, UnrecognizedCellError):
                lacks = TEACH if located.lattice.skin == CLASSIC else _untaught_or_lacking(self.env.vision, located.lattice.skin)
                raise WindowLostError(
                    f"cannot read the board{' any more' if previous is not None else ''}{note}: {exc}; {lacks}, or "
                    f"something covers the board "
                    f"(locating it again: {again})",
                    frame_path=path,
                ) from exc
            raise WindowLostError(f"the board is no longer visible{note}: {again}", frame_path=path) from exc


def _untaught_or_lacking(vision, skin: str) -> str:
    """What a cell the session's skin cannot read may mean: a state its pictures lack, or a look of the
    client they do not read (the profile's ``looks_not_read``), or, where ``auto`` took the board for
    that skin's only roughly (``SkinVision.rough``), most likely a client nobody taught."""
    from ..vision.locate import untaught

    known = getattr(vision, "skins", {}).get(skin)  # (a test's fake vision has no skins)
    rough = getattr(vision, "rough", "")
    if rough:
        return f"the board was {rough}: {untaught(known)}"
    looks = known.profile.get("looks_not_read") if known is not None else None
    # A look the skin does not read may draw its covered cells as the skin's own (gnome-mines' other
    # tile themes): the board is taken for the skin's surely, and the first opened cells do not read.
    return f"the skin may lack this cell state (if the game is {skin}: {looks})" if looks else "the skin may lack this cell state"


__all__ = ["SafeReader", "Step"]
