"""The live hint session against the package's fakes: a simulated game, a fake overlay painted into the
captured frames. Checks the hints follow the game, that reading through our own overlay gives the true
board, that the overlay follows a moved window and goes away with a closed one, and that a hint
recording replays cleanly."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from screenbot.errors import UnrecognizedCellError, WindowGoneError
from screenbot.geometry import Rect
from screenbot.overlay.draw import render_layer
from screenbot.overlay.marks import FRAME_STYLE, OverlayStyle
from screenbot.testing.overlay import FakeOverlay, OverlaidScreen
from screenbot.overlay.live import DRAWN, HIDDEN, UNCHANGED, HintConfig, HintSession
from screenbot.recording import Recorder, load_recording
from screenbot.recording.replay import replay, solver_moves
from screenbot.geometry import Lattice
from screenbot.testing import FlatRenderer, FlatVision, SimulatedClient
from solver.policy import PolicyConfig, decide

pytestmark = pytest.mark.integration

PITCH = 24


def make_session(tmp_path=None, style=FRAME_STYLE, observer=None, edges_tell_cells=False):
    client = SimulatedClient(9, 9, 10, renderer=FlatRenderer(PITCH), rules="opening", seed=5)
    overlay = FakeOverlay(client)
    screen = OverlaidScreen(client, overlay)
    session = HintSession(
        screen=screen,
        screen_rect=client.screen_rect,
        vision=FlatVision(PITCH),
        overlay=overlay,
        config=HintConfig(mines=10, first_click=(4, 4), relocate_wait=0.0, style=style, edges_tell_cells=edges_tell_cells),
        observer=observer,
        sleep=lambda s: None,
    )
    return client, overlay, screen, session


def click_cell(client, r, c):
    x0, y0 = client.board_origin
    client.click(x0 + c * PITCH + PITCH / 2, y0 + r * PITCH + PITCH / 2)


def test_first_tick_draws_the_solvers_hints():
    client, overlay, screen, session = make_session()
    result = session.tick()
    assert result.kind == DRAWN and overlay.mapped
    assert result.board.grid == client.game.board().grid
    assert result.hints.move == ("open", 4, 4)
    # The overlay covers the board region, inside the window.
    assert client.geometry().contains_rect(overlay.rect)
    assert overlay.rect.contains(*client.board_rect.center)


def test_hints_follow_the_game_and_match_the_solver():
    client, overlay, screen, session = make_session()
    session.tick()
    click_cell(client, 4, 4)
    result = session.tick()
    assert result.kind == DRAWN
    truth = client.game.board().with_mines(10)
    assert result.board == truth
    analysis = decide(truth, PolicyConfig(full_analysis=True)).analysis
    assert result.hints.probabilities == analysis.probabilities
    assert result.hints.safe == analysis.safe and result.hints.mines == analysis.mines
    # Nothing changed on the game: the next ticks do not redraw, though our own overlay is in the frames.
    assert session.tick().kind == UNCHANGED
    assert session.tick().kind == UNCHANGED
    assert overlay.shows == 2


def test_reading_through_the_overlay_gives_the_true_board():
    client, overlay, screen, session = make_session()
    session.tick()
    click_cell(client, 4, 4)
    session.tick()
    frame = screen.grab(session.located.region.as_region())
    clean = client.grab(session.located.region.as_region())
    assert not np.array_equal(frame, clean), "the overlay should be visible in the capture"
    reading = FlatVision(PITCH).read(frame, session.located.lattice)
    assert reading.board.grid == client.game.board().grid


def test_a_fill_style_overlay_would_be_read_as_cells():
    """The reason the live overlay uses FRAME: a full-cell drawing hides the cells from the reader."""
    client, overlay, screen, session = make_session(style=OverlayStyle(mode="fill", opacity=1.0))
    session.tick()
    frame = screen.grab(session.located.region.as_region())
    with pytest.raises(UnrecognizedCellError):
        FlatVision(PITCH).read(frame, session.located.lattice)


def test_overlay_follows_a_moved_window():
    client, overlay, screen, session = make_session()
    session.tick()
    before = overlay.rect
    client.move_window(70, 40)
    click_cell(client, 4, 4)
    result = session.tick()
    assert overlay.rect == Rect(before.left + 70, before.top + 40, before.width, before.height)
    assert result.kind == DRAWN and result.board.grid == client.game.board().grid


def hidden_mine(client):
    """A mine's cell, from the simulator's truth (opened after the first click placed the mines)."""
    game = client.game
    for r in range(9):
        for c in range(9):
            if game.board()[r, c] == "#" and game.is_mine(r, c):
                return r, c
    raise AssertionError("no covered mine left")


def test_game_over_hides_the_overlay():
    client, overlay, screen, session = make_session()
    session.tick()
    click_cell(client, 4, 4)
    session.tick()
    click_cell(client, *hidden_mine(client))
    result = session.tick()
    assert result.kind == HIDDEN and not overlay.mapped
    assert result.board.is_over


def test_closed_window_ends_the_session():
    client, overlay, screen, session = make_session()
    session.tick()
    client.closed = True
    with pytest.raises(WindowGoneError):
        session.run()


def test_hint_recording_replays_with_zero_differences(tmp_path):
    client, overlay, screen, session = make_session()
    with Recorder(tmp_path / "rec", command="hint", skin="flat", mines=10, policy=session.policy_for) as recorder:
        session.observer = recorder
        result = session.tick()
        for _ in range(4):
            click_cell(client, *result.hints.move[1:])
            result = session.tick()
            if result.kind != DRAWN:
                break
    recording = load_recording(tmp_path / "rec")
    assert len(recording.steps) >= 3
    # The recorded frames include the overlay drawn by the previous step: replay reads through it.

    def read(frame, lattice):
        return FlatVision(PITCH).read(frame, Lattice.from_json(lattice)).board

    report = replay(recording, read, solver_moves)
    assert report.ok, report.differences


class CountingVision(FlatVision):
    """FlatVision that remembers the lattice of every read (how many cells each read looked at)."""

    def __init__(self, pitch):
        super().__init__(pitch)
        self.reads = []

    def read(self, frame, lattice, needed=None):
        self.reads.append(lattice)
        return super().read(frame, lattice, needed)


def test_only_cells_whose_middle_changed_are_read_again_and_the_board_stays_true():
    client, overlay, screen, session = make_session()
    vision = CountingVision(PITCH)
    session.env.vision = vision
    result = session.tick()
    assert (vision.reads[-1].rows, vision.reads[-1].cols) == (9, 9)  # the first read: every cell
    click_cell(client, *result.hints.move[1:])  # the first click opens an area
    result = session.tick()
    for _ in range(4):
        _, r, c = result.hints.move
        click_cell(client, r, c)
        result = session.tick()
        if result.board.is_over:
            break
        part = vision.reads[-1]
        assert part.rows * part.cols < 81, "a click re-reads the rectangle of changed cells, not the board"
        assert result.board.grid == client.game.board().grid
        # What the overlay shows is exactly a full drawing of the hints (the partial redraw is exact).
        expected = render_layer(overlay.mask.shape, session.located.lattice, result.hints, session.style)
        assert (overlay.mask == expected.shape_mask).all()
        assert (overlay.bgr[overlay.mask] == expected.bgr[expected.shape_mask]).all()


class MarkShyVision(FlatVision):
    """``FlatVision`` that cannot read a cell it is asked for with anything of ours drawn on its face:
    as a number just opened under the ring it had while covered may not read through it."""

    def read(self, frame, lattice, needed=None):
        reading = super().read(frame, lattice, needed)
        ox, oy = lattice.origin
        for r in range(lattice.rows):
            for c in range(lattice.cols):
                face = frame[int(oy + r * PITCH) : int(oy + (r + 1) * PITCH) - 1, int(ox + c * PITCH) : int(ox + (c + 1) * PITCH) - 1]
                marked = (face != face[PITCH // 2, PITCH // 2]).any()
                if marked and (needed is None or needed[r][c]):
                    raise UnrecognizedCellError("a mark over the cell", row=r, col=c, score=0.0)
        return reading


def test_marks_left_on_cells_the_game_redrew_are_taken_off_and_the_overlay_stays_up():
    """After a click opens an area, the cells opened still carry the marks they had while covered, and
    cells not opened but in the box around the change carry theirs: the session takes the marks off the
    cells the game redrew, reads those alone, and keeps the overlay up (it was hidden after a few looks,
    and the board located again)."""
    from screenbot.overlay.live import UNREADABLE

    client, overlay, screen, session = make_session()
    session.env.vision = MarkShyVision(PITCH)
    first = session.tick()
    assert first.kind == DRAWN
    click_cell(client, *first.hints.move[1:])
    assert session.tick().kind == UNREADABLE  # the opened cells under their old marks
    assert overlay.mapped
    after = session.tick()
    assert after.kind == DRAWN and overlay.mapped
    assert after.board.grid == client.game.board().grid
    assert after.board.count("#") < 81 - 1  # an area opened: the box around it held covered cells


class MarkBlindVision(FlatVision):
    """``FlatVision`` that reads a cell with anything of ours on its face as covered: as the classic look
    read untaught would, whose covered cells and open 0s differ only at their edges, under the marks."""

    def read(self, frame, lattice, needed=None):
        reading = super().read(frame, lattice, needed)
        ox, oy = lattice.origin
        rows = [list(row) for row in reading.board.grid]
        for r in range(lattice.rows):
            for c in range(lattice.cols):
                face = frame[int(oy + r * PITCH) : int(oy + (r + 1) * PITCH) - 1, int(ox + c * PITCH) : int(ox + (c + 1) * PITCH) - 1]
                if (face != face[PITCH // 2, PITCH // 2]).any():
                    rows[r][c] = "#"
        return replace(reading, board=type(reading.board)(tuple("".join(row) for row in rows), reading.board.mines))


@pytest.mark.parametrize("edges_tell_cells", [False, True])
def test_a_look_told_by_its_edges_reads_a_changed_cell_only_once_its_mark_is_off(edges_tell_cells):
    """With ``edges_tell_cells`` (the classic look read untaught) the cells a click changed lose their
    marks before they are read, and the next look reads them bare: the board shown is the game's. Without
    it, the cells opened under their marks would read as still covered (the hints kept advising cells long
    open, on pygame-minesweeper)."""
    from screenbot.overlay.live import UNREADABLE

    client, overlay, screen, session = make_session(edges_tell_cells=edges_tell_cells)
    session.env.vision = MarkBlindVision(PITCH)
    first = session.tick()
    assert first.kind == DRAWN and first.board.grid == client.game.board().grid
    click_cell(client, *first.hints.move[1:])
    after = session.tick()
    if not edges_tell_cells:
        # Read through their marks, the opened cells are still covered: the overlay stays as it was.
        assert after.kind == UNCHANGED and after.board.grid != client.game.board().grid
        return
    assert after.kind == UNREADABLE and overlay.mapped
    opened = [(r, c) for r in range(9) for c in range(9) if client.game.board()[r, c] != "#"]
    assert opened and all(session.shown.hints.mark_rgb(r, c) is None for r, c in opened)
    after = session.tick()
    assert after.kind == DRAWN and overlay.mapped and after.board.grid == client.game.board().grid


def test_an_unchanged_picture_costs_no_window_query_until_follow_every():
    client, overlay, screen, session = make_session()
    now = [0.0]
    session.env.clock = lambda: now[0]
    session.tick()
    session.tick()  # the first picture with our own overlay in it: a change, looked at once
    calls = []
    follow = overlay.follow
    overlay.follow = lambda: calls.append(now[0]) or follow()
    for _ in range(5):
        now[0] += 0.01
        assert session.tick().kind == UNCHANGED
    assert calls == []
    now[0] += session.config.follow_every
    session.tick()
    assert len(calls) == 1
    # A changed picture (the window moved) is followed at once.
    client.move_window(30, 0)
    now[0] += 0.001
    session.tick()
    assert len(calls) == 2 and overlay.rect.left == session.located.region.left


def test_an_unreadable_board_hides_the_overlay_only_after_a_while():
    from screenbot.overlay.live import UNREADABLE

    client, overlay, screen, session = make_session()
    now = [0.0]
    session.env.clock = lambda: now[0]
    session.tick()
    client.covered = True  # another window over the board
    # Many quick looks (a redraw in progress would look like this for a frame or two): still shown.
    for _ in range(8):
        now[0] += 0.004
        assert session.tick().kind == UNREADABLE
    assert overlay.mapped
    now[0] += session.config.hide_after_seconds
    assert session.tick().kind == UNREADABLE
    assert not overlay.mapped
    # The window goes away: the board reads again and the hints come back.
    client.covered = False
    now[0] += 0.004
    result = session.tick()
    assert result.kind == DRAWN and overlay.mapped and result.board.grid == client.game.board().grid


def test_a_zero_next_to_a_covered_cell_is_a_half_drawn_frame():
    """gnome-mines draws a clicked cell "pressed" (like an open 0) a frame before its number: hints for
    that picture would mark its neighbours safe, so the session waits for the next frame."""
    from dataclasses import replace as dc_replace

    client, overlay, screen, session = make_session()
    session._flood = "8"
    session.tick()
    shown = overlay.shows
    real_read = session.env.vision.read

    def pressed(frame, lattice, needed=None):
        reading = real_read(frame, lattice, needed)
        # Every opened number still drawn as a blank pressed cell: zeros next to covered cells.
        grid = tuple("".join("0" if ch in "12345678" else ch for ch in row) for row in reading.board.grid)
        return dc_replace(reading, board=type(reading.board)(grid))

    session.env.vision.read = pressed
    click_cell(client, 4, 4)
    # Every changed cell held (each 0 is beside a held cell): nothing drawn from this picture.
    assert session.tick().kind == UNCHANGED and overlay.shows == shown
    session.env.vision.read = real_read
    result = session.tick()
    assert result.kind == DRAWN and result.board.grid == client.game.board().grid


def _opened_on_simulated_time():
    """A session on ``SimulatedTime`` over a client that opens around zeros, its opening played and
    shown: (client, overlay, session, time)."""
    from screenbot.testing import SimulatedTime

    client, overlay, screen, session = make_session()
    time = SimulatedTime()
    session.env.clock = time
    session._flood = "8"
    result = session.tick()
    click_cell(client, *result.hints.move[1:])  # the opening
    session.tick()
    return client, overlay, session, time


def _safe_cell_beside_covered(client) -> tuple[int, int]:
    """A covered cell with no mine that has a covered neighbour: drawn pressed, it reads as a 0 the
    client could not show there."""
    grid = client.game.board().grid
    return next((r, c) for r in range(9) for c in range(9) if grid[r][c] == "#" and not client.game.is_mine(r, c)
                and any(grid[rr][cc] == "#" for rr in range(max(0, r - 1), min(9, r + 2))
                        for cc in range(max(0, c - 1), min(9, c + 2)) if (rr, cc) != (r, c)))


def test_a_button_held_on_a_covered_cell_keeps_the_overlay_up():
    """A player holds the button on a covered cell for half a second (simulated time): the client draws
    it pressed, like an open 0. The overlay stays as it was (it used to be hidden after 0.2 s of such
    "misreads"), and the release that opens the cell is shown."""
    client, overlay, session, time = _opened_on_simulated_time()
    shown = overlay.shows
    cell = _safe_cell_beside_covered(client)
    client.pressed = [cell, 10**6]  # drawn pressed until the button is let go
    start = time()
    kinds = set()
    while time() - start < 0.5:
        kinds.add(session.tick().kind)
    assert kinds == {UNCHANGED} and overlay.mapped and overlay.shows == shown
    client.pressed = []
    click_cell(client, *cell)
    result = session.tick()
    assert result.kind == DRAWN and overlay.mapped and result.board.grid == client.game.board().grid


def test_a_cell_pressed_after_the_overlay_was_hidden_is_a_frame_to_look_at_again():
    """The board unreadable long enough for the overlay to be hidden (and the board forgotten), then a
    cell drawn pressed: nothing is left to hold it at, so that frame is unreadable, and the release is
    shown. It raised AttributeError (a traceback ending the hint) before."""
    from screenbot.errors import UnrecognizedCellError
    from screenbot.overlay.live import UNREADABLE

    client, overlay, session, time = _opened_on_simulated_time()
    real_read = session.env.vision.read

    def unreadable(frame, lattice, needed=None):
        raise UnrecognizedCellError("something over the board", row=0, col=0, score=0.0)

    cell = _safe_cell_beside_covered(client)
    client.pressed = [cell, 10**6]  # a change on screen, which the eyes cannot read for a while
    session.env.vision.read = unreadable
    start = time()
    while time() - start < 0.5:
        session.tick()
    assert not overlay.mapped  # hidden after the misreads
    session.env.vision.read = real_read
    assert session.tick().kind == UNREADABLE
    client.pressed = []
    click_cell(client, *cell)
    result = session.tick()
    assert result.kind == DRAWN and overlay.mapped and result.board.grid == client.game.board().grid


def test_a_pressed_cell_is_held_while_the_rest_of_the_change_is_shown():
    """A bot clicking beside us always has some cell half drawn: that cell keeps its old reading (and is
    looked at again) but loses its mark, and every other change is shown at once."""
    from dataclasses import replace as dc_replace

    client, overlay, screen, session = make_session()
    session._flood = "8"
    result = session.tick()
    click_cell(client, *result.hints.move[1:])  # the opening
    result = session.tick()
    safe = sorted(cell for cell in result.hints.safe if client.game.board()[cell] == "#")

    def mines_around(r, c):
        return sum(client.game.is_mine(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                   if (dr or dc) and 0 <= r + dr < 9 and 0 <= c + dc < 9)

    numbered = [cell for cell in safe if mines_around(*cell) > 0]  # they open alone, showing a number
    a, b = numbered[0], numbered[-1]
    assert a != b
    real_read = session.env.vision.read
    full = session.located.lattice

    def pressed_b(frame, lattice, needed=None):
        reading = real_read(frame, lattice, needed)
        r0 = round((lattice.origin[1] - full.origin[1]) / PITCH)
        c0 = round((lattice.origin[0] - full.origin[0]) / PITCH)
        grid = [list(row) for row in reading.board.grid]
        if 0 <= b[0] - r0 < lattice.rows and 0 <= b[1] - c0 < lattice.cols:
            grid[b[0] - r0][b[1] - c0] = "0"  # b drawn pressed
        return dc_replace(reading, board=type(reading.board)(tuple("".join(row) for row in grid)))

    session.env.vision.read = pressed_b
    click_cell(client, *a)
    click_cell(client, *b)
    truth = client.game.board()
    result = session.tick()
    assert result.kind == DRAWN
    assert result.board[a] == truth[a] != "#"
    assert result.board[b] == "#"  # held: not shown as an open 0
    assert result.hints.probabilities[b[0]][b[1]] is None  # and without its old mark meanwhile
    session.env.vision.read = real_read
    result = session.tick()  # the same picture: the held cell is read again
    assert result.kind == DRAWN and result.board.grid == truth.grid
