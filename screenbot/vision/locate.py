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
from .skins import CANONICAL, OUTSIDE, Skin, soften

log = logging.getLogger(__name__)

EDGE_STEP = 12  # grey-level step that counts as an edge (gnome-mines open cells are 22 off their gaps)
LOCATE_CONFIDENCE = 0.6  # a cell "looks like a cell" for locating (reading is stricter)
MIN_SIDE = 4  # fewest rows/columns a board may have (gnome-mines' smallest custom board is 4x4)
MEAN_COLOUR_SLACK = 45.0  # a cell whose mean colour is this far from every template's is skipped
CERTAIN = 0.97  # mean confidence at which a found board is taken without trying alternatives
GOOD_ENOUGH = 0.8  # a board this well matched at the smallest pitch is not second-guessed at larger ones
PHASE_STATES = "#012F*"  # states used to find the phase (present on nearly every board)
PHASE_CREDIT_RMS = 25.0  # positions farther than this from every cell template add nothing to a phase
GOOD_RMS = 40.0  # loose: before sub-pixel alignment a true cell can be ~25 off its template


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
            continue
        if found[-1].mean_confidence >= CERTAIN:
            break  # every cell matches its template almost exactly: no other skin can do better
    if not found:
        raise BoardNotFoundError(
            "no complete Minesweeper board found (" + "; ".join(reasons) + ")",
            skin=None if skin == "auto" else skin,
            reason="; ".join(reasons),
        )
    best = max(found, key=lambda c: (c.mean_confidence, c.lattice.rows * c.lattice.cols))
    log.debug("located %s", best)
    return best.lattice


