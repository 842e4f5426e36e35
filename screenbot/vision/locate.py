"""Find the cell lattice of a known skin anywhere on a frame, with no fixed coordinates.

The steps, each cheap and vectorised:

1. edge profiles: how many strong horizontal/vertical intensity steps each column/row holds;
2. pitch: the autocorrelation peaks of those profiles within the skin's pitch range (the cell borders
   repeat every pitch), refined to sub-pixel precision on a multiple of the peak;
3. phase: the profile folded modulo the pitch, aligned with the same profile of the skin's templates,
   gives where cell boxes start;
4. a lattice over the whole frame is read with the templates; the largest rectangle of cells that all
   look like cells is the board;
5. sanity: a board that runs into the frame edge (partly off screen) or that has cell-like pieces
   sticking out of its rectangle (partly covered) is refused rather than guessed.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass

import numpy as np

from ..errors import BoardNotFoundError, SkinError
from .cells import cell_images, match_cells
from .lattice import Lattice
from .skins import CANONICAL, Skin

log = logging.getLogger(__name__)

EDGE_STEP = 24  # grey-level step that counts as an edge (cell borders are far stronger)
LOCATE_CONFIDENCE = 0.6  # a cell "looks like a cell" for locating (reading is stricter)
MIN_SIDE = 2  # fewest rows/columns a board may have
MEAN_COLOUR_SLACK = 45.0  # a cell whose mean colour is this far from every template's is skipped


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
    found: list[Candidate] = []
    reasons: list[str] = []
    for name in names:
        try:
            found.append(_locate_skin(frame, skins[name]))
        except BoardNotFoundError as exc:
            reasons.append(f"{name}: {exc.reason or exc}")
    if not found:
        raise BoardNotFoundError(
            "no complete Minesweeper board found (" + "; ".join(reasons) + ")",
            skin=None if skin == "auto" else skin,
            reason="; ".join(reasons),
        )
    best = max(found, key=lambda c: (c.mean_confidence, c.lattice.rows * c.lattice.cols))
    log.debug("located %s", best)
    return best.lattice


def _edge_profiles(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Strong-step counts per column boundary (len W-1) and per row boundary (len H-1)."""
    dx = np.abs(np.diff(gray, axis=1)) > EDGE_STEP
    dy = np.abs(np.diff(gray, axis=0)) > EDGE_STEP
    return dx.sum(axis=0).astype(np.float64), dy.sum(axis=1).astype(np.float64)


def _pitch_candidates(profile: np.ndarray, low: float, high: float, keep: int = 3) -> list[float]:
    """Periods in [low, high] at which the profile repeats, best first, refined to sub-pixel."""
    n = len(profile)
    if n < 2 * low:
        return []
    x = profile - profile.mean()
    size = 1 << int(np.ceil(np.log2(2 * n)))
    spectrum = np.fft.rfft(x, size)
    ac = np.fft.irfft(spectrum * np.conj(spectrum), size)[:n]
    if ac[0] <= 0:
        return []
    ac = ac / ac[0]
    lo, hi = max(2, int(np.floor(low))), min(n // 2, int(np.ceil(high)))
    if hi <= lo:
        return []
    window = ac[lo : hi + 1]
    peaks = [i for i in range(1, len(window) - 1) if window[i] >= window[i - 1] and window[i] >= window[i + 1]]
    peaks.sort(key=lambda i: -window[i])
    result: list[float] = []
    for i in peaks[: keep * 2]:
        lag = lo + i
        if window[i] < 0.05:
            break
        refined = _refine_period(ac, lag)
        if all(abs(refined - r) > 1.0 for r in result):
            result.append(refined)
        if len(result) >= keep:
            break
    return result


def _refine_period(ac: np.ndarray, lag: int) -> float:
    """Sub-pixel period: locate the autocorrelation peak near a high multiple k*lag and divide by k."""
    best_k, best_pos = 1, float(lag)
    for k in range(2, 12):
        centre = k * lag
        if centre + k >= len(ac):
            break
        lo, hi = centre - k, centre + k + 1
        seg = ac[lo:hi]
        i = int(np.argmax(seg))
        if seg[i] < 0.15:
            break
        pos = float(lo + i)
        if 0 < i < len(seg) - 1:  # parabolic interpolation of the peak
            a, b, c = seg[i - 1], seg[i], seg[i + 1]
            denom = a - 2 * b + c
            if denom < 0:
                pos += 0.5 * (a - c) / denom
        best_k, best_pos = k, pos
    return best_pos / best_k


def _template_profile(skin: Skin, pitch: float, axis: int) -> np.ndarray:
    """Mean edge profile of the skin's cells across one pitch box, at this pitch (length round(pitch))."""
    import cv2

    size = max(2, int(round(pitch)))
    total = np.zeros(size)
    for template in skin.templates:
        image = cv2.resize(template.image, (size, size), interpolation=cv2.INTER_AREA)
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.int16)
        # Wrap around: the step from this box's last pixel to the next box's first is a border too.
        if axis == 1:
            steps = np.abs(np.diff(np.concatenate([gray, gray[:, :1]], axis=1), axis=1)) > EDGE_STEP
            total += steps.sum(axis=0)
        else:
            steps = np.abs(np.diff(np.concatenate([gray, gray[:1]], axis=0), axis=0)) > EDGE_STEP
            total += steps.sum(axis=1)
    return total / max(1, len(skin.templates))


