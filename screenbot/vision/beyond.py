"""Does the board go on past a side of the lattice the structure found? The skin reads the line of cells
just past each side: a board's surroundings read as its skin's "outside", never surely as a cell.

The structure finds cells by their faces and separators, and some pictures leave parts of a board
without either: covered cells drawn as a fine stipple (xbomb), rows of small cells whose digits cut
every face (minegauler's 17 px buttons), a lost board full of mines. What it finds is then a piece of
the board, and its lattice, right inside that piece, is wrong for the board. Here the piece is grown a
line at a time while the line past a side reads surely as the skin's cells, and a side past which even
one cell still reads surely as a cell is reported: the board is refused rather than returned short.

On the labelled screenshots of every client (over 1,100 lines of cells just past a correctly found
board) not one cell read surely as a board cell: the surroundings of a board look like none of them.
"""

from __future__ import annotations

import numpy as np

from ..geometry import Lattice
from .cells import canonical_crops, distinct, match_cells
from .skins import OUTSIDE, Skin

SURE = 0.8  # match confidence at which a cell past a side counts as a board cell
# A line is added to the board when at least this many of its cells, and this share, read surely as
# cells: a line of the board always does (numbers, covered cells, flags, mines all read surely).
GROW_MIN = 2
GROW_SHARE = 0.25
SIDES = ("top", "bottom", "left", "right")


def grown(lattice: Lattice, side: str) -> Lattice:
    """The lattice with one more line of cells on ``side``, as wide as the line next to it."""
    xs, ys = list(lattice.col_edges()), list(lattice.row_edges())
    if side == "top":
        ys.insert(0, 2 * ys[0] - ys[1])
    elif side == "bottom":
        ys.append(2 * ys[-1] - ys[-2])
    elif side == "left":
        xs.insert(0, 2 * xs[0] - xs[1])
    else:
        xs.append(2 * xs[-1] - xs[-2])
    return _on_edges(lattice, xs, ys)


def shrunk(lattice: Lattice, side: str) -> Lattice:
    """The lattice less its outermost line of cells on ``side`` (``grown`` undone)."""
    xs, ys = list(lattice.col_edges()), list(lattice.row_edges())
    (ys if side in ("top", "bottom") else xs).pop(0 if side in ("top", "left") else -1)
    return _on_edges(lattice, xs, ys)


def _on_edges(lattice: Lattice, xs: list[float], ys: list[float]) -> Lattice:
    """``lattice``'s look on boxes with these edges: straight where it was."""
    if lattice.straight:
        return Lattice(lattice.skin, (xs[0], ys[0]), lattice.pitch, len(ys) - 1, len(xs) - 1, scale=lattice.scale)
    return Lattice.from_edges(lattice.skin, tuple(xs), tuple(ys), lattice.scale)


def outer_line(lattice: Lattice, side: str) -> list[tuple[int, int]]:
    """The cells of the outermost line on ``side``."""
    if side in ("top", "bottom"):
        row = 0 if side == "top" else lattice.rows - 1
        return [(row, c) for c in range(lattice.cols)]
    col = 0 if side == "left" else lattice.cols - 1
    return [(r, col) for r in range(lattice.rows)]


def cells_beyond(frame: np.ndarray, lattice: Lattice, skin: Skin) -> dict[str, tuple[int, int]]:
    """Per side: (cells of the line past it that read surely as the skin's board cells, cells in that
    line). Cells off the frame are not read."""
    bank = skin.bank(lattice.drawn_pitch)
    out = {}
    for side in SIDES:
        rects, length = _boxes_past(frame, lattice, side)
        if not rects:
            out[side] = (0, length)
            continue
        matches = match_cells(canonical_crops(frame, rects), bank)
        sure = (matches.chars != OUTSIDE) & (matches.confidence >= SURE)
        out[side] = (int(sure.sum()), length)
    return out


