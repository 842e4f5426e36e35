"""Read every cell of a located board: the Board, with a confidence per cell.

    lattice = locate_board(frame, skins)            # once, or when the window moves
    reading = read_board(frame, lattice, skins)     # every frame: a few milliseconds

A cell whose best template scores below ``threshold`` is not guessed: UnrecognizedCellError names it,
and its crop is saved as a PNG so a person can see what the client drew.
"""

from __future__ import annotations

import logging
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.board import COVERED, NUMBERS, UNREAD, Board

from ..errors import BoardNotFoundError, SkinError, UnrecognizedCellError
from .cells import (ByPicture, CellMatches, board_inside, cell_images, closeness, faces_unlike, match_cells,
                    pattern_states, shifted_cell_images)
from .background import as_skin_background
from .detail import detail_mismatches
from .glyph import judge_weak_by_glyph
from .lookalikes import between_lookalikes, judge_lookalikes
from .unseen import lacks_a_number, unseen_numbers
from ..geometry import Lattice
from .skins import CANONICAL, OUTSIDE, Skin, soften

log = logging.getLogger(__name__)

READ_CONFIDENCE = 0.6
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
    needed: np.ndarray | None = None,
) -> Reading:
    """Recognise every cell of ``lattice`` on ``frame`` with the lattice's skin.

    Raises BoardNotFoundError if the lattice is not fully on the frame, UnrecognizedCellError(row,
    col, score) for the least confident cell when any scores below ``threshold`` (its crop is saved
    to ``crops_dir``, default a temporary folder). ``unread``: a cell that shows a number the skin
    has no picture of (``unseen``) is read as UNREAD instead. ``needed``: a (rows, cols) bool array of
    the cells the caller will use (None: all); the others get the first look only, their reading and
    confidence say nothing, and they are not refused (the live hint session reads the cells the game
    redrew, in the box around them, where cells it keeps may be unreadable under its own marks).
    """
    wanted = None if needed is None else np.asarray(needed, dtype=bool).reshape(-1)
    matches, patterns, unlike, untaught, told = _judged(frame, lattice, skins, threshold, unread, wanted)
    confidence = matches.confidence.reshape(lattice.rows, lattice.cols)
    judged = confidence if needed is None else np.where(wanted.reshape(confidence.shape), confidence, np.inf)
    worst = int(np.argmin(judged))
    min_conf = float(judged.flat[worst])
    if min_conf < threshold:
        row, col = divmod(worst, lattice.cols)
        pictures = "from the nearest size" if untaught[worst] else "at this size"
        why = (told[worst] if worst in told else
               f"read as the {lattice.skin} look, {patterns[worst] or 'it is unclear'}" if skins[lattice.skin].family else
               f"its colours look like {str(matches.chars[worst])!r} but its pattern like {str(patterns[worst])!r} "
               f"(are the colours changed?)" if patterns[worst] else
               f"the {lattice.skin} cell matches no state well enough: it is near {str(matches.chars[worst])!r} at a "
               f"small scale, but unlike every picture of it {pictures} (a number the skin has no picture of?)"
               if unlike[worst] else
               f"the {lattice.skin} cell matches no state well enough (second best {str(matches.second_chars[worst])!r})")
        block = drawn_over_block(judged < threshold, row, col)
        if block is not None:
            # Cells that fail together, filling a box: what covers them is named before the one cell.
            (top, left), (bottom, right) = block
            why = (f"cells ({top},{left})-({bottom},{right}) match no state: something is drawn over them "
                   f"(a tooltip, a popup, another window?); one of them: {why}")
            path = save_crop(frame, lattice, top, left, crops_dir, rows=bottom - top + 1, cols=right - left + 1)
        else:
            path = save_crop(frame, lattice, row, col, crops_dir)
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


def read_visible(frame: np.ndarray, lattice: Lattice, skins: dict[str, Skin], *,
                 threshold: float = READ_CONFIDENCE) -> list[list[str | None]]:
    """Each cell's state where it reads as surely as ``read_board`` asks, None where it does not (a
    window or a dialog over it): what shows of a board that no longer reads whole."""
    matches = _judged(frame, lattice, skins, threshold, unread=False)[0]
    sure = (matches.confidence >= threshold).reshape(lattice.rows, lattice.cols)
    chars = matches.chars.reshape(lattice.rows, lattice.cols)
    return [[str(chars[r, c]) if sure[r, c] else None for c in range(lattice.cols)] for r in range(lattice.rows)]