def _edge_profiles(gray: np.ndarray, mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Strong-step counts per column boundary (len W-1) and per row boundary (len H-1).

    With ``mask`` (pixels in the skin's colours) a step counts only between two such pixels, so the
    borders of buttons, text and page furniture around the board do not blur the cells' rhythm.
    """
    dx = np.abs(np.diff(gray, axis=1)) > EDGE_STEP
    dy = np.abs(np.diff(gray, axis=0)) > EDGE_STEP
    if mask is not None:
        dx &= mask[:, 1:] & mask[:, :-1]
        dy &= mask[1:, :] & mask[:-1, :]
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
    if not peaks:
        return []
    strongest = max(window[i] for i in peaks)
    # Strong peaks only, smallest period first: a multiple of the pitch repeats too, and often as
    # strongly, so the smallest period that yields a board is the pitch.
    strong = sorted(i for i in peaks if window[i] >= max(0.05, 0.5 * strongest))
    # Of peaks within 8% of each other (a side lobe next to the true period, as 2 px borders make),
    # keep the higher one.
    strong = [i for i in strong
              if not any(j != i and abs(j - i) <= 0.08 * (lo + i) and window[j] > window[i] for j in strong)]
    result: list[float] = []
    for i in strong:
        refined = _refine_period(ac, lo + i)
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
    return _template_profile_at(skin, max(2, int(round(pitch))), axis)


@functools.lru_cache(maxsize=256)
def _template_profile_at(skin: Skin, size: int, axis: int) -> np.ndarray:
    import cv2

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
    prof_x, prof_y = _edge_profiles(gray, skin_palette(skin)[_colour_bins(crop)])
    low, high = skin.pitch_range
    px_list = _pitch_candidates(prof_x, low, high)
    py_list = _pitch_candidates(prof_y, low, high)
    if not px_list or not py_list:
        raise BoardNotFoundError("no repeating cell pattern", skin=skin.name, reason="no repeating cell pattern")
    best: Candidate | None = None
    errors: list[BoardNotFoundError] = []
    for px in px_list:
        for py in py_list:
            if not 0.9 <= px / py <= 1.1:  # cells of every known client are (nearly) square
                continue
            try:
                candidate = _fit(crop, skin, prof_x, prof_y, (px, py), frame, offset)
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


def _fit(crop: np.ndarray, skin: Skin, prof_x: np.ndarray, prof_y: np.ndarray,
         pitch: tuple[float, float], frame: np.ndarray, offset: tuple[int, int]) -> Candidate:
    px, py = pitch
    ox, oy, good = _phase_by_matching(crop, skin, pitch)
    r0, c0, rows, cols = _largest_rectangle(good)
    if rows < MIN_SIDE or cols < MIN_SIDE:
        raise BoardNotFoundError("no block of cells that look like this skin's", skin=skin.name,
                                 reason="no block of cells that look like this skin's")
    board = Lattice(skin.name, (ox + c0 * px + offset[0], oy + r0 * py + offset[1]), (px, py), rows, cols)
    # The matching phase is exact to a scaled pixel only: align to the pixel on the block found, then
    # read the whole area again with that alignment and take the block of cells that match strictly.
    board = _refine(frame, skin, board, wide=True)
    height, width = crop.shape[:2]
    px, py = board.pitch
    left = offset[0] + (board.origin[0] - offset[0]) % px
    top = offset[1] + (board.origin[1] - offset[1]) % py
    whole = Lattice(skin.name, (left, top), board.pitch,
                    int((offset[1] + height - top) // py), int((offset[0] + width - left) // px))
    if whole.rows < MIN_SIDE or whole.cols < MIN_SIDE:
        raise BoardNotFoundError("pattern too small", skin=skin.name, reason="pattern too small")
    good = _cell_confidence(frame, whole, skin) >= LOCATE_CONFIDENCE
    r0, c0, rows, cols = _extend(good, _largest_rectangle(good))
    if rows < MIN_SIDE or cols < MIN_SIDE:
        raise BoardNotFoundError("the block of cells fell apart when aligned", skin=skin.name,
                                 reason="no stable block of cells")
    board = Lattice(skin.name, (left + c0 * px, top + r0 * py), board.pitch, rows, cols)
    board = _refine(frame, skin, board, wide=False)
    grown, ring_good, (gr0, gc0, _, _) = _grow(frame, skin, board)
    _check_whole(frame, skin, board, ring_good, _inner_corner(grown, board))
    mean = float(_cell_confidence(frame, board, skin).mean())
    return Candidate(board, mean)


def _extend(good: np.ndarray, block: tuple[int, int, int, int], share: float = 0.8) -> tuple[int, int, int, int]:
    """Grow the all-good block by whole rows/columns that are mostly good: a cell the templates
    match poorly (a state seen at another size only) must not cut the board in two; reading it
    later will say which cell it is."""
    r0, c0, rows, cols = block
    if rows == 0 or cols == 0:
        return block
    changed = True
    while changed:
        changed = False
        if r0 > 0 and good[r0 - 1, c0 : c0 + cols].mean() >= share:
            r0, rows, changed = r0 - 1, rows + 1, True
        if r0 + rows < good.shape[0] and good[r0 + rows, c0 : c0 + cols].mean() >= share:
            rows, changed = rows + 1, True
        if c0 > 0 and good[r0 : r0 + rows, c0 - 1].mean() >= share:
            c0, cols, changed = c0 - 1, cols + 1, True
        if c0 + cols < good.shape[1] and good[r0 : r0 + rows, c0 + cols].mean() >= share:
            cols, changed = cols + 1, True
    return r0, c0, rows, cols


def _inner_corner(grown: Lattice, board: Lattice) -> tuple[int, int]:
    """Where ``board`` starts inside ``grown`` (a lattice one cell larger on the sides that fit)."""
    return (int(round((board.origin[1] - grown.origin[1]) / board.pitch[1])),
            int(round((board.origin[0] - grown.origin[0]) / board.pitch[0])))


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


def _phase_by_matching(crop: np.ndarray, skin: Skin, pitch: tuple[float, float]) -> tuple[float, float, np.ndarray]:
    """Where cell boxes start (x, y in [0, pitch)), by template matching at every offset at once, and
    which cells of that grid match some template (a bool array, row-major from the phase).

    The area is scaled so a cell is CANONICAL pixels; one sliding comparison per template (OpenCV's
    matchTemplate) gives, at every pixel, how well a cell starting there matches its nearest
    template. Each of the CANONICAL x CANONICAL phases is then scored by how many of its grid
    positions hold a good match. Precision is one scaled pixel; ``_refine`` does the last pixel.
    """
    import cv2

    px, py = pitch
    height, width = crop.shape[:2]
    size = (max(CANONICAL, int(round(width * CANONICAL / px))), max(CANONICAL, int(round(height * CANONICAL / py))))
    scaled = cv2.resize(crop, size, interpolation=cv2.INTER_AREA if px > CANONICAL else cv2.INTER_LINEAR)
    bank = skin.bank(pitch)
    cell_images_, outside_images = _bank_images(bank)

    channels = cv2.split(scaled)

    def nearest(templates):
        best = None
        for template in templates:
            # Channel by channel: OpenCV's single-channel matchTemplate is over ten times faster
            # than its three-channel one, and the sum of the three is the same squared difference.
            ssd = sum(cv2.matchTemplate(ch, t, cv2.TM_SQDIFF) for ch, t in zip(channels, cv2.split(template)))
            best = ssd if best is None else np.minimum(best, ssd)
        return best

    best = nearest(cell_images_)
    rms = np.sqrt(np.maximum(best, 0) / (CANONICAL * CANONICAL * 3))
    good = rms < GOOD_RMS
    if outside_images:
        # Positions that look more like a board's surroundings than like any cell do not count.
        good &= best < nearest(outside_images)
    # Sum the good matches on each phase's grid: fold the map modulo CANONICAL in both axes.
    h, w = good.shape
    hh, ww = (h // CANONICAL) * CANONICAL, (w // CANONICAL) * CANONICAL
    if hh == 0 or ww == 0:
        return 0.0, 0.0, np.zeros((0, 0), dtype=bool)
    # A soft count: a position close to a cell template counts much more than a loosely similar one,
    # so the phase where the board's cells sit exactly wins over phases that straddle two cells.
    credit = np.where(good, np.maximum(0.0, PHASE_CREDIT_RMS - rms), 0.0)
    score = credit[:hh, :ww].reshape(hh // CANONICAL, CANONICAL, ww // CANONICAL, CANONICAL).sum(axis=(0, 2))
    dy, dx = np.unravel_index(int(np.argmax(score)), score.shape)
    return dx * px / CANONICAL, dy * py / CANONICAL, good[dy::CANONICAL, dx::CANONICAL]


@functools.lru_cache(maxsize=64)
def _bank_images(bank) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """One template per cell state (the first variant: enough to find the phase, and fast), and
    every picture of the board's surroundings."""
    # The states most boards are mostly made of are enough to find where cells start.
    common = [ch for ch in PHASE_STATES if ch in bank.char_order] or [c for c in bank.char_order if c != OUTSIDE]
    cells = tuple(
        bank.vectors[bank.starts[bank.char_order.index(ch)]].reshape(CANONICAL, CANONICAL, 3).astype(np.uint8)
        for ch in common
    )
    outside = tuple(
        vector.reshape(CANONICAL, CANONICAL, 3).astype(np.uint8)
        for vector, char in zip(bank.vectors, bank.chars)
        if char == OUTSIDE
    )[:4]
    return cells, outside


def _cell_confidence(frame: np.ndarray, lattice: Lattice, skin: Skin) -> np.ndarray:
    cells = cell_images(frame, lattice)
    flat = cells.reshape(-1, CANONICAL, CANONICAL, 3)
    bank = skin.bank(lattice.pitch)
    # Skip cells whose average colour is unlike every template's: most of a frame is not board, and
    # this keeps the matrix product small. A 16x16 -> 1x1 area resize of the scaled board is each
    # cell's mean colour, far cheaper than a NumPy mean over the cell axis.
    import cv2

    scaled = cells.transpose(0, 2, 1, 3, 4).reshape(lattice.rows * CANONICAL, lattice.cols * CANONICAL, 3)
    means = cv2.resize(scaled, (lattice.cols, lattice.rows), interpolation=cv2.INTER_AREA).reshape(-1, 3)
    template_means = _template_means(bank)
    diff = means.astype(np.float32)[:, None, :] - template_means[None, :, :]
    near = np.sqrt((diff * diff).sum(axis=2)).min(axis=1)
    keep = np.flatnonzero(near < MEAN_COLOUR_SLACK)
    confidence = np.zeros(len(flat))
    if len(keep):
        matches = match_cells(flat[keep], bank)
        # A cell that looks most like the surroundings of a board is not a cell.
        confidence[keep] = np.where(matches.chars == OUTSIDE, 0.0, matches.confidence)
    return confidence.reshape(lattice.rows, lattice.cols)


@functools.lru_cache(maxsize=64)
def _template_means(bank) -> np.ndarray:
    return bank.vectors.reshape(len(bank.vectors), -1, 3).mean(axis=1).astype(np.float32)


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


def _refine(frame: np.ndarray, skin: Skin, board: Lattice, wide: bool = True) -> Lattice:
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