def _boxes_past(frame: np.ndarray, lattice: Lattice, side: str) -> tuple[list, int]:
    """The boxes of the line of cells just past ``side`` that lie on the frame, and that line's length."""
    height, width = frame.shape[:2]
    bigger = grown(lattice, side)
    line = outer_line(bigger, side)
    rects = [rect for rect in (bigger.cell_rect(row, col) for row, col in line)
             if rect.left >= 0 and rect.top >= 0 and rect.right <= width and rect.bottom <= height
             and rect.width >= 2 and rect.height >= 2]
    return rects, len(line)


# A cell past a side that something drawn over it cuts straight (a window's border, its corner) shows
# a rectangle of itself: a corner of its box, or a strip along one of its sides. Where a rectangle of a
# box past a side repeats the same rectangle of one of the skin's cell pictures, the board goes on
# under what covers the rest: a window over all of a side's line but the first cell's top 10 px (or
# the first column's 16 px) left those pieces to no other check, and the board was read a line short
# with no error. The rectangle must cover PIECE_AREA of the box, nearly every pixel of it within
# PIECE_NEAR of the picture's, and the picture must step along both axes inside it (an edge of the
# cell's face or bevel each way): a board's frame or a plain panel past a side is alike along its
# length, and a flat face's colour alone is no cell.
PIECE_AREA = 0.3
# ...of the box, where the pictures are the board's own cells (``board_pictures``): the same capture at
# the same pitch, where a skin's pictures are brought to the board's pitch from another (a Qt-scaled
# minegauler board's frame repeated a strip of its resampled pictures over 0.10-0.15 of a box; of the
# 37 boards of untaught clients among the fixtures, none shows a piece of its own cells at 0.10).
OWN_PIECE_AREA = 0.15
PIECE_AGREE = 0.95
PIECE_NEAR = 16
PIECE_STEP = 40


def pieces_beyond(frame: np.ndarray, lattice: Lattice, pictures: np.ndarray, area: float = PIECE_AREA) -> list[str]:
    """The sides past which some cell of a further line shows a straight-cut piece, at least ``area``
    of its box, of one of the ``pictures`` of cells ((count, CANONICAL, CANONICAL, 3): a skin's,
    ``skin_pictures``, or the board's own, ``board_pictures``, with OWN_PIECE_AREA): the rest of the
    board lies under what covers it."""
    if not len(pictures):
        return []
    wide = pictures.astype(np.int16)
    down = np.abs(np.diff(wide, axis=1)).max(axis=-1) >= PIECE_STEP  # a step to the pixel below
    across = np.abs(np.diff(wide, axis=2)).max(axis=-1) >= PIECE_STEP  # ...and to the one right
    out = []
    for side in SIDES:
        rects, _ = _boxes_past(frame, lattice, side)
        if not rects:
            continue
        # Past a whole board's side the boxes are mostly alike (its frame, a margin): each kind once.
        crops = distinct(canonical_crops(frame, rects))[0]
        agree = np.stack([_near(crop, pictures) for crop in crops])  # (boxes, pictures, C, C)
        # Only pairs agreeing on enough pixels to hold a piece, and on both sides of some step of the
        # picture each way, are looked at corner by corner.
        enough = agree.sum(axis=(-2, -1)) >= PIECE_AGREE * area * agree[0, 0].size
        for axis, step in ((2, down), (3, across)):
            shown = agree[(slice(None),) * axis + (slice(1, None),)] & np.delete(agree, -1, axis=axis) & step
            enough &= shown.any(axis=(-2, -1))
        cells, kinds = np.nonzero(enough)
        if len(cells) and _corner_piece(agree[cells, kinds], wide[kinds], area):
            out.append(side)
    return out


def _near(crop: np.ndarray, pictures: np.ndarray) -> np.ndarray:
    """(pictures, C, C) bool: where the box's pixels lie within PIECE_NEAR of each picture's, every
    channel (one absolute difference over the stack, in bytes: a tenth of the time in wider integers)."""
    import cv2

    diff = cv2.absdiff(np.ascontiguousarray(np.broadcast_to(crop, pictures.shape)), np.ascontiguousarray(pictures))
    return np.maximum(np.maximum(diff[..., 0], diff[..., 1]), diff[..., 2]) <= PIECE_NEAR


