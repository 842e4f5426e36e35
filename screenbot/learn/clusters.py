"""Group cell pictures into clusters of identical-looking cells, with no names attached.

Every cell is cut the way the reader cuts it (the board region resized once) as a square of
``picture_side`` pixels, never fewer than the cell's own (a 1-pixel line, all that tells a raised
covered cell from a flat opened one in the classic Windows look, stays a pixel or more), each blurred
over 3x3 pixels on its own. The whole box is compared, rims and bevels included, but for its outermost
screen pixel (``shared_band``: it may hold part of the next cell) and the rim on a side where the cell
has no neighbour: a box holds half the gap or line shared with the next cell on each side, and at the
board's last row and column that half shows the window's background instead (another colour). That
strip is left out of the picture (NaN) and of every comparison with it. Cells of the board's
middle are assigned first, so a state's first picture (its prototype) is a whole one wherever one is
on the board.

Two pictures are the same when their mean absolute difference is small *and* no spot of them differs
much (``PEAK``). The peak matters: a gnome-mines flag and its question mark (a small flag) differ in a
few pixels only, 0.8 levels on average but 47 at the spot that differs. A client draws a state the same
way every time, so cells of one state differ by a level or two at most. A cluster keeps the first
picture it was given as its prototype: no drift from averaging.

Two ways a client draws one state as several clusters, which ``Clusters.alike`` allows for (clusters stay
as tight as they are; only naming uses the looser relation):

- see-through opened cells, over a picture that changes across the window (KMines): a shade apart. The
  middles of their pictures agree once each has its own background (its median colour) taken away.
- lines of two widths (GTK gives a window's spare pixels to the first lines): a client centres a
  glyph in its box, so in a box a pixel wider it lands half a pixel over and is anti-aliased
  otherwise. A "1"'s stem is one dark pixel in one width, two half-dark ones in the other: pictures
  2.2 apart on average, but 48 at the stem, over ``PEAK`` (gnome-mines at 600x480). No cut or shift
  of the box brings the peak under ``PEAK`` (measured: centred crops, whole-pixel crops, a pixel
  either way), so the two are clusters of their own, each remembering the size of the box it was
  first seen in (``box_sizes``); clusters first seen in boxes of different sizes are alike when they
  are the same on average (``SAME_PICTURE``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..vision.cells import board_inside, cell_images, less_median_colour

# Mean absolute difference (0-255 per channel) under which two cell pictures are the same state.
# Measured on gnome-mines at 23 px: cells of one state 0 apart, the closest two states (a 1 and a 3,
# small dark digits on near colours) 7.5, covered and the lit covered cell 17.
SAME_PICTURE = 4.0
# The largest difference (0-255, mean of the channels) at any pixel of the blurred pictures: cells of
# one state 2 at most (gnome-mines, 23 px), the flag and the question mark 47.
PEAK = 25.0
# Two clusters are ``alike`` (one state over different backgrounds) when, each picture less its median
# colour, they differ by less than ALIKE on average and ALIKE_PEAK at any spot. Measured on KMines (9x9,
# 61 px cells): one state over its whole board 5.6 / 14 at most; two states 21 / 45 at least (a mine
# and the exploded mine; numbers and mines 33 / 86 and more). An empty cell and a covered one are alike
# there (5.8 / 20): naming never compares covered cells, they are known from the fresh board.
ALIKE = 12.0
ALIKE_PEAK = 30.0
# The side of a cell picture, in pixels: a smaller cell is enlarged by a whole factor (``picture_side``),
# a larger one scaled down to it.
SIZE = 32
# The rim of a box, as a share of its side, that may hold what lies between two cells (half a gap or
# line): left out on the sides at the board's edge. ``alike`` compares only what lies inside it.
RIM_SHARE = 5 / 32
# Pictures compared with every prototype at once by ``Clusters.assign``: at most this many, and fewer
# where the pictures are large (the block's differences are kept under ASSIGN_BYTES).
ASSIGN_BLOCK = 64
ASSIGN_BYTES = 16 << 20
# Digests of pictures assigned before, kept so that a picture seen again is not compared again; forgotten
# all at once past this many (a few MB).
SEEN_PICTURES = 50_000


def picture_side(pitch: tuple[float, float]) -> int:
    """The side of the pictures of cells of ``pitch``. A cell of SIZE pixels or fewer: its side times
    the smallest whole factor that makes it SIZE or more, which copies each screen pixel into whole
    pixels (a 1-pixel line stays one pixel or more, and no pixel of one cell is mixed into the next
    cell's picture where the pitch is a whole number). A larger cell is scaled down to SIZE: clients
    that draw big cells draw them at fractional places (KMines' 61 px cells, 548 px for 9), where a
    line lands a pixel either way from cell to cell, 27 grey levels apart at full size (one state made
    two clusters on a fresh board); their lines are wider too."""
    larger = max(pitch)
    if larger > SIZE:
        return SIZE
    return int(np.ceil(larger * np.ceil(SIZE / larger) - 1e-6))


def rim(side: int) -> int:
    return max(1, round(side * RIM_SHARE))


def shared_band(pitch: tuple[float, float]) -> int:
    """Picture pixels left off every side of a box: its outermost screen pixel, which may hold part of
    the next cell (a pitch that is no whole number of pixels, KMines' 60.9; antialiased edges), and
    the one pixel the blur spreads it inward. A bevel (2 px and more on every classic-look client
    seen) still shows inside it."""
    return int(np.ceil(picture_side(pitch) / max(pitch))) + 1  # picture pixels per screen pixel, plus one


def cell_pictures(image: np.ndarray, lattice) -> np.ndarray | None:
    """(cells, side*side*3) float32 pictures of every cell of ``lattice`` on ``image``, row by row, the
    rim on each side at the board's edge NaN (see the module's note); None when the lattice runs off
    the image."""
    import cv2

    if not board_inside(image, lattice):
        return None
    rect = lattice.board_rect()
    side = picture_side(lattice.pitch)
    if lattice.straight:
        region = image[rect.top : rect.bottom, rect.left : rect.right]
        scaled = cv2.resize(region, (lattice.cols * side, lattice.rows * side), interpolation=cv2.INTER_AREA)
    else:
        # Lines of several widths (GTK gives a window's spare pixels to the first lines): each box
        # scaled on its own. Scaled as one region, the boxes drifted up to a pixel off their cells, and
        # a fresh gnome-mines board at 600x480 made a dozen clusters of its covered cells.
        scaled = (cell_images(image, lattice, side, smooth=False)
                  .transpose(0, 2, 1, 3, 4).reshape(lattice.rows * side, lattice.cols * side, 3))
    cells = _blurred(scaled.astype(np.float32)).reshape(lattice.rows, side, lattice.cols, side, 3)
    cells = cells.transpose(0, 2, 1, 3, 4)
    band = shared_band(lattice.pitch)
    cells = np.ascontiguousarray(cells[:, :, band : side - band, band : side - band])
    side -= 2 * band
    cut = max(1, rim(side + 2 * band) - band)
    cells[0, :, :cut] = np.nan
    cells[-1, :, side - cut :] = np.nan
    cells[:, 0, :, :cut] = np.nan
    cells[:, -1, :, side - cut :] = np.nan
    return cells.reshape(lattice.rows * lattice.cols, -1)


def _blurred(picture: np.ndarray) -> np.ndarray:
    """A float32 picture (height, width, 3) blurred over 3x3 pixels, as one image. The pictures of
    its cells are cut from it with their outer ``shared_band`` pixels (at least 2) left off, so no
    pixel kept holds one of the next cell's: an opened cell looks the same whatever its neighbour
    shows. (Blurring each cell on its own, its edge repeated, gave the same pixels at several times
    the cost.)"""
    import cv2

    return cv2.blur(picture, (3, 3), borderType=cv2.BORDER_REPLICATE)


def box_picture(box: np.ndarray, pitch: tuple[float, float]) -> np.ndarray:
    """One cell's pitch box (as a skin keeps it) as a picture like ``cell_pictures``', with every rim."""
    import cv2

    side, band = picture_side(pitch), shared_band(pitch)
    scaled = cv2.resize(box, (side, side), interpolation=cv2.INTER_AREA).astype(np.float32)
    return np.ascontiguousarray(_blurred(scaled)[band : side - band, band : side - band]).reshape(-1)


def same_picture(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two pictures would be one cluster."""
    return bool(distance(a, b) < SAME_PICTURE and peak(a, b) < PEAK)


def middles(pictures: np.ndarray) -> np.ndarray:
    """The part of square pictures (k, side*side*3) inside the rim on every side, (k, pixels, 3)."""
    pictures = np.asarray(pictures, dtype=np.float32)
    side = int(round(np.sqrt(pictures.shape[-1] / 3)))
    cut = max(1, round(side * RIM_SHARE))
    square = pictures.reshape(-1, side, side, 3)[:, cut : side - cut, cut : side - cut]
    return square.reshape(len(square), -1, 3)


def _differences(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray | int]:
    """|a - b| with 0 where either is NaN (left out), and the count of values compared, over the last axis."""
    diff = np.abs(np.asarray(a, dtype=np.float32) - np.asarray(b, dtype=np.float32))
    missing = np.isnan(diff)
    if missing.any():
        diff[missing] = 0.0
        return diff, np.maximum((~missing).sum(axis=-1), 1)
    return diff, diff.shape[-1]


def distance(a: np.ndarray, b: np.ndarray) -> np.ndarray | float:
    """Mean absolute difference between pictures ``a`` (k, D) or (D,) and one picture ``b`` (D,); any two
    shapes that broadcast, over their last axis, over the values both have (not NaN)."""
    diff, compared = _differences(a, b)
    return diff.sum(axis=-1) / compared


def peak(a: np.ndarray, b: np.ndarray) -> np.ndarray | float:
    """The largest difference at one pixel (mean of its channels) between ``a`` (k, D) or (D,) and ``b``;
    for pictures whose length is not a multiple of 3, the largest difference of one value. Values
    either lacks (NaN) count as no difference."""
    diff, _ = _differences(a, b)
    if diff.shape[-1] % 3 == 0:
        diff = diff.reshape(*diff.shape[:-1], -1, 3).mean(axis=-1)
    return diff.max(axis=-1)


@dataclass
class Clusters:
    """The clusters seen so far in a session: prototype pictures, in the order they were first seen."""

    threshold: float = SAME_PICTURE
    peak_threshold: float = PEAK
    prototypes: list[np.ndarray] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    # The box size (``box_sizes``) each cluster's first picture was cut from; None where not given.
    sizes: list[int | None] = field(default_factory=list)

    _alike: dict[tuple[int, int], bool] = field(default_factory=dict, repr=False)
    # Pictures assigned before -> their cluster, by Python's 64-bit hash of their bytes: a few times
    # cheaper than a digest, which was a tenth of a session's time. Two pictures of a session sharing
    # a hash by chance is about as likely as one in 10^8.
    _seen: dict[int, int] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.prototypes)

    def assign(self, pictures: np.ndarray, sizes: np.ndarray | None = None) -> np.ndarray:
        """The cluster id of every picture (k, D); a picture near no prototype starts a new cluster,
        which remembers the picture's box size (``sizes``, k values of ``box_sizes``; None: not known).

        The same as ``nearest(picture, add=True)`` for each picture in turn, found faster. Prototypes
        are only ever added, after the others, so the first one a picture fits never changes: a picture
        seen before (most cells of a frame are the previous frame's, pixel for pixel) gets the id it got
        then, and a new one that fits a prototype there before this call gets the first such one whatever
        the pictures before it started, so those are found for all pictures at once. Only the rest are
        taken one by one. (One by one, this was most of a learning session's time.)
        """
        pictures = np.asarray(pictures, dtype=np.float32)
        keys = [hash(picture.tobytes()) for picture in pictures]
        ids = np.array([self._seen.get(key, -1) for key in keys], dtype=np.int64)
        new = np.flatnonzero(ids < 0)
        if self.prototypes and len(new):
            stack = np.stack(self.prototypes)
            block_size = max(1, min(ASSIGN_BLOCK, ASSIGN_BYTES // (4 * stack.size)))
            for start in range(0, len(new), block_size):
                chosen = new[start : start + block_size]
                block = pictures[chosen, None, :]
                same = (distance(block, stack) < self.threshold) & (peak(block, stack) < self.peak_threshold)
                ids[chosen] = np.where(same.any(axis=1), np.argmax(same, axis=1), -1)
        found, times = np.unique(ids[ids >= 0], return_counts=True)
        for best, n in zip(found, times):
            self.counts[best] += int(n)
        for i in np.flatnonzero(ids < 0):
            ids[i] = self.nearest(pictures[i], add=True, size=None if sizes is None else int(sizes[i]))
        if len(self._seen) > SEEN_PICTURES:
            self._seen.clear()
        self._seen.update(zip(keys, ids.tolist()))
        return ids

    def assign_board(self, pictures: np.ndarray, rows: int, cols: int, sizes: np.ndarray | None = None) -> np.ndarray:
        """The cluster ids (rows, cols) of a board's cell pictures (``cell_pictures``), the cells off the
        board's edge assigned first: a state first seen on this board gets a whole picture as its
        prototype wherever it shows one. ``sizes``: the cells' box sizes (``box_sizes``), if known."""
        edge = np.zeros((rows, cols), dtype=bool)
        edge[[0, -1], :] = True
        edge[:, [0, -1]] = True
        order = np.argsort(edge.reshape(-1), kind="stable")
        ids = np.empty(rows * cols, dtype=np.int64)
        ids[order] = self.assign(np.asarray(pictures)[order], None if sizes is None else np.asarray(sizes).reshape(-1)[order])
        return ids.reshape(rows, cols)

    def nearest(self, picture: np.ndarray, add: bool = False, size: int | None = None) -> int:
        """The id of the first cluster ``picture`` belongs to; -1 (or a new cluster with ``add``, first
        seen in a box of ``size``) for none."""
        if self.prototypes:
            stack = np.stack(self.prototypes)
            d = distance(stack, picture)
            same = (d < self.threshold) & (peak(stack, picture) < self.peak_threshold)
            if same.any():
                # The oldest cluster that fits, not the nearest: a cluster started later can then never
                # take a picture from the one it went to before (on a see-through board, where shades
                # run smoothly from one cluster into the next, the nearest could change from frame to frame).
                best = int(np.flatnonzero(same)[0])
                self.counts[best] += 1
                return best
        if not add:
            return -1
        self.prototypes.append(np.asarray(picture, dtype=np.float32).copy())
        self.counts.append(1)
        self.sizes.append(size)
        return len(self.prototypes) - 1

    def alike(self, a: int, b: int) -> bool:
        """Whether clusters ``a`` and ``b`` may be one state: drawn over different backgrounds, or in
        boxes of different sizes (the module's note)."""
        if a == b:
            return True
        key = (min(a, b), max(a, b))
        if key not in self._alike:
            first, second = (self.prototypes[i] for i in key)
            size_a, size_b = (self.sizes[i] if i < len(self.sizes) else None for i in key)
            if size_a is not None and size_b is not None and size_a != size_b and distance(first, second) < self.threshold:
                self._alike[key] = True
            else:
                pa, pb = (less_median_colour(middles(picture)).reshape(-1) for picture in (first, second))
                self._alike[key] = bool(distance(pa, pb) < ALIKE and peak(pa, pb) < ALIKE_PEAK)
        return self._alike[key]
