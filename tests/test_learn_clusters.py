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