def skin_pictures(skin: Skin, lattice: Lattice) -> np.ndarray:
    """The skin's pictures of board cells at the lattice's pitch (not of what lies outside a board)."""
    bank = skin.bank(lattice.drawn_pitch)
    return bank.pictures[[k for k, ch in enumerate(bank.chars) if ch != OUTSIDE]]


# Of a board's own cells, at most this many kinds of picture are compared (the commonest): a clean
# capture of an expert board has 1 to 20; a JPEG's noise makes each cell one of its own.
BOARD_PICTURES = 64


def board_pictures(frame: np.ndarray, lattice: Lattice) -> np.ndarray:
    """The board's own cells as pictures, for a look with none of its own: the commonest kinds, each
    cell taken to 8 levels a channel so that a capture's small noise does not split a kind."""
    rects = [lattice.cell_rect(row, col) for row in range(lattice.rows) for col in range(lattice.cols)]
    crops = canonical_crops(frame, rects)
    kinds, inverse = distinct(crops & 0xF8)
    common = np.argsort(-np.bincount(inverse, minlength=len(kinds)), kind="stable")[:BOARD_PICTURES]
    first = np.array([int(np.argmax(inverse == kind)) for kind in common], dtype=int)
    return crops[first]


def _corner_piece(agree: np.ndarray, pictures: np.ndarray, area: float) -> bool:
    """Whether some box agrees with its picture (``agree``: (pairs, C, C), ``pictures``: (pairs, C, C,
    3)) over a rectangle at a corner of the box (a strip along a side is one) of at least ``area``,
    on PIECE_AGREE of its pixels and of the pixels where the picture steps down and across, both of
    which it must have."""
    side = agree.shape[-1]
    rows, cols = np.arange(1, side + 1)[:, None], np.arange(1, side + 1)[None, :]
    big = rows * cols >= area * side * side

    def within(mask: np.ndarray) -> np.ndarray:  # how many of the mask's pixels each corner rectangle holds
        return mask.cumsum(1, dtype=np.int32).cumsum(2)

    for flip in ((), (1,), (2,), (1, 2)):
        a = np.flip(agree, flip) if flip else agree
        p = np.flip(pictures, flip) if flip else pictures
        found = (within(a) >= PIECE_AGREE * rows * cols) & big
        for axis in (1, 2):  # steps down, steps across: a pixel that differs from the one before it
            after = (slice(None),) * axis + (slice(1, None),)
            step = np.zeros(a.shape, dtype=bool)
            step[after] = np.abs(np.diff(p, axis=axis)).max(axis=-1) >= PIECE_STEP
            # A step is shown where the pixels on both sides of it agree.
            both = np.zeros(a.shape, dtype=bool)
            both[after] = a[after] & np.delete(a, -1, axis=axis)
            steps = within(step)
            found &= (steps > 0) & (within(both & step) >= PIECE_AGREE * steps)
        if found.any():
            return True
    return False


def grow(frame: np.ndarray, lattice: Lattice, skin: Skin, limit: int = 64) -> tuple[Lattice, list[str]]:
    """The lattice grown, a line at a time, over every line past its sides that reads as the skin's
    cells; and the sides past which some cell still reads surely as one (the board is then not all
    found: refuse it)."""
    for _ in range(limit):
        beyond = cells_beyond(frame, lattice, skin)
        side = max(SIDES, key=lambda s: beyond[s][0] / max(1, beyond[s][1]))
        count, length = beyond[side]
        if count < GROW_MIN or count < GROW_SHARE * length:
            break
        lattice = grown(lattice, side)
    else:
        beyond = cells_beyond(frame, lattice, skin)
    return lattice, [s for s in SIDES if beyond[s][0] > 0]


