"""Pure parts of the play loop: game status, reading checks, action planning, summary, profiles."""

from __future__ import annotations

import json

import numpy as np
import pytest

from screenbot.errors import SkinError
from screenbot.play.consistency import (
    CHANGED,
    FLAG_UNSHOWN,
    OPEN_UNSHOWN,
    UNREADABLE,
    Problem,
    clicks_unshown,
    reading_problems,
)
from screenbot.play.observer import LOST, WON, Action, GameResult, StepTimings
from screenbot.play.outcome import PLAYING, game_status, is_fresh, only_mines_left
from screenbot.play.planner import plan_actions
from screenbot.play.profile import load_profile, profile_from_dict
from screenbot.play.stability import wait_for_paint, wait_for_redraw
from screenbot.play.summary import format_summary, summarize
from solver.board import Board, parse_board
from solver.policy import Move, PolicyConfig, decide

pytestmark = pytest.mark.unit


def board(text: str, mines: int | None = None) -> Board:
    return parse_board(text).with_mines(mines)


@pytest.mark.parametrize(
    "text, mines, flags_needed, expected",
    [
        ("##1\n##1\n111", 1, False, PLAYING),
        ("#10\n110\n000", 1, False, WON),
        ("#10\n110\n000", 1, True, PLAYING),  # xdemineur: the mine must be flagged too
        ("F10\n110\n000", 1, True, WON),
        ("F1#\n11#\n###", 1, True, WON),  # xdemineur: every mine flagged wins, covered cells or not
        ("X10\n110\n000", 1, False, LOST),
        ("*2#\n###", 2, False, LOST),
        ("#10\n110\n000", None, False, PLAYING),  # unknown total: the board alone proves nothing
    ],
    ids=["playing", "won", "won-needs-flags", "won-flagged", "won-flags-only", "exploded", "mines-shown", "unknown-total"],
)
def test_game_status(text, mines, flags_needed, expected):
    assert game_status(board(text), mines=mines, win_requires_all_flags=flags_needed) == expected


@pytest.mark.parametrize(
    "text, expected",
    [("F1#\n11#\n###", PLAYING), ("F10\n110\n000", WON), ("#10\n110\n000", PLAYING), ("*2#\n###", LOST)],
    ids=["flags-but-covered", "flags-and-open", "open-no-flag", "lost"],
)
def test_game_status_when_a_win_needs_every_flag_and_every_open(text, expected):
    """xbomb: every bomb flagged and every other cell open."""
    assert game_status(board(text), mines=1, win_requires_all_flags=True, win_requires_all_open=True) == expected


def test_only_mines_left_with_unknown_total():
    assert only_mines_left(board("#1\n11"))
    assert not only_mines_left(board("##\n11"))  # either cell could be the mine
    assert not only_mines_left(board("#10\n110\n00#"))  # the corner next to a 0 is safe
    assert not only_mines_left(board("#1##\n11##\n####"))  # far cells touch no number
    # Nothing covered, the mines flagged (by the bot, or by a client that flags them at a win).
    assert only_mines_left(board("F1\n11"))


def test_is_fresh():
    assert is_fresh(Board.covered(3, 4))
    assert not is_fresh(board("#1\n11"))


def test_reading_problems():
    before = board("###\n#1#\n###")
    assert reading_problems(before, board("#F#\n#1#\n###"), [Action("flag", 0, 1)]) == []
    assert reading_problems(before, board("###\n#2#\n###"), []) == ["revealed 1 at (1,1) now reads '2'"]
    assert reading_problems(before, board("###\n#1#\n###"), [Action("open", 0, 0)]) == [
        "opened (0,0) but it still reads '#'"
    ]
    assert reading_problems(before, board("####\n#1##\n####"), []) == ["board size changed from 3x3 to 3x4"]
    flagged = board("F##\n#1#\n###")
    assert reading_problems(flagged, board("###\n#1#\n###"), []) == ["flag at (0,0) now reads '#'"]
    # After a loss a wrong flag shows as W: that is not a misreading.
    assert reading_problems(flagged, board("W*#\n#1#\n###"), []) == []


