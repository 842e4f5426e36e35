"""Read every cell of a located board: the Board, with a confidence per cell.

    lattice = locate_board(frame, skins)            # once, or when the window moves
    reading = read_board(frame, lattice, skins)     # every frame: a few milliseconds

A cell whose best template scores below ``threshold`` is not guessed: UnrecognizedCellError names it,
and its crop is saved as a PNG so a person can see what the client drew.
"""

from __future__ import annotations

import functools
import logging
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.board import UNREAD, Board

from ..errors import BoardNotFoundError, SkinError, UnrecognizedCellError
from .cells import RMS_SCALE, CellMatches, board_inside, cell_images, match_cells, pattern_states
from .detail import detail_mismatches
from .glyph import judge_weak_by_glyph
from .unseen import far_numbers, lacks_a_number, unseen_numbers
from ..geometry import Lattice
from .skins import CANONICAL, OUTSIDE, Skin, soften

log = logging.getLogger(__name__)

READ_CONFIDENCE = 0.6
# Pairs of states whose pictures differ only by a small mark: a weak cell between them is decided by
# that mark (see _judge_lookalikes).
LOOKALIKE = {frozenset("F?")}
# How far a weak cell's box may move on its second look: a share of the pitch, at least 2 px. A
# straight lattice through GTK's cells (some a pixel wider than others) is up to ~0.15 pitch off.
SHIFT_REACH = 0.15
MIN_SHIFT = 2
# The share of a cell's pitch, centred, that decides a cell the whole-cell comparison could not: the
# part the live hint overlay never draws on (``screenbot.overlay``).
INTERIOR = 0.625
# Pixel difference (0-255, per channel) below which two grabs of the board count as the same picture.
STABLE_TOLERANCE = 2


@dataclass(frozen=True, slots=True, eq=False)
class Reading:
    """What ``read_board`` saw. ``confidence`` is a (rows, cols) array in 0..1, row-major."""

    board: Board
    confidence: np.ndarray
    min_confidence: float
    lattice: Lattice


def read_board(
    frame: np.ndarray,
    lattice: Lattice,
    skins: dict[str, Skin],
    *,
    threshold: float = READ_CONFIDENCE,
    crops_dir: str | Path | None = None,
    mines: int | None = None,
    unread: bool = False,
) -> Reading:
    """Recognise every cell of ``lattice`` on ``frame`` with the lattice's skin.

    Raises BoardNotFoundError if the lattice is not fully on the frame, UnrecognizedCellError(row,
    col, score) for the least confident cell when any scores below ``threshold`` (its crop is saved
    to ``crops_dir``, default a temporary folder). ``unread``: a cell that shows a number the skin
    has no picture of (``unseen``) is read as UNREAD instead.
    """
    skin = skins.get(lattice.skin)
    if skin is None:
        raise SkinError(f"no templates loaded for this skin; known: {', '.join(skins) or 'none'}", skin=lattice.skin)
    if not board_inside(frame, lattice):
        raise BoardNotFoundError(
            f"the {lattice.rows}x{lattice.cols} board at {lattice.board_rect()} is not fully on this "
            f"{frame.shape[1]}x{frame.shape[0]} frame",
            skin=lattice.skin,
            reason="board not on frame",
        )
    cells = cell_images(frame, lattice)
    bank = skin.bank(lattice.pitch)
    softened = soften(cells)
    matches = match_cells(softened, bank, softened=True)
    # The middle-only look first: it is one vectorised pass, and under the live hint overlay every
    # covered cell is weak as a whole (the shifted look, a loop per cell, took ~1 s per frame there).
    first_look = matches
    if (matches.confidence < threshold).any():
        matches = _judge_weak_by_interior(matches, cells, bank, threshold)
    if (matches.confidence < threshold).any():
        matches = _judge_weak_by_shift(matches, frame, lattice, bank, threshold)
    matches, settled = _judge_lookalikes(first_look, matches, frame, lattice, skin, threshold)
    if (matches.confidence < threshold).any():
        matches = judge_weak_by_glyph(matches, frame, lattice, skin, threshold, settled)
    # A cell that looks most like the area around a board (something drawn over it) is not read, nor
    # one whose pattern, where the lattice puts it, says another state than the one read.
    patterns = pattern_states(softened, bank, matches.chars)
    # A number read at the canonical size must also look like one of its captures at the board's own
    # size, where the skin has one (a state the skin never saw can pass for a near one when small).
    unlike = detail_mismatches(frame, lattice, skin, matches.chars)
    refused = (matches.chars == OUTSIDE) | (patterns != "") | unlike
    lacking = lacks_a_number(skin)
    if lacking:
        # The number a cell is nearest may not be the one it shows: the skin has no picture of that one.
        whole = np.where(first_look.chars == matches.chars, first_look.best_rms, np.inf)
        refused |= far_numbers(softened, bank, matches.chars, whole)
    matches = CellMatches(matches.chars, matches.best_rms, matches.second_rms, matches.second_chars,
                          np.where(refused, 0.0, matches.confidence))
    if unread and lacking and (matches.confidence < threshold).any():
        unseen = unseen_numbers(softened, bank, matches.confidence < threshold)
        matches = CellMatches(np.where(unseen, UNREAD, matches.chars), matches.best_rms, matches.second_rms,
                              matches.second_chars, np.where(unseen, threshold, matches.confidence))
    confidence = matches.confidence.reshape(lattice.rows, lattice.cols)
    worst = int(np.argmin(confidence))
    min_conf = float(confidence.flat[worst])
    if min_conf < threshold:
        row, col = divmod(worst, lattice.cols)
        path = save_crop(frame, lattice, row, col, crops_dir)
        why = (f"its colours look like {str(matches.chars[worst])!r} but its pattern like {str(patterns[worst])!r} "
               f"(are the colours changed?)" if patterns[worst] else
               f"the {lattice.skin} cell matches no state well enough: it is near {str(matches.chars[worst])!r} at a "
               f"small scale, but unlike every picture of it at this size (a number the skin has no picture of?)"
               if unlike[worst] else
               f"the {lattice.skin} cell matches no state well enough (second best {str(matches.second_chars[worst])!r})")
        raise UnrecognizedCellError(
            why,
            row=row,
            col=col,
            score=min_conf,
            best=str(matches.chars[worst]),
            crop_path=str(path) if path else None,
        )
    chars = matches.chars.reshape(lattice.rows, lattice.cols)
    board = Board(tuple("".join(row) for row in chars), mines)
    return Reading(board, confidence, min_conf, lattice)


