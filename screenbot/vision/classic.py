"""The classic look, read from its structure: no pictures of the client needed.

Windows' own Minesweeper drew the look most clients still share: covered cells raised (a light bevel
along the top and left, a dark one along the bottom and right), opened cells flat, both in a grey face,
numbers in standard colours (1 blue, 2 green, 3 red, 4 navy, 5 maroon, 6 teal, 7 black, 8 grey), a flag
on a raised cell, a black mine on a flat one, the hit mine on red. Each cell is described by a few
measurements that answer one question each, and its state follows from them:

- ``relief``: is the cell raised (top and left lighter than its face, bottom and right darker) or flat?
- ``ink``: what share of the cell's middle differs from the face of its kind (the board's own raised
  face, or its flat face, that grey again where the flat cells' rims show it: ``_flat_face``; taken
  over the whole board, so a glyph that fills a cell does not pass for its face), and in which colour
  (the strongest quarter of the ink, away from the anti-aliased rim of each stroke);
- ``red``: is the cell's own face red (the hit mine)?
- the ink's shape where colour cannot tell: red above black (a flag) or across it (a cross), one piece
  or a hook over a dot (a "?"), solid and alike turned a quarter (a mine) or strokes, and its holes
  (a 7 none, an 8 two).

A state is named only when the measurements it rests on are clear of their boundaries; the cell's
confidence says how clear, and a cell under ``READ_CONFIDENCE`` is refused by the reader with the
measurement that was unclear. The boundaries (``CLASSIC_LIMITS`` and the constants beside the functions)
are set by hand from labelled shots of four clients in this look (minegauler, xdemineur, sgt-mines and
the React page), one value for all of them: no client has its own.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from ..geometry import Lattice
from .cells import board_inside, cell_images, channel_mean, commonest_colour
from .digit_shapes import DIGITS, MARKS, clear_digit, clearly_shaped, shaped_otherwise
from .skins import CLASSIC, HOW_TO_TEACH, Skin

# Side of the square each cell is scaled to before measuring: a 1-px bevel of a 30 px cell still shows.
SIZE = 32
# Bands (rows/columns of the SIZE box) inside the box's outermost pixel, which may be a grid line or a
# neighbour's edge, and clear of the corners: where a hit mine's red face shows and no drawn mark
# reaches (``BANDS``); the rim lies inside them.
BAND = slice(1, 4)
FAR_BAND = slice(SIZE - 4, SIZE - 1)
# The outermost lines (along ALONG, clear of the corners), where the relief is measured (``_bands``):
# at least EDGE_LINES of the box, and as many as cover the cell's first BEVEL_DEPTH pixels on the screen,
# or its first BEVEL_SHARE where that is less. A bevel may lie that deep: Tk draws its buttons' one-pixel
# bevel inside a highlight ring and a pixel of background, the gap between two buttons being two pixels
# of the window's grey. Deeper than BEVEL_SHARE a mark drawn to the cell's size reaches (the
# JSMinesweeper page's mine leaves a pixel of its 12 px cells).
EDGE_LINES = 4
BEVEL_DEPTH = 3
BEVEL_SHARE = 0.15
ALONG = slice(4, SIZE - 4)
# The middle, where a number, flag or mine is drawn.
MIDDLE = slice(7, SIZE - 7)
# Inside the box's outer two pixels (a grid line or a neighbour's edge, a screen pixel up to 16 px
# cells): where a number's whole shape shows.
INSIDE = slice(2, SIZE - 2)
# The middle's rows and those below it, down to the bottom band: where a "?" and its dot are drawn.
DOWN_TO_BAND = slice(MIDDLE.start, FAR_BAND.start)

# The clarity at which a cell counts as read (the reader's ``READ_CONFIDENCE``).
CLEAR = 0.6

# The standard number colours (BGR).
NUMBER_COLOURS = {
    "1": (255, 0, 0), "2": (0, 128, 0), "3": (0, 0, 255), "4": (128, 0, 0),
    "5": (0, 0, 128), "6": (128, 128, 0), "7": (0, 0, 0), "8": (128, 128, 128),
}


@dataclass(frozen=True)
class Limits:
    """Where one state ends and another begins, per measurement (0-255 levels or shares)."""

    ink_level: float = 60.0  # a pixel is ink when a channel differs this much from the face
    faint_ink: float = 30.0  # ... and faint ink, which an empty cell has none of, this much
    no_ink: float = 0.01  # share of the middle: at most this much ink is an empty cell
    some_ink: float = 0.04  # at least this much is a drawn state
    red_face: float = 0.3  # share of the bands (the box's outer ring) that is strong red on a hit mine
    mine_solid: float = 0.25  # black ink keeping this share after a 2-px erosion is a mine's disc
    glyph_solid: float = 0.10  # ... and keeping at most this share, a number's strokes
    mine_turned: float = 0.45  # a mine's ink is at least this alike to itself turned a quarter; a number's is not
    # ... and a 7's or an 8's more than this only where its strokes are thin (drawn at 10-60 px, bold or not:
    # 0.36 at most; a mine drawn at 11 px, its spikes a pixel each, 0.43)
    glyph_turned: float = 0.39
    colour_share: float = 0.56  # nearest colour's distance, as a share of the two nearest distances' sum, at most
    colour_reach: float = 80.0  # and its distance (levels, RGB): further than this is another colour
    # In cells smaller than this (px), the standard look's strokes (a tenth of the cell) are a pixel
    # wide, and a pixel-wide stroke is blended with the face round it (antialiased, then scaled): its
    # colour lies between the face and the number's own, at least ``colour_strength`` of the way
    # (numbers drawn at 10-14 px: 0.61-0.74). Wider strokes keep their colour (0.86 and up from 15 px),
    # and a colour between is another one: xdemineur's olive 6 and brown 7 (21 px) lie near the green's
    # and the maroon's lines, 0.63 of the way.
    thin_pitch: float = 15.0
    # So do strokes measured at most this wide (px on the screen) in larger cells: a clone's small font
    # in a large cell (Tk's 8 pt text in 17 px buttons: a navy 4 read as "between 4's and 6's").
    thin_stroke: float = 1.5
    colour_strength: float = 0.5
    # A face and a standard colour blended keep the channels the colour has alike (blue's green and
    # red, green's blue and red) as alike as the face has them, whatever the blend (antialiasing, a
    # gamma): ink faded so differs there by at most this (levels). xdemineur's olive 6 and brown 7,
    # shrunk to 12.6 px cells, read as a faded 2 and 5 without it: 39 and 33.
    faded_pair: float = 20.0


CLASSIC_LIMITS = Limits()


@dataclass(frozen=True, slots=True, eq=False)
class ClassicReading:
    """Per cell (row-major): the state read (``"~"`` where none), how clear it was (0..1) and, where it
    was not, which measurement was unclear; which cells were taken for covered ones, and how."""

    chars: np.ndarray
    confidence: np.ndarray
    unclear: tuple[str, ...]
    covered: np.ndarray  # (cells,) bool: clearly raised (``look`` RAISED), or of the covered cells' face (FACES)
    faces: tuple[np.ndarray | None, np.ndarray | None]  # (covered, opened) face colours (BGR) the ink was told from
    look: str = "raised"  # RAISED or FACES: how covered cells were told from opened ones

    def face(self, cell: int) -> np.ndarray | None:
        """The face colour a cell's ink was told from: its kind's (``faces``)."""
        return self.faces[0] if self.covered[cell] else self.faces[1]


def cell_boxes(frame: np.ndarray, lattice: Lattice) -> np.ndarray:
    """(cells, SIZE, SIZE, 3) float32: every cell's pitch box scaled to SIZE, row by row, with any
    one-pixel stipple evened out first: a stipple is how some clients draw a flat colour (Windows'
    black-and-white mode draws covered cells so), and the structure sees it so too
    (``structure.flatten_stipple``); measured raw, it is ink in every pixel, a cross on every cell."""
    from .structure import flatten_stipple

    rect = lattice.board_rect()
    top, left = max(0, rect.top - 1), max(0, rect.left - 1)
    region = flatten_stipple(frame[top : rect.bottom + 1, left : rect.right + 1])
    return cell_images(region, lattice.translated(-left, -top), size=SIZE).reshape(-1, SIZE, SIZE, 3).astype(np.float32)


def _bands(boxes: np.ndarray, pitch: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each cell's top-left bands' brightness, its bottom-right bands', and its face's (its rim's median).

    A band is the cell's outermost lines of the reader's box along one side (``_edge_lines``); it is as
    light (top, left) or as dark (bottom, right) as the most so of its lines, each line as its median
    along it. The outermost line is where a one-pixel bevel lies once a cell of 30 px and more is scaled
    (Tk's buttons); a band without it saw such a bevel only blended with the face. In smaller cells a
    bevel two pixels in is scaled past the fourth line: a Tk button lit under the pointer (its face as
    light as its bevel blended with the gap before it) then looked flat and read as an open cell. Each
    line's median: a number's stroke crossing a line does not make it; the most extreme line: a bevel thinner than the
    band (sgt-mines') is not averaged away, nor one beside a neighbour's edge where a box sits a pixel
    off (the React page's 2 px border). What lies past a cell's edge cannot fake a relief: a grid line
    or a neighbour's dark bevel by the top and left is darker, a neighbour's light bevel by the bottom
    and right lighter, than any bevel they might stand for."""
    light = channel_mean(boxes)
    lines = _edge_lines(pitch)
    edge, far_edge = slice(0, lines), slice(SIZE - lines, SIZE)
    top_left = (np.median(light[:, edge, ALONG], axis=2).max(axis=1)
                + np.median(light[:, ALONG, edge], axis=1).max(axis=1)) / 2
    bottom_right = (np.median(light[:, far_edge, ALONG], axis=2).min(axis=1)
                    + np.median(light[:, ALONG, far_edge], axis=1).min(axis=1)) / 2
    return top_left, bottom_right, _faces(_rim(light[..., None])[..., 0])


def _edge_lines(pitch: float) -> int:
    """How many of a box's outermost lines its relief is measured on, for cells ``pitch`` px wide:
    those covering the cell's first BEVEL_DEPTH pixels, or its first BEVEL_SHARE, at least EDGE_LINES."""
    return int(max(EDGE_LINES, np.ceil(min(BEVEL_DEPTH / pitch, BEVEL_SHARE) * SIZE)))


def _flat_face(rims: np.ndarray, bands: np.ndarray, cells: np.ndarray, raised_face: np.ndarray | None) -> np.ndarray | None:
    """The flat cells' face colour (``cells``: a mask of the board's cells; ``rims``, ``bands``: every
    cell's pixels there): in this look the raised cells' face, so the commonest colour of their rims'
    pixels within FACE_NEAR of that face. Their rims' commonest colour was taken before, and where few
    cells are open a bold number filling most of a rim passed for the face (a first click that opened
    a single 2 at 40 px: 57% of its rim green; the 2 was refused every frame).

    Where less than FACE_SHARE of their rims is near the raised face, either their face is another
    grey (covered cells a stipple) or marks fill their rims (a bold number at a small size): the face
    is then the raised face or their rims' commonest colour, whichever more of their bands show,
    where no mark reaches. With no raised cell, their rims' commonest colour."""
    if not cells.any():
        return None
    flat = rims[cells]
    if raised_face is None:
        return commonest_colour(flat)
    near = np.abs(flat - raised_face).max(axis=2) <= FACE_NEAR
    if near.mean() >= FACE_SHARE:
        return commonest_colour(flat[near])
    shown = bands[cells].reshape(-1, 3)
    return max((raised_face, commonest_colour(flat)),
               key=lambda face: int((np.abs(shown - face).max(axis=1) <= FACE_NEAR).sum()))