def test_a_flag_on_a_question_mark_may_leave_it_covered_and_nothing_else():
    """Right clicks cycle flag -> "?" -> covered in most clients: a "?" flagged shows covered first."""
    marked = board("?##\n#1#\n###")
    flag = [Action("flag", 0, 0)]
    assert reading_problems(marked, board("###\n#1#\n###"), flag) == []
    assert reading_problems(marked, board("F##\n#1#\n###"), flag) == []
    assert reading_problems(marked, board("1##\n#1#\n###"), flag) == ["flagged (0,0) but it reads '1'"]
    # A covered cell flagged must show the flag: nothing in the cycle leaves it covered.
    assert reading_problems(board("###\n#1#\n###"), board("###\n#1#\n###"), flag) == [
        "flagged (0,0) but it reads '#'"
    ]
    assert reading_problems(board("###\n#1#\n###"), board("?##\n#1#\n###"), flag) == [
        "flagged (0,0) but it reads '?'"
    ]


def test_problems_carry_their_kind_and_the_callers_decide_by_it():
    before = board("###\n#1#\n###")
    unshown = reading_problems(before, board("###\n#1#\n###"), [Action("open", 0, 0), Action("flag", 2, 2)])
    assert [p.kind for p in unshown] == [OPEN_UNSHOWN, FLAG_UNSHOWN] and clicks_unshown(unshown)
    changed = reading_problems(before, board("###\n#2#\n###"), [Action("open", 0, 0)])
    assert sorted(p.kind for p in changed) == sorted([CHANGED, OPEN_UNSHOWN]) and not clicks_unshown(changed)
    # Words that read like a click not shown do not make one.
    assert not clicks_unshown([Problem("opened (0,0) but it still reads '#'", UNREADABLE)])
    assert not clicks_unshown([])


def test_reading_problems_with_dropped_clicks():
    before = board("###\n#1#\n###")
    opened = [Action("open", 0, 0), Action("open", 2, 2)]
    assert reading_problems(before, board("1##\n#1#\n###"), opened, allow_dropped=True) == []
    assert reading_problems(before, board("1##\n#1#\n###"), opened) == ["opened (2,2) but it still reads '#'"]
    # A flag where the bot opened is never a dropped click.
    assert reading_problems(before, board("1##\n#1#\n##F"), opened, allow_dropped=True) == [
        "opened (2,2) but it still reads 'F'"
    ]
    # A flag click the client ignored (xdemineur under load, CI): the cell still covered, flagged again
    # at the next look; one that shows anything but covered or a flag is still a problem.
    flagged = [Action("open", 0, 0), Action("flag", 2, 2)]
    assert reading_problems(before, board("1##\n#1#\n###"), flagged, allow_dropped=True) == []
    assert reading_problems(before, board("1##\n#1#\n###"), flagged) == ["flagged (2,2) but it reads '#'"]
    assert reading_problems(before, board("1##\n#1#\n##2"), flagged, allow_dropped=True) == [
        "flagged (2,2) but it reads '2'"
    ]


def test_plan_plain_and_chord():
    b = board("#F#\n111\n000")
    moves = [Move("open", 0, 0, 0.0), Move("open", 0, 2, 0.0)]
    assert plan_actions(b, moves) == (Action("open", 0, 0), Action("open", 0, 2))
    # (1,1) is a 1 with its mine flagged and exactly (0,0), (0,2) covered around it: one chord.
    assert plan_actions(b, moves, chord=True) == (Action("chord", 1, 0),) or plan_actions(b, moves, chord=True) == (
        Action("chord", 1, 1),
    )
    # Moves on cells no longer covered are dropped.
    assert plan_actions(board("1F#\n111\n000"), [Move("open", 0, 0, 0.0)]) == ()


def test_end_of_flag_counting_game():
    """xdemineur declares a win only once every mine is flagged: with every safe cell open, the last
    step flags the rest."""
    b = board("#1\n11", 1)
    assert plan_actions(b, decide(b, PolicyConfig(flag_mines=True)).moves) == (Action("flag", 0, 0),)


def test_summary_figures():
    results = [GameResult(WON, 2.0, 10, 100, 1), GameResult(LOST, 1.0, 5, 20, 2), GameResult("aborted", 0.1, 1, 0, 0)]
    timings = [StepTimings(0.001, 0.002, 0.003, 0.0005, 0.01, 5)] * 3 + [StepTimings(0.001, 0.002, 0, 0, 0.01)]
    summary = summarize(results, timings)
    data = summary.as_dict()
    assert (data["games"], data["wins"], data["losses"], data["aborted"]) == (3, 1, 1, 1)
    assert data["seconds_per_game_median"] == 1.5
    assert data["moves_per_second"] == 40.0
    assert data["per_step_ms_median"]["total"] == 6.5
    assert data["per_move_ms_mean"]["total"] == 1.3 and data["actions"] == 15
    assert data["per_move_ms_median"]["total"] == 1.3
    assert "1 won, 1 lost, 1 aborted" in format_summary(summary)


