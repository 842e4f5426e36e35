"""``learn.clusters.Clusters``: assigning a frame's pictures at once gives what assigning them one by
one gives (ids and counts), on pictures drawn at random each run with repeats and near-duplicates."""

from __future__ import annotations

import numpy as np
import pytest

from screenbot.learn.clusters import ASSIGN_BLOCK, Clusters

from .seeds import with_regressions

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("seed", with_regressions())
def test_assigning_a_frame_at_once_is_assigning_it_picture_by_picture(seed):
    rng = np.random.default_rng(seed)
    for case in range(8):
        looks = rng.uniform(0, 255, (int(rng.integers(2, 15)), 10 * 10 * 3)).astype(np.float32)
        at_once, one_by_one = Clusters(), Clusters()
        for frame in range(6):
            # Cells of a few looks, each frame a little lighter or darker than the last (a shade apart
            # near the threshold), some frames shown twice pixel for pixel.
            count = int(rng.integers(1, 3 * ASSIGN_BLOCK))
            shade = rng.normal(0, rng.uniform(0.5, 6), (1, looks.shape[1]))
            pictures = np.clip(looks[rng.integers(0, len(looks), count)] + shade, 0, 255).astype(np.float32)
            for shown in range(1 + int(rng.integers(0, 2))):
                got = at_once.assign(pictures)
                want = [one_by_one.nearest(picture, add=True) for picture in pictures]
                assert got.tolist() == want, f"seed {seed}, case {case}, frame {frame}"
        assert at_once.counts == one_by_one.counts, f"seed {seed}, case {case}"
        assert len(at_once.prototypes) == len(one_by_one.prototypes)


def _stem(box_width: int, side: int, rng) -> np.ndarray:
    """A light box with a short dark stem centred in it, as a client draws a "1" centred in a box of
    ``box_width`` screen pixels, scaled to ``side`` by area as ``cell_pictures`` scales a box: in a box
    of odd width the stem is one dark pixel; a pixel wider it lands half a pixel over, two half-dark
    pixels."""
    box = np.full((box_width, box_width, 3), 200.0, np.float32)
    middle = box_width / 2
    for x in range(box_width):
        overlap = max(0.0, min(x + 1, middle + 0.5) - max(x, middle - 0.5))  # the stem is 1 px wide
        box[box_width // 3 : box_width - box_width // 3, x] -= 110.0 * overlap
    weights = _area_weights(box_width, side)
    picture = np.einsum("ay,yxc,bx->abc", weights, box, weights) + rng.normal(0, 0.3, (side, side, 3))
    return picture.astype(np.float32).reshape(-1)


def _area_weights(before: int, after: int) -> np.ndarray:
    """(after, before): the share of each pixel in each pixel of a line resized by area averaging."""
    edges = np.arange(after + 1) * before / after
    starts, ends = edges[:-1, None], edges[1:, None]
    pixels = np.arange(before)[None, :]
    overlap = np.clip(np.minimum(ends, pixels + 1) - np.maximum(starts, pixels), 0, None)
    return overlap / overlap.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("seed", with_regressions())
def test_one_glyph_in_boxes_of_two_widths_is_two_clusters_alike_but_two_glyphs_are_not(seed):
    """Lines of two widths (GTK): a glyph centred in a box a pixel wider lands half a pixel over and is
    anti-aliased otherwise, so its two pictures differ at one spot by more than ``PEAK`` though little
    on average. They stay two clusters, each knowing the box size it was first seen in, and ``alike``
    calls them one state; two pictures as far apart at one spot but cut from boxes of one size are not
    alike (gnome-mines' flag and its "?" differ so)."""
    from screenbot.learn.clusters import PEAK, SAME_PICTURE, distance, peak

    rng = np.random.default_rng(seed)
    width = int(rng.integers(9, 14)) * 2 + 1  # odd: the stem on one pixel
    side = 2 * width
    narrow, wide = _stem(width, side, rng), _stem(width + 1, side, rng)
    assert distance(narrow, wide) < SAME_PICTURE and peak(narrow, wide) > PEAK  # the case at hand
    clusters = Clusters()
    ids = clusters.assign_board(np.stack([narrow, wide, narrow, wide]), 2, 2,
                                np.array([[width, width + 1], [width, width + 1]]))
    assert ids.tolist() == [[0, 1], [0, 1]] and clusters.sizes == [width, width + 1]
    assert clusters.alike(0, 1)
    # The same two pictures, both from boxes of one size: two states.
    one_size = Clusters()
    a, b = one_size.assign(np.stack([narrow, wide]), np.array([width, width]))
    assert a != b and not one_size.alike(int(a), int(b))
    # No box sizes given (a caller that does not know them): nothing is assumed.
    unknown = Clusters()
    a, b = unknown.assign(np.stack([narrow, wide]))
    assert a != b and not unknown.alike(int(a), int(b))


def test_a_flag_in_a_box_of_another_size_is_known_as_the_flag():
    """The flag the first right click showed, and the flag a later right click shows in a box a pixel
    wider (another cluster, alike it): both are the flag from then on, so a flag the bot placed there is
    one at the loss. A covered picture, or one named by the rules, is never taken for it."""
    from screenbot.geometry import Lattice, Rect
    from screenbot.learn.watch import Seen

    rng = np.random.default_rng(7)
    narrow, wide = _stem(21, 42, rng), _stem(22, 42, rng)
    clusters = Clusters()
    flag, other_flag, number = clusters.assign(np.stack([narrow, wide, narrow + 40]), np.array([21, 22, 21]))
    seen = Seen(Lattice("t", (0.0, 0.0), (21.0, 21.0), 2, 2), Rect(0, 0, 50, 50), clusters, covered={99}, flag=int(flag))
    seen.names[int(number)] = "1"
    assert seen.flags() == {flag}
    assert not seen.shows_flag(99) and not seen.shows_flag(int(number))
    assert seen.shows_flag(int(other_flag)) and seen.flags() == {flag, other_flag}
    assert seen.all_names()[int(other_flag)] == "F" and int(other_flag) in seen.closed_ids()