# A further line of cells that the frame's edge cuts (less than a pitch between a side and the edge):
# each cell's piece of it repeats, from the side outwards, the same piece of some cell of the board.
REPEAT_MEAN = 6.0  # mean difference (0-255) of a line of pixels of a piece and of that cell
REPEAT_PEAK = 30.0  # ...and at most 5% of its pixels differ by this much
REPEAT_LINES = 4  # lines that must repeat, the first two (the lattice may sit that far in) left out of...
REPEAT_SLIP = 2
# ...or more on large cells: a straight lattice through gnome-mines' 60 px cells sat 3 px inside the
# faces, and their first lines past the side (face, then the margin) passed for a piece of a cut line.
REPEAT_SLIP_SHARE = 0.05  # of the pitch along the side
REPEAT_DETAIL = 40.0  # ...the spread (0-255) they must show: a plain background repeats anywhere
REPEAT_SHARE = 0.75  # of the cells along the side


def cut_at_frame(frame: np.ndarray, lattice: Lattice) -> list[str]:
    """The sides where the frame's edge cuts a further line of the board's cells. A board scrolled or
    pushed partly off screen ends in a piece of a line (a browser page: a few pixels, then the
    window's frame) that no cell reading looks at whole; read short, it would be a wrong board with
    no error. Cells are drawn every pitch, to the pixel: past such a side, each cell's piece of the
    cut line repeats, line of pixels by line of pixels, the same piece of some cell of the board (a
    pixel either way: pitches are not whole); and the pieces are not plain. Cells drawn apart on a
    plain background (gnome-mines) repeat the background past a side too, but plain; the first
    ``REPEAT_SLIP`` lines, which a lattice a pixel or two inside the drawn cells still takes from the
    board, do not count."""
    out = []
    for side, (view, along, across) in _sides_seen(frame, lattice, SIDES):
        depth = _lines_past(view, along, across)
        if depth < REPEAT_LINES or depth >= across[-1] - across[-2]:
            continue
        found = _pieces_past(view, along, across, depth, lattice.scale)
        if found is not None and _detailed(*found, scale=lattice.scale):
            out.append(side)
    return out


# Lines of pixels a side must keep from the frame's edge. A further line of cells cut closer shows too
# little of itself for ``cut_at_frame`` to tell from a margin: an xdemineur board 3 px past the screen's
# left edge read one column short, and gnome-mines' 57 px cells, 4 px from the edge, showed their
# spacing and 2 px of a face. Clients draw wider margins or frames round their boards: on every
# labelled screenshot a board keeps 18 px or more from the picture's edges.
NEAR_LINES = 8


def near_frame(frame: np.ndarray, lattice: Lattice) -> list[str]:
    """The sides fewer than ``NEAR_LINES`` lines of pixels from the frame's edge: the board may go on
    off screen there. Or from a window's border along the edge (``_border``), where every line of
    pixels between the side and the border repeats the board's cells (``_runs``), as a further line
    of cells cut there does: a board's own margin or frame before a plain band does not."""
    out = []
    for side, (view, along, across) in _sides_seen(frame, lattice, SIDES):
        to_edge = view.shape[0] - round(across[-1])
        if to_edge < NEAR_LINES:
            out.append(side)
            continue
        depth = _lines_past(view, along, across)
        if 0 < depth < NEAR_LINES:
            pieces, origins = _pieces_and_origins(view, along, across, depth)
            runs = _runs(pieces, _blocks(view, origins, pieces[0].shape[1]), least=depth) if pieces else None
            if runs is not None:
                out.append(side)
    return out


# A further line of cells cut straight by something drawn over it (a window's border, a browser's
# toolbar or status bar, another window) a few pixels past a side: its pieces repeat the board like
# those the frame's edge cuts (above), then all stop repeating at one line of pixels, a pitch or less
# past the side. Every side: a window's left or right border over all but a few columns of pixels of
# the outer column read a column short as surely as a bottom border over the last row did.
CUT_STRAIGHT = 1  # px either way: the line at which the pieces stop repeating, with pitches not whole
CUT_SIDES = SIDES


