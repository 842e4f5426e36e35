"""Cell -> click point conversion, and a fuzz test: no click ever falls outside the located board."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from screenbot.geometry import Rect
from screenbot.geometry import Lattice
from screenbot.mouse import BoardMouse, OffBoardClickError, RecordingMouse, ScreenScale
from screenbot.play import PlayConfig, Player
from screenbot.play.observer import LOST, WON
from screenbot.play.profile import ControlAction, PlayProfile
from screenbot.testing import FlatRenderer, FlatVision, SimulatedClient

pytestmark = pytest.mark.unit

BOARD = Lattice("flat", origin=(100.5, 40.0), pitch=(23.0, 23.0), rows=16, cols=30)


def test_cell_centres_and_refusals():
    mouse = RecordingMouse()
    board_mouse = BoardMouse(mouse, BOARD)
    click = board_mouse.open(0, 0)
    assert (click.x, click.y) == (112.0, 51.5)
    board_mouse.flag(15, 29)
    assert mouse.clicks[-1] == (100.5 + 29.5 * 23, 40 + 15.5 * 23, "right")
    for row, col in [(-1, 0), (0, -1), (16, 0), (0, 30), (99, 99)]:
        with pytest.raises(OffBoardClickError):
            board_mouse.open(row, col)
    assert len(mouse.clicks) == 2


def test_retina_scale_and_negative_monitor_offset():
    # A monitor left of the primary one: the desktop starts at x = -1920 pixels; screenshots at 2x.
    scale = ScreenScale.measure(Rect(-3840, 0, 7680, 2160), (3840, 1080))
    assert (scale.x, scale.y) == (2.0, 2.0)
    # Capture pixels count from the desktop's corner: x = 840 px is 3000 px left of the primary monitor.
    board = Lattice("flat", origin=(840.0, 400.0), pitch=(40.0, 40.0), rows=9, cols=9)
    mouse = RecordingMouse()
    BoardMouse(mouse, board, scale).open(0, 0)
    assert mouse.clicks == [(-1490.0, 210.0, "left")]  # in points, on the left monitor
    assert scale.to_pixels(-1490.0, 210.0) == (860.0, 420.0)


def test_park_point_is_off_the_board_and_away_from_corners():
    screen = Rect(0, 0, 1280, 1024)
    for board in (BOARD, Lattice("flat", (10.0, 1024 - 16 * 20.0), (20.0, 20.0), 16, 30)):
        x, y = BoardMouse(RecordingMouse(), board, screen=screen).park_point()
        assert board.cell_at(x, y) is None
        assert screen.contains(x, y)
        assert min(x, y) > 2 and x < 1278 and y < 1022


def test_scale_measure_rejects_an_empty_screen():
    with pytest.raises(Exception):
        ScreenScale.measure(Rect(0, 0, 100, 100), (0, 0))


PROFILE = PlayProfile(
    skin="flat",
    client="sim",
    first_click="opening",
    mines=None,
    win_requires_all_flags=False,
    hover_highlight=True,
    restart=ControlAction(keys=("ctrl", "r")),
    redraw_timeout=0.01,
    settle=0.0,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.integers(4, 12),
    cols=st.integers(4, 16),
    density=st.floats(0.08, 0.3),
    pitch=st.integers(6, 24),
    origin=st.tuples(st.integers(30, 300), st.integers(30, 200)),
    seed=st.integers(0, 10_000),
    moves=st.lists(st.tuples(st.integers(1, 40), st.integers(-80, 80), st.integers(-60, 60)), max_size=3),
    flag_mines=st.booleans(),
    chord=st.booleans(),
)
def test_fuzz_no_click_outside_the_board(rows, cols, density, pitch, origin, seed, moves, flag_mines, chord):
    """Random boards, cell sizes and positions; the window is dragged at random clicks mid-game."""
    mines = max(1, int(rows * cols * density))
    moves_at = {at: (dx, dy) for at, dx, dy in moves}

    width, height, margin = 800, 600, 40
    max_x, max_y = width - margin - cols * pitch, height - margin - rows * pitch

    def drag(client: SimulatedClient, n: int) -> None:
        # Dragged anywhere on screen, but not off it (that case has its own test).
        if n in moves_at:
            dx, dy = moves_at[n]
            x, y = client.board_origin
            client.board_origin = (min(max_x, max(margin, x + dx)), min(max_y, max(margin, y + dy)))

    client = SimulatedClient(
        rows, cols, mines, renderer=FlatRenderer(pitch), seed=seed, margin=margin,
        board_origin=(max(margin, min(max_x, origin[0])), max(margin, min(max_y, origin[1]))), screen_size=(width, height), on_click=drag,
    )
    profile = dataclasses.replace(PROFILE, mines={f"{rows}x{cols}": mines})
    player = Player(
        screen=client, screen_rect=client.screen_rect, mouse=client, vision=FlatVision(pitch=pitch),
        profile=profile, config=PlayConfig(games=2, flag_mines=flag_mines, chord=chord), window=client,
        sleep=lambda s: None,
    )
    results = player.play()
    assert client.outside_clicks == [], client.outside_clicks[:3]
    assert len(results) == 2 and client.games_started == 2
    for result in results:
        assert result.outcome in (WON, LOST)


def test_measure_scale_uses_the_screen_origin_and_the_input_size():
    from screenbot.play.live import measure_scale

    class Screen:
        size = (3840, 1080)
        origin = (-1920, 0)

    class Input:
        def size(self):
            return (1920, 540)  # a 2x HiDPI desktop: half as many points as pixels

    scale = measure_scale(Screen(), Input())
    assert (scale.x, scale.y, scale.left, scale.top) == (2.0, 2.0, -1920, 0)
    # Capture pixel 0 is the left monitor's edge, 960 points left of the primary monitor.
    assert scale.to_points(0, 0) == (-960.0, 0.0)


def test_a_client_that_flags_with_ctrl_click_is_sent_its_own_flag_click():
    mouse = RecordingMouse()
    board_mouse = BoardMouse(mouse, BOARD, flag_keys=("ctrl",))
    click = board_mouse.flag(2, 3)
    assert (click.button, click.holding) == ("left", ("ctrl",))
    board_mouse.open(2, 4)
    assert [c[2] for c in mouse.clicks] == ["left", "left"] and mouse.held == [("ctrl",), ()]


class _Gui:
    """pyautogui's calls, recorded; ``fail`` names the call that raises."""

    def __init__(self, fail: str = "") -> None:
        self.calls: list[tuple] = []
        self.fail = fail

    def __getattr__(self, name):
        def call(*args, **kwargs):
            self.calls.append((name, *args, *kwargs.values()))
            if name == self.fail:
                raise RuntimeError("the display went away")
        return call


