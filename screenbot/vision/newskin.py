"""Teach the reader a client nobody tuned for: from screenshots plus their true boards, make a skin.

Finding the lattice needs no templates here, because the true board is known:

1. the pitch is where the image's edge profiles repeat (autocorrelation), and at most width/cols;
2. a comb of cols+1 lines at that pitch slid along each axis finds where the cell borders are densest;
3. around that, the origin is moved pixel by pixel (and by whole cells) to where cells with the same
   true state look most alike: a box that is off by a few pixels takes in parts of its neighbours,
   which differ from cell to cell, so the right alignment is the one with the least spread.

The cells are then cut into ``templates/<name>/cells`` and a default ``profile.json`` is written.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.board import Board

from ..errors import BoardNotFoundError
from .cut import LabelledImage, cut_cells, write_cells
from .lattice import Lattice
from .pitch import EDGE_STEP, pitch_candidates
from .skins import CANONICAL

log = logging.getLogger(__name__)

MIN_PITCH = 8


@dataclass(frozen=True, slots=True)
class Fit:
    lattice: Lattice
    spread: float  # mean squared distance of cells to their state's mean picture (lower is better)


def fit_lattice(image: np.ndarray, board: Board, skin: str) -> Fit:
    """The lattice of ``board`` (its true text) on ``image``. Raises BoardNotFoundError if none fits."""
    import cv2

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.int16)
    height, width = gray.shape
    prof_x = (np.abs(np.diff(gray, axis=1)) > EDGE_STEP).sum(axis=0).astype(np.float64)
    prof_y = (np.abs(np.diff(gray, axis=0)) > EDGE_STEP).sum(axis=1).astype(np.float64)
    labels = _label_ids(board)
    best: Fit | None = None
    max_px = (width - 1) / board.cols
    max_py = (height - 1) / board.rows
    px_list = pitch_candidates(prof_x, MIN_PITCH, max_px, keep=4)
    py_list = pitch_candidates(prof_y, MIN_PITCH, max_py, keep=4)
    for px in px_list:
        for py in py_list:
            if not 0.5 <= px / py <= 2.0:
                continue
            x0 = _comb_start(prof_x, px, board.cols)
            y0 = _comb_start(prof_y, py, board.rows)
            if x0 is None or y0 is None:
                continue
            fit = _align(image, labels, skin, (x0, y0), (px, py), board)
            if fit is not None and (best is None or fit.spread < best.spread):
                best = fit
    if best is None:
        raise BoardNotFoundError(
            f"no {board.rows}x{board.cols} grid of cells found on the image (pitches tried: "
            f"x {', '.join(f'{p:.1f}' for p in px_list) or 'none'}; y {', '.join(f'{p:.1f}' for p in py_list) or 'none'})",
            skin=skin,
            reason="no grid matching the board size",
        )
    return best


def _label_ids(board: Board) -> np.ndarray:
    chars = sorted({ch for _, _, ch in board.cells()})
    return np.array([[chars.index(ch) for ch in row] for row in board.grid])


def _comb_start(profile: np.ndarray, pitch: float, count: int) -> float | None:
    """Start of the run of count+1 lines, ``pitch`` apart, that covers the most edges."""
    span = count * pitch
    starts = np.arange(0, len(profile) - span)
    if len(starts) == 0:
        return None
    # Each line takes the strongest edge within a pixel of it, so a rounding slip does not hide it.
    padded = np.maximum(profile, np.maximum(np.roll(profile, 1), np.roll(profile, -1)))
    lines = np.round(starts[:, None] + np.arange(count + 1)[None, :] * pitch).astype(int)
    lines = np.clip(lines, 0, len(profile) - 1)
    score = padded[lines].sum(axis=1)
    # Profile index i is the step between pixels i and i+1, so the first cell starts at i+1.
    return float(starts[int(np.argmax(score))] + 1)


def _spread(image: np.ndarray, lattice: Lattice, labels: np.ndarray) -> float | None:
    import cv2

    rect = lattice.board_rect()
    if rect.left < 0 or rect.top < 0 or rect.right > image.shape[1] or rect.bottom > image.shape[0]:
        return None
    region = image[rect.top : rect.bottom, rect.left : rect.right]
    scaled = cv2.resize(region, (lattice.cols * CANONICAL, lattice.rows * CANONICAL), interpolation=cv2.INTER_AREA)
    cells = scaled.reshape(lattice.rows, CANONICAL, lattice.cols, CANONICAL, 3).transpose(0, 2, 1, 3, 4)
    flat = cells.reshape(lattice.rows * lattice.cols, -1).astype(np.float32)
    ids = labels.ravel()
    total = 0.0
    for label in np.unique(ids):
        group = flat[ids == label]
        total += float(((group - group.mean(axis=0)) ** 2).sum())
    # Cells of different states must also differ: guard against a lattice over a flat area.
    means = np.stack([flat[ids == label].mean(axis=0) for label in np.unique(ids)])
    between = float(((means - flat.mean(axis=0)) ** 2).sum()) if len(means) > 1 else 1.0
    if len(means) > 1 and between < 1e-3:
        return None
    return total / flat.size


def _align(image: np.ndarray, labels: np.ndarray, skin: str, start: tuple[float, float],
           pitch: tuple[float, float], board: Board) -> Fit | None:
    px, py = pitch
    ox, oy = start
    best: tuple[float, float, float] | None = None

    def score(x: float, y: float) -> float | None:
        return _spread(image, Lattice(skin, (x, y), pitch, board.rows, board.cols), labels)

    # Whole-cell shifts first (the comb may sit one cell off), then pixel shifts within a cell.
    for _ in range(2):
        for axis in (0, 1):
            span = px if axis == 0 else py
            offsets = list(np.arange(-span, span + 0.5, 1.0)) + [-2 * span, 2 * span]
            for d in offsets:
                x, y = (ox + d, oy) if axis == 0 else (ox, oy + d)
                s = score(x, y)
                if s is not None and (best is None or s < best[2]):
                    best = (x, y, s)
            if best is not None:
                ox, oy = best[0], best[1]
    if best is None:
        return None
    return Fit(Lattice(skin, (best[0], best[1]), pitch, board.rows, board.cols), best[2])


def default_profile(name: str, pitch: float) -> dict:
    """A profile for a client nobody described yet: safe guesses, to be edited by hand."""
    return {
        "client": name,
        "first_click": "safe",
        "mine_total": None,
        "win_requires_all_flags": False,
        "hover_highlight": False,
        "loss_shown": "unknown (edit me)",
        "win_shown": "unknown (edit me)",
        "vision": {"pitch_range": [round(max(MIN_PITCH, pitch * 0.75), 1), round(pitch * 2.5, 1)]},
    }


def make_skin(name: str, examples: list[tuple[np.ndarray, Board]], templates_dir: Path) -> list[Fit]:
    """Fit every example, cut its cells into ``templates_dir/name`` and write a profile if none exists."""
    fits = [fit_lattice(image, board, name) for image, board in examples]
    labelled = [LabelledImage(image, fit.lattice, board) for (image, board), fit in zip(examples, fits)]
    folder = templates_dir / name
    write_cells(cut_cells(labelled, max_variants=4), folder)
    profile_path = folder / "profile.json"
    if not profile_path.exists():
        pitch = float(np.mean([f.lattice.pitch for f in fits]))
        profile_path.write_text(json.dumps(default_profile(name, pitch), indent=1) + "\n")
    return fits