def _judge_lookalikes(first: CellMatches, judged: CellMatches, frame: np.ndarray, lattice: Lattice, skin: Skin,
                      threshold: float) -> tuple[CellMatches, np.ndarray]:
    """Cells read as one of two states that differ only by a small mark (gnome-mines draws "?" as its
    flag with a small "?" beside the flag's tip) are checked for that mark in their own pixels.

    At the canonical size the mark is a few blurred pixels: the second looks (the middle only, a moved
    box) can leave it out and read a "?" as a confident flag, a flag can score as torn as a "?", and
    at a size no capture has, even the first look can take a "?" for a confident flag. Here the ink
    (pixels far from the cell's face colour) found where the pair's pictures differ is set against
    the ink each picture has there (``_mark_share``). A weak cell is decided by it, or refused when
    it lies between; a confident read that the mark contradicts is refused.

    A weak cell decided here keeps the first look's closeness as its confidence: where that was far
    (the client draws the pair unlike any capture: gnome-mines puts its flag further left in a 30 px
    cell, and the mark's place then holds the flag's own ink), the cell stays weak and the glyph look
    (``glyph``), which finds the picture wherever the client put it, may read it. Returns the judged
    matches and the cells a capture at their own size decided, which no later look may overturn."""
    settled = np.zeros(len(judged.chars), dtype=bool)
    # The pair of the first look, or where that was weak, the pair of the state the later looks read (a
    # "?" can look like a covered cell at first and then like a confident flag to the moved box).
    weak_first = first.confidence < threshold
    pairs = [_lookalike_pair(a, b, c if weak else None)
             for a, b, c, weak in zip(first.chars, first.second_chars, judged.chars, weak_first)]
    candidates = np.flatnonzero([pair is not None for pair in pairs])
    if not len(candidates):
        return judged, settled
    fields = {name: getattr(judged, name).copy() for name in CellMatches.FIELDS}
    for index in candidates:
        row, col = divmod(int(index), lattice.cols)
        weak = bool(weak_first[index])
        plain, marked = _plain_and_marked(skin, tuple(sorted(pairs[index])))
        # A confident read is only questioned with a capture at least the cell's size: the mark of a
        # smaller one, enlarged, is not where the client draws it.
        share, own_size = _mark_share(frame, lattice.cell_rect(row, col), skin, (plain, marked), any_size=weak)
        settled[index] = own_size
        if not weak:
            read = fields["chars"][index]
            if share is not None and (share > MARK_PLAIN if read == plain else share < MARK_SEEN):
                fields["confidence"][index] = 0.0
            continue
        if share is None or MARK_PLAIN < share < MARK_SEEN:
            fields["confidence"][index] = 0.0
            continue
        read, other = (marked, plain) if share >= MARK_SEEN else (plain, marked)
        fields["chars"][index], fields["second_chars"][index] = read, other
        # The first look's closeness to the pair still bounds the confidence: a cell far from both
        # (something drawn over it) stays refused.
        fields["confidence"][index] = float(np.clip(1.0 - first.best_rms[index] / RMS_SCALE, 0.0, 1.0))
    return CellMatches(**fields), settled