def nearness(frame: np.ndarray, lattice: Lattice, skin: Skin) -> np.ndarray:
    """(rows, cols) 0..1: how near each cell is to the skin's nearest picture of any state, at the first
    look (the whole cell at the canonical size), whatever state that is and however near the others."""
    frame = as_skin_background(frame, lattice, skin)
    found = match_cells(cell_images(frame, lattice), skin.bank(lattice.drawn_pitch))
    return closeness(found.best_rms).reshape(lattice.rows, lattice.cols)


def _judged(frame: np.ndarray, lattice: Lattice, skins: dict[str, Skin], threshold: float, unread: bool,
            needed: np.ndarray | None = None):
    """Every cell's match after all the looks ``read_board`` takes, with a confidence of 0 where a
    look refused it: (matches, patterns, unlike, untaught, told: why a look refused a cell, by index,
    where it says). ``needed`` (flat, or None for all): the cells that get more than the first look."""
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
    if skin.family:
        return _judged_by_structure(frame, lattice)
    frame = as_skin_background(frame, lattice, skin)
    cells = cell_images(frame, lattice)
    bank = skin.bank(lattice.drawn_pitch)
    matches = match_cells(cells, bank)
    # The middle-only look first: it is one vectorised pass, and under the live hint overlay every
    # covered cell is weak as a whole (the shifted look, a loop per cell, took ~1 s per frame there).
    first_look = matches
    if needed is not None:
        # Cells not needed pass as sure from here on: the later looks, costly per cell, skip them.
        matches = CellMatches(matches.chars, matches.best_rms, matches.second_rms, matches.second_chars,
                              np.where(needed, matches.confidence, 1.0))
    if (matches.confidence < threshold).any():
        matches = _judge_weak_by_interior(matches, cells, bank, threshold)
    if (matches.confidence < threshold).any():
        # Not the cells between a flag and a "?": their mark decides them below, and a moved box (the
        # costliest look: dozens of pictures a cell) would change nothing of that.
        matches = _judge_weak_by_shift(matches, frame, lattice, bank, threshold,
                                       skip=between_lookalikes(first_look, threshold))
    matches, settled, told = judge_lookalikes(first_look, matches, frame, lattice, skin, threshold)
    if (matches.confidence < threshold).any():
        matches = judge_weak_by_glyph(matches, frame, lattice, skin, threshold, settled)
    # A cell that looks most like the area around a board (something drawn over it) is not read, nor
    # one whose pattern, where the lattice puts it, says another state than the one read.
    patterns = pattern_states(cells, bank, matches.chars)
    # A number read at the canonical size must also look like one of its captures at the board's own
    # size, or where the skin has none of it there, at the nearest size (a state the skin never saw
    # can pass for a near one when small).
    unlike, untaught = detail_mismatches(frame, lattice, skin, matches.chars)
    refused = (matches.chars == OUTSIDE) | (patterns != "") | unlike | faces_unlike(cells, bank, matches.chars)
    matches = CellMatches(matches.chars, matches.best_rms, matches.second_rms, matches.second_chars,
                          np.where(refused, 0.0, matches.confidence))
    if any(other.family for other in skins.values()):
        matches = _second_reader(frame, lattice, matches, threshold, needed, first_look.confidence >= threshold)
    # A number unlike every picture of it from another size may be one the skin has at no size near
    # this one, even when it has every number somewhere: it too may be read as unread (unless the
    # second reader read it).
    candidates = matches.confidence < threshold
    if not lacks_a_number(skin):
        candidates &= untaught
    if needed is not None:
        candidates = candidates & needed
    if unread and candidates.any():
        unseen = unseen_numbers(soften(cells), bank, candidates)
        matches = CellMatches(np.where(unseen, UNREAD, matches.chars), matches.best_rms, matches.second_rms,
                              matches.second_chars, np.where(unseen, threshold, matches.confidence))
    return matches, patterns, unlike, untaught, told


