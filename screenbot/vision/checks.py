"""Which lattice positions look like cells, and whether a block of them is a whole, uncovered board.

A board that runs into the frame edge (partly off screen) or that has cell-like pieces sticking out
of its rectangle (partly covered) is refused rather than guessed.
"""

from __future__ import annotations

import functools

import numpy as np

from ..errors import BoardNotFoundError
from .cells import cell_images, match_cells
from .lattice import Lattice
from .skins import CANONICAL, OUTSIDE, Skin, TemplateBank, soften

LOCATE_CONFIDENCE = 0.6  # a cell "looks like a cell" for locating (reading is stricter)
MEAN_COLOUR_SLACK = 45.0  # a cell whose mean colour is this far from every template's is skipped


def cell_confidence(frame: np.ndarray, lattice: Lattice, skin: Skin) -> np.ndarray:
    """(rows, cols) confidence that each lattice position holds a cell of the skin (0 for positions
    that look most like a board's surroundings)."""
    import cv2

    cells = cell_images(frame, lattice)
    flat = cells.reshape(-1, CANONICAL, CANONICAL, 3)
    bank = skin.bank(lattice.pitch)
    # Skip cells whose average colour is unlike every template's: most of a frame is not board, and
    # this keeps the matrix product small. A 16x16 -> 1x1 area resize of the scaled board is each
    # cell's mean colour, far cheaper than a NumPy mean over the cell axis.
    scaled = cells.transpose(0, 2, 1, 3, 4).reshape(lattice.rows * CANONICAL, lattice.cols * CANONICAL, 3)
    means = cv2.resize(scaled, (lattice.cols, lattice.rows), interpolation=cv2.INTER_AREA).reshape(-1, 3)
    diff = means.astype(np.float32)[:, None, :] - _template_means(bank)[None, :, :]
    near = np.sqrt((diff * diff).sum(axis=2)).min(axis=1)
    keep = np.flatnonzero(near < MEAN_COLOUR_SLACK)
    confidence = np.zeros(len(flat))
    if len(keep):
        matches = match_cells(flat[keep], bank)
        # A cell that looks most like the surroundings of a board is not a cell.
        confidence[keep] = np.where(matches.chars == OUTSIDE, 0.0, matches.confidence)
    return confidence.reshape(lattice.rows, lattice.cols)


@functools.lru_cache(maxsize=64)
def _template_means(bank: TemplateBank) -> np.ndarray:
    return bank.vectors.reshape(len(bank.vectors), -1, 3).mean(axis=1).astype(np.float32)


def grow(frame: np.ndarray, skin: Skin, board: Lattice) -> tuple[Lattice, np.ndarray]:
    """The board lattice grown by one cell on each side that fits on the frame, and the
    ``cell_confidence`` of every position on it (the board's own cells and the ring around them)."""
    height, width = frame.shape[:2]
    px, py = board.pitch
    ox, oy = board.origin
    left = 1 if ox - px >= 0 else 0
    top = 1 if oy - py >= 0 else 0
    right = 1 if ox + (board.cols + 1) * px <= width else 0
    bottom = 1 if oy + (board.rows + 1) * py <= height else 0
    grown = Lattice(board.skin, (ox - left * px, oy - top * py), board.pitch,
                    board.rows + top + bottom, board.cols + left + right)
    return grown, cell_confidence(frame, grown, skin)


def inner_corner(grown: Lattice, board: Lattice) -> tuple[int, int]:
    """Where ``board`` starts inside ``grown`` (a lattice one cell larger on the sides that fit)."""
    return (int(round((board.origin[1] - grown.origin[1]) / board.pitch[1])),
            int(round((board.origin[0] - grown.origin[0]) / board.pitch[0])))