def test_the_keys_are_held_around_the_click_and_let_go_even_when_it_fails():
    from screenbot.mouse import PyAutoGuiMouse

    mouse = object.__new__(PyAutoGuiMouse)  # no display: pyautogui itself is replaced
    mouse._gui = _Gui()
    mouse.click(10.4, 20.6, "left", ("ctrl", "shift"))
    assert mouse._gui.calls == [("keyDown", "ctrl"), ("keyDown", "shift"), ("mouseDown", 10, 21, "left"),
                                ("mouseUp", 10, 21, "left"), ("keyUp", "shift"), ("keyUp", "ctrl")]
    mouse._gui = _Gui(fail="mouseDown")
    with pytest.raises(RuntimeError):
        mouse.click(1, 2, "left", ("ctrl",))
    assert mouse._gui.calls[-1] == ("keyUp", "ctrl")


def test_play_flags_a_ctrl_click_client_and_its_flags_win():
    """A client that takes no right click and flags with Ctrl+click, whose win needs every mine flagged
    (xdemineur's rule): with the profile's flag keys the bot's flags stand and its games are won."""
    won = 0
    for seed in range(3):
        client = SimulatedClient(8, 8, 6, renderer=FlatRenderer(12), seed=seed, flag_keys=("ctrl",),
                                 wins_need_flags=True)
        profile = dataclasses.replace(PROFILE, mines={"8x8": 6}, win_requires_all_flags=True, flag_keys=("ctrl",))
        player = Player(screen=client, screen_rect=client.screen_rect, mouse=client, vision=FlatVision(pitch=12),
                        profile=profile, config=PlayConfig(games=1), window=client, sleep=lambda s: None)
        results = player.play()
        flags = [c for c in client.clicks if c.cell is not None and c.button == "right"]
        assert len(results) == 1 and results[0].outcome in (WON, LOST)
        if results[0].outcome == WON:
            won += 1
            assert len(flags) >= 6  # each of the bot's flags reached the client as its own flag click
    assert won >= 1