def cut_straight(frame: np.ndarray, lattice: Lattice, sides: tuple[str, ...] = CUT_SIDES) -> list[str]:
    """The sides (of ``sides``) past which a piece of a further line of the board's cells shows, cut
    straight before the frame's edge: a window's border (or a window, a toolbar) over the rest of the
    line. ``cut_at_frame`` sees only pieces the frame's edge cuts; a window resized to show a few lines
    of the last row, then its bottom border, left them to no check: 4 to 9 px of covered react cells
    (white bevel and grey face) read as a whole board one row short. As there, each piece must repeat,
    from the side outwards, at least ``REPEAT_LINES`` lines of some cell of the board (a pixel either
    way) and show detail, in at least ``REPEAT_SHARE`` of the cells along the side; and those pieces
    must stop repeating at one line (``CUT_STRAIGHT`` either way) less than a pitch past the side.
    What follows a whole board (its frame, a margin, the page) repeats no cell for that long."""
    out = []
    for side, (view, along, across) in _sides_seen(frame, lattice, sides):
        if _lines_past(view, along, across) < across[-1] - across[-2]:
            continue  # the frame's edge comes first: ``cut_at_frame``
        depth = int(np.ceil(across[-1] - across[-2]))  # a whole pitch: where a piece stops is measured
        found = _pieces_past(view, along, across, depth, lattice.scale)
        if found is None:
            continue
        pieces, runs = found
        long = [run for run in runs if run >= REPEAT_LINES]
        stop = int(np.median(long))
        if stop >= depth or sum(abs(run - stop) <= CUT_STRAIGHT for run in long) < REPEAT_SHARE * len(pieces):
            continue  # a whole further line (``grow`` reads those), or pieces that stop here and there
        if _detailed(pieces, runs, _overhang(view, along, across, depth), scale=lattice.scale):
            out.append(side)
    return out


def _overhang(view: np.ndarray, along, across, depth: int) -> int:
    """Lines of pixels past the side that still continue the board's outer cells, the same as their
    last line inside: a straight lattice through a toolkit's uneven cells sits a few pixels inside the
    outer faces (gnome-mines in a 1003x675 window: 3 px, more than ``REPEAT_SLIP``). What repeats the
    board only there, then the gap after a face, is the margin of a whole board, plain once those
    lines are left out; a line of cells cut further out shows the next cell's face as well. A face
    belongs to the side where most of it lies: lines past the side count only when no more of them
    continue the last line inside than lines inside do (a lattice whose side is a pixel into the
    faces of a cut further row, past the gap between rows, is no whole board's: gnome-mines' 57 px
    cells, 10 px of the cut row showing, read a row short). The median over the cells along the side
    (the pieces of ``_pieces_past``)."""
    end = round(across[-1])
    starts, width = _piece_places(view, along)
    inside = view[end - 1].astype(np.float32)
    counts = []
    for x in starts:
        past = _like_lines(view[end : end + depth, x : x + width], inside[x : x + width])
        within = _like_lines(view[max(0, end - 1 - depth) : end - 1, x : x + width][::-1], inside[x : x + width])
        counts.append(past if past <= within else 0)
    return int(np.median(counts)) if counts else 0


def _like_lines(lines: np.ndarray, line: np.ndarray) -> int:
    """How many of ``lines``, from the first on, go on like ``line``: most of their pixels within
    ``REPEAT_MEAN`` of it (the median: a face's first line, rounded or bevelled at its corners, is
    still that face -- gnome-mines' dark theme, 26 px faces: 2 corner pixels put the mean at 6-9)."""
    apart = np.median(np.abs(lines.astype(np.float32) - line).mean(axis=2), axis=1)
    return int(np.argmax(apart >= REPEAT_MEAN)) if (apart >= REPEAT_MEAN).any() else len(apart)


def _piece_places(view: np.ndarray, along) -> tuple[list[int], int]:
    """Where each cell's piece past the side starts along it (those wholly on the picture), and the
    pieces' width: the narrowest cell, pitches not being whole."""
    width = min(round(b) - round(a) for a, b in zip(along[:-1], along[1:]))
    return [x for x in (round(a) for a in along[:-1]) if 0 <= x and x + width <= view.shape[1]], width