def check_whole(frame: np.ndarray, skin: Skin, board: Lattice, good: np.ndarray,
                corner: tuple[int, int]) -> None:
    """Refuse boards that are cut by the frame edge or have cell-like pieces outside the rectangle."""
    r0, c0 = corner
    rows, cols = board.rows, board.cols
    # Cells right next to the rectangle that also look like cells: the board continues but part of it
    # is hidden (a window over it), or the rectangle is a piece of a larger, partly covered board.
    # A strip of good cells along one side of the block (a third of that side or more) is the rest of
    # a board whose other part is hidden; a stray cell-like spot or two next to it is not.
    strips = []
    if r0 > 0:
        strips.append((good[r0 - 1, c0 : c0 + cols].sum(), cols))
    if r0 + rows < good.shape[0]:
        strips.append((good[r0 + rows, c0 : c0 + cols].sum(), cols))
    if c0 > 0:
        strips.append((good[r0 : r0 + rows, c0 - 1].sum(), rows))
    if c0 + cols < good.shape[1]:
        strips.append((good[r0 : r0 + rows, c0 + cols].sum(), rows))
    outside = int(max((n for n, side in strips if n >= 2 and n >= side / 3), default=0))
    if outside:
        raise BoardNotFoundError(
            f"the {skin.name} board looks partly covered: {outside} cell-like pieces next to a "
            f"{rows}x{cols} block",
            skin=skin.name,
            reason="board partly covered or irregular",
            cells=rows * cols,
        )
    rect = board.board_rect()
    height, width = frame.shape[:2]
    px, py = board.pitch
    gaps = {"left": rect.left, "top": rect.top, "right": width - rect.right, "bottom": height - rect.bottom}
    limit = {"left": px, "right": px, "top": py, "bottom": py}
    for side, gap in gaps.items():
        if gap < 2 or (gap < limit[side] and _partial_cells_match(frame, skin, board, side, gap)):
            raise BoardNotFoundError(
                f"the {skin.name} board runs off the {side} edge of the frame (partly off screen)",
                skin=skin.name,
                reason="board partly off screen",
                cells=rows * cols,
            )


def _partial_cells_match(frame: np.ndarray, skin: Skin, board: Lattice, side: str, gap: int) -> bool:
    """Does the strip between the board and the frame edge look like the matching part of cells?"""
    import cv2

    px, py = board.pitch
    rect = board.board_rect()
    bank = skin.bank(board.pitch)
    is_cell = np.array([char != OUTSIDE for char in bank.chars])
    templates = bank.vectors.reshape(-1, CANONICAL, CANONICAL, 3)[is_cell]
    pitch = px if side in ("left", "right") else py
    part = max(1, int(round(CANONICAL * gap / pitch)))
    if part < 3:
        return False  # a sliver of a pixel or two: too little to tell; the gap test above covers it
    if side in ("left", "right"):
        strip = frame[rect.top : rect.bottom, 0:gap] if side == "left" else frame[rect.top : rect.bottom, rect.right :]
        strip = cv2.resize(strip, (part, board.rows * CANONICAL), interpolation=cv2.INTER_AREA)
        pieces = strip.reshape(board.rows, CANONICAL, part, 3)
        ref = templates[:, :, CANONICAL - part :, :] if side == "left" else templates[:, :, :part, :]
    else:
        strip = frame[0:gap, rect.left : rect.right] if side == "top" else frame[rect.bottom :, rect.left : rect.right]
        strip = cv2.resize(strip, (board.cols * CANONICAL, part), interpolation=cv2.INTER_AREA)
        pieces = strip.reshape(part, board.cols, CANONICAL, 3).transpose(1, 0, 2, 3)
        ref = templates[:, CANONICAL - part :, :, :] if side == "top" else templates[:, :part, :, :]
    a = soften(pieces).reshape(len(pieces), -1)  # templates are softened: compare like with like
    b = ref.reshape(len(ref), -1).astype(np.float32)
    sq = (a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2 * a @ b.T
    rms = np.sqrt(np.maximum(sq, 0) / a.shape[1]).min(axis=1)
    # Most pieces matching some cell's edge part means the board goes on beyond the frame.
    return bool((rms < 20).mean() > 0.6)