def _lookalike_pair(best: str, second: str, judged: str | None) -> frozenset | None:
    """The pair of LOOKALIKE a cell must be checked for: its first look's best two, else the pair the
    state the later looks read (``judged``) belongs to, or None."""
    if frozenset((best, second)) in LOOKALIKE:
        return frozenset((best, second))
    return next((pair for pair in LOOKALIKE if judged in pair), None)


# Where a cell lies between a pair's plain picture (0) and its marked one (1): a plain cell has no
# ink there beyond the plain picture's (real flags stay within 0.06 of 0 at every size tried), while a
# mark drawn at a size no capture has can land partly outside the place looked at (real "?" marks at
# 22-25 px cells score 0.2-0.4, at 26 px and up 0.5-1.1). Up to MARK_PLAIN a cell is plain, from
# MARK_SEEN on it is marked; a weak cell between is refused, and so is a confident read that its
# share contradicts.
MARK_PLAIN, MARK_SEEN = 0.1, 0.2
# How far past the pictures' difference the mark is looked for: a share of the cell's side (the mark
# does not scale exactly with the cell).
MARK_GROW = 0.04
# A pair of pictures whose marks differ by less ink (grey levels summed) at the cell's size cannot tell
# them apart: about four pixels of strong ink.
MARK_LEAST_INK = 400.0
# Grey levels (0-255) below which the two pictures count as the same there.
MARK_LEAST_CONTRAST = 12
# Differences from a cell's face colour (0-255, any channel) up to this are not ink (texture, noise).
INK_NOISE = 10


def _mark_share(frame: np.ndarray, rect, skin: Skin, pair: tuple[str, str], *,
                any_size: bool) -> tuple[float | None, bool]:
    """Where the cell lies between the pictures of ``pair`` (0: as pair[0], 1: as pair[1]), judged by
    the ink around the place where they differ, or None when no capture of the skin tells the pair
    apart at this size; and whether the capture that judged it is the cell's own size."""
    reference = _mark_reference(skin, pair, rect.width, rect.height, any_size)
    if reference is None:
        return None, False
    region, ink_first, ink_second, own_size = reference
    cell = frame[rect.top : rect.top + rect.height, rect.left : rect.left + rect.width]
    return (_ink(cell, region) - ink_first) / (ink_second - ink_first), own_size


@functools.lru_cache(maxsize=256)
def _mark_reference(skin: Skin, pair: tuple[str, str], width: int, height: int, any_size: bool):
    """(region looked at, ink of pair[0] there, ink of pair[1] there) for cells of this size, or None.

    The mark does not sit exactly where scaled pictures put it, nor does a capture at a near size draw
    it as the client does at this one (gnome-mines' "?" at 23 px is a faint spot inside the flag, at
    22 px a dark one beside it): hence ink counted around it, and the smallest capture at least the
    cell's size that shows the mark clearly (shrinking keeps a mark, enlarging blurs it); smaller
    captures too when ``any_size``."""
    import cv2

    for pictures in _lookalike_pictures(skin, pair, (width, height), any_size=any_size):
        first, second = (cv2.resize(p, (width, height), interpolation=cv2.INTER_AREA).astype(np.float32) for p in pictures)
        second = _aligned(second, first)
        gap = np.abs(first - second).max(axis=2)
        differ = gap > max(MARK_LEAST_CONTRAST, gap.max() / 2)
        if gap.max() < 2 * MARK_LEAST_CONTRAST or differ.mean() > 0.25:
            continue  # no mark at this size, or two captures that differ all over
        ys, xs = np.nonzero(differ)
        grow_x, grow_y = round(MARK_GROW * width), round(MARK_GROW * height)
        region = np.zeros((height, width), bool)
        region[max(0, ys.min() - grow_y) : ys.max() + 1 + grow_y, max(0, xs.min() - grow_x) : xs.max() + 1 + grow_x] = True
        ink_first, ink_second = _ink(first, region), _ink(second, region)
        if abs(ink_second - ink_first) >= MARK_LEAST_INK:
            own_size = abs(pictures[0].shape[1] - width) <= 1 and abs(pictures[0].shape[0] - height) <= 1
            return region, ink_first, ink_second, own_size
    return None