def _pieces_past(view: np.ndarray, along, across, depth: int,
                 scale: float = 1.0) -> tuple[list[np.ndarray], list[int]] | None:
    """The ``depth`` lines of pixels past the side (``_seen_from``), one piece per cell along it, and
    per piece how many of its lines repeat some cell of the board (``_runs``); None when there is no
    such piece, or when most of them repeat too little, or when no run could show detail (what
    ``_detailed`` would find of any runs: a margin or a gap past the side, whose lines repeat
    everywhere and are costly to follow)."""
    pieces, origins = _pieces_and_origins(view, along, across, depth)
    if not pieces or not len(origins):
        return None
    # The pieces' lines show detail from line ``onset`` on, if at all: a run shows it only if it goes
    # past that line, so some piece must repeat some block there. (A margin plain for a few lines,
    # then a window's border: the margin repeats the gaps of thousands of blocks for those lines, the
    # border none.) Below REPEAT_LINES, ``_runs`` compares those lines first anyway.
    onset = _detail_onset(pieces, scale) if depth >= REPEAT_LINES else 0
    if onset is None:
        return None
    blocks = _blocks(view, origins, pieces[0].shape[1])
    if onset >= REPEAT_LINES and not any(_alike(blocks, onset, line).any()
                                         for line in {p[onset].tobytes(): p[onset] for p in pieces}.values()):
        return None
    runs = _runs(pieces, blocks)
    return None if runs is None else (pieces, runs)


def _pieces_and_origins(view: np.ndarray, along, across, depth: int) -> tuple[list[np.ndarray], np.ndarray]:
    """The ``depth`` lines of pixels past the side, one piece per cell along it, and where in the
    board such a piece may repeat a cell: each cell's corner, a pixel either way."""
    end = round(across[-1])
    places, width = _piece_places(view, along)
    # Where a piece may repeat: every cell of the board, a pixel either way.
    slips = np.array((-1, 0, 1))
    ys = (np.array([round(v) for v in across[:-1]])[:, None] + slips).ravel()
    xs = (np.array([round(v) for v in along[:-1]])[:, None] + slips).ravel()
    origins = np.stack(np.meshgrid(ys, xs, indexing="ij"), axis=-1).reshape(-1, 2)
    origins = origins[(origins[:, 0] >= 0) & (origins[:, 0] + depth <= end)
                      & (origins[:, 1] >= 0) & (origins[:, 1] + width <= view.shape[1])]
    return [view[end : end + depth, x : x + width] for x in places], origins


def _detailed(pieces: list[np.ndarray], runs: list[int], overhang: int = 0, scale: float = 1.0) -> bool:
    """Whether the pieces' repeating lines show detail: a plain background repeats anywhere. A cell of
    the line may be the only one of its kind (the one 7, an exploded mine): what counts is the pieces
    that repeat the board, each as far as it goes (cells drawn apart on a plain background may show
    it for their first lines, then their faces)."""
    slip = _slip(pieces, overhang, scale)
    shown = np.concatenate([p[slip:run].mean(axis=2).ravel() for p, run in zip(pieces, runs) if run >= REPEAT_LINES])
    return shown.size > 0 and bool(np.ptp(shown) >= REPEAT_DETAIL)


def _slip(pieces: list[np.ndarray], overhang: int, scale: float) -> int:
    """The first lines of the pieces that ``_detailed`` leaves out: as many times more on a board drawn
    at a desktop's ``scale`` (at 200% gnome-mines' faint outline round its tiles is two pixels wide,
    past the board's side too), and at least the lines that go on like the board's own (``_overhang``)."""
    return max(round(REPEAT_SLIP * scale), round(REPEAT_SLIP_SHARE * pieces[0].shape[1]), overhang)


def _detail_onset(pieces: list[np.ndarray], scale: float) -> int | None:
    """The first line by which the pieces' lines, all of them from the first ``_detailed`` looks at,
    show detail; None if they never do."""
    slip = _slip(pieces, 0, scale)
    if slip >= pieces[0].shape[0]:
        return None
    lines = np.stack([p[slip:].mean(axis=2) for p in pieces], axis=1).reshape(pieces[0].shape[0] - slip, -1)
    spread = np.maximum.accumulate(lines.max(axis=1)) - np.minimum.accumulate(lines.min(axis=1))
    detailed = np.flatnonzero(spread >= REPEAT_DETAIL)
    return slip + int(detailed[0]) if len(detailed) else None


