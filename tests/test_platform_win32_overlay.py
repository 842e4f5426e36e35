"""The Windows hint overlay's logic, on any system: the layered window's pixels (premultiplied BGRA from a
picture and its mask) and what the overlay asks of its window as the game moves, hides and closes. The
window itself is a recording fake here; the real one needs Windows (or Wine) and a game to follow."""

from __future__ import annotations

import numpy as np
import pytest

from screenbot.errors import WindowGoneError
from screenbot.geometry import Rect
from screenbot.platforms.win32.overlay import Placement, Win32Overlay, premultiplied_bgra, union

pytestmark = pytest.mark.unit


def _picture(height=6, width=8, seed=0):
    rng = np.random.default_rng(seed)
    bgr = rng.integers(1, 256, (height, width, 3), np.uint8)
    mask = rng.random((height, width)) < 0.4
    return bgr, mask


# --- pixels -----------------------------------------------------------------------------------------


def test_pixels_are_the_colour_and_opaque_on_the_mask_and_all_zero_elsewhere():
    bgr, mask = _picture()
    out = premultiplied_bgra(bgr, mask)
    assert out.shape == (6, 8, 4) and out.dtype == np.uint8
    assert np.array_equal(out[mask][:, :3], bgr[mask])
    assert (out[mask][:, 3] == 255).all()
    # Premultiplied: a transparent pixel has no colour either, or Windows would add it to the game's.
    assert (out[~mask] == 0).all()


def test_a_box_writes_only_its_part_of_the_buffer():
    bgr, mask = _picture()
    out = np.full((6, 8, 4), 7, np.uint8)
    premultiplied_bgra(bgr, mask, out, (2, 1, 5, 4))
    whole = premultiplied_bgra(bgr, mask)
    assert np.array_equal(out[1:4, 2:5], whole[1:4, 2:5])
    untouched = np.ones((6, 8), bool)
    untouched[1:4, 2:5] = False
    assert (out[untouched] == 7).all()


def test_the_redrawn_part_holds_every_box():
    assert union([(4, 5, 6, 7), (1, 9, 3, 12), (2, 0, 5, 2)]) == (1, 0, 6, 12)


def test_a_placement_keeps_the_offset_from_the_client_area():
    placement = Placement.of(Rect(110, 95, 50, 40), Rect(100, 80, 300, 200))
    assert placement == Placement(10, 15)
    assert placement.on(Rect(-400, 20, 300, 200)) == (-390, 35)


# --- the overlay against a recording window -----------------------------------------------------------


class FakeGame:
    """The followed game window: a client area, minimised or not, closed or not."""

    window_id = 0x1234

    def __init__(self, rect=Rect(100, 80, 300, 200)) -> None:
        self.rect, self.viewable, self.closed = rect, True, False

    def geometry(self) -> Rect:
        if self.closed:
            raise WindowGoneError("the game window 0x1234 was closed", window=self.window_id)
        return self.rect

    def is_viewable(self) -> bool:
        return self.viewable


class FakeNative:
    """Records what the overlay asks of its Windows window; ``pixels`` is its DIB."""

    hwnd = 0x99

    def __init__(self) -> None:
        self.calls: list[tuple] = []
        self.buffer: np.ndarray | None = None
        self.visible = False
        self.game_above = False

    def resize(self, width, height):
        self.calls.append(("resize", width, height))
        self.buffer = np.zeros((height, width, 4), np.uint8)

    def pixels(self):
        return self.buffer

    def update(self, left, top, dirty):
        self.calls.append(("update", left, top, dirty))

    def move(self, left, top):
        self.calls.append(("move", left, top))

    def show(self):
        self.calls.append(("show",))
        self.visible = True

    def hide(self):
        self.calls.append(("hide",))
        self.visible = False

    def is_below(self, game):
        assert game == FakeGame.window_id
        return self.game_above

    def raise_top(self):
        self.calls.append(("raise",))
        self.game_above = False

    def pump(self):
        pass

    def destroy(self):
        self.calls.append(("destroy",))
        self.visible = False

    def named(self, name):
        return [call for call in self.calls if call[0] == name]


@pytest.fixture
def shown():
    game, native = FakeGame(), FakeNative()
    overlay = Win32Overlay(game, native=native)
    overlay.follow()
    bgr, mask = _picture(40, 60)
    overlay.show(bgr, mask, Rect(110, 95, 60, 40))
    return game, native, overlay, (bgr, mask)


