"""Group cell pictures into clusters of identical-looking cells, with no names attached.

Every cell is cut as the reader cuts it (the board region resized once, each cell to CANONICAL x
CANONICAL pixels: ``vision.fit.canonical_cells``) and compared by the mean absolute difference of its
pixels. A client draws a state the same way every time, so cells of one state are a few levels apart
(sub-pixel placement of the box) and cells of different states far more (another colour or symbol).
A cluster keeps the first picture it was given as its prototype: no drift from averaging.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# Mean absolute difference (0-255 per channel) under which two cell pictures are the same state.
# Measured on gnome-mines at 23 px: cells of one state 0-3 apart, the closest two states (covered and
# the lit covered cell, a 1 and a 2) 12 or more.
SAME_PICTURE = 7.0


def distance(a: np.ndarray, b: np.ndarray) -> np.ndarray | float:
    """Mean absolute difference between pictures ``a`` (k, D) or (D,) and one picture ``b`` (D,)."""
    return np.abs(np.asarray(a, dtype=np.float32) - np.asarray(b, dtype=np.float32)).mean(axis=-1)


@dataclass
class Clusters:
    """The clusters seen so far in a session: prototype pictures, in the order they were first seen."""

    threshold: float = SAME_PICTURE
    prototypes: list[np.ndarray] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.prototypes)

    def assign(self, pictures: np.ndarray) -> np.ndarray:
        """The cluster id of every picture (k, D); a picture near no prototype starts a new cluster."""
        ids = np.empty(len(pictures), dtype=np.int64)
        for i, picture in enumerate(pictures):
            ids[i] = self.nearest(picture, add=True)
        return ids

    def nearest(self, picture: np.ndarray, add: bool = False) -> int:
        """The id of the cluster ``picture`` belongs to; -1 (or a new cluster with ``add``) for none."""
        if self.prototypes:
            d = distance(np.stack(self.prototypes), picture)
            best = int(np.argmin(d))
            if d[best] < self.threshold:
                self.counts[best] += 1
                return best
        if not add:
            return -1
        self.prototypes.append(np.asarray(picture, dtype=np.float32).copy())
        self.counts.append(1)
        return len(self.prototypes) - 1
