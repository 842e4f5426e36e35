"""The last pixel of the lattice: nudge its origin and pitch to where the templates fit best."""

from __future__ import annotations

import numpy as np

from .cells import cell_images, match_cells
from .lattice import Lattice
from .skins import CANONICAL, Skin


def refine(frame: np.ndarray, skin: Skin, board: Lattice, wide: bool = True) -> Lattice:
    """Nudge the origin (up to 2 px each way, one axis at a time), then the pitch (+-0.5 px across the
    board), to the best template fit."""
    bank = skin.bank(board.pitch)
    best, best_err = board, _fit_error(frame, board, bank)

    def trial(origin: tuple[float, float], pitch: tuple[float, float]) -> None:
        nonlocal best, best_err
        lattice = Lattice(board.skin, origin, pitch, board.rows, board.cols)
        rect = lattice.board_rect()
        if rect.left < 0 or rect.top < 0 or rect.right > frame.shape[1] or rect.bottom > frame.shape[0]:
            return
        err = _fit_error(frame, lattice, bank)
        if err < best_err - 1e-6:
            best, best_err = lattice, err

    # The matching phase is exact to one scaled pixel, i.e. pitch/CANONICAL native pixels.
    reach_x = int(np.ceil(board.pitch[0] / CANONICAL)) + 1 if wide else 1
    reach_y = int(np.ceil(board.pitch[1] / CANONICAL)) + 1 if wide else 1
    for d in range(-reach_x, reach_x + 1):
        if d:
            trial((board.origin[0] + d, board.origin[1]), board.pitch)
    x = best.origin[0]
    for d in range(-reach_y, reach_y + 1):
        if d:
            trial((x, board.origin[1] + d), board.pitch)
    origin = best.origin
    px, py = board.pitch
    # Pitch: a drift of up to 3 px over the whole board (toolkits hand out whole pixels unevenly, so
    # the autocorrelation's pitch can be a little off the board's average). Keep the board's centre.
    drifts = (-3, -2, -1, -0.5, 0.5, 1, 2, 3) if wide else (-0.5, 0.5)
    for drift in drifts:
        dpx = drift / board.cols
        trial((origin[0] - dpx * board.cols / 2, origin[1]), (px + dpx, best.pitch[1]))
    origin = best.origin
    for drift in drifts:
        dpy = drift / board.rows
        trial((best.origin[0], origin[1] - dpy * board.rows / 2), (best.pitch[0], py + dpy))
    return best


def _fit_error(frame: np.ndarray, lattice: Lattice, bank) -> float:
    return float(match_cells(cell_images(frame, lattice), bank).best_rms.mean())