@functools.lru_cache(maxsize=16)
def _plain_and_marked(skin: Skin, pair: tuple[str, str]) -> tuple[str, str]:
    """The pair ordered as (plain state, state with the mark): the marked one has more ink in the
    skin's largest capture of both (as given when no capture has both: no cell is then decided)."""
    captures = _lookalike_pictures(skin, pair, (0, 0), any_size=True)
    if not captures:
        return pair
    first, second = captures[-1]
    everywhere = np.ones(first.shape[:2], bool)
    return pair if _ink(first, everywhere) <= _ink(second, everywhere) else pair[::-1]


def _aligned(picture: np.ndarray, like: np.ndarray) -> np.ndarray:
    """``picture`` moved by up to MIN_SHIFT px to lie best on ``like`` (two captures of one skin are
    not always cut at the same place), its edges repeated."""
    import cv2

    padded = cv2.copyMakeBorder(picture, MIN_SHIFT, MIN_SHIFT, MIN_SHIFT, MIN_SHIFT, cv2.BORDER_REPLICATE)
    fit = cv2.matchTemplate(padded, like, cv2.TM_SQDIFF)
    dy, dx = np.unravel_index(int(np.argmin(fit)), fit.shape)
    return padded[dy : dy + like.shape[0], dx : dx + like.shape[1]]


def _ink(picture: np.ndarray, region: np.ndarray) -> float:
    """The ink in ``region``: how far its pixels are from the picture's face colour (its median),
    summed past a little noise. A sum, not a count of dark pixels: shrinking a picture by area
    averages keeps the sum, while a small mark's dark pixels blend away."""
    face = np.median(picture.reshape(-1, picture.shape[-1]), axis=0)
    far = np.abs(picture.astype(np.float32) - face).max(axis=2) - INK_NOISE
    return float(np.clip(far, 0.0, None)[region].sum())


def _lookalike_pictures(skin: Skin, pair: tuple[str, str], size: tuple[int, int], *,
                        any_size: bool) -> list[tuple[np.ndarray, np.ndarray]]:
    """(picture of pair[0], picture of pair[1]) from each capture that holds both at the same pixel
    size (two boxes a pixel apart scale differently, and the whole outline would then differ): those
    at least as large as ``size``, smallest first, then (``any_size``) the smaller ones, largest first."""
    by_size: dict[tuple[float, float], dict[str, list[np.ndarray]]] = {}
    for template in skin.templates:
        if template.char in pair:
            by_size.setdefault(template.pitch, {}).setdefault(template.char, []).append(template.image)
    found = {}
    for pitch, pictures in by_size.items():
        same = [(a, b) for a in pictures.get(pair[0], []) for b in pictures.get(pair[1], []) if a.shape == b.shape]
        if same:
            found[pitch] = same[0]
    sizes = sorted(found, key=min)
    large = [s for s in sizes if min(s) >= min(size) - 0.5]
    small = [s for s in sizes if s not in large][::-1] if any_size else []
    return [found[s] for s in large + small]