def _runs(pieces: list[np.ndarray], blocks: tuple[np.ndarray, np.ndarray, int], least: int = REPEAT_LINES) -> list[int] | None:
    """Per piece, how many of its lines repeat one of the ``blocks`` (``_blocks``); None as soon as more
    than a ``1 - REPEAT_SHARE`` share of them repeat fewer than ``least`` (most sides stop at once), or
    where there is no piece or block."""
    if not pieces or not len(blocks[1]):
        return None
    allowed = len(pieces) * (1 - REPEAT_SHARE)
    known: dict[bytes, int] = {}
    runs = []
    for piece in pieces:
        key = piece.tobytes()
        if key not in known:
            known[key] = _repeating_lines(blocks, piece, least)
        runs.append(known[key])
        if sum(run < least for run in runs) > allowed:
            return None
    return runs


def _blocks(view: np.ndarray, origins: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray, int]:
    """The blocks of ``view`` at ``origins`` (y, x), ``width`` pixels wide, as ``_alike`` compares them:
    ``view``'s pixels as one flat array (``_addressed``), where in it each block's first line lies
    (one row of indices a block), and how far apart its lines lie."""
    pixels, offset, strides = _addressed(view)
    starts = (offset + origins[:, 0] * strides[0] + origins[:, 1] * strides[1])[:, None] + (
        np.arange(width)[:, None] * strides[1] + np.arange(3) * strides[2]).reshape(-1)
    return pixels, starts, strides[0]


def _alike(blocks: tuple[np.ndarray, np.ndarray, int], j: int, line: np.ndarray) -> np.ndarray:
    """Per block, whether its line ``j`` is like ``line`` (a piece's, as pixels x channels): most of its
    pixels within ``REPEAT_MEAN`` (the mean) and at most 5% of them ``REPEAT_PEAK`` or more apart."""
    pixels, starts, step = blocks
    apart = np.abs(pixels.take(starts + j * step).astype(np.int16) - line.astype(np.int16).reshape(-1)).reshape(len(starts), -1, 3)
    # In whole numbers: per pixel the sum of its channels' differences, three times their mean.
    apart = apart[..., 0] + apart[..., 1] + apart[..., 2]
    return (apart.sum(axis=1) < 3 * REPEAT_MEAN * line.shape[0]) & ((apart >= 3 * REPEAT_PEAK).sum(axis=1) / line.shape[0] <= 0.05)


def _addressed(view: np.ndarray) -> tuple[np.ndarray, int, tuple[int, ...]]:
    """``view``'s pixels as one flat array, with where ``view[y, x, c]`` is in it: ``offset + y *
    strides[0] + x * strides[1] + c * strides[2]``. The array ``view`` was cut or turned from where it
    is whole (a frame's views share its pixels), else a copy. Picking blocks out of a flat array by
    index is several times faster than out of a turned view by rows and columns."""
    whole = view
    while isinstance(whole.base, np.ndarray):
        whole = whole.base
    if view.dtype != np.uint8 or whole.dtype != np.uint8 or not whole.flags.c_contiguous:
        whole = view = np.ascontiguousarray(view, dtype=np.uint8)
    return whole.reshape(-1), view.ctypes.data - whole.ctypes.data, view.strides


def _repeating_lines(blocks: tuple[np.ndarray, np.ndarray, int], piece: np.ndarray, least: int) -> int:
    """How many lines of pixels of ``piece``, from its first on, repeat one of the ``blocks``; 0 where
    fewer than ``least`` do (no caller asks how many fewer). Compared a line at a time, keeping the
    blocks still alike: most differ at once. The first ``least`` lines are compared deepest first: a
    plain margin or page past a side repeats the first line or two of many blocks (a bevel's or a
    gap's colour), seldom ``least`` of them, and a block is dropped at its first line unlike the
    piece's."""
    pixels, starts, step = blocks
    first = min(least, piece.shape[0])
    for j in [*range(first - 1, -1, -1), *range(first, piece.shape[0])]:
        starts = starts[_alike((pixels, starts, step), j, piece[j])]
        if not len(starts):
            return j if j >= first else 0
    return piece.shape[0]