def _phase(profile: np.ndarray, pitch: float, expected: np.ndarray) -> float:
    """Offset in [0, pitch) where cell boxes start: fold the frame profile modulo the pitch and slide
    the templates' profile over it."""
    size = len(expected)
    positions = np.arange(len(profile))
    bins = np.round((positions % pitch) / pitch * size).astype(int) % size
    folded = np.bincount(bins, weights=profile, minlength=size)
    # Circular cross-correlation: score[s] = sum_j folded[(j + s) % size] * expected[j]
    scores = np.array([np.dot(np.roll(folded, -s), expected) for s in range(size)])
    shift = int(np.argmax(scores))
    # Profile index i is the step between pixel i and i+1; template index j likewise.
    return (shift * pitch / size) % pitch


def _locate_skin(frame: np.ndarray, skin: Skin) -> Candidate:
    best: Candidate | None = None
    reason = "no area drawn in this skin's colours"
    partial: list[BoardNotFoundError] = []
    for region in _regions(frame, skin):
        left, top, width, height = region
        crop = frame[top : top + height, left : left + width]
        try:
            candidate = _locate_in(crop, skin, frame, (left, top))
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


def _regions(frame: np.ndarray, skin: Skin, keep: int = 3) -> list[tuple[int, int, int, int]]:
    """Areas of the frame painted mostly in the skin's colours (left, top, width, height), largest
    first. Profiles are computed inside each, so a page's other content does not drown the pattern."""
    import cv2

    small = frame[::2, ::2]
    mask = skin_palette(skin)[_colour_bins(small)]
    k = max(3, int(skin.pitch_range[0] // 2) | 1)
    mask = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    min_side = MIN_SIDE * skin.pitch_range[0] / 2
    boxes = []
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        if w >= min_side and h >= min_side:
            boxes.append((int(area), (x, y, w, h)))
    boxes.sort(reverse=True)
    height, width = frame.shape[:2]
    regions = []
    pad = 4
    for _, (x, y, w, h) in boxes[:keep]:
        left, top = max(0, 2 * x - pad), max(0, 2 * y - pad)
        right, bottom = min(width, 2 * (x + w) + pad), min(height, 2 * (y + h) + pad)
        regions.append((left, top, right - left, bottom - top))
    return regions


def _colour_bins(image: np.ndarray) -> np.ndarray:
    """4 bits per channel: 4096 colour bins."""
    q = (image >> 4).astype(np.int32)
    return (q[..., 0] << 8) | (q[..., 1] << 4) | q[..., 2]


@functools.lru_cache(maxsize=32)
def skin_palette(skin: Skin) -> np.ndarray:
    """Boolean table over colour bins: the colours that fill a noticeable share of some template."""
    table = np.zeros(4096, dtype=bool)
    for template in skin.templates:
        bins = _colour_bins(template.image).ravel()
        counts = np.bincount(bins, minlength=4096)
        table |= counts >= 0.03 * len(bins)
    return table


def _locate_in(crop: np.ndarray, skin: Skin, frame: np.ndarray, offset: tuple[int, int]) -> Candidate:
    import cv2

    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.int16)
    prof_x, prof_y = _edge_profiles(gray)
    low, high = skin.pitch_range
    px_list = _pitch_candidates(prof_x, low, high)
    py_list = _pitch_candidates(prof_y, low, high)
    if not px_list or not py_list:
        raise BoardNotFoundError("no repeating cell pattern", skin=skin.name, reason="no repeating cell pattern")
    best: Candidate | None = None
    errors: list[BoardNotFoundError] = []
    for px in px_list:
        for py in py_list:
            if not 0.8 <= px / py <= 1.25:  # cells of every known client are (nearly) square
                continue
            try:
                candidate = _fit(crop, skin, prof_x, prof_y, (px, py), frame, offset)
            except BoardNotFoundError as exc:
                errors.append(exc)
                continue
            if best is None or candidate.mean_confidence > best.mean_confidence:
                best = candidate
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


def _fit(crop: np.ndarray, skin: Skin, prof_x: np.ndarray, prof_y: np.ndarray,
         pitch: tuple[float, float], frame: np.ndarray, offset: tuple[int, int]) -> Candidate:
    px, py = pitch
    height, width = crop.shape[:2]
    ox = _phase(prof_x, px, _template_profile(skin, px, axis=1))
    oy = _phase(prof_y, py, _template_profile(skin, py, axis=0))
    cols_all = int((width - ox) // px)
    rows_all = int((height - oy) // py)
    if cols_all < MIN_SIDE or rows_all < MIN_SIDE:
        raise BoardNotFoundError("pattern too small", skin=skin.name, reason="pattern too small")
    whole = Lattice(skin.name, (ox, oy), (px, py), rows_all, cols_all)
    confidence = _cell_confidence(crop, whole, skin)
    good = confidence >= LOCATE_CONFIDENCE
    r0, c0, rows, cols = _largest_rectangle(good)
    if rows < MIN_SIDE or cols < MIN_SIDE:
        raise BoardNotFoundError("no block of cells that look like this skin's", skin=skin.name,
                                 reason="no block of cells that look like this skin's")
    board = Lattice(skin.name, (ox + c0 * px + offset[0], oy + r0 * py + offset[1]), (px, py), rows, cols)
    # The phase from the profiles can be a pixel or two off, which costs some border cells their match:
    # align on the block found, then look again one cell further out on every side.
    for _ in range(3):
        board = _refine(frame, skin, board)
        grown, ring_good, (gr0, gc0, grows, gcols) = _grow(frame, skin, board)
        if grows < MIN_SIDE or gcols < MIN_SIDE:
            raise BoardNotFoundError("the block of cells fell apart when aligned", skin=skin.name,
                                     reason="no stable block of cells")
        if (grows, gcols) == (board.rows, board.cols):
            break
        px, py = board.pitch
        board = Lattice(skin.name, (grown.origin[0] + gc0 * px, grown.origin[1] + gr0 * py), board.pitch, grows, gcols)
    _check_whole(frame, skin, board, ring_good, (gr0, gc0))
    mean = float(_cell_confidence(frame, board, skin).mean())
    return Candidate(board, mean)


def _grow(frame: np.ndarray, skin: Skin, board: Lattice):
    """The board lattice grown by one cell on each side that fits on the frame, the good-cell grid
    on it, and the largest good rectangle in it."""
    height, width = frame.shape[:2]
    px, py = board.pitch
    ox, oy = board.origin
    left = 1 if ox - px >= 0 else 0
    top = 1 if oy - py >= 0 else 0
    right = 1 if ox + (board.cols + 1) * px <= width else 0
    bottom = 1 if oy + (board.rows + 1) * py <= height else 0
    grown = Lattice(board.skin, (ox - left * px, oy - top * py), board.pitch,
                    board.rows + top + bottom, board.cols + left + right)
    good = _cell_confidence(frame, grown, skin) >= LOCATE_CONFIDENCE
    return grown, good, _largest_rectangle(good)


def _cell_confidence(frame: np.ndarray, lattice: Lattice, skin: Skin) -> np.ndarray:
    cells = cell_images(frame, lattice)
    flat = cells.reshape(-1, CANONICAL, CANONICAL, 3)
    bank = skin.bank(lattice.pitch)
    # Skip cells whose average colour is unlike every template's: most of a frame is not board, and
    # this keeps the matrix product small.
    means = flat.reshape(len(flat), -1, 3).mean(axis=1)
    template_means = bank.vectors.reshape(len(bank.vectors), -1, 3).mean(axis=1)
    near = np.sqrt(((means[:, None, :] - template_means[None, :, :]) ** 2).sum(axis=2)).min(axis=1)
    keep = np.flatnonzero(near < MEAN_COLOUR_SLACK)
    confidence = np.zeros(len(flat))
    if len(keep):
        confidence[keep] = match_cells(flat[keep], bank).confidence
    return confidence.reshape(lattice.rows, lattice.cols)


def _largest_rectangle(good: np.ndarray) -> tuple[int, int, int, int]:
    """(row, col, rows, cols) of the largest all-True rectangle (histogram method, O(R*C))."""
    rows, cols = good.shape
    heights = np.zeros(cols, dtype=int)
    best = (0, 0, 0, 0)
    best_area = 0
    for r in range(rows):
        heights = np.where(good[r], heights + 1, 0)
        stack: list[int] = []
        for c in range(cols + 1):
            h = heights[c] if c < cols else 0
            start = c
            while stack and heights[stack[-1]] >= h:
                top = stack.pop()
                height = heights[top]
                left = stack[-1] + 1 if stack else 0
                area = height * (c - left)
                if area > best_area and height >= MIN_SIDE and c - left >= MIN_SIDE:
                    best_area = area
                    best = (r - height + 1, left, int(height), c - left)
                start = top
            stack.append(c)
            del start
    return best


def _check_whole(frame: np.ndarray, skin: Skin, board: Lattice, good: np.ndarray,
                 corner: tuple[int, int]) -> None:
    """Refuse boards that are cut by the frame edge or have cell-like pieces outside the rectangle."""
    r0, c0 = corner
    rows, cols = board.rows, board.cols
    # Cells right next to the rectangle that also look like cells: the board continues but part of it
    # is hidden (a window over it), or the rectangle is a piece of a larger, partly covered board.
    ring = np.zeros_like(good)
    ring[max(0, r0 - 1) : r0 + rows + 1, max(0, c0 - 1) : c0 + cols + 1] = True
    ring[r0 : r0 + rows, c0 : c0 + cols] = False
    outside = int((good & ring).sum())
    if outside >= 2:
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
    templates = bank.vectors.reshape(-1, CANONICAL, CANONICAL, 3)
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
    a = pieces.reshape(len(pieces), -1).astype(np.float32)
    b = ref.reshape(len(ref), -1).astype(np.float32)
    sq = (a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2 * a @ b.T
    rms = np.sqrt(np.maximum(sq, 0) / a.shape[1]).min(axis=1)
    # Most pieces matching some cell's edge part means the board goes on beyond the frame.
    return bool((rms < 20).mean() > 0.6)


def _refine(frame: np.ndarray, skin: Skin, board: Lattice) -> Lattice:
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

    for d in (-2, -1, 1, 2):
        trial((board.origin[0] + d, board.origin[1]), board.pitch)
    x = best.origin[0]
    for d in (-2, -1, 1, 2):
        trial((x, board.origin[1] + d), board.pitch)
    origin = best.origin
    px, py = board.pitch
    for dpx in (-0.5 / board.cols, 0.5 / board.cols):
        trial(origin, (px + dpx, best.pitch[1]))
    for dpy in (-0.5 / board.rows, 0.5 / board.rows):
        trial(origin, (best.pitch[0], py + dpy))
    return best


def _fit_error(frame: np.ndarray, lattice: Lattice, bank) -> float:
    return float(match_cells(cell_images(frame, lattice), bank).best_rms.mean())