def _second_reader(frame: np.ndarray, lattice: Lattice, matches: CellMatches, threshold: float,
                   needed: np.ndarray | None, sure_at_first: np.ndarray) -> CellMatches:
    """Cells the skin's pictures do not read surely, read where the look described by its structure
    (``classic``) reads the board as the pictures do and agrees with their nearest state.

    A skin's pictures of a flag, a mine or a number scaled to a size the client was not captured at
    can miss how the client draws them there (sgt-mines' flags, mines and wrong flags at 38-46 px,
    taught up to 28: whole boards refused, the nearest picture right in every cell but not near
    enough). Two readers that work from different evidence, the pictures and the look's structure
    (relief, ink colour and shape), are trusted together: only where the look reads every cell the
    pictures read surely the same, clearly, covered and opened cells among them (the client is drawn
    in that look, not merely alike in a few cells), and each cell taken is read clearly by the look
    as the state whose pictures are nearest. A cell the two do not agree on is refused as before.

    Whether the board is drawn in that look is a question about the whole board, asked the same
    whatever part of it the caller needs (``needed``): of the cells outside that part, those the
    pictures read surely at the first look (the only look they got) count. Asked of the part alone,
    the answer changed with the part: gnome-mines in another tile theme, a block of opened cells read
    after a click had no covered cell, the look was not trusted there and the block was refused,
    while the whole board read, and ``play`` found the board again and read the block again, for
    ever."""
    from .classic import CLEAR, read_classic

    weak = matches.confidence < threshold
    sure = ~weak if needed is None else np.where(needed, ~weak, sure_at_first)
    if needed is not None:
        weak &= needed
    if not weak.any():
        return matches
    reading = read_classic(frame, lattice)
    clear = reading.confidence >= max(CLEAR, threshold)
    shown = set(matches.chars[sure].tolist())
    if not (clear[sure] & (reading.chars[sure] == matches.chars[sure])).all() or COVERED not in shown \
            or not shown & set(NUMBERS):
        return matches
    taken = weak & clear & (reading.chars == matches.chars)
    if taken.any():
        log.debug("%d cell(s) the pictures read weakly, read as the classic look reads them", int(taken.sum()))
    return CellMatches(matches.chars, matches.best_rms, matches.second_rms, matches.second_chars,
                       np.where(taken, reading.confidence, matches.confidence))


def _judged_by_structure(frame: np.ndarray, lattice: Lattice):
    """``_judged`` for a look read from its structure: ``patterns`` holds what was unclear in each cell."""
    from .classic import read_classic

    reading = read_classic(frame, lattice)
    count = len(reading.chars)
    unclear = np.array(reading.unclear, dtype=object)
    none = np.full(count, "", dtype="<U1")
    confidence = np.where(reading.chars == OUTSIDE, 0.0, reading.confidence)
    matches = CellMatches(reading.chars, np.zeros(count), np.zeros(count), none, confidence)
    return matches, unclear, np.zeros(count, dtype=bool), np.zeros(count, dtype=bool), {}


def _judge_weak_by_shift(matches: CellMatches, frame: np.ndarray, lattice: Lattice, bank,
                         threshold: float, skip: np.ndarray) -> CellMatches:
    """Weak cells get a second look with their box moved by up to SHIFT_REACH pitch each way.

    A straight lattice cannot follow a toolkit that gives some cells a pixel more than others
    (gnome-mines under GTK: 30 px cells, then 29 px ones), so cells far along the board can sit a
    pixel or two off their box. Only weak cells are re-cut (not those in ``skip``), so a normal read
    costs nothing extra.
    The shifts are tried coarse to fine: first a grid a canonical pixel apart (a smaller shift moves
    the softened canonical picture by less than a pixel), then every pixel around the best of those;
    all weak cells in one call a stage (each call's fixed work cost as much as its matching).
    """
    weak = np.flatnonzero((matches.confidence < threshold) & ~skip)
    if not len(weak):
        return matches
    reach = tuple(max(MIN_SHIFT, round(SHIFT_REACH * pitch)) for pitch in lattice.pitch)
    step = tuple(max(1, round(pitch / CANONICAL)) for pitch in lattice.pitch)
    rects = [lattice.cell_rect(*divmod(int(index), lattice.cols)) for index in weak]
    # Each cell's answer is kept by the pixels it looks at (its box and the reach round it, as far as
    # the frame goes): in play the same flags and marks are weak frame after frame, and this look was
    # half a warm read of a board with flags.
    height, width = frame.shape[:2]
    keys, best = [], []
    for rect in rects:
        box = (rect.left - reach[0], rect.top - reach[1], rect.right + reach[0], rect.bottom + reach[1])
        inside = (max(0, box[0]), max(0, box[1]), min(width, box[2]), min(height, box[3]))
        context = (bank, reach, step, tuple(a - b for a, b in zip(inside, box)))
        keys.append(_shifted.key(frame[inside[1] : inside[3], inside[0] : inside[2]], context))
        best.append(_shifted.known(keys[-1]))
    todo = [i for i, answer in enumerate(best) if answer is None]
    for i, answer in zip(todo, _shift_looks(frame, [rects[i] for i in todo], bank, reach, step)):
        _shifted.keep(keys[i], answer)
        best[i] = answer
    fields = {name: getattr(matches, name).copy() for name in CellMatches.FIELDS}
    for index, (trial, _) in zip(weak, best):
        if trial is not None and trial[-1] > fields["confidence"][index]:
            for name, value in zip(CellMatches.FIELDS, trial):
                fields[name][index] = value
    return CellMatches(**fields)