def test_show_draws_the_whole_picture_at_its_place_then_shows_the_window(shown):
    _, native, overlay, (bgr, mask) = shown
    assert native.calls == [("resize", 60, 40), ("update", 110, 95, (0, 0, 60, 40)), ("show",)]
    assert np.array_equal(native.buffer, premultiplied_bgra(bgr, mask))
    assert overlay.mapped and native.visible


def test_boxes_redraw_only_their_parts(shown):
    _, native, overlay, (bgr, mask) = shown
    native.calls.clear()
    changed = bgr.copy()
    changed[:, :] = (1, 2, 3)
    overlay.show(changed, mask, Rect(110, 95, 60, 40), boxes=[(0, 0, 10, 10), (20, 30, 25, 40)])
    assert native.calls == [("update", 110, 95, (0, 0, 25, 40))]
    assert np.array_equal(native.buffer[:10, :10], premultiplied_bgra(changed, mask)[:10, :10])
    assert np.array_equal(native.buffer[:, 30:], premultiplied_bgra(bgr, mask)[:, 30:])


def test_another_size_starts_over_with_a_whole_picture(shown):
    _, native, overlay, _ = shown
    native.calls.clear()
    bgr, mask = _picture(20, 30, seed=1)
    overlay.show(bgr, mask, Rect(120, 100, 30, 20), boxes=[(0, 0, 5, 5)])
    assert native.calls == [("resize", 30, 20), ("update", 120, 100, (0, 0, 30, 20))]
    assert np.array_equal(native.buffer, premultiplied_bgra(bgr, mask))


def test_a_picture_that_does_not_fit_its_rect_is_refused(shown):
    _, _, overlay, (bgr, mask) = shown
    with pytest.raises(ValueError):
        overlay.show(bgr, mask, Rect(110, 95, 61, 40))


def test_follow_moves_the_overlay_with_the_game_keeping_the_offset(shown):
    game, native, overlay, _ = shown
    native.calls.clear()
    game.rect = Rect(500, 300, 300, 200)
    state = overlay.follow()
    assert state.rect == game.rect and state.viewable
    assert native.calls == [("move", 510, 315)]
    native.calls.clear()
    overlay.follow()  # still there: nothing to do
    assert native.calls == []


def test_follow_hides_the_overlay_while_the_game_is_minimised_and_shows_it_back(shown):
    game, native, overlay, _ = shown
    game.viewable = False
    assert not overlay.follow().viewable
    assert not native.visible and not overlay.mapped
    game.viewable = True
    overlay.follow()
    assert native.visible and overlay.mapped


def test_a_hidden_overlay_stays_hidden_until_the_next_show(shown):
    game, native, overlay, (bgr, mask) = shown
    overlay.hide()
    assert not native.visible
    game.rect = Rect(0, 0, 300, 200)
    overlay.follow()
    assert not native.visible and native.named("move") == [("move", 10, 15)]
    overlay.show(bgr, mask, Rect(10, 15, 60, 40))
    assert native.visible


def test_a_topmost_game_stacked_over_the_overlay_is_put_back_under_it(shown):
    _, native, overlay, _ = shown
    native.calls.clear()
    native.game_above = True
    overlay.follow()
    assert native.calls == [("raise",)]


def test_a_closed_game_closes_the_overlay_and_follow_names_the_window(shown):
    game, native, overlay, (bgr, mask) = shown
    game.closed = True
    with pytest.raises(WindowGoneError) as caught:
        overlay.follow()
    assert caught.value.window == 0x1234 and "0x1234" in str(caught.value)
    assert native.named("destroy") == [("destroy",)] and overlay.hwnd is None
    overlay.close()  # twice is harmless
    assert native.named("destroy") == [("destroy",)]
    with pytest.raises(WindowGoneError):
        overlay.show(bgr, mask, Rect(110, 95, 60, 40))


def test_nothing_is_drawn_over_a_minimised_game(shown):
    game, native, overlay, (bgr, mask) = shown
    game.viewable = False
    overlay.follow()
    native.calls.clear()
    overlay.show(bgr, mask, Rect(110, 95, 60, 40))
    assert not native.visible and native.named("show") == []