def test_per_move_median_weighs_each_step_by_its_moves():
    """One step of 1 click at 10 ms and one of 9 clicks at 9 ms (1 ms each): the median move cost 1 ms,
    although the median step's share is larger."""
    results = [GameResult(WON, 1.0, 2, 10, 0)]
    timings = [StepTimings(0, 0, 0, 0.010, 0, 1), StepTimings(0, 0, 0, 0.009, 0, 9)]
    data = summarize(results, timings).as_dict()
    assert data["per_move_ms_median"]["act"] == 1.0
    assert data["per_move_ms_mean"]["act"] == 1.9


def test_profile_rejects_unknown_confirm_mode():
    with pytest.raises(SkinError, match="confirm_clicks"):
        profile_from_dict("x", {"play": {"confirm_clicks": True}})
    assert profile_from_dict("x", {"play": {"confirm_clicks": "cell"}}).confirm_clicks == "cell"


def test_profile_loading(tmp_path):
    skin = tmp_path / "demo"
    skin.mkdir()
    (skin / "profile.json").write_text(
        json.dumps(
            {
                "client": "demo",
                "first_click": "opening",
                "mine_total": {"16x30": 99},
                "hover_highlight": True,
                "play": {"restart": {"keys": ["ctrl", "r"], "wait": 0.1}, "after_win": {"click": [0, -2]}},
            }
        )
, encoding="utf-8")
    profile = load_profile("demo", tmp_path)
    assert profile.mine_total(16, 30) == 99 and profile.mine_total(9, 9) is None
    assert profile.restart.keys == ("ctrl", "r") and profile.after_win.click == (0.0, -2.0)
    assert profile.first_click_cell(16, 30) == (3, 3)
    with pytest.raises(SkinError, match="no profile.json"):
        load_profile("missing", tmp_path)
    with pytest.raises(SkinError, match="bad value"):
        profile_from_dict("x", {"play": {"restart": "ctrl+r"}})


def test_wait_for_redraw_watches_one_part():
    """With ``watch`` the wait goes on while only other parts change (the first clicks of a batch), and
    ends once the watched part has changed and everything has settled."""
    before = np.zeros((4, 8), np.uint8)
    frames = [before.copy() for _ in range(6)]
    for f in frames[1:]:
        f[0, 0] = 9  # an early click shows at once
    for f in frames[3:]:
        f[0, 7] = 9  # the watched cell shows two grabs later
    now = [0.0]
    grabs = iter(frames + [frames[-1]] * 50)

    def grab():
        now[0] += 0.01
        return next(grabs)

    watch = (slice(0, 1), slice(6, 8))
    settled = wait_for_redraw(grab, before, timeout=1.0, settle=0.02, watch=watch, poll=0, clock=lambda: now[0], sleep=lambda s: None)
    assert settled.changed and settled.frame[0, 7] == 9
    unwatched = wait_for_redraw(iter(frames).__next__, before, timeout=1.0, settle=0.0, poll=0, clock=lambda: 0.0, sleep=lambda s: None)
    assert unwatched.frame[0, 7] == 0  # without a watch the first change is taken
    # Never shown: the wait ends at the timeout, telling that something else did change.
    stuck = [frames[1]] * 200
    t = [0.0]

    def tick():
        t[0] += 0.01
        return t[0]

    timed_out = wait_for_redraw(iter(stuck).__next__, before, timeout=0.5, settle=0.0, watch=watch, poll=0, clock=tick, sleep=lambda s: None)
    assert timed_out.changed and timed_out.frame[0, 7] == 0


class ScriptedScreen:
    """Frames grabbed in turn, each grab moving a clock ``step`` seconds on (for the redraw waits)."""

    def __init__(self, step: float) -> None:
        self.step, self.now = step, 0.0

    def clock(self) -> float:
        return self.now

    def grabs(self, frames):
        """A grab returning ``frames`` one by one; the clock starts again at 0."""
        self.now = 0.0
        it = iter(frames)

        def grab():
            self.now += self.step
            return next(it)

        return grab