# The shifted look's answers, by the pixels each cell's look took in.
_shifted = ByPicture(5_000)


def _shift_looks(frame: np.ndarray, rects, bank, reach: tuple[int, int], step: tuple[int, int]):
    """``_best_shifts`` of each box over every shift up to ``reach``, on a grid ``step`` px apart,
    then every pixel round the best (see ``_judge_weak_by_shift``)."""
    if not rects:
        return []
    coarse = [[d for d in range(-r, r + 1) if d % s == 0] for r, s in zip(reach, step)]
    best = _best_shifts(frame, rects, bank, [coarse] * len(rects))
    if any(s > 1 for s in step):
        fine = [[list(range(max(-r, centre - s + 1), min(r, centre + s - 1) + 1))
                 for r, s, centre in zip(reach, step, shift)] if trial is not None else [[], []]
                for trial, shift in best]
        best = [_better(first, second) for first, second in zip(best, _best_shifts(frame, rects, bank, fine))]
    return best


def _best_shifts(frame: np.ndarray, rects, bank, offsets):
    """For each box in ``rects``, its most confident match over the shifts ``offsets`` gives it
    ((dxs, dys) a box): ((chars, best_rms, second_rms, second_chars, confidence), (dx, dy)), or
    (None, None) where no shift stays on the frame."""
    cut = [shifted_cell_images(frame, rect, dxs, dys) for rect, (dxs, dys) in zip(rects, offsets)]
    if not any(shifts for _, shifts in cut):
        return [(None, None)] * len(rects)
    trial = match_cells(np.concatenate([crops for crops, _ in cut]), bank)
    found, start = [], 0
    for _, shifts in cut:
        if not shifts:
            found.append((None, None))
            continue
        best = start + int(np.argmax(trial.confidence[start : start + len(shifts)]))
        found.append((tuple(getattr(trial, name)[best] for name in CellMatches.FIELDS), shifts[best - start]))
        start += len(shifts)
    return found


def _better(first, second):
    """The more confident of two ``_best_shifts`` answers for one box."""
    if second[0] is None or (first[0] is not None and first[0][-1] >= second[0][-1]):
        return first
    return second


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


def drawn_over_block(failing: np.ndarray, row: int, col: int) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The box of cells, ((top, left), (bottom, right)), that the failing cells touching (row, col)
    make when there are two or more of them, they fill at least half their box and the box is at most
    half the board: what something drawn over part of the board (a tooltip, a popup) leaves. None for
    a cell failing on its own, cells strewn about, or most of the board failing (other colours)."""
    import cv2

    _, labels = cv2.connectedComponents(failing.astype(np.uint8), connectivity=8)
    mine = labels == labels[row, col]
    rows, cols = np.nonzero(mine)
    top, bottom, left, right = int(rows.min()), int(rows.max()), int(cols.min()), int(cols.max())
    area = (bottom - top + 1) * (right - left + 1)
    if len(rows) < 2 or len(rows) * 2 < area or area * 2 > failing.size:
        return None
    return (top, left), (bottom, right)


def save_crop(frame: np.ndarray, lattice: Lattice, row: int, col: int, folder: str | Path | None, *,
              rows: int = 1, cols: int = 1) -> Path | None:
    """Save cell (row, col), or the box of ``rows`` x ``cols`` cells from it, with a margin of half a
    cell, for a person to look at."""
    import cv2

    try:
        target = Path(folder) if folder is not None else Path(tempfile.gettempdir()) / "screenbot-cells"
        target.mkdir(parents=True, exist_ok=True)
        rect = lattice.block(row, col, rows, cols).board_rect().expanded(int(max(lattice.pitch) // 2))
        height, width = frame.shape[:2]
        crop = frame[max(0, rect.top) : min(height, rect.bottom), max(0, rect.left) : min(width, rect.right)]
        name = f"{lattice.skin}-r{row}-c{col}" + (f"-to-r{row + rows - 1}-c{col + cols - 1}" if rows * cols > 1 else "")
        path = target / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}.png"
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
