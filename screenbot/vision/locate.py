"""Find the cell lattice of a known skin anywhere on a frame, with no fixed coordinates.

The steps, each cheap and vectorised:

1. regions (``regions``): areas painted in the skin's colours, so other windows do not drown it;
2. pitch (``pitch``): the autocorrelation peaks of the edge profiles within the skin's pitch range
   (the cell borders repeat every pitch), refined to sub-pixel precision on a multiple of the peak;
3. phase (``phase``): template matching at every offset of the area scaled to canonical cells gives
   where cell boxes start, to one scaled pixel;
4. the largest rectangle of cells that look like cells (``rectangles``), aligned to the pixel
   (``align``), read again over the whole area at that alignment: the board;
5. sanity (``checks``): a board that runs into the frame edge (partly off screen) or that has
   cell-like pieces sticking out of its rectangle (partly covered) is refused rather than guessed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np

from ..errors import BoardNotFoundError, SkinError
from .align import refine
from .checks import LOCATE_CONFIDENCE, cell_confidence, check_whole, grow, inner_corner
from .lattice import Lattice
from .phase import phase_by_matching, phase_precision
from .pitch import edge_profiles, pitch_candidates
from .rectangles import MIN_SIDE, extend, largest_rectangle
from .regions import Region, colour_bins, palette_share, skin_palette, skin_regions
from .skins import Skin

log = logging.getLogger(__name__)

# Mean confidence at which a found board is taken without trying the other skins. Measured on the
# 280 labelled screenshots with four skins: the skin that drew a board scores 0.79-1.0 on it (0.9 or
# more on 247 of 259), every other skin 0.77 at most (gnome-mines' covered cells on browser boards).
CERTAIN = 0.9
GOOD_ENOUGH = 0.8  # a board this well matched at the smallest pitch is not second-guessed at larger ones


@dataclass(frozen=True, slots=True)
class Candidate:
    lattice: Lattice
    mean_confidence: float


def locate_board(frame: np.ndarray, skins: dict[str, Skin], skin: str = "auto") -> Lattice:
    """The board's lattice on ``frame`` (BGR uint8). ``skin`` is a skin name or "auto" (try all).

    Raises BoardNotFoundError when no complete board is visible, SkinError for an unknown skin name.
    """
    if frame is None or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise BoardNotFoundError("the frame is not a BGR uint8 image", skin=None if skin == "auto" else skin)
    if skin == "auto":
        names = list(skins)
    elif skin in skins:
        names = [skin]
    else:
        raise SkinError(f"unknown skin; known: {', '.join(skins) or 'none'}", skin=skin)
    bins = colour_bins(frame)  # shared by every skin tried
    regions = {name: skin_regions(bins, skins[name]) for name in names}
    # The skin whose colours fill its area best first: the search stops at a board matched almost
    # exactly, so on most frames the other skins are never tried.
    names.sort(key=lambda name: -palette_share(bins, skins[name], regions[name][:1]))
    found: list[Candidate] = []
    reasons: dict[str, str] = {}
    for name in names:
        try:
            found.append(_locate_skin(frame, bins, skins[name], regions[name]))
        except BoardNotFoundError as exc:
            reasons[name] = exc.reason or str(exc)
            continue
        if found[-1].mean_confidence >= CERTAIN:
            break  # no other skin has come near this on any board seen
    if not found:
        why = "; ".join(f"{name}: {reasons[name]}" for name in sorted(reasons))
        raise BoardNotFoundError(
            f"no complete Minesweeper board found ({why})", skin=None if skin == "auto" else skin, reason=why
        )
    best = max(found, key=lambda c: (c.mean_confidence, c.lattice.rows * c.lattice.cols))
    log.debug("located %s", best)
    return best.lattice


def _locate_skin(frame: np.ndarray, bins: np.ndarray, skin: Skin, regions: list[Region]) -> Candidate:
    best: Candidate | None = None
    reason = "no area drawn in this skin's colours"
    partial: list[BoardNotFoundError] = []
    for left, top, width, height in regions:
        window = (slice(top, top + height), slice(left, left + width))
        try:
            candidate = _locate_in(frame[window], bins[window], skin, frame, (left, top))
        except BoardNotFoundError as exc:
            reason = exc.reason or str(exc)
            partial.append(exc)
            continue
        if best is None or candidate.mean_confidence > best.mean_confidence:
            best = candidate
    _raise_partial(partial, best)
    if best is None:
        raise BoardNotFoundError(reason, skin=skin.name, reason=reason)
    return best


def _locate_in(crop: np.ndarray, crop_bins: np.ndarray, skin: Skin, frame: np.ndarray,
               offset: tuple[int, int]) -> Candidate:
    import cv2

    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.int16)
    prof_x, prof_y = edge_profiles(gray, skin_palette(skin)[crop_bins])
    low, high = skin.pitch_range
    px_list = pitch_candidates(prof_x, low, high)
    py_list = pitch_candidates(prof_y, low, high)
    if not px_list or not py_list:
        raise BoardNotFoundError("no repeating cell pattern", skin=skin.name, reason="no repeating cell pattern")
    best: Candidate | None = None
    errors: list[BoardNotFoundError] = []
    for px in px_list:
        for py in py_list:
            if not 0.9 <= px / py <= 1.1:  # cells of every known client are (nearly) square
                continue
            try:
                candidate = _fit(crop, skin, (px, py), frame, offset)
            except BoardNotFoundError as exc:
                errors.append(exc)
                continue
            if best is None or candidate.mean_confidence > best.mean_confidence:
                best = candidate
        if best is not None and best.mean_confidence >= GOOD_ENOUGH:
            break
    _raise_partial(errors, best)
    if best is None:
        reason = errors[0].reason if errors else "no square cell pattern"
        raise BoardNotFoundError(reason, skin=skin.name, reason=reason)
    return best


def _raise_partial(errors: list[BoardNotFoundError], best: Candidate | None) -> None:
    """A partly hidden board seen at one pitch outweighs a smaller "board" found at another pitch
    (a wrong pitch can make a few cells of a covered board look like a small complete one)."""
    partial = [e for e in errors if e.cells]
    if not partial:
        return
    worst = max(partial, key=lambda e: e.cells)
    if best is None or worst.cells > best.lattice.rows * best.lattice.cols:
        raise worst


def _fit(crop: np.ndarray, skin: Skin, pitch: tuple[float, float], frame: np.ndarray,
         offset: tuple[int, int]) -> Candidate:
    px, py = pitch
    ox, oy, good = phase_by_matching(crop, skin, pitch)
    r0, c0, rows, cols = largest_rectangle(good)
    if rows < MIN_SIDE or cols < MIN_SIDE:
        raise BoardNotFoundError("no block of cells that look like this skin's", skin=skin.name,
                                 reason="no block of cells that look like this skin's")
    board = Lattice(skin.name, (ox + c0 * px + offset[0], oy + r0 * py + offset[1]), (px, py), rows, cols)
    # The matching phase is exact to a scaled pixel only: align to the pixel on the block found, then
    # read the whole area again with that alignment and take the block of cells that match strictly.
    board = refine(frame, skin, board, phase_precision(pitch))
    height, width = crop.shape[:2]
    px, py = board.pitch
    left = offset[0] + (board.origin[0] - offset[0]) % px
    top = offset[1] + (board.origin[1] - offset[1]) % py
    whole = Lattice(skin.name, (left, top), board.pitch,
                    int((offset[1] + height - top) // py), int((offset[0] + width - left) // px))
    if whole.rows < MIN_SIDE or whole.cols < MIN_SIDE:
        raise BoardNotFoundError("pattern too small", skin=skin.name, reason="pattern too small")
    good = cell_confidence(frame, whole, skin) >= LOCATE_CONFIDENCE
    r0, c0, rows, cols = extend(good, largest_rectangle(good))
    if rows < MIN_SIDE or cols < MIN_SIDE:
        raise BoardNotFoundError("the block of cells fell apart when aligned", skin=skin.name,
                                 reason="no stable block of cells")
    board = Lattice(skin.name, (left + c0 * px, top + r0 * py), board.pitch, rows, cols)
    board = refine(frame, skin, board)
    grown, confidence = grow(frame, skin, board)
    r0, c0 = inner_corner(grown, board)
    check_whole(frame, skin, board, confidence >= LOCATE_CONFIDENCE, (r0, c0))
    # The board's own cells were read with the ring around them: no need to read them again.
    return Candidate(board, float(confidence[r0 : r0 + board.rows, c0 : c0 + board.cols].mean()))