def _judge_weak_by_shift(matches: CellMatches, frame: np.ndarray, lattice: Lattice, bank,
                         threshold: float) -> CellMatches:
    """Weak cells get a second look with their box moved by up to SHIFT_REACH pitch each way.

    A straight lattice cannot follow a toolkit that gives some cells a pixel more than others
    (gnome-mines under GTK: 30 px cells, then 29 px ones), so cells far along the board can sit a
    pixel or two off their box. Only weak cells are re-cut, so a normal read costs nothing extra.
    """
    import cv2

    weak = np.flatnonzero(matches.confidence < threshold)
    height, width = frame.shape[:2]
    reach_x = max(MIN_SHIFT, round(SHIFT_REACH * lattice.pitch[0]))
    reach_y = max(MIN_SHIFT, round(SHIFT_REACH * lattice.pitch[1]))
    shifts = [(dx, dy) for dy in range(-reach_y, reach_y + 1) for dx in range(-reach_x, reach_x + 1)]
    fields = {name: getattr(matches, name).copy() for name in CellMatches.FIELDS}
    for index in weak:
        row, col = divmod(int(index), lattice.cols)
        rect = lattice.cell_rect(row, col)
        crops = []
        for dx, dy in shifts:
            left, top = rect.left + dx, rect.top + dy
            if left < 0 or top < 0 or left + rect.width > width or top + rect.height > height:
                continue
            crops.append(cv2.resize(frame[top : top + rect.height, left : left + rect.width], (CANONICAL, CANONICAL),
                                    interpolation=cv2.INTER_AREA))
        if not crops:
            continue
        trial = match_cells(np.stack(crops), bank)
        best = int(np.argmax(trial.confidence))
        if trial.confidence[best] > fields["confidence"][index]:
            for name in fields:
                fields[name][index] = getattr(trial, name)[best]
    return CellMatches(**fields)


def _judge_weak_by_interior(matches: CellMatches, cells: np.ndarray, bank, threshold: float) -> CellMatches:
    """Cells that match nothing as a whole get a second look at their middle only.

    The live hint overlay draws its marks around each cell and never on the middle ``INTERIOR`` share
    of it, so a cell under the overlay still reads right here, for ``hint`` itself and for ``play``
    running beside it. A cell whose middle is hidden or half drawn stays below the threshold.
    """
    weak = np.flatnonzero(matches.confidence < threshold)
    inner = match_cells(cells.reshape(-1, *cells.shape[-3:])[weak], bank, interior=INTERIOR)
    fields = {}
    for name in CellMatches.FIELDS:
        merged = getattr(matches, name).copy()
        merged[weak] = getattr(inner, name)
        fields[name] = merged
    return CellMatches(**fields)


def save_crop(frame: np.ndarray, lattice: Lattice, row: int, col: int, folder: str | Path | None) -> Path | None:
    """Save cell (row, col) with a margin of half a cell, for a person to look at."""
    import cv2

    try:
        target = Path(folder) if folder is not None else Path(tempfile.gettempdir()) / "screenbot-cells"
        target.mkdir(parents=True, exist_ok=True)
        rect = lattice.cell_rect(row, col).expanded(int(max(lattice.pitch) // 2))
        height, width = frame.shape[:2]
        crop = frame[max(0, rect.top) : min(height, rect.bottom), max(0, rect.left) : min(width, rect.right)]
        path = target / f"{lattice.skin}-r{row}-c{col}-{time.strftime('%Y%m%d-%H%M%S')}.png"
        cv2.imwrite(str(path), crop)
        return path
    except OSError:  # saving is a courtesy; the error itself must still reach the caller
        log.warning("could not save the unrecognised cell's crop", exc_info=True)
        return None


def frames_agree(first: np.ndarray, second: np.ndarray, lattice: Lattice, tolerance: int = STABLE_TOLERANCE) -> bool:
    """True when the board looks the same on both frames: a frame caught mid-redraw (or during an
    animation) differs from the next one, so a caller reads only once two grabs agree."""
    if not (board_inside(first, lattice) and board_inside(second, lattice)):
        return False
    rect = lattice.board_rect()
    a = first[rect.top : rect.bottom, rect.left : rect.right]
    b = second[rect.top : rect.bottom, rect.left : rect.right]
    if a.shape != b.shape:
        return False
    return bool((np.abs(a.astype(np.int16) - b.astype(np.int16)) <= tolerance).all())


def read_stable(grab, lattice: Lattice, skins: dict[str, Skin], *, attempts: int = 5, pause: float = 0.01,
                threshold: float = READ_CONFIDENCE) -> Reading:
    """Grab until two consecutive frames agree on the board, then read it.

    ``grab()`` returns a frame in the lattice's coordinates. Raises BoardNotFoundError when the board
    keeps changing for ``attempts`` grabs (an animation, or the window being moved).
    """
    previous = grab()
    for _ in range(attempts):
        time.sleep(pause)
        current = grab()
        if frames_agree(previous, current, lattice):
            return read_board(current, lattice, skins, threshold=threshold)
        previous = current
    raise BoardNotFoundError(
        f"the board kept changing over {attempts + 1} grabs", skin=lattice.skin, reason="board not stable"
    )