def test_wait_for_paint_takes_the_next_paint_or_what_is_on_screen():
    """After a batch the client has handled: the first paint after now shows every click. If the
    screen already shows them (the paint came during the clicks), the wait ends after ``timeout``
    with that picture; either way ``changed`` compares with the frame the clicks were chosen on."""
    chosen_on = np.zeros((2, 4), np.uint8)
    partial = chosen_on.copy()
    partial[0, 0] = 5
    final = partial.copy()
    final[1, 3] = 7
    screen = ScriptedScreen(step=0.005)

    # On screen: the first clicks only; the next paint (two grabs later) shows the rest.
    settled = wait_for_paint(screen.grabs([partial, partial, partial] + [final] * 20), chosen_on, timeout=0.025,
                             settle=0.004, clock=screen.clock, sleep=lambda s: None)
    assert settled.changed and settled.frame[1, 3] == 7
    # Everything shown already: no further change, the picture on screen is taken at the timeout.
    shown = wait_for_paint(screen.grabs([final] * 20), chosen_on, timeout=0.025, settle=0.004,
                           clock=screen.clock, sleep=lambda s: None)
    assert shown.changed and shown.frame[1, 3] == 7 and shown.waited >= 0.025
    # Nothing at all changed (every click lost): not changed.
    lost = wait_for_paint(screen.grabs([chosen_on] * 20), chosen_on, timeout=0.025, settle=0.004,
                          clock=screen.clock, sleep=lambda s: None)
    assert not lost.changed


def test_a_wait_keeps_the_picture_that_held_longest_before_the_one_it_settles_on():
    """A win dialog may come over the board before the won board held still for ``settle``: the wait
    settles on the dialog, and keeps the won board (held longest of the pictures between) as
    ``earlier``; a half-drawn picture seen once is not it. A redraw of one change keeps none."""
    before = np.zeros((2, 4), np.uint8)
    half, won, dialog_drawn, dialog = (np.full((2, 4), v, np.uint8) for v in (1, 2, 3, 4))
    screen = ScriptedScreen(step=0.001)

    # 1 ms half drawn, 5 ms won, 1 ms of the dialog being drawn, then the dialog: settle is 10 ms.
    settled = wait_for_redraw(screen.grabs([half] + [won] * 5 + [dialog_drawn] + [dialog] * 40), before,
                              timeout=1.0, settle=0.01, poll=0, clock=screen.clock, sleep=lambda s: None)
    assert settled.changed and settled.frame[0, 0] == 4
    assert settled.earlier is not None and settled.earlier[0, 0] == 2 and settled.earlier_held >= 0.004
    once = wait_for_redraw(screen.grabs([won] * 40), before, timeout=1.0, settle=0.01, poll=0, clock=screen.clock,
                           sleep=lambda s: None)
    assert once.frame[0, 0] == 2 and once.earlier is None
    # After a batch the client handled: the picture on screen as the wait began (the won board) held
    # until the dialog came.
    painted = wait_for_paint(screen.grabs([won] * 6 + [dialog] * 40), before, timeout=0.025, settle=0.01,
                             clock=screen.clock, sleep=lambda s: None)
    assert painted.frame[0, 0] == 4 and painted.earlier is not None and painted.earlier[0, 0] == 2


def test_a_control_click_lands_only_off_the_board_and_inside_the_window():
    """One rule for play (which refuses the profile) and learn (which skips the candidate)."""
    from screenbot.geometry import Lattice, Rect
    from screenbot.play.profile import ControlAction

    board = Lattice("x", (100.0, 200.0), (20.0, 20.0), 9, 9)  # cells 100..280 x 200..380
    window = Rect(80, 120, 220, 280)
    face = ControlAction(click=(0.0, -1.5))  # 30 px above the top centre
    assert face.guarded_click_point(board, window) == (190.0, 170.0)
    assert ControlAction(click=(0.0, 2.0)).guarded_click_point(board, window) is None  # on the board
    assert ControlAction(click=(0.0, -5.0)).guarded_click_point(board, window) is None  # above the window
    assert face.guarded_click_point(board, Rect(0, 180, 400, 300)) is None  # the window starts below it