def _lines_past(view: np.ndarray, along, across) -> int:
    """Lines of pixels between the side (``_seen_from``) and the frame's edge, or a window's border
    drawn along it (``_border``)."""
    return view.shape[0] - _border(view, along) - round(across[-1])


# A window's border along the picture's edge hides what lies under it as the edge does: the React page
# at 1.72 wider than a browser window at the screen's edge showed 3 px of its cut first column, then
# the window's 7 px border (each line one colour from the top of the screen to its bottom), and read
# a column short as a whole board 10 px from the edge. Such a border is a few lines, each one colour
# along all its length (but for BORDER_SPOTS of it); wider plain bands are a margin or a desktop
# round the board, which shows the board ends there. A border drawn over a further line of cells
# meets it where the colours change: lines the colour of the line before them along the board's side
# are what lies before it going on, the board's own margin (gnome-mines' margin, the colour of the gaps
# between its cells, cut 8 px from the edge of a picture whose next 2 lines were near that colour,
# passed for a border 2 px past the board's side, its margin for a further column cut there).
BORDER_SPOTS = 0.01


def _border(view: np.ndarray, along) -> int:
    """How many of the last lines of ``view`` (by the frame's edge) are a window's border: each of one
    colour (within ``REPEAT_MEAN``, each channel) along its whole length, at most ``NEAR_LINES`` of them
    (more are a plain band of the picture: 0), the first of them unlike the line before it along the
    side (``along``)."""
    # No pixel is farther from a line's median than the line's range: a line whose every channel spans
    # at most REPEAT_MEAN (most are plain: a desktop, a screen's edge) needs no median. The lines
    # looked at, last first, at once.
    band = view[max(0, view.shape[0] - NEAR_LINES - 1) :][::-1].reshape(-1, view.shape[1], view.shape[2] if view.ndim == 3 else 1)
    plain = (band.max(axis=1).astype(np.int16) - band.min(axis=1)).max(axis=1) <= REPEAT_MEAN
    count = 0
    while count <= NEAR_LINES and count < view.shape[0]:
        if not plain[count]:
            line = view[view.shape[0] - 1 - count].reshape(view.shape[1], -1).astype(np.int16)
            apart = np.abs(line - np.median(line, axis=0)).max(axis=1)
            if (apart > REPEAT_MEAN).mean() > BORDER_SPOTS:
                break
        count += 1
    if count > NEAR_LINES:
        return 0
    first, last = max(0, round(along[0])), min(view.shape[1], round(along[-1]))
    while 0 < count < view.shape[0]:
        inner, before = view[view.shape[0] - count, first:last], view[view.shape[0] - 1 - count, first:last]
        if np.abs(inner.astype(np.float32) - before).mean() >= REPEAT_MEAN:
            break
        count -= 1
    return count


def _sides_seen(frame: np.ndarray, lattice: Lattice, sides):
    """(side, ``_seen_from`` it) for each of ``sides``; a grey frame as one channel."""
    if frame.ndim == 2:
        frame = frame[..., None]
    return ((side, _seen_from(frame, lattice, side)) for side in sides)


def _seen_from(frame: np.ndarray, lattice: Lattice, side: str):
    """The frame turned so that ``side`` is the board's bottom, with the lattice's edges along that
    side and across it in the turned picture's pixels (views only: nothing is copied)."""
    xs, ys = lattice.col_edges(), lattice.row_edges()
    height, width = frame.shape[:2]
    if side == "bottom":
        return frame, xs, ys
    if side == "top":
        return frame[::-1], xs, tuple(height - y for y in reversed(ys))
    turned = frame.transpose(1, 0, 2)
    if side == "right":
        return turned, ys, xs
    return turned[::-1], ys, tuple(width - x for x in reversed(xs))


__all__ = ["cells_beyond", "cut_at_frame", "cut_straight", "grow", "grown", "near_frame"]
