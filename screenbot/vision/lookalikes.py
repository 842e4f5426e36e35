"""Pairs of states whose pictures differ only by a small mark (gnome-mines draws "?" as its flag with a
small "?" beside the flag's tip): a cell read as either is checked for that mark in its own pixels.
"""

from __future__ import annotations

import functools

import numpy as np

from ..geometry import Lattice
from .cells import ByPicture, CellMatches, best_place, closeness, cut_out
from .glyph import glyph_look
from .skins import CHAR_STATES, Skin

# Pairs of states whose pictures differ only by a small mark: a cell between them is decided by that mark.
LOOKALIKE = {frozenset("F?")}
# How far a capture may be moved (px) to lie best on another: two captures of one skin are not always
# cut at the same place.
ALIGN_REACH = 2


def judge_lookalikes(first: CellMatches, judged: CellMatches, frame: np.ndarray, lattice: Lattice, skin: Skin,
                      threshold: float) -> tuple[CellMatches, np.ndarray, dict[int, str]]:
    """Cells read as one of two states that differ only by a small mark are checked for that mark.

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
    matches, the cells a capture at their own size decided, which no later look may overturn, and
    why cells were refused where a user should be told (by cell index)."""
    settled = np.zeros(len(judged.chars), dtype=bool)
    told: dict[int, str] = {}
    # The pair of the first look, or where that was weak, the pair of the state the later looks read (a
    # "?" can look like a covered cell at first and then like a confident flag to the moved box).
    weak_first = first.confidence < threshold
    # Only a cell with a state of some pair among those can have a pair: the rest are left out at once.
    marks = list(set().union(*LOOKALIKE))
    maybe = np.flatnonzero((np.isin(first.chars, marks) & np.isin(first.second_chars, marks))
                           | (weak_first & np.isin(judged.chars, marks)))
    pairs = {int(i): _lookalike_pair(first.chars[i], first.second_chars[i], judged.chars[i] if weak_first[i] else None)
             for i in maybe}
    candidates = [i for i, pair in pairs.items() if pair is not None]
    if not candidates:
        return judged, settled, told
    fields = {name: getattr(judged, name).copy() for name in CellMatches.FIELDS}
    for index in candidates:
        row, col = divmod(int(index), lattice.cols)
        weak = bool(weak_first[index])
        plain, marked = _plain_and_marked(skin, tuple(sorted(pairs[index])))
        rect = lattice.cell_rect(row, col)
        width, smallest = rect.width, _smallest_capture(skin, (plain, marked))
        if width < MARK_SMALLEST * smallest:
            # Far smaller than every capture of the pair (a shrunk screenshot): how the mark looks
            # there, no capture shows, so neither state is read.
            fields["confidence"][index] = 0.0
            settled[index] = True
            told[int(index)] = (f"a {CHAR_STATES[plain]} and a {CHAR_STATES[marked]} cannot be told apart in a {width} px "
                                f"cell: the {skin.name} pictures of them are {smallest} px and larger (a shrunk screenshot?)")
            continue
        # A confident read is only questioned with a capture at least the cell's size: the mark of a
        # smaller one, enlarged, is not where the client draws it.
        share, own_size = _mark_share(frame, rect, skin, (plain, marked), any_size=weak)
        settled[index] = own_size
        if not weak:
            read = fields["chars"][index]
            if share is not None and (share > MARK_PLAIN if read == plain else share < MARK_SEEN):
                fields["confidence"][index] = 0.0
            elif glyph_look(frame, lattice, skin, int(index))[0][0] == (marked if read == plain else plain):
                # The glyph, sought anywhere in the cell, is the other of the pair: the mark's ink, a few
                # pixels, can be blurred away (gnome-mines' 21 px board enlarged by 1-3% with linear
                # interpolation: two "?" marks at a share of 0.04-0.08, read as confident flags, exit 0),
                # where the whole glyph (the "?" mark's flag is smaller) still tells them apart.
                fields["confidence"][index] = 0.0
            continue
        if share is None or MARK_PLAIN < share < MARK_SEEN:
            fields["confidence"][index] = 0.0
            continue
        read, other = (marked, plain) if share >= MARK_SEEN else (plain, marked)
        # The first look's closeness to the pair still bounds the confidence: a cell far from both
        # (something drawn over it) stays refused.
        near = float(closeness(first.best_rms[index]))
        # The mark tells the pair apart, not the pair from the rest: in grey levels a 4 on gnome-mines'
        # pale orange is close enough to a flag on a covered cell to pass for one of the pair, and so
        # is a dark grey 1 on a light grey cell (gnome-mines' "default" tile theme, whose numbers its
        # pictures do not have: in one window 6 boards of 16 had 8-34 numbers read as flags and "?"
        # marks, each weakly). So
        # the glyph look (the glyph sought anywhere in the cell), another look from other evidence, is
        # asked before the mark's decision stands: a cell whose glyph is nearest another state than
        # the one the mark says, however weakly, is refused (the two looks disagree; a mark blurred
        # away passes for none). On the labelled shots every cell decided by its mark had its glyph
        # nearest the state read, at 0.72 or more.
        if near >= threshold:
            (glyph, _), _, _ = glyph_look(frame, lattice, skin, int(index))
            if glyph != read:
                fields["confidence"][index] = 0.0
                settled[index] = True
                continue
        fields["chars"][index], fields["second_chars"][index] = read, other
        fields["confidence"][index] = near
    return CellMatches(**fields), settled, told