@pytest.mark.unit
def test_a_win_is_taken_as_possible_without_a_window_only_when_the_last_opens_leave_just_the_mines():
    """Where no window is followed, the after-win keys would reach whichever window has the keyboard:
    they are sent only when the last actions alone could have won (no flood needed)."""
    from screenbot.play.profile import ControlAction, PlayProfile
    from screenbot.play.rules import GameRules
    from screenbot.play.types import PlayConfig

    profile = PlayProfile(skin="s", client="c", first_click="opening", mines=None, win_requires_all_flags=False,
                          hover_highlight=False, after_win=ControlAction(keys=("escape",)))
    rules = GameRules(profile, PlayConfig(mines=2))
    board = parse_board("1F#\n11#\n###")  # 5 covered, 1 flag: 2 mines in all
    opens = tuple(Action("open", r, c) for r, c in ((0, 2), (1, 2), (2, 0), (2, 1)))
    assert rules.could_have_won(board, opens[:3], certain_only=False)  # a flood may have done the rest
    assert not rules.could_have_won(board, opens[:3], certain_only=True)
    assert rules.could_have_won(board, opens, certain_only=True)  # the flag and (2, 2) left: 2 mines
    assert rules.could_have_won(board, (Action("chord", 1, 1), Action("open", 2, 2)), certain_only=False)
    assert not rules.could_have_won(board, (Action("chord", 1, 0),), certain_only=True)  # (2, 2) out of reach
    assert rules.could_have_won(board, (Action("chord", 1, 1),), certain_only=True)  # every covered cell around
    assert not rules.could_have_won(None, opens, certain_only=True)


@pytest.mark.unit
def test_a_won_game_is_seen_in_what_shows_around_a_window_over_it():
    """By the flags a client puts on every mine at a win (gnome-mines, Windows' Minesweeper)."""
    from screenbot.play.rules import GameRules

    previous = parse_board("1##\n1##\n###")
    won = [[None, None, "1"], ["1", None, "F"], ["0", "1", None]]  # the client's flag, the rest opened or hidden
    assert GameRules.won_as_far_as_shown(previous, won)
    assert not GameRules.won_as_far_as_shown(previous, won, (Action("flag", 1, 2),))  # the bot's own flag
    in_progress = [[None, None, "1"], ["1", None, "F"], [None, "#", None]]  # a covered cell in sight
    assert not GameRules.won_as_far_as_shown(previous, in_progress)
    opened_only = [[None, None, "1"], ["1", None, "2"], ["0", "1", None]]  # opened since, no flag of the client's
    assert not GameRules.won_as_far_as_shown(previous, opened_only)
    lost = [[None, "*", "1"], [None, None, "F"], [None, None, None]]
    assert not GameRules.won_as_far_as_shown(previous, lost)
    assert not GameRules.won_as_far_as_shown(None, won)


@pytest.mark.unit
def test_a_board_that_ignores_a_guess_is_taken_for_a_won_one_only_where_it_could_be_won():
    """A client that took no open, sent twice (``frozen_means_won``): a board is a won game's only
    where every number has exactly as many covered or flagged cells around it as it counts. Before,
    only a board with nothing open or an ignored open of a proven-safe cell was ruled out, so a page
    stalled mid-game, ignoring a guess, could be counted won."""
    from screenbot.play.profile import PlayProfile
    from screenbot.play.rules import GameRules
    from screenbot.play.types import PlayConfig

    for frozen, unknown in ((True, False), (False, True)):
        profile = PlayProfile(skin="s", client="c", first_click="safe", mines=None, hover_highlight=False,
                              win_requires_all_flags=None if unknown else False, frozen_board_means_won=frozen)
        rules = GameRules(profile, PlayConfig())
        enclosed = parse_board("##2\n##2\n221")  # every covered cell a mine; (0, 0) touches no number
        guess = (Action("open", 0, 0),)
        assert rules.frozen_means_won(enclosed, [Problem("opened (0,0)", OPEN_UNSHOWN)])
        assert not rules.cannot_be_won(enclosed, enclosed, guess)
        midgame = parse_board("###\n#1#\n###")  # a 1 with eight covered cells around it
        assert rules.cannot_be_won(midgame, midgame, guess)
    outcome, shown = rules.frozen_outcome()  # the unknown rule: over, its win not shown
    assert outcome == "unconfirmed" and "win rule was not learnt" in shown
    known = GameRules(PlayProfile(skin="s", client="c", first_click="safe", mines=None, hover_highlight=False,
                                  win_requires_all_flags=False, frozen_board_means_won=True), PlayConfig())
    assert known.frozen_outcome()[0] == WON
    assert not GameRules(PlayProfile(skin="s", client="c", first_click="safe", mines=None, hover_highlight=False,
                                     win_requires_all_flags=False), PlayConfig()).frozen_means_won(
        parse_board("##2\n##2\n221"), [Problem("opened (0,0)", OPEN_UNSHOWN)])  # a rule known, no freezing