def _faces(rims: np.ndarray) -> np.ndarray:
    """Each cell's face level from its rim's grey levels (cells, pixels).

    Where most of a rim is one level (within FACE_NEAR of its median), that level is the cell's face,
    whatever the board's commonest: clients that draw covered cells darker than opened ones
    (react-minesweeper: 189 and 222) have two faces, and a board mostly of one took it for every cell,
    an open cell then looking raised or a covered one flat. Otherwise a mark covers most of the rim
    (Windows' own mine: its disc and spikes) and the cell shows no face of its own: it takes the
    board's, the median of every rim pixel near the level most common over all the rims. Its own rim's
    pixels near that level were taken before, and where a mark fills the rim they are mostly the mark's
    antialiased edge: a mine drawn over a flat cell of the JSMinesweeper page (20-40 px) gave 171-180 on
    a face of 185, its top and left then lighter than its face, the cell raised and the mine read as a
    wrong flag."""
    levels = np.minimum(rims // FACE_NEAR, 255 // FACE_NEAR).astype(np.intp).ravel()
    common = np.bincount(levels, minlength=255 // FACE_NEAR + 1).argmax()
    # The commonest level, then every rim pixel near it: the face's own level, not its bin's mean.
    board = float(rims.ravel()[levels == common].mean())
    board = float(np.median(rims[np.abs(rims - board) <= FACE_NEAR]))
    faces = np.full(len(rims), board, dtype=np.float32)
    level = np.abs(rims - np.median(rims, axis=1)[:, None]) <= FACE_NEAR
    even = level.mean(axis=1) >= 0.5
    faces[even] = np.nanmedian(np.where(level[even], rims[even], np.nan), axis=1)
    return faces


# Rim pixels within FACE_NEAR levels of a face are face (``_faces``, ``_flat_face``); where less than
# FACE_SHARE of the flat cells' rims is near the raised face, their face is another grey (``_flat_face``).
FACE_NEAR = 16
FACE_SHARE = 0.1


def relief(boxes: np.ndarray, pitch: float) -> tuple[np.ndarray, np.ndarray]:
    """How raised each cell is, and how flat: (raised, flat) scores, each >= 1 where it is clearly so.

    A raised cell's top and left bands are lighter than its face and its bottom and right bands darker.
    A flat cell has at most a grid line, on one side only: one band darker than its face, the other the
    face's own colour. Both conditions are asked against the face, so a grid line or a
    neighbour's edge caught in a band does not make a flat cell look raised. The face is read from the
    cell's rim (between the bands and the middle), clear of whatever is drawn in the middle
    (``_faces``). How small a step is flat is told against the board's own raised cells: a JPEG's
    ringing beside a grid line lifts a flat cell's side a few levels, less the finer the bevels."""
    top_left, bottom_right, face = _bands(boxes, pitch)
    lighter, darker = top_left - face, face - bottom_right
    step = np.minimum(lighter, darker)
    raised = np.minimum(step / RAISED_STEP, (top_left - bottom_right) / RAISED_SPAN)
    sure = raised >= 1.0
    most = max(FLAT_STEP, FLAT_SHARE * float(np.median(step[sure]))) if sure.any() else FLAT_STEP
    flat = most / np.maximum(step, 1e-3)
    return raised, np.where(step <= 0, np.inf, flat)


# A raised cell's bevels differ from its face by at least RAISED_STEP levels each, and from each other
# by RAISED_SPAN; a cell whose lighter side is at most FLAT_STEP above its face (or whose darker side is
# at most that below it) is flat, and so is one whose step is at most FLAT_SHARE of the board's raised
# cells' (their median). Measured on the labelled shots of the classic-look clients at their true
# lattices, as captured and as JPEG at qualities 90-70: an opened cell's step is at most 0.21 of its
# board's raised cells' (minegauler's 23-level bevels at quality 70; 0.35 at 60), a covered one's at least
# 0.45 (the React page's flags); as captured, opened cells' steps are 0-1.2 levels.
RAISED_STEP = 4.0
RAISED_SPAN = 25.0
FLAT_STEP = 1.5
FLAT_SHARE = 0.25


def read_classic(frame: np.ndarray, lattice: Lattice, limits: Limits = CLASSIC_LIMITS) -> ClassicReading:
    """Every cell of ``lattice`` on ``frame`` read as the classic look."""
    return read_boxes(cell_boxes(frame, lattice), lattice, limits)


def read_boxes(boxes: np.ndarray, lattice: Lattice, limits: Limits = CLASSIC_LIMITS) -> ClassicReading:
    """``read_classic`` of a board's cells already cut (``cell_boxes``) on ``lattice``."""
    count = len(boxes)
    up, down = relief(boxes, min(lattice.pitch))
    raised, flat = up >= 1.0, down >= 1.0
    relief_clear = _relief_clear(up, down)
    middle = boxes[:, MIDDLE, MIDDLE].reshape(count, -1, 3)
    rim = _rim(boxes)
    bands = boxes[:, BANDS]
    # The hit mine is told by its red face alone, which no other state has: red out to the bands, where
    # a drawn mark never reaches (a bold red 3 fills 40-76% of the rim and reaches its corners, a wrong
    # flag's red cross reaches the corners; neither shows in the bands). Its relief says nothing: the
    # grid line along one side is grey, lighter than a red face, and a large mine reaches into the
    # bands, so that it looked raised or neither (pygame-minesweeper's 16 px tiles; drawn at 10-11 px,
    # read as a wrong flag).
    red = _strong_red(bands).mean(axis=1)
    hit = red >= limits.red_face
    if not raised.any():
        by_faces = _read_by_faces(boxes, lattice, limits, rim, flat & ~hit, relief_clear, hit, red)
        if by_faces is not None:
            return by_faces
    # A raised cell's face is its middle (its rim holds the bevels, wider than the bands at some sizes);
    # a flat cell's is its rim (a mine or a bold number fills much of its middle). Taken over the board.
    raised_face = commonest_colour(middle[raised])
    faces = (raised_face, _flat_face(rim, bands, flat & ~hit, raised_face))
    return _read_kinds(boxes, lattice, limits, raised, flat, faces, relief_clear, hit, red, RAISED)


# The marks an opened cell may hold besides a number: a mine, a wrong flag, the hit mine.
OPENED_MARKS = "*WX"
# How a reading told covered cells from opened ones (``ClassicReading.look``): by their relief (the
# classic look proper), or by their faces (a flat look whose covered cells have a colour of their own).
RAISED, FACES = "raised", "faces"


def _read_kinds(boxes: np.ndarray, lattice: Lattice, limits: Limits, covered: np.ndarray, opened: np.ndarray,
                faces: tuple[np.ndarray | None, np.ndarray | None], clear_kind: np.ndarray, hit: np.ndarray,
                red: np.ndarray, look: str) -> ClassicReading:
    """Every cell read as covered (``covered``: a flag, a "?" or nothing on the covered cells' face,
    ``faces[0]``) or opened (``opened``: a number, a mine or nothing on ``faces[1]``), the hit mine
    (``hit``) by its red face; ``clear_kind``: how clearly each cell is of its kind."""
    count = len(boxes)
    middle = boxes[:, MIDDLE, MIDDLE].reshape(count, -1, 3)
    chars = np.full(count, "~", dtype="<U1")
    confidence = np.minimum(clear_kind, 0.5)
    unclear = ["whether it is raised or flat" if look == RAISED else "whether it is covered or open"] * count
    chars[hit] = "X"
    confidence[hit] = np.minimum(1.0, 0.6 + red[hit] - limits.red_face)
    if look == FACES:
        # A look told by its faces marks with red where the game was lost: the mine hit, or a flag that
        # was wrong (gnome-mines' "classic" tiles draw their wrong flags on a red face), told by the mark
        # on it; a mark that is neither is not read. (The classic look proper draws only its hit mine
        # on red, however small its mine: ``read_boxes``.)
        for i in np.flatnonzero(hit):
            chars[i] = _loss_mark(boxes[i], limits, min(lattice.pitch))
            if chars[i] == "~":
                confidence[i], unclear[i] = 0.4, "a mark on red that is neither a mine nor a flag"
    side = int(np.sqrt(middle.shape[1]))
    small = min(lattice.pitch) < limits.thin_pitch
    for kind, face in zip((True, False), faces):
        cells = np.flatnonzero((covered if kind else opened) & ~hit)
        if face is None or not len(cells):
            continue
        far = np.abs(middle[cells] - face).max(axis=2)
        ink = far > limits.ink_level
        share = ink.mean(axis=1)
        empty = share <= limits.no_ink
        chars[cells[empty]] = "#" if kind else "0"
        # An empty cell shows no faint ink either: the standard grey 8 is barely ink_level from a light
        # face (57 levels on a face of 185), and its cell passed for an empty one. Refused, not read: a
        # textured face would pass for faint ink of the nearest number colour.
        faint = (far[empty] > limits.faint_ink).mean(axis=1)
        confidence[cells[empty]] = np.minimum(clear_kind[cells[empty]], np.maximum(0.6 + (limits.no_ink - faint) * 40, 0.0))
        for i in cells[empty][faint > limits.no_ink]:
            unclear[i] = "a mark too near its face's colour to tell"
        for j in np.flatnonzero(~empty):
            i = int(cells[j])
            if share[j] < limits.some_ink:
                confidence[i], unclear[i] = 0.4, "a speck of ink too small for any mark"
                continue
            mask = ink[j].reshape(side, side)
            core = core_colour(middle[i][ink[j]], far[j][ink[j]])
            # The ink inside the box's outer pixels, where a mark's whole shape shows: measured once,
            # where a shape is asked.
            inside = functools.cache(functools.partial(inside_ink, boxes[i], face, limits.ink_level))
            if look == FACES and not small and clearly_shaped(inside(), limits.ink_level, MINES):
                # A look told by its faces shows a lost game's mines where they lie, on covered cells
                # as on opened ones (gnome-mines' tiles), each drawn as a mine is: told by its shape
                # against every shipped client's mines, numbers and marks (a wrong flag's crossed mine
                # among them), before its colours (the hit mine's orange spikes there lie across its
                # yellow as a red cross does).
                char, clear, why = "*", BY_SHAPE, ""
            elif kind:
                char, clear, why = _raised_state(core, face, mask, middle[i][ink[j]], boxes[i], limits,
                                                 min(lattice.pitch), ALONG if look == RAISED else INSIDE)
            else:
                thin = small or _stroke_width(mask) * min(lattice.pitch) / SIZE <= limits.thin_stroke
                # An opened cell holds no flag nor "?": where the look is told by its faces (the
                # opened cells' face is their own), a digit's shape is not set against those marks.
                shape = (lambda: "") if small else functools.partial(
                    shaped_digit, boxes[i], face, limits, marks=MARKS if look == RAISED else OPENED_MARKS)
                char, clear, why = _flat_state(core, face, limits.colour_strength if thin else 1.0, mask,
                                               middle[i][ink[j]], boxes[i], limits, shape, look == RAISED)
                if not small and char in DIGITS:
                    # The colour says which number; its shape must not clearly say another (numbers in
                    # other colours than the standard ones: ``digit_shapes``). Not in cells under
                    # ``thin_pitch``, whose digits are a few pixels of strokes a pixel wide: no shape.
                    other = shaped_otherwise(inside(), char, limits.ink_level)
                    if other:
                        char, clear, why = "~", 0.4, f"a number in the colour of a {char} but shaped like a {other}"
            if char == "W" and _red_or_dark(middle[i][ink[j]], face) < WRONG_FLAG_INK:
                char, clear, why = "~", 0.4, "a mark shaped like a wrong flag but not in its red and black"
            chars[i], confidence[i], unclear[i] = char, min(clear_kind[i], clear), why
    for i in np.flatnonzero(chars != "~"):
        unclear[i] = "" if confidence[i] >= CLEAR else unclear[i]
    return ClassicReading(chars, confidence, tuple(unclear), covered, faces, look)


def _read_by_faces(boxes: np.ndarray, lattice: Lattice, limits: Limits, rim: np.ndarray, flat: np.ndarray,
                   clear_kind: np.ndarray, hit: np.ndarray, red: np.ndarray) -> ClassicReading | None:
    """A board with no raised cell read as a look whose covered cells have a face of their own
    (gnome-mines' "classic" and "default" tiles: covered cells a darker grey than opened ones), or None
    where its cells do not show two faces, or the rules cannot tell which is the covered cells'.

    Each cell's face is its rim's median colour; the board's two faces are the commonest colour of
    the rims and the commonest of the rims not near it (FACE_NEAR), at least FACES_APART apart. A cell
    takes the nearer face, and one near neither is unclear. Which face is the covered cells' is what
    the game says: the board is read both ways, and the reading taken is the one the rules allow
    (``_broken_rule``) with fewer 0s beside a covered or marked cell (every client opens the cells
    beside a 0, so none is covered or flagged; a player's wrong flag may stand there, rarely), or, with
    as many, fewer cells unread. Read the wrong way round, every number stands on a covered cell (no
    flag or "?", or one that passes for a flag: a 1 with a serif, in black), and every covered cell
    that borders one is an opened 0 beside it: the 0s decide before what is unread, since a number
    whose shape is unclear is unread the right way round. The numbers' colours are this look's own:
    a number is read by its shape. A board of one face (a fresh game) is not read so: a grid of plain
    cells of one colour, a table or a calendar, is nothing a game tells apart."""
    own = np.median(rim, axis=1)
    boxes = _tile_frame_painted(boxes, own, limits)
    # Only cells whose rim is mostly one colour show a face (a mine or a bold number fills some rims).
    even = (np.abs(rim - own[:, None]).max(axis=2) <= FACE_NEAR).mean(axis=1) >= EVEN_RIM
    cells = np.flatnonzero(flat & even)
    if len(cells) < FACES_LEAST:
        return None
    first = commonest_colour(rim[cells])
    rest = cells[np.abs(own[cells] - first).max(axis=1) > FACE_NEAR]
    if len(rest) < FACES_LEAST:
        return None
    second = commonest_colour(rim[rest])
    if np.abs(second - first).max() < FACES_APART:
        return None
    to_first, to_second = (np.abs(own - face).max(axis=1) for face in (first, second))
    near_first = to_first <= to_second
    neither = np.minimum(to_first, to_second) > FACE_NEAR
    # The pointer lights one cell: more cells off both faces are a look of more faces (gnome-mines' own
    # tiles, each number on a tint of its own: in grey levels a 4's tint lay near the covered grey,
    # and the 4 was read as a flag). A red face is no third face: it marks where a game was lost
    # (``_read_kinds``).
    neither &= ~hit
    off = (np.minimum(to_first, to_second) > FACE_NEAR / 2) & ~hit
    if off.sum() > 1:
        return None
    readings, broken = [], []
    for covered_face, opened_face in ((first, second), (second, first)):
        covered = flat & (near_first if covered_face is first else ~near_first)
        faces = (covered_face, opened_face)
        reading = _read_kinds(boxes, lattice, limits, covered, flat & ~covered, faces, clear_kind, hit, red, FACES)
        reading = _lit_read(boxes, lattice, limits, reading, off & ~neither & flat, clear_kind, hit, red)
        confidence = np.where(neither, np.minimum(reading.confidence, 0.4), reading.confidence)
        unclear = tuple("a face like neither the covered cells' nor the opened ones'" if far else why
                        for far, why in zip(neither, reading.unclear))
        readings.append(ClassicReading(reading.chars, confidence, unclear, reading.covered, faces, FACES))
        broken.append((bool(_broken_rule(reading.chars, lattice.rows, lattice.cols)),
                       len(_zeros_beside(reading.chars, lattice, ("#", "F", "?"))), int((confidence < CLEAR).sum())))
    if broken[0] == broken[1]:
        return None
    best = 0 if broken[0] < broken[1] else 1
    if broken[best][0]:
        return None
    from .own_look import read_by_own_look

    return read_by_own_look(boxes, readings[best], limits, (lattice.rows, lattice.cols))


def _tile_frame_painted(boxes: np.ndarray, own: np.ndarray, limits: Limits) -> np.ndarray:
    """``boxes`` with the tile's frame painted in each cell's own face (``own``). The frame is what
    nearly every cell shows at the same place, not a mark: the pixels that are faint ink at least in
    FRAME_SHARE of the board's cells, against each cell's own face (faint: a lost board's dimmed covered
    face lies near the ink level from the gap's dark; the gap between rounded tiles and their
    corners: gnome-mines' tiles at 31 px left a corner's speck beside a number, and a 2 was shaped
    like a 5). No mark is drawn in so many cells at one place. Each cell's frame is placed where it
    fits that cell's ink best, up to TILE_SHIFT px off (a lattice of whole pixels over a toolkit's
    cells of uneven widths, GTK's, lies a pixel or two off some cells), and painted a pixel wider
    all round (its anti-aliased edge)."""
    import cv2

    ink = np.abs(boxes - own[:, None, None, :]).max(axis=3) > limits.faint_ink
    frame = ink.mean(axis=0) >= FRAME_SHARE
    if not frame.any():
        return boxes
    reach = range(-TILE_SHIFT, TILE_SHIFT + 1)
    padded = np.pad(frame, TILE_SHIFT)
    shifted = np.array([padded[TILE_SHIFT - dy: TILE_SHIFT - dy + SIZE, TILE_SHIFT - dx: TILE_SHIFT - dx + SIZE]
                        for dy in reach for dx in reach])
    flat = shifted.reshape(len(shifted), -1).astype(np.float32)
    cells = ink.reshape(len(ink), -1).astype(np.float32)
    # Frame pixels on ink, less frame pixels off it: where the shifted frame lies on this cell's own.
    fit = (2.0 * cells - 1.0) @ flat.T
    grown = np.array([cv2.dilate(f.astype(np.uint8), np.ones((3, 3), np.uint8)) for f in shifted]).astype(bool)
    painted = grown[np.argmax(fit, axis=1)]
    return np.where(painted[..., None], own[:, None, None, :], boxes).astype(boxes.dtype)


# Share of a board's cells that show ink at a pixel of their box where that pixel is the tile's frame;
# how far (px of the SIZE box) each cell's frame may lie from where the board's lies.
FRAME_SHARE = 0.9
TILE_SHIFT = 2


# The states drawn as a mine: shown, and hit.
MINES = "*X"


def _loss_mark(box: np.ndarray, limits: Limits, pitch: float) -> str:
    """The mark on a cell red marks (``box``: its SIZE box; red in its bands), seen against its face (its
    rim's median): "X" for a mine (``clearly_shaped``), "W" for a flag on a red face (a pole with its
    pennant to one side, ``_pennant_on_a_pole``), "~" for neither. The red may be a large mark's own on
    a face of another colour (gnome-mines' "classic" tiles: the hit mine's orange spikes at 57 px)."""
    face = np.median(_rim(box[None])[0], axis=0)
    if clearly_shaped(inside_ink(box, face, limits.ink_level), limits.ink_level, MINES):
        return "X"
    whole = _off_the_edge(np.abs(box[INSIDE, INSIDE] - face).max(axis=2) > limits.ink_level)
    if _strong_red(face) and whole.any() and _pennant_on_a_pole(whole, pitch / SIZE):
        return "W"
    return "~"


# Why a number in a look read by its faces is not read (``_flat_state``), and what ``own_look`` reads.
UNCLEAR_SHAPE = "a number in a look of its own colours whose shape is unclear"


def _lit_read(boxes: np.ndarray, lattice: Lattice, limits: Limits, reading: ClassicReading, lit: np.ndarray,
              clear_kind: np.ndarray, hit: np.ndarray, red: np.ndarray) -> ClassicReading:
    """``reading`` (told by its faces) with its cell whose face is off both (``lit``: lit under the
    pointer, of either kind) read as its mark says: where the nearer face leaves it unread, as the
    other kind where it reads clearly as a mark only that kind holds (a flag or "?" on a covered
    cell, a number or a mine on an opened one); and an empty one read as a 0 beside a covered cell as
    a covered cell (no 0 lies beside one)."""
    covered, faces = reading.covered, reading.faces
    unread = lit & ~hit & (reading.confidence < CLEAR)
    if unread.any():
        turned = _read_kinds(boxes, lattice, limits, unread & ~covered, unread & covered, faces, clear_kind, hit, red,
                             FACES)
        held = np.where(covered, np.isin(turned.chars, tuple(DIGITS + "*")), np.isin(turned.chars, ("F", "?")))
        take = unread & held & (turned.confidence >= CLEAR)
        covered = covered ^ take
        reading = ClassicReading(np.where(take, turned.chars, reading.chars),
                                 np.where(take, turned.confidence, reading.confidence),
                                 tuple(b if t else a for a, b, t in zip(reading.unclear, turned.unclear, take)),
                                 covered, faces, FACES)
    zero = np.zeros_like(lit)
    for r, c in _zeros_beside(reading.chars, lattice, ("#",), np.flatnonzero(lit & ~covered)):
        zero[r * lattice.cols + c] = True
    if zero.any():
        reading = ClassicReading(np.where(zero, "#", reading.chars), reading.confidence, reading.unclear,
                                 covered | zero, faces, FACES)
    return reading


def _zeros_beside(chars: np.ndarray, lattice: Lattice, blocked: tuple[str, ...],
                  cells: np.ndarray | None = None) -> list[tuple[int, int]]:
    """The 0s of a reading (row-major states; of ``cells``, flat indices, where given) beside a cell in
    one of the ``blocked`` states, by the look's flood rule (``play.consistency.zeros_beside``)."""
    from ..play.consistency import zeros_beside  # here: the play package imports this module

    grid = tuple("".join(row) for row in np.asarray(chars).reshape(lattice.rows, lattice.cols))
    where = None if cells is None else [divmod(int(i), lattice.cols) for i in cells]
    return zeros_beside(grid, CLASSIC_PROFILE["play"]["flood"], set(blocked), where)


# Cells each of the two faces must have for a board to be read by its faces (a fresh game shows one).
FACES_LEAST = 1
# Share of a cell's rim within FACE_NEAR of its median where the rim shows the cell's face.
EVEN_RIM = 0.5
# Levels (the channel differing most) by which the covered cells' face and the opened cells' differ at
# least: twice FACE_NEAR, so that no cell lies near both. gnome-mines' tiles: 38 levels.
FACES_APART = 2 * FACE_NEAR


def _broken_rule(chars: np.ndarray, rows: int, cols: int) -> str:
    """Why a reading (row-major states, "~" unread) breaks the game's rules as a board read in a look
    ('' where it does not): a 0 beside a covered cell (every client opens at least the four cells
    sharing a side with a 0), a number under the mines shown round it, no room for a mine."""
    from solver.board import Board

    from .plausible import implausible  # here: plausible's checks import the play package, which imports this

    # An unread cell may be anything: as a "?" it is neither opened nor covered to the rules.
    grid = tuple("".join(row).replace("~", "?") for row in np.asarray(chars).reshape(rows, cols))
    return implausible(Board(grid, None), CLASSIC_PROFILE["play"]["flood"], pictures_mean_states=True)


def _relief_clear(up: np.ndarray, down: np.ndarray) -> np.ndarray:
    """How clearly raised or flat each cell is, 0..1: 0.6 at the boundary, 1 at 4 times past it."""
    return np.clip(0.6 + 0.2 * np.log2(np.maximum(np.maximum(up, down), 1e-3)), 0.0, 1.0)


def _rim(boxes: np.ndarray) -> np.ndarray:
    """(cells, pixels, 3): each cell's ring between its bands and its middle, where only a face shows
    (a red digit stays in the middle; a hit mine's red face reaches the rim)."""
    ring = np.ones((SIZE, SIZE), dtype=bool)
    ring[: BAND.stop, :] = ring[FAR_BAND.start :, :] = ring[:, : BAND.stop] = ring[:, FAR_BAND.start :] = False
    ring[MIDDLE, MIDDLE] = False
    return boxes[:, ring]


def _bands_mask() -> np.ndarray:
    """(SIZE, SIZE) mask of the four bands the relief is measured on: a cell's face shows there, and
    nothing drawn in its middle reaches them."""
    mask = np.zeros((SIZE, SIZE), dtype=bool)
    mask[BAND, ALONG] = mask[FAR_BAND, ALONG] = mask[ALONG, BAND] = mask[ALONG, FAR_BAND] = True
    return mask


BANDS = _bands_mask()


def _strong_red(pixels: np.ndarray) -> np.ndarray:
    b, g, r = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    return (r > 150) & (g < 90) & (b < 90)


def _red_ink(pixels: np.ndarray, face: np.ndarray) -> np.ndarray:
    """Red as a mark's strokes show it, however blended: a pixel whose red rises over the face's by
    RED_INK levels more than its green or blue does. A pixel that is a share ``a`` of pure red over the
    face (or over a mine's black) rises by 255 ``a``: the measure is how much red ink the pixel holds,
    whatever lies under it. A thin red cross over a mine, blended with it once a picture is scaled (a
    page zoomed 81-150%), is dark red ((0, 0, 93-143) BGR) at its middle and pink at its ends; a fixed
    bar for "red" found under 5% of its ink red, and the wrong flag read as a mine (CI, seed 608186)."""
    rise = pixels.astype(np.float32) - face
    return rise[..., 2] - np.maximum(rise[..., 0], rise[..., 1]) >= RED_INK


def _dark_ink(pixels: np.ndarray) -> np.ndarray:
    """Black as a mark's strokes show it: every channel under 70 (a mine, a flag's pole and foot)."""
    return pixels.max(axis=-1) < 70


# A fifth of a pixel's worth of pure red (see ``_red_ink``): the faintest blend a stroke's middle keeps.
RED_INK = 50


# Share of a wrong flag's ink that is red or dark at least: a red cross over a black mine or flag, the
# rest blends of the two with the face. Drawn at 10-60 px, 0.83 and up; minegauler's faded pink flag
# crossed out in black (38 px), 0.27; a window's green face over the cells, with its red border across
# them, 0.06-0.08, read as wrong flags before.
WRONG_FLAG_INK = 0.15


def _red_or_dark(ink: np.ndarray, face: np.ndarray) -> float:
    """Share of the ink pixels that are red (``_red_ink``) or dark (``_dark_ink``)."""
    return float((_red_ink(ink, face) | _dark_ink(ink)).mean()) if len(ink) else 0.0


# Share of a mark's ink that is red where a red part of it counts (a flag's pennant, a red cross), and
# under which a black mark has none (a "?").
RED_PART = 0.05


def core_colour(ink: np.ndarray, far: np.ndarray) -> np.ndarray:
    """The mean colour of the quarter of the ink furthest from the face: a stroke's own colour, not the
    mix at its anti-aliased rim."""
    keep = max(1, len(far) // 4)
    return ink[np.argsort(-far)[:keep]].mean(axis=0)


def _raised_state(core, face, mask, ink, box, limits: Limits, pitch: float, within: slice = ALONG) -> tuple[str, float, str]:
    """A covered cell's mark (flag, "?", wrong flag), read from its ink; ``within``: the part of the box
    a mark's whole shape is seen in: inside the bevels of a raised cell (ALONG), inside the box's
    outer pixels on a flat covered face, which has no bevel (a flag of gnome-mines' "default" tiles
    reaches an eighth of the cell from its top: with the box two pixels lower, it ran past ALONG, and
    a flag whose top is not seen is no flag)."""
    reds = _strong_red(ink).mean()
    where = _red_over_dark(mask, ink, face)
    # The ink over the whole cell (``within``): where a flag's shape and pieces are told.
    whole = np.abs(box[within, within] - face).max(axis=2) > limits.ink_level
    if within != ALONG:
        # No bevel stops short of the box's edge: ink touching it is a grid line or the board's border.
        whole = _off_the_edge(whole)
    flag = functools.partial(_flag_alone, whole)
    # A pennant as wide as its flag, beside its pole (gnome-mines' "classic" tiles), lies across the
    # black as a cross does, but its red fills the box it spans, as a cross's strokes do not: a flag
    # (told below), however much of the mark its dark outline, pole and foot are (half of it, 49-51%,
    # in those tiles at 70 px: a share of red was once the test, and two flags of ten read as wrong
    # flags there).
    pennant = reds > RED_PART and _red_filled(mask, ink, face)
    if reds > RED_PART and where == "across" and not pennant:
        return "W", 0.8, ""  # a flag or a mine crossed out in red, on the flag's raised cell
    # A red pennant over a black pole: red enough of the mark to be one (RED_PART), as for the cross. A flag
    # drawn faded and crossed out in black (minegauler's wrong flag at 38 px: 2% of its ink strong red,
    # the rest pink) is a cross over a few red pixels, read as a flag before.
    if reds > RED_PART and where == "above":
        return flag(0.9)
    if _crossed(mask) and reds < MOSTLY_RED and _one_bare_piece(mask):
        # A black cross, told only after the flag: a flag over a stipple keeps specks of it round its
        # pole, which join its strokes into what covers both diagonals. Not a mark mostly red, nor one
        # filling the middle or in pieces (``_one_bare_piece``).
        return "W", 0.8, ""
    # A "?" is taller than the middle: its dot lies below it at some sizes (a font's "?" at 34 px).
    # Its parts are told on its strong ink: blended with the face, the pixel or two between a dot and
    # its hook joins them once a cell is scaled.
    far = np.abs(box[DOWN_TO_BAND, MIDDLE] - face).max(axis=2)
    strong = far > max(limits.ink_level, STRONG_INK * far.max())
    parts = _parts(strong)
    # The dot lies wholly below the hook, and is no taller than twice its width: a serif "F"'s middle
    # bar, its strong ink apart from the stem, lies beside it, and a small oblique "F"'s stem, apart
    # from its bars, is a stroke (49 of 1,476 black "F"s in the system's fonts were read as "?" so).
    hook_over_dot = red_dot = False
    if len(parts) == 2:
        (hook_size, _, hook_bottom, _, _), (dot_size, dot_top, _, dot_width, dot_height) = parts
        hook_over_dot = dot_top > hook_bottom and dot_size < hook_size / 2 and dot_height <= 2 * dot_width
        # A red "?" has a red dot; a red pennant over a grey foot apart from it (gnome-mines' "classic"
        # tiles) is a flag.
        dot = box[DOWN_TO_BAND, MIDDLE][dot_top:][strong[dot_top:]]
        red_dot = hook_over_dot and _red_ink(dot, face).mean() >= MOSTLY_RED
    # A flag drawn in black alone (the React page's, a black "⚑", a letter "F"): a pole, and a pennant
    # to one side of its top. Its shape is seen over the whole cell inside its bevels (ALONG): a flag's
    # foot lies below the middle. Measured only where it decides (each path asks it once at most).
    dark = core.max() < 90
    flag_shaped = functools.partial(_pennant_on_a_pole, whole, pitch / SIZE)
    if reds < RED_PART and dark and hook_over_dot:
        if flag_shaped():
            # Both: told apart by neither (a black letter "F" whose strong ink breaks as a "?"'s does).
            return "~", 0.3, "a mark shaped both like a flag and like a question mark"
        return "?", 0.8, ""  # a hook and, under it, a dot
    if (_strong_red(core) and not hook_over_dot) or ((reds >= MOSTLY_RED or pennant) and not red_dot):
        # A flag drawn in its red alone (a red "⚑" or "F", as many clones draw it): no other state a
        # covered cell holds is red. A red "?" stays refused: a "?" read as a flag is a mine to the solver.
        return flag(0.8)
    if dark and flag_shaped():
        return flag(0.8)
    return "~", 0.3, NEITHER_MARK


# Why a covered cell's mark is not read (``_raised_state``), and what ``own_look`` reads.
NEITHER_MARK = "a raised cell with a mark that is neither a flag nor a question mark"


# Share of a mark's pixels that are strong red where the mark is a red one whatever its core (a pennant
# shaded darker at its edge, its darkest quarter a dark red: gnome-mines' "classic" tiles).
MOSTLY_RED = 0.5


def _flag_alone(whole, clear: float) -> tuple[str, float, str]:
    """A mark shaped or coloured like a flag read as one (``clear``: how clearly), unless a second piece
    of ink lies apart from it (``whole``: the cell's ink inside its bevels), as large as FLAG_BESIDE
    of the mark at least: gnome-mines' "default" tiles draw the "?" mark as their flag with a small "?"
    beside it, and a "?" read as a flag is a mine to the solver. Ink touching the box's edge is a
    bevel or a grid line reaching in (minegauler's 3 px bevels at 24 px), not a mark."""
    parts = _parts(whole, off_the_edge=True)
    if len(parts) > 1 and parts[1][0] >= FLAG_BESIDE * sum(part[0] for part in parts):
        return "~", 0.4, "a flag with another mark beside it (some looks draw a \"?\" so)"
    return "F", clear, ""


# Share of a flag's ink a piece apart from it has at least for the flag to be refused (``_flag_alone``).
FLAG_BESIDE = 0.05


def _pennant_on_a_pole(mask, scale: float) -> bool:
    """Is the ink a flag's shape: a pole (columns inked unbroken from the mark's top to its bottom,
    each end within POLE_END of its height: a tip may stand over the pennant, a foot widen the
    bottom), with the ink of the mark's upper half beside it lying on one side (PENNANT_SIDE times
    the other's, and PENNANT_SHARE of that half's)? A "?" has strokes as long (its stem with its dot
    joined, a bold italic at 29 px; its hook's right side, a serif font at 13 px), but none from its
    top to its bottom; a cross or a dagger has ink alike on both sides. The pole is POLE_LEAST screen
    pixels long at least (``scale``: screen pixels to one of ``mask``'s): some fonts' "?" in a cell
    of 15-19 px has a stroke from its top to its bottom as long as a small flag's pole."""
    ys, xs = np.nonzero(mask)
    if not len(ys) or ys.min() == 0:
        return False  # no mark, or one going on above what is seen: where its top is is not known
    top, bottom, height = ys.min(), ys.max(), np.ptp(ys) + 1
    runs = [_longest_run(mask[:, x]) for x in range(mask.shape[1])]
    poles = [x for x, (length, start) in enumerate(runs) if length * scale >= POLE_LEAST
             and start <= top + POLE_END * height and start + length - 1 >= bottom - POLE_END * height]
    if not poles or poles[-1] - poles[0] + 1 != len(poles) or len(poles) > POLE_WIDTH * (np.ptp(xs) + 1):
        return False  # no pole, or strokes too wide for one (a "?" at 16 px whose dot is lost: a "7")
    upper = mask[top : top + (height + 1) // 2]
    left, right = upper[:, : max(0, poles[0] - 1)].sum(), upper[:, poles[-1] + 2 :].sum()
    return max(left, right) >= max(PENNANT_SIDE * max(min(left, right), 1), PENNANT_SHARE * upper.sum())


def _longest_run(column) -> tuple[int, int]:
    """(length, first pixel) of the longest unbroken run of set pixels in ``column``."""
    best, run = (0, 0), 0
    for at, on in enumerate(column):
        run = run + 1 if on else 0
        if run > best[0]:
            best = (run, at - run + 1)
    return best


# A flag's pole ends this share of its mark's height from the mark's top and bottom at most, and is
# this long at least (screen pixels).
POLE_END = 0.2
POLE_LEAST = 10
# A pennant's ink lies on one side of its pole, this many times what lies on the other, and is this
# share of the ink of the mark's upper half at least; a pole is this share of the mark's width at most.
PENNANT_SIDE = 4.0
PENNANT_SHARE = 0.2
POLE_WIDTH = 0.3


# Ink this share of the way from the face to the mark's own colour is strong (not a blend at its rim).
STRONG_INK = 0.6


def _crossed(mask) -> bool:
    """Does the ink run along both diagonals of the middle, corner to corner (a cross drawn over the
    cell)? A flag, a "?" or a number, however bold, leaves much of one diagonal bare."""
    import cv2

    near = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    side = mask.shape[0]
    steps = np.arange(side)
    return bool(near[steps, steps].mean() >= CROSS_COVER and near[steps, side - 1 - steps].mean() >= CROSS_COVER)


def _one_bare_piece(mask) -> bool:
    """Is the ink one piece (CROSS_WHOLE of it) leaving most of the middle bare (under CROSS_FILL), as a
    cross drawn over a covered cell does? A mark filling the middle (gnome-mines' "classic" tiles' "?",
    a flag as wide as the cell), or a flag with a "?" beside it (their "default" tiles' "?"), covers
    both diagonals too."""
    parts = _parts(mask)
    return mask.mean() < CROSS_FILL and bool(parts) and parts[0][0] >= CROSS_WHOLE * sum(part[0] for part in parts)


# Share of each diagonal a cross's ink covers (within a pixel); and of its ink in its largest piece.
CROSS_COVER = 0.8
CROSS_WHOLE = 0.95


def _mirrored(mask) -> float:
    """How alike the ink is to its mirror image, the worse of left-right and up-down (intersection over
    union): sgt-mines' cross at 12-13 px 0.9, a red 3 0.67 at most (bold and plain, drawn at 10-60 px)."""
    return min(_overlap(mask, np.fliplr(mask)), _overlap(mask, np.flipud(mask)))


def _overlap(mask, other) -> float:
    """Intersection over union of two masks."""
    return float((mask & other).sum() / max((mask | other).sum(), 1))


# A red cross with no mine seen under it is a wrong flag only when this alike its mirror images.
CROSS_MIRRORED = 0.75


def _parts(mask, off_the_edge: bool = False) -> list[tuple[int, int, int, int, int]]:
    """The ink's separate pieces (8-connected, a few pixels at least) as (size, top row, bottom row,
    width, height), largest first; ``off_the_edge``: only those touching no edge of the mask."""
    import cv2

    if off_the_edge:
        mask = _off_the_edge(mask)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    parts = [(int(area), int(top), int(top + height - 1), int(width), int(height))
             for _, top, width, height, area in stats[1:] if area >= 3]
    return sorted(parts, key=lambda p: -p[0])


def _off_the_edge(mask) -> np.ndarray:
    """``mask`` without its pieces (8-connected) that touch one of its edges."""
    import cv2

    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    rows, cols = mask.shape
    left, top, width, height = (stats[:, k] for k in range(4))
    keep = (left > 0) & (top > 0) & (left + width < cols) & (top + height < rows)
    keep[0] = False  # the background
    return keep[labels]


def _holes(mask) -> int:
    """Closed holes in the ink (an 8 has two, a 6 or a 4 one, a 7 none)."""
    import cv2

    rows = np.flatnonzero(mask.any(axis=1))
    cols = np.flatnonzero(mask.any(axis=0))
    box = np.pad(~mask[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1], 1, constant_values=True)
    count, _, stats, _ = cv2.connectedComponentsWithStats(box.astype(np.uint8), connectivity=4)
    return sum(1 for i in range(2, count) if stats[i, cv2.CC_STAT_AREA] >= 2)


def _solid(mask) -> float:
    """The share of the ink left after eroding it by 2 px: a mine's disc keeps much, a glyph's strokes
    little."""
    import cv2

    eroded = cv2.erode(mask.astype(np.uint8), np.ones((3, 3), np.uint8), iterations=2)
    return float(eroded.sum() / max(mask.sum(), 1))


def _alike_turned(mask) -> float:
    """How alike the ink is to itself turned a quarter (intersection over union): a mine, a disc with
    spikes, 0.58 and more (every mine of the labelled shots and drawn boards); a 7 0.3 and less however
    bold (a bold font's 7 keeps as much of its ink as a mine when eroded, and solidity alone read it as
    one). An 8 is rounder (0.29-0.7), and told from a mine by being thin and by its holes."""
    return _overlap(mask, np.rot90(mask))


def _red_over_dark(mask, ink, face) -> str:
    """Where the red ink lies on the black: "above" (a flag's pennant over its pole and foot), "across"
    (a red cross over a mine), or "" when there is not enough of either to tell."""
    ys, xs = np.nonzero(mask)
    red = _red_ink(ink, face)
    dark = _dark_ink(ink)
    if red.sum() < 3 or dark.sum() < 3:
        return ""
    height, width = ys.max() - ys.min() + 1, xs.max() - xs.min() + 1
    if np.ptp(ys[red]) + 1 >= 0.7 * height and np.ptp(xs[red]) + 1 >= 0.7 * width \
            and ys[red].max() > ys[dark].mean():
        # A cross spanning the whole mark, its arms reaching past the black's middle. A pennant as
        # wide as sgt-mines' spans 70% of its flag's height too, all of it above the pole and foot
        # (shrunk to 0.95, its flags read as wrong flags).
        return "across"
    return "above" if (ys[dark].mean() - ys[red].mean()) > 0.2 * height else "across"


def _red_filled(mask, ink, face) -> bool:
    """Does the red ink fill most of the box it spans (CROSS_FILL), as a pennant does and a cross's
    strokes do not?"""
    ys, xs = np.nonzero(mask)
    red = _red_ink(ink, face)
    if red.sum() < 3:
        return False
    return bool(red.sum() >= CROSS_FILL * (np.ptp(ys[red]) + 1) * (np.ptp(xs[red]) + 1))


# Share of the box a cross spans that it fills at most (two strokes a fifth of their length wide:
# 0.36); a pennant fills more (a rectangle waving, 0.8 and over).
CROSS_FILL = 0.6


def red_flag_in_own_colours(frame: np.ndarray, lattice: Lattice, board) -> bool:
    """Whether ``board`` (read on ``lattice``, the look's) is a lost game's, read as a look of its own
    colours (told by its faces), with a flag drawn in red (``plausible``: such a look may draw its wrong
    flag so). The look is asked again only of lost boards with a flag."""
    from solver.board import EXPLODED, FLAG, MINE

    shown = np.array(list("".join(board.grid)))
    if FLAG not in shown or not np.isin(shown, (EXPLODED, MINE)).any():
        return False
    reading = read_classic(frame, lattice)
    if reading.look != FACES:
        return False
    boxes = cell_boxes(frame, lattice)
    return any(has_red(boxes[i], reading.face(i)) for i in np.flatnonzero(shown == FLAG))


def has_red(box: np.ndarray, face: np.ndarray, limits: Limits = CLASSIC_LIMITS) -> bool:
    """Whether a cell's mark (``box``: its SIZE box, seen against ``face``) has red in it: RED_PART of its
    ink inside the box's outer pixels is red (``_red_ink``)."""
    inside = box[INSIDE, INSIDE]
    ink = inside[np.abs(inside - face).max(axis=2) > limits.ink_level]
    return bool(len(ink)) and float(_red_ink(ink, face).mean()) >= RED_PART


def inside_ink(box: np.ndarray, face: np.ndarray, ink_level: float) -> np.ndarray:
    """The ink of a cell's box inside its outer two pixels, where a number's whole shape shows, less
    any line along its edge that is ink nearly all along (``_edge_lines_cleared``)."""
    return _edge_lines_cleared(np.abs(box[INSIDE, INSIDE] - face).max(axis=2) > ink_level)


def _edge_lines_cleared(mask: np.ndarray) -> np.ndarray:
    """``mask`` with its outermost lines cleared, side by side inwards, while they are ink along
    EDGE_INK of their length at least (EDGE_CLEARED lines a side at most): a grid line or a gap of a
    dark background between tiles, which a box reaches where they are wider than the two pixels it
    leaves out (gnome-mines' tiles under a dark desktop theme: 3-4 px of gap at 45 px cells). No
    digit's stroke runs so long along a cell's edge. Each side's lines are measured on ``mask`` as it
    came: a gap along the bottom crosses the right side's lines too, and cleared first it left them
    short of EDGE_INK (a gap along both, gnome-mines' tiles at 31 px).
    """
    cleared = mask.copy()
    last = len(mask) - 1
    for side in range(4):
        for depth in range(EDGE_CLEARED):
            index = (depth, last - depth, (slice(None), depth), (slice(None), last - depth))[side]
            if mask[index].mean() < EDGE_INK:
                break
            cleared[index] = False
    return cleared


# Share of a line along a box's edge that is ink where it is a grid line or a gap, not a digit's; and
# how many such lines a side may have (of the SIZE box: 3 px of a 32 px cell).
EDGE_INK = 0.95
EDGE_CLEARED = 3


def shaped_digit(box: np.ndarray, face: np.ndarray, limits: Limits = CLASSIC_LIMITS, hidden: str = "",
                 marks: str = MARKS) -> str:
    """The digit a flat cell's ink (``box``: its SIZE box) is clearly shaped like
    (``digit_shapes.clear_digit``; ``hidden``, ``marks``: as there), '' for none, or where the ink is too faint
    for its shape to show whole: ink whose strongest quarter lies under SHAPE_STRENGTH times the ink
    level from the face has its anti-aliased strokes under the ink level in part (a 4 a pixel wide in
    a colour 65 levels from its face kept only its upright, and read as a 1: 4 of 19,900 digits drawn
    in OpenCV's fonts in random dark colours read wrong so, `python3 -m lab digit-shapes`)."""
    far = np.abs(box[INSIDE, INSIDE] - face).max(axis=2)
    mask = _edge_lines_cleared(far > limits.ink_level)
    if not mask.any():
        return ""
    strongest = np.sort(far[mask])[-max(1, int(mask.sum()) // 4) :].mean()
    return clear_digit(mask, limits.ink_level, hidden, marks) if strongest >= SHAPE_STRENGTH * limits.ink_level else ""


# Ink is read by its shape where its strongest quarter lies this many ink levels from its face at least.
SHAPE_STRENGTH = 1.5


def _flat_state(core, face, fade: float, mask, ink, box, limits: Limits, shape,
                palette: bool = True) -> tuple[str, float, str]:
    """An opened cell's state from its ink; ``palette``: its numbers are in the standard colours (a
    look read by its faces has colours of its own: there a number is read by its shape alone)."""
    red = _red_ink(ink, face)
    reds = red.mean()
    darks = _dark_ink(ink).mean()
    # A mine crossed out in red: a wrong flag. The standard numbers are one colour each, so black in red
    # ink is a mine's, however little of it the cross leaves (sgt-mines' at 14 px: 8% of the ink). At
    # smaller sizes the cross may hide the mine altogether (sgt-mines' at 13 px): red ink shaped like a
    # cross, then, and not like a 3 (no digit is both a cross and its own mirror image both ways), nor
    # like an 8, which is both at 12 px (xdemineur's magenta 8 at 60%) but holds holes a cross does not.
    # In cells that small a bold number fills the middle and passes for both too (Windows XP's 5 at
    # 74%); its maroon is darker than the face, where the cross's red is lighter (sgt-mines': red 223-235
    # on a face of 218; XP's 5: 127-134 on 189).
    if reds > RED_PART and darks > 0.03 and _red_over_dark(mask, ink, face) == "across":
        return "W", 0.8, ""
    if (reds > RED_PART and _crossed(mask) and _mirrored(mask) >= CROSS_MIRRORED and not _holes(mask)
            and np.median(ink[red][:, 2]) > face[2]):
        return "W", 0.7, ""
    if core.max() < 70:  # black ink: a mine, a 7, or a client's black 8
        solid, turned = _solid(mask), _alike_turned(mask)
        if solid >= limits.mine_solid and turned >= limits.mine_turned:
            return "*", min(1.0, 0.6 + solid - limits.mine_solid), ""
    if not palette:
        digit = shape()
        if digit:
            return digit, BY_SHAPE, ""
        return "~", 0.4, UNCLEAR_SHAPE
    if core.max() < 70:
        if solid > limits.glyph_solid and turned > limits.glyph_turned:
            return "~", 0.4, "black ink shaped neither like a mine nor like a number"
        # Holes are counted on the mark whole, inside the bands: the middle cuts the top of a tall 8
        # (react-minesweeper's at every size) and opens its upper hole.
        holes = _holes(np.abs(box[ALONG, ALONG] - face).max(axis=2) > limits.ink_level)
        if holes == 0:
            return "7", 0.8, ""
        if holes == 2:
            return "8", 0.8, ""
        return "~", 0.4, f"a black number with {holes} hole(s): neither a 7 nor an 8"
    return nearest_number(core, face, fade, limits, shape)


def _stroke_width(mask) -> float:
    """The ink's stroke width (px of the mask), from its area over its edge: a stroke w wide and L long
    has an area w L and about 2 L pixels at its edge (all of them where w is 2 or less: 2 then)."""
    import cv2

    inner = cv2.erode(mask.astype(np.uint8), np.ones((3, 3), np.uint8), borderType=cv2.BORDER_CONSTANT, borderValue=0)
    edge = int(mask.sum() - inner.sum())
    return 2.0 * float(mask.sum()) / max(edge, 1)


def nearest_number(core, face, fade: float, limits: Limits, shape) -> tuple[str, float, str]:
    """The standard number whose colour the ink's (``core``) is, seen on ``face``: each number's colour
    as its strokes show it, blended with the face round them down to ``fade`` of the way from the face
    (``Limits.thin_pitch``, ``thin_stroke``; 1 for strokes that keep their colour): the nearest such
    line, by a clear margin, within reach. Where the colour says nothing (no standard number's, or
    between two), the digit its shape clearly is (``shape()``: ``shaped_digit``, '' for
    none), if that is one of the two."""
    names = list(NUMBER_COLOURS)
    colours = np.array([NUMBER_COLOURS[n] for n in names], dtype=np.float32)
    towards = colours - face
    # Not the 7's black: black faded by a grey face is the 8's grey (a 7 faded by a third is an 8), and
    # a darker picture (a gamma change) darkens an 8 towards a faded 7. A thin black stroke stays
    # black enough for ``_flat_state`` to read it as black ink.
    least = np.where(np.array(names) == "7", 1.0, fade)
    share = np.clip((towards @ (core - face)) / np.maximum((towards * towards).sum(axis=1), 1e-6), least, 1.0)
    dist = np.linalg.norm(face + share[:, None] * towards - core, axis=1)
    order = np.argsort(dist)
    d1, d2 = dist[order[0]], dist[order[1]]
    apart = d1 / max(d1 + d2, 1e-6)
    if apart > limits.colour_share or d1 > limits.colour_reach or (
            share[order[0]] < 1.0 and _pair_apart(core, face, colours[order[0]]) > limits.faded_pair):
        digit = shape()
        if digit:
            return digit, BY_SHAPE, ""
        return "~", 0.4, f"a number in a colour no standard number has (nearest {names[order[0]]})"
    if 1.0 - apart >= CLEAR:
        return names[order[0]], 1.0 - apart, ""
    digit = shape()
    if digit in (names[order[0]], names[order[1]]):
        return digit, BY_SHAPE, ""
    return names[order[0]], 1.0 - apart, f"a number whose colour lies between {names[order[0]]}'s and {names[order[1]]}'s"


# How clearly a number read by its shape alone is read (``shaped_digit``): over CLEAR.
BY_SHAPE = 0.7


def _pair_apart(core, face, colour) -> float:
    """How much more the ink's (``core``) two channels that ``colour`` has alike differ than the face's
    do (0 for a colour with no two channels alike)."""
    pairs = [(a, b) for a, b in ((0, 1), (0, 2), (1, 2)) if colour[a] == colour[b]]
    return max((abs(core[a] - core[b]) - abs(face[a] - face[b]) for a, b in pairs), default=0.0)


# What is known of a client in the classic look that nobody described: the rules every such client
# shares, and nothing else. Its mine total, its first-click rule and how it shows a win are unknown:
# play counts a win only when the client shows one (``play.rules.GameRules.win_shown``). How it starts
# a new game is found by trying the usual ways (``play.profile.usual_restarts``: no key that may
# reload, close or open anything); each click waits for its cell to change, since how fast the client
# draws is unknown too. Whether it lights the cell under the pointer is unknown too, and clients in
# this look do (Tk's buttons): the pointer is parked off the board before each reading. Every client
# opens the cells beside a zero itself, at least the four that share a side with it (react-minesweeper):
# a 0 read beside a covered cell there is a covered cell misread (raised cells whose one-pixel bevels a
# JPEG blurred flat read as a block of 0s with exit 0 before), and the reading is refused.
CLASSIC_PROFILE = {
    "client": "a client in the classic look",
    "first_click": "none",
    "mine_total": None,
    "win_requires_all_flags": "unknown",
    "hover_highlight": True,
    "question_marks": True,
    "loss_shown": "unknown: read from the board",
    "win_shown": "unknown: read from the board",
    "play": {
        "restart": "find",
        "after_win": {"keys": ["escape"], "wait": 0.05, "focus": False, "dialog": True},
        "redraw_timeout": 1.0,
        "settle": 0.02,
        "restart_timeout": 5.0,
        "flood": "4",
        "confirm_clicks": "cell",
    },
}


# What a refusal in this look adds: the client may draw a state its own way (ace-minesweeper's opened
# cells are green, its numbers white), and ``learn`` teaches it.
TEACH = f"a client that draws a state otherwise than the classic look is taught with: {HOW_TO_TEACH}"


@functools.lru_cache(maxsize=1)
def classic_skin() -> Skin:
    """The classic look as a skin with no pictures: ``vision.locate`` and ``vision.read`` read it with
    ``read_classic``."""
    return Skin(CLASSIC, (), dict(CLASSIC_PROFILE), family=CLASSIC)


# Share of a board's cells that must be raised for it to be taken for the classic look at all: a grid
# of flat cells (a table, a spreadsheet, a finished board) is nothing this look tells apart.
RAISED_SHARE = 0.02
# Mean cell clarity under which a grid is not a board in this look.
LOOK_MATCH = 0.7


def judge(reading: ClassicReading, rows: int, cols: int) -> tuple[float, str]:
    """(mean clarity, why it is not a classic board or ''): a placed lattice's cells read as this look.

    What tells a board in this look from any grid of grey cells is either its raised covered cells, or
    its two faces of which the rules say which is the covered cells' (``_read_by_faces``), or, on a
    finished game opened nearly whole, the game's own rules: every number the count of the mines
    shown around it, and at most one hit mine. A table of flat cells shows neither. And, as for every
    skin (``plausible.blank_area``), no game leaves no room for a mine: a grid of another client's flat
    tiles, read as opened empty cells, with a line of raised ones where a window's border cuts it (a
    fresh gnome-mines board at 99 px, its last column behind a window) is no board."""
    from .plausible import blank_area  # here: plausible's checks import the play package, which imports this

    score = float(reading.confidence.mean())
    raised = int(reading.covered.sum())
    if reading.look == RAISED and raised < RAISED_SHARE * len(reading.covered) \
            and not finished_game_fits(reading.chars, rows, cols):
        return score, (f"{'no' if not raised else 'too few'} raised cells on it (the classic look's covered cells "
                       "are raised), no two faces of which the game's rules say one is the covered cells', and it "
                       "is no finished game whose numbers fit the mines it shows")
    if blank_area(reading.chars.reshape(rows, cols)):
        return score, "read as open empty cells with no room for a mine (a blank area)"
    if reading.look == FACES and (reading.confidence < CLEAR).any():
        # Told by its faces alone, a board is taken only where every cell reads: a client's own board
        # whose colours a capture changed a few levels shows two faces too, and its pictures read it
        # with the change taken off.
        return score, "its cells show two faces, but not every cell reads as a look told by them"
    if score < LOOK_MATCH:
        return score, f"its cells fit the classic look poorly ({score:.2f})"
    return score, ""


def finished_game_fits(chars: np.ndarray, rows: int, cols: int) -> bool:
    """Is this (row-major states) a finished game by the rules: some mine shown, at most one of them hit
    (a lost game shows the one it hit; some clients show every mine at a win, none hit), some number,
    and every number equal to the mines shown around it (unflagged, hit or rightly flagged)?"""
    grid = np.asarray(chars).reshape(rows, cols)
    if (grid == "X").sum() > 1 or not np.isin(grid, ("*", "X")).any() or (grid == "~").any():
        return False
    from .plausible import around

    shown = around(np.isin(grid, ("*", "X", "F")))
    numbered = np.isin(grid, tuple("12345678"))
    return bool(numbered.any()) and bool((shown[numbered] == grid[numbered].astype(np.int32)).all())


def placed(frame: np.ndarray, lattice: Lattice) -> Lattice:
    """``lattice``, or a place a pixel from it along either axis, where its boxes' edges lie on the
    cells' edges: where the picture changes most across each box's edge (``_change``: a bevel's dark
    line beside the next cell's light one, a grid line beside a face, the middle of a line drawn
    between two cells), the nearest place where several change alike.

    A box a pixel off sees a neighbour's edge where its own bevel should be: a raised cell then looks
    flat (at 18 px every covered cell of minegauler's read as open), and a flat one raised (the groove
    round minegauler's opened cells, a light line beside a dark one, is a raised cell's edge seen from
    inside the box; so is the edge between two sunken Tk labels). Counting the cells that look raised
    chose such a place."""
    if not board_inside(frame, lattice):
        return lattice
    rect = lattice.board_rect()
    # Every edge moved a pixel either way, with the two pixels before it and one past it (``_change``).
    top, left = max(rect.top - 3, 0), max(rect.left - 3, 0)
    light = channel_mean(frame[top : rect.bottom + 3, left : rect.right + 3])
    across = light[rect.top - top : rect.bottom - top]  # the board's rows: its columns' edges
    down = light[:, rect.left - left : rect.right - left].T  # the board's columns: its rows' edges
    xs = np.array([round(x) - left for x in lattice.col_edges()])
    ys = np.array([round(y) - top for y in lattice.row_edges()])
    dx = _nearest_most({d: _change(across, xs + d) for d in (-1, 0, 1)})
    dy = _nearest_most({d: _change(down, ys + d) for d in (-1, 0, 1)})
    moved = lattice.translated(dx, dy)
    return moved if board_inside(frame, moved) else lattice


def _change(light: np.ndarray, edges: np.ndarray) -> float:
    """The mean change of ``light`` (lines, pixels along them) across ``edges``, each the first pixel
    past a box's edge, from the pixel before it; across a line two pixels wide drawn between two cells
    (``_drawn_between``), the change at both of its sides.

    What is drawn between two cells may be alike on either side of their edge: two pixels of grey
    between two Tk buttons, each in its highlight ring; two black lines between two Tk labels, each
    outlined in black. Across its middle the picture does not change, across its sides it does, so
    the boxes were placed a pixel off: on a side of the line, the covered cells' boxes missing their
    dark bevel (read as flat) or the outer boxes reaching over the board's frame (its open area not
    grown to the frame). Counted at its middle, such a line outweighs either of its sides."""
    edges = edges[(edges >= 2) & (edges + 1 < light.shape[1])]
    if not len(edges):
        return 0.0
    before, at, after = (light[:, edges + k] - light[:, edges + k - 1] for k in (-1, 0, 1))
    between = _drawn_between(before, at, after)
    return float(np.where(between, np.abs(before) + np.abs(after), np.abs(at)).mean())


def _drawn_between(before: np.ndarray, at: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Where the two pixels either side of an edge are alike (changing by ``at`` from the first to the
    second) and unlike the pixels beyond them (``before``: from the pixel before them to the first,
    ``after``: from the second to the pixel past them), are they a line drawn between two cells? They
    are unless they are one cell's bevel two pixels wide: a bevel is darker than the face on one side
    of it and than the other cell's light bevel on the other (or lighter than both), and those two
    differ. A line between cells either has the same colour on both sides (Tk labels outlined in
    black, a face beyond each side) or lies between them in light (the grey of Tk's highlight rings
    between one button's dark bevel and the next one's light bevel)."""
    alike = (np.abs(at) <= FACE_NEAR) & (np.abs(before) > FACE_NEAR) & (np.abs(after) > FACE_NEAR)
    same_beyond = np.abs(before + at + after) <= FACE_NEAR  # the pixel past them as light as the one before
    in_between = np.sign(before) == np.sign(after)  # lighter than one side, darker than the other
    return alike & (same_beyond | in_between)


def _nearest_most(changes: dict[int, float]) -> int:
    """The shift of the most change, or the nearest of those that change within EDGE_TIE of it."""
    most = max(changes.values())
    return min((shift for shift, change in changes.items() if change >= most * (1 - EDGE_TIE)), key=abs)


# Places whose edges change within this share of the most are alike (the nearest is taken).
EDGE_TIE = 0.05


def _outside(frame: np.ndarray, lattice: Lattice, side: str, depth: int, inside: int = 0) -> np.ndarray:
    """(pixels along ``side``, lines, 3): the first ``depth`` lines of pixels outside that side of the
    board, the nearest first; fewer where the picture ends. With ``inside``, the last lines inside
    the board come first (outward order still)."""
    rect = lattice.board_rect()
    length = rect.height if side in ("left", "right") else rect.width
    return _beside(frame, rect, side, (-inside, depth), (0, length))


def _beside(frame: np.ndarray, rect, side: str, out: tuple[int, int], along: tuple[int, int]) -> np.ndarray:
    """(pixels along, lines, 3): the pixels of ``frame`` by ``side`` of ``rect`` whose lines lie ``out``
    (first, last + 1) outward from it (0 the first line outside, negative inside) and which lie
    ``along`` it (first, last + 1) from its top or left end; clipped to the picture."""
    (d0, d1), (a0, a1) = out, along
    if side in ("left", "right"):
        rows = slice(max(0, rect.top + a0), max(0, rect.top + a1))
        if side == "right":
            return frame[rows, max(0, rect.right + d0) : max(0, rect.right + d1)]
        return frame[rows, max(0, rect.left - d1) : max(0, rect.left - d0)][:, ::-1]
    cols = slice(max(0, rect.left + a0), max(0, rect.left + a1))
    if side == "bottom":
        return frame[max(0, rect.bottom + d0) : max(0, rect.bottom + d1), cols].transpose(1, 0, 2)
    return frame[max(0, rect.top - d1) : max(0, rect.top - d0), cols][::-1].transpose(1, 0, 2)


def _uneven_strip(frame: np.ndarray, lattice: Lattice, side: str) -> bool:
    """Does the strip of pixels just outside ``side`` (a quarter pitch deep) change along the side, one
    cell's length to the next? A board's frame is the same all along; cells past the side, which the
    grid found left out, are not.

    Judged line by line of the strip, and uneven only when most of its lines are: cells past the side
    fill the whole strip, while a lattice placed a pixel off brings only its first line onto the
    board's own cells (which differ from cell to cell)."""
    strip = _outside(frame, lattice, side, max(2, round(min(lattice.pitch) / 4)))
    if strip.shape[1] == 0:
        return False
    count = lattice.cols if side in ("top", "bottom") else lattice.rows
    lines = strip.astype(np.float32).transpose(1, 0, 2)  # (lines, pixels along the side, 3)
    segments = np.stack([piece.mean(axis=1) for piece in np.array_split(lines, count, axis=1)], axis=1)
    if count >= 4:
        segments = segments[:, 1:-1]  # the end ones reach the frame's corners, drawn otherwise
    spread = np.abs(segments - np.median(segments, axis=1, keepdims=True)).max(axis=(1, 2))  # per line
    return bool((spread > SAME_CELL).sum() * 2 > len(spread))


# Mean difference (levels) along every line of pixels under which a box past the board's side is a cell
# like the board's covered or empty ones.
SAME_CELL = 12.0


def cells_past(frame: np.ndarray, lattice: Lattice, reading: ClassicReading,
               boxes: np.ndarray | None = None) -> list[str]:
    """The sides past which the board may go on: the strip just outside changes from cell to cell, a box
    of the next line looks like one of the board's covered or empty cells, or no line of the first few
    pixels outside differs from the cells' face (no frame or grid line: opened cells with no line
    between them look the same as a panel of their grey, so where the board ends cannot be told).
    ``reading``: the board's cells read at ``lattice`` (``boxes``: its ``cell_boxes``, when the caller
    has them)."""
    boxes = cell_boxes(frame, lattice) if boxes is None else boxes
    # The board's two faces: a raised cell's middle and a flat cell's rim, one grey in most clients,
    # but not where covered cells are a stipple (mid-grey on average) and opened cells light grey.
    faces = [f for f in reading.faces if f is not None]
    (ox, oy), (px, py) = lattice.origin, lattice.pitch
    # At a pitch that is not whole each box's bevels fall between pixels by another share: a covered
    # cell past the side differed from the median of the board's by 30 levels along a blended line
    # (a board zoomed 132% with smoothing, its open area no grid line bounds, was read as its covered
    # part alone, exit 0). Each box past the side is compared with the cells of the line it would
    # continue (``_like_its_line``), which fall between pixels as it does one way and by every share
    # the other way. (Compared with the median cell blurred by a picture's pixel, its outer lines left
    # out, a panel past a page's board with a dark line along the board's edge was taken for opened
    # cells: a board whose open area reached its top was refused.)
    sides = []
    for side, (dx, dy, rows, cols) in {
        "top": (0, -1, 1, lattice.cols), "bottom": (0, lattice.rows, 1, lattice.cols),
        "left": (-1, 0, lattice.rows, 1), "right": (lattice.cols, 0, lattice.rows, 1),
    }.items():
        line = Lattice(lattice.skin, (ox + dx * px, oy + dy * py), (px, py), rows, cols)
        # Where the picture ends less than a line of cells past the side, no cell past it can be
        # compared, but the strip and the frame still tell.
        past = cell_boxes(frame, line) if board_inside(frame, line) else boxes[:0]
        if (_uneven_strip(frame, lattice, side) or not _framed(frame, lattice, side, faces)
                or _like_its_line(past, *_lines_across(lattice, side, boxes, reading.chars))):
            sides.append(side)
    return sides


def grown_to_frame(frame: np.ndarray, lattice: Lattice, reading: ClassicReading,
                   limit: int = 64) -> tuple[Lattice, ClassicReading, list[str]]:
    """The lattice grown a line at a time over each side past which the board goes on (``cells_past``)
    where the whole next line reads clearly as cells of this look; with its reading, and the sides
    past which it still goes on.

    A client that draws no grid line between opened cells leaves an open area with no separators, so
    the structure finds only the part its raised cells bound (the rest "goes on past its side"). The
    board ends at its frame: growing stops where no side goes on, and a side that still goes on (no
    frame seen, a line that does not read) is left for the caller to refuse."""
    from .beyond import grown, outer_line

    boxes = cell_boxes(frame, lattice)
    for _ in range(limit):
        going_on = cells_past(frame, lattice, reading, boxes)
        for side in going_on:
            bigger = grown(lattice, side)
            if not board_inside(frame, bigger):
                continue
            bigger_boxes = cell_boxes(frame, bigger)
            wider = read_boxes(bigger_boxes, bigger)
            line = [row * bigger.cols + col for row, col in outer_line(bigger, side)]
            if (wider.confidence[line] >= CLEAR).all() and _plain_cells_alike(
                    bigger_boxes[line], wider.chars[line], *_lines_across(lattice, side, boxes, reading.chars)):
                lattice, reading, boxes = bigger, wider, bigger_boxes
                break
        else:
            return lattice, reading, going_on
    return lattice, reading, cells_past(frame, lattice, reading, boxes)


def trimmed(frame: np.ndarray, lattice: Lattice, reading: ClassicReading) -> tuple[Lattice, ClassicReading]:
    """The lattice less each outer line in which no cell reads as a state it could hold there, as long as
    the board keeps MIN_CELLS lines each way and some cell could; with its reading. A cell could
    hold the state it reads clearly, unless that is a number larger than its neighbours on the lattice
    (an outer cell has five, a corner three: it shows no 6, 7 or 8).

    The structure takes for a line of cells whatever its separators bound and cut into faces: a
    client's panel round the board can be so cut (a page scaled by a factor that is not whole leaves
    faint seams between its layout's rows: Windows XP's look at 135-160% showed its frame's grey band
    beside the board cut at every row, a column of "cells" reading as 8s, clearly or not, and the
    board was refused as going on past its other side). Read as cells of the look, such a line shows
    none; the board is judged without it, and is still refused where its cells go on past the side
    (``cells_past``)."""
    from solver.board import NUMBERS

    from .beyond import SIDES, outer_line, shrunk
    from .plausible import around
    from .structure import MIN_CELLS

    while True:
        chars = reading.chars.reshape(lattice.rows, lattice.cols)
        room = around(np.ones(chars.shape, dtype=bool))
        # A number's value (-1 for any other state, as ``plausible`` counts them) at most its neighbours.
        possible = (reading.confidence.reshape(chars.shape) >= CLEAR) & (np.char.find(NUMBERS, chars) <= room)
        if not possible.any():
            break
        blank = next((side for side in SIDES
                      if (lattice.rows if side in ("top", "bottom") else lattice.cols) > MIN_CELLS
                      and not any(possible[cell] for cell in outer_line(lattice, side))), None)
        if blank is None:
            break
        lattice = shrunk(lattice, blank)
        reading = read_classic(frame, lattice)
    return lattice, reading


def _like_its_line(past: np.ndarray, board_boxes: np.ndarray, board_chars: np.ndarray) -> bool:
    """Whether some box of ``past`` (a line of boxes past a side) is like one of the board's covered
    cells or 0s in the line it would continue (``board_boxes``, ``board_chars``: ``_lines_across``),
    along every line of its pixels; where that line has none, like one of the board's."""
    for box, line_boxes, line_chars in zip(past, board_boxes, board_chars):
        cells = _line_cells(line_boxes, line_chars, board_boxes, board_chars, "#0")
        if len(cells) and _like(cells, box).any():
            return True
    return False


def _line_cells(line_boxes: np.ndarray, line_chars: np.ndarray, board_boxes: np.ndarray, board_chars: np.ndarray,
                states: str) -> np.ndarray:
    """The boxes of the cells read as one of ``states`` in a box's own line (``line_boxes``,
    ``line_chars``), or in the whole board (``board_boxes``, ``board_chars``: ``_lines_across``) where
    its line has none."""
    mine = np.isin(line_chars, list(states))
    return line_boxes[mine] if mine.any() else board_boxes[np.isin(board_chars, list(states))]


def _lines_across(lattice: Lattice, side: str, boxes: np.ndarray, chars: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The board's boxes and their states (flat, one per cell) as the lines that run up to ``side``,
    one per cell of the line past it: its rows for the left and right sides, its columns for the top
    and bottom."""
    grid, states = boxes.reshape(lattice.rows, lattice.cols, *boxes.shape[1:]), chars.reshape(lattice.rows, lattice.cols)
    return (grid, states) if side in ("left", "right") else (grid.swapaxes(0, 1), states.T)


def _plain_cells_alike(boxes: np.ndarray, chars: np.ndarray, board_boxes: np.ndarray, board_chars: np.ndarray) -> bool:
    """Whether each of ``boxes`` (a line of cells past a side) read as a covered cell or a 0 is like
    one of the board's own cells of that state in the line it continues, along every line of its
    pixels (``_like``): a box over the board's frame reads as a flat 0 or a raised cell on average,
    but not along the frame's lines. ``board_boxes``, ``board_chars``: the board's lines that run up
    to the side (``_lines_across``), one per box.

    The board's cells in the box's own line, not all of them: at a pitch that is not whole (a picture
    zoomed with smoothing) each box's bevels fall between pixels by another share, the box's line
    sharing that share one way and its cells showing the others the other way; compared with the
    median of all the board's cells, a covered cell in the row over a board zoomed 103% differed
    along a blended line, the board was not grown over its open area, and it was refused. (Lines at
    a box's edge also blend with its neighbours, which differ from a cell's in the board: that is
    left strict, as dropping those lines would take a panel past a 1 px frame for opened cells.)
    Where the line has no cell of the state, all the board's cells of it are looked at. Where the
    board has no 0 yet, a 0 must be plain (one colour along every line but a grid line's); with no
    covered cell, a covered one vouches for nothing."""
    for box, char, line_boxes, line_chars in zip(boxes, chars, board_boxes, board_chars):
        if char not in "#0":
            continue
        cells = _line_cells(line_boxes, line_chars, board_boxes, board_chars, char)
        if len(cells):
            alike = _like(cells, box).any()
        elif char == "0":
            alike = _like(box[None, 1:, 1:], np.median(box[1:, 1:], axis=(0, 1), keepdims=True)).all()
        else:
            return False
        if not alike:
            return False
    return True


def _like(boxes: np.ndarray, cell: np.ndarray) -> np.ndarray:
    """Which ``boxes`` look like ``cell`` along every line of their pixels, across and down: a box of a
    panel in the cells' grey with the board's frame along one side is like an empty cell on average,
    not along the frame."""
    difference = channel_mean(np.abs(boxes - cell))
    return np.maximum(difference.mean(axis=1).max(axis=1), difference.mean(axis=2).max(axis=1)) < SAME_CELL


# Pixels outside a side searched for a frame or a grid line.
FRAME_REACH = 3


def _framed(frame: np.ndarray, lattice: Lattice, side: str, faces: list[np.ndarray]) -> bool:
    """Is one of the first FRAME_REACH lines of pixels outside ``side`` unlike each of the cells'
    ``faces`` (a frame, a grid line, a window's edge)?"""
    if not faces:
        return True
    lines = _outside(frame, lattice, side, FRAME_REACH)
    if lines.shape[1] < FRAME_REACH:
        return True  # the picture ends within reach: its edge is as good as a frame
    medians = [np.median(lines[:, d].astype(np.float32), axis=0) for d in range(FRAME_REACH)]
    return any(all(np.abs(line - face).max() > SAME_CELL for face in faces) for line in medians)


# The side whose frame faces the same way: a bevel is drawn in one shade on the bottom and right sides
# and another on the top and left (or flat all round).
PARTNER = {"right": "bottom", "bottom": "right", "left": "top", "top": "left"}
# Lines of pixels by which one side's frame may start further out than its partner's: a straight
# lattice through a browser's cells of two heights ends up to two pixels off at the far sides.
FRAME_SHIFT = 2
# Lines of pixels looked at outside each side: its frame, shifted by up to FRAME_SHIFT either way.
FRAME_DEPTH = FRAME_REACH + 2 * FRAME_SHIFT
# Share of the pixels past an end of a side along which a line of its frame runs on, for a window's edge.
FRAME_RUN = 0.9


def framed_unlike(frame: np.ndarray, lattice: Lattice, raised: np.ndarray) -> list[tuple[str, str]]:
    """(side, its partner) for each side whose frame is not drawn like its partner's (``_framed_alike``):
    where the board may end at a window's edge instead of its frame.

    Compared beside cells of one kind on both sides where both have some (``raised``: per cell, read
    as raised): what lies just inside the board is part of what is compared, and a side along raised
    cells shows their light or dark bevel where one along opened cells shows a grid line. Over the
    whole side, a window's edge 2 px past a covered row (its dark bevel, 2 px) over a row mostly open
    (its grid line making the third) matched a partner mostly covered (the 3 px frame): read short with
    exit 0. Kind by kind, it is 2 px by the raised cells against 3."""
    kinds = {side: _outer_kinds(lattice, side, raised) for side in PARTNER}

    @functools.cache
    def profile(side: str, kind: bool | None) -> tuple[np.ndarray, int] | None:
        """``side``'s frame profile beside its cells of ``kind`` (None: all along it); each side is its
        partner's partner, so each is measured once."""
        return _frame_profile(frame, lattice, side, None if kind is None else kinds[side][kind])

    unlike = []
    for side in ("top", "bottom", "left", "right"):
        partner = PARTNER[side]
        shared = [kind for kind in (True, False) if kinds[side][kind].any() and kinds[partner][kind].any()]
        if not all(_framed_alike(frame, lattice, side, profile(side, kind), profile(partner, kind))
                   for kind in shared or [None]):
            unlike.append((side, partner))
    return unlike


def _outer_kinds(lattice: Lattice, side: str, raised: np.ndarray) -> dict[bool, np.ndarray]:
    """Per kind (raised or not): which pixels along ``side`` (from its top or left end) lie beside the
    middle half of an outer cell of that kind, away from the corners its neighbours' bevels meet."""
    from .beyond import outer_line

    rect = lattice.board_rect()
    along, start = ((lattice.row_edges(), rect.top) if side in ("left", "right") else (lattice.col_edges(), rect.left))
    cells = outer_line(lattice, side)
    length = rect.height if side in ("left", "right") else rect.width
    kinds = {kind: np.zeros(length, dtype=bool) for kind in (True, False)}
    for k, (row, col) in enumerate(cells):
        first, last = along[k] - start, along[k + 1] - start
        quarter = (last - first) / 4
        kinds[bool(raised[row * lattice.cols + col])][math.ceil(first + quarter) : math.floor(last - quarter)] = True
    return kinds


def _frame_profile(frame: np.ndarray, lattice: Lattice, side: str,
                   beside: np.ndarray | None = None) -> tuple[np.ndarray, int] | None:
    """The median colour of each line of pixels by ``side``, outward from FRAME_REACH lines inside the
    board to FRAME_DEPTH outside ((lines, 3)), over the pixels along it ``beside`` selects (all where
    None), and the line where its frame ends (``_frame_end``); None where the picture ends within
    reach."""
    part = _outside(frame, lattice, side, FRAME_DEPTH, inside=FRAME_REACH)
    if part.shape[1] < FRAME_REACH + FRAME_DEPTH:
        return None
    if beside is not None:
        part = part[beside[: len(part)]]
        if not len(part):
            return None
    profile = np.median(part.astype(np.float32), axis=0)
    return profile, FRAME_REACH + _frame_end(profile[FRAME_REACH:])


def _framed_alike(frame: np.ndarray, lattice: Lattice, side: str, mine: tuple[np.ndarray, int] | None,
                  theirs: tuple[np.ndarray, int] | None) -> bool:
    """Is the frame outside ``side`` drawn like the one outside its ``PARTNER`` side (``mine`` and
    ``theirs``: their ``_frame_profile``)? A board's frame is drawn alike on the sides that face the
    same way; a window's border laid along a line between its cells, or a dialog of the cells' grey
    with none, is not the frame, though to the other tests it looks like the board's end.

    Compared by their ink where both sides show a colour beyond their frames (``_common_beyond``):
    what each frame adds to what lies beyond it, summed over its lines, is the same wherever it falls
    between pixels (a page drawn at a scale that is not whole blends a frame's first and last lines by
    other shares on each side, and a lattice a pixel or two off puts a line of it inside the board on
    one side and a line of the cells outside on the other): two frames are alike when they are of one
    colour (or a blend of it with what lies beyond) and as wide to within SUBPIXEL of a pixel
    (``_same_ink``). A window's border that a covered row's dark bevel (2 px) makes look like a frame
    is a pixel thinner than its partner's 3 px frame.

    Else line by line: from where each side becomes what lies beyond (the last line looked at)
    inwards, as many as the thicker frame has, up to FRAME_REACH: a lattice a pixel or two
    off puts the last cells' own pixels before one frame and not the other, and what covers a line of
    cells along its length with no border of its own shows that line's last pixels (a covered row's
    dark bevel, 2 px), a frame thinner than its partner's. Not more: a frame thinner than FRAME_REACH
    on both sides (a page's 3 px frame drawn at 80% is 2 px) would bring in the board's own cells,
    which differ from side to side (covered cells' light bevels along one, open cells along the
    other: minesweeper-for-web at 80% was refused so once a cell was open). A line fewer where the
    board's edges fall between pixels (a page at 76%: a blend of frame and cell on one side, a cell's
    bevel on the other). A side with no frame within reach is compared by its last line inside the
    board."""
    if mine is None or theirs is None:
        return True  # the picture ends within reach: nothing to compare
    (profile, end), (their_profile, their_end) = mine, theirs
    beyond = _common_beyond(profile, their_profile)
    if beyond is not None:
        (start, ink), (their_start, their_ink) = beyond
        end, their_end = start + len(ink), their_start + len(their_ink)
    if end == their_end == FRAME_REACH:
        return True  # no frame within reach on either side (``_framed`` judges that)
    depth = max(1, min(FRAME_REACH, max(end, their_end) - FRAME_REACH))
    if beyond is not None:
        if not _same_ink(ink, their_ink):
            return False
    else:
        edges = (*lattice.col_edges()[:: lattice.cols], *lattice.row_edges()[:: lattice.rows])
        if depth > 1 and any(edge != round(edge) for edge in edges):
            depth -= 1  # the board's edges fall between pixels: its first line may count as the frame's on one side
        if not _alike_blended(profile, end - depth, their_profile, their_end - depth, depth):
            return False
    lines = profile[end - depth : end]
    # And it turns at the board's corners, where a window's edge (a line of it) runs on unbroken past
    # both, through the partner sides' frames and beyond (a client's panel above the board can have a
    # frame in line with the board's, but a gap lies between them).
    rect = lattice.board_rect()
    length = rect.height if side in ("left", "right") else rect.width
    at, reach = (end - FRAME_REACH - depth, end - FRAME_REACH), FRAME_DEPTH + FRAME_REACH
    runs_on = np.ones(depth, dtype=bool)
    for span in ((-reach, 0), (length, length + reach)):
        part = _beside(frame, rect, side, at, span).astype(np.float32)
        if part.shape[:2] != (reach, depth):
            return True  # the picture ends there: nothing to tell
        runs_on &= (np.abs(part - lines).max(axis=2) <= SAME_CELL).mean(axis=0) >= FRAME_RUN
    return not runs_on.any()


def _beyond_runs(profile: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Where what lies beyond the frame may start on ``profile`` (lines outward, FRAME_REACH of them
    inside the board), and its colour, innermost first: each run of lines alike to its outermost one
    outside the board two or more lines long, and the last run. A run's colour is its median (its
    first line may be a blend with the frame's)."""
    runs, run = [], len(profile)
    for k in range(len(profile) - 2, FRAME_REACH - 2, -1):
        if k < FRAME_REACH or np.abs(profile[k] - profile[run - 1]).max() > SAME_CELL:
            if run - k > 2 or not runs:
                runs.append((k + 1, np.median(profile[k + 1 : run], axis=0)))
            run = k + 1
    return runs[::-1]


def _common_beyond(profile: np.ndarray, other: np.ndarray) -> tuple[tuple[int, np.ndarray], ...] | None:
    """Each side's frame (``_frame_ink``: its first line and ink) before the innermost run of a colour
    both sides show beyond one: a run of the frame's own colour has only the board's cells before it,
    which run on into the board."""
    for end, beyond in _beyond_runs(profile):
        for other_end, other_beyond in _beyond_runs(other):
            if min(end, other_end) <= FRAME_REACH or np.abs(beyond - other_beyond).max() > SAME_CELL:
                continue
            # A frame's line inside the board differs from what lies beyond no more than its lines
            # outside do (on either side: one may show only a blend there); a cell's dark pixels do.
            sides = ((profile, end, beyond), (other, other_end, other_beyond))
            most = max(np.abs(p[FRAME_REACH:e] - b).max() for p, e, b in sides) + SAME_CELL
            frames = tuple(_frame_ink(p, e, b, most) for p, e, b in sides)
            if all(FRAME_REACH - FRAME_SHIFT <= start < e for (start, _), (_, e, _) in zip(frames, sides)):
                return frames
    return None


def _same_ink(ink: np.ndarray, other: np.ndarray) -> bool:
    """Do two frames (``_frame_ink``) hold the same ink: the same colour, as wide to within SUBPIXEL of a
    pixel? What a frame adds to what lies beyond it, summed over its lines, does not change with where
    it falls between pixels (area sampling keeps it)."""
    peaks = [lines[np.argmax(np.abs(lines).max(axis=1))] for lines in (ink, other)]
    strong = max(peaks, key=lambda v: np.abs(v).max())
    size = float(np.linalg.norm(strong))
    unit = strong / size
    widths = []
    for lines, peak in zip((ink, other), peaks):
        share = float(np.clip(peak @ unit / size, 0.0, 1.0))
        if np.abs(peak - share * strong).max() > SAME_CELL:
            return False  # not the same colour, nor a blend of it with what lies beyond
        widths.append(float(np.clip(lines @ unit, 0.0, None).sum()) / size)
    return abs(widths[0] - widths[1]) <= SUBPIXEL


def _frame_ink(profile: np.ndarray, end: int, beyond: np.ndarray, most: float) -> tuple[int, np.ndarray]:
    """The frame's first line and (lines, 3) what each of its lines adds to what lies ``beyond`` it, up
    to ``end``: the lines before ``end`` that differ from it the way the last of them does, by no more
    than ``most``, back to the first that differs otherwise, hardly or more (a cell's own bevel or
    face, where the lattice ends a pixel inside the board); inside the board too, where it ends a pixel
    or two inside the frame."""
    ink = profile[:end] - beyond
    start = end
    while start > 0 and SAME_CELL / 2 < np.abs(ink[start - 1]).max() <= most \
            and (start == end or ink[start - 1] @ ink[end - 1] > 0):
        start -= 1
    return start, ink[start:]


def _alike_blended(profile: np.ndarray, start: int, other: np.ndarray, other_start: int, count: int) -> bool:
    """Are ``count`` lines of ``profile`` (lines outward) from ``start`` alike, each channel within
    SAME_CELL, to as many of ``other`` from ``other_start``? Two lines that are both blends of the
    same two levels (each strictly between the lines beside it, and those alike) may differ by how far
    each lies between them, up to SUBPIXEL of the way: a page scaled by a factor that is not whole
    draws a frame's line that falls between pixels blended by another share on each side (Windows XP's
    3 px frame at 125%: its third line 164 by the top, 151 by the left, both between the frame's 123
    and the panel's 189).
    A solid line against a blended one is compared as it is: a frame a line thinner (a window's edge
    two pixels past a line of cells, a covered row's dark bevel standing for the frame) ends in a
    blend where its partner's frame goes on solid."""
    for k in range(count):
        at, their_at = start + k, other_start + k
        if np.abs(profile[at] - other[their_at]).max() <= SAME_CELL:
            continue
        mine_between, their_between = _between(profile, at), _between(other, their_at)
        if mine_between is None or their_between is None:
            return False
        # Blends of the same two levels (the lines beside each alike), by shares less than SUBPIXEL apart.
        beside = (np.abs(profile[at - 1] - other[their_at - 1]).max() <= SAME_CELL
                  and np.abs(profile[at + 1] - other[their_at + 1]).max() <= SAME_CELL)
        if not beside or abs(mine_between - their_between) > SUBPIXEL:
            return False
    return True


def _between(profile: np.ndarray, at: int) -> float | None:
    """How far line ``at`` of ``profile`` lies from its inner neighbour to its outer one (0..1, over the
    channel that differs most between them), or None where it is no blend of them: a solid line (the
    level of either, to a level), or one outside them, or neighbours too alike to blend."""
    if at < 1 or at + 1 >= len(profile):
        return None
    inner, outer, line = profile[at - 1], profile[at + 1], profile[at]
    channel = int(np.argmax(np.abs(outer - inner)))
    span = float(outer[channel] - inner[channel])
    if abs(span) <= 2 * SAME_CELL or min(abs(line[channel] - inner[channel]), abs(line[channel] - outer[channel])) <= 1:
        return None
    share = float(line[channel] - inner[channel]) / span
    return share if 0.0 < share < 1.0 else None


# Share of a pixel by which a side's frame may lie off its partner's, read between their lines.
SUBPIXEL = 0.75


def _frame_end(profile: np.ndarray) -> int:
    """How many lines of ``profile`` (lines outward, (lines, 3)) come before it becomes what its last
    line shows: past the last one unlike that."""
    unlike = np.flatnonzero(np.abs(profile - profile[-1]).max(axis=1) > SAME_CELL)
    return int(unlike[-1]) + 1 if len(unlike) else 0