def between_lookalikes(first: CellMatches, threshold: float) -> np.ndarray:
    """The cells the first look leaves weak between the two states of a LOOKALIKE pair: the mark alone
    decides them (``judge_lookalikes``), whatever another look at their picture makes of them."""
    between = first.confidence < threshold
    for index in np.flatnonzero(between):
        between[index] = _lookalike_pair(first.chars[index], first.second_chars[index], None) is not None
    return between


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
# The smallest cell (a share of the skin's smallest capture of the pair) in which the pair is told apart.
# A client draws the mark otherwise at each size, and the mark is looked for where a capture shrunk to
# the cell puts it. gnome-mines' captures of both are 23 px and larger; its labelled screenshots shrunk
# to cells of 16-23 px give "?" marks a share (``_mark_share``) of 0.12-0.40 and flags under 0.03, at
# 14-15 px "?" marks as low as -0.03, like flags (read as flags, exit 0). It draws no cell under 20 px.
MARK_SMALLEST = 0.75
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
    region, ink_first, ink_second, own_size, pictures = reference
    around = cut_out(frame, rect.left - ALIGN_REACH, rect.top - ALIGN_REACH,
                     rect.right + ALIGN_REACH, rect.bottom + ALIGN_REACH)
    ink = _inked.get(around, (skin, pair, any_size), lambda: _ink(_placed(around, pictures), region))
    return (ink - ink_first) / (ink_second - ink_first), own_size


def _placed(around: np.ndarray, pictures: tuple[np.ndarray, ...]) -> np.ndarray:
    """The box of the pictures' size within ``around`` (a box and ALIGN_REACH px round it) that lies
    best on any of ``pictures``. For a cell: the lattice's whole-pixel box is not cut where the
    captures were (a pixel or two off at a size no capture has), and a mark of a few pixels looked for
    a pixel off is missed. The whole picture, not its glyph alone: aligned by the glyph, "?" marks of
    gnome-mines enlarged to twice their size read as flags again (the box's edges hold the cell in
    place there)."""
    padded = around.astype(np.float32)
    dy, dx = best_place(padded, pictures)
    height, width = pictures[0].shape[:2]
    return padded[dy : dy + height, dx : dx + width]


# Cells already weighed, with each skin, pair and choice of captures: their ink where the mark is.
_inked = ByPicture(5_000)


@functools.lru_cache(maxsize=256)
def _mark_reference(skin: Skin, pair: tuple[str, str], width: int, height: int, any_size: bool):
    """(region looked at, ink of pair[0] there, ink of pair[1] there, whether the capture is the cells'
    own size, the two pictures at the cells' size) for cells of this size, or None.

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
            return region, ink_first, ink_second, own_size, (first, second)
    return None


@functools.lru_cache(maxsize=16)
def _smallest_capture(skin: Skin, pair: tuple[str, str]) -> int:
    """The width (px) of the skin's smallest capture of both states of ``pair``; 0 for none."""
    captures = _lookalike_pictures(skin, pair, (0, 0), any_size=True)
    return min((first.shape[1] for first, _ in captures), default=0)


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
    """``picture`` moved by up to ALIGN_REACH px to lie best on ``like`` (two captures of one skin are
    not always cut at the same place), its edges repeated."""
    height, width = picture.shape[:2]
    return _placed(cut_out(picture, -ALIGN_REACH, -ALIGN_REACH, width + ALIGN_REACH, height + ALIGN_REACH), (like,))


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


__all__ = ["LOOKALIKE", "between_lookalikes", "judge_lookalikes"]
