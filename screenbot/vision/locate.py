"""Find the board on a frame: structure first, then the skin, then checks.

1. structure (``structure``): the cell lattices on the frame, from cell faces and the separators
   between them, with no skin's pictures involved, so any cell size and any placement is found;
2. a lattice cut short on some side (by the frame edge, a window edge or a window over it) is refused:
   the board is not all visible (unless, read as a look with no pictures, it grows to its frame: an
   open area with no lines between its cells has no separators, and the structure sees it as cut);
3. skin: each skin's templates are aligned to the pixel on the lattice (``align``) and the skin whose
   templates the cells match best is the one that drew it; a lattice no skin matches is not a board;
4. the board's size is checked against the client's standard sizes (``Skin.board_sizes``): a board a
   little smaller than one (``NEAR_STANDARD``) is a standard board cut by its window.

Several complete boards on one frame are all returned by ``locate_boards``; ``locate_board`` takes
the one a caller asks for (inside a window) or refuses, naming them.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass

import numpy as np

from ..errors import BoardNotFoundError
from ..geometry import Lattice, Rect
from .align import refine
from .background import as_skin_background
from .cells import canonical_crops, cell_images, match_cells
from .skins import CLASSIC, HOW_TO_TEACH, OUTSIDE, Skin, check_skin_name
from .beyond import NEAR_LINES, OWN_PIECE_AREA, board_pictures, cut_at_frame, cut_straight, grow, near_frame, pieces_beyond, skin_pictures
from .clipped import cut_sides
from .drawn_over import sides_drawn_over
from .grid import Grid, line_edges
from .plausible import blank_area
from .structure import MIN_CELLS, cell_faces, find_edges, find_grids

log = logging.getLogger(__name__)

# Mean confidence of a board's cells under the skin that drew it. Measured on the labelled
# screenshots with four skins: the skin that drew a board scores 0.79-1.0 on it, every other skin
# 0.77 at most; a grid of something that is not a board (icons, a table) scores far lower.
SKIN_MATCH = 0.7
# At this mean confidence the other skins are not tried.
CERTAIN = 0.9
# Pixels (each way) the template alignment searches around the structure's lattice.
ALIGN_REACH = 2.0
EDGE_MARGIN = 2  # px: a board closer than this to the frame edge may go on past it


@dataclass(frozen=True, slots=True)
class Found:
    """A board found on the frame, or a grid refused as one (``refusal`` says why)."""

    grid: Grid
    lattice: Lattice | None
    confidence: float
    refusal: str = ""
    unmatched: bool = False  # refused because no skin's pictures fit its cells
    # Refused, once the skin's pictures fit, for what lies round the board: its cells going on past a
    # side, grown past the grid found, or cut past a side (``_edge_refusal``).
    round_it: bool = False
    # Refused only for being a little smaller than one of its skin's standard boards (``_short_of_standard``).
    short: bool = False
    # The taught client whose pictures fit the cells best, where the board was refused once they did
    # (what lies round it, its size): ``rough_fit`` names it.
    skin: str = ""

    def describe(self) -> str:
        what = f"{self.lattice.skin} " if self.lattice is not None else ""
        return f"{what}board {self.grid.describe()}"

    def rough_fit(self) -> str:
        """Where the board was taken for a taught client's although its pictures fit the cells only
        roughly (best of all the skins, under ``CERTAIN``), how it was taken ('' when they fit closely,
        or the board was read as a look with no pictures). A client nobody taught whose cells look like
        a taught one's (flat grey cells: kmines' covered ones at 0.74) is taken for it, then refused
        for a cell or a colour that client's pictures do not have: that refusal alone names the wrong
        client and the wrong remedy."""
        skin = self.taken_for
        if not skin or skin == CLASSIC or self.confidence >= CERTAIN:
            return ""
        return f"taken for {skin}'s board only roughly (its pictures fit the cells {self.confidence:.2f} of 1)"

    @property
    def taken_for(self) -> str:
        """The skin the board was read as, or judged by before it was refused ('' for neither)."""
        return self.lattice.skin if self.lattice is not None else self.skin


def untaught(skin: Skin, looks: bool = True) -> str:
    """What to do when a board taken for ``skin``'s only roughly (``Found.rough_fit``) is refused: and
    where the client draws looks its skin does not read (its profile's ``looks_not_read``: gnome-mines'
    other tile themes, whose covered cells are its own), what to do if it is that client, unless not
    ``looks``: a board refused for what lies round it or its size is refused so in any look (a
    gnome-mines board in its own tiles, cut by its window and fitted 0.90, was told to choose its own
    tiles again)."""
    advice = f"if the game is not {skin.name}, it is a client nobody taught: teach it with {HOW_TO_TEACH}"
    remedy = skin.profile.get("looks_not_read") if looks else None
    return f"{advice}; if it is {skin.name}: {remedy}" if remedy else advice


def locate_boards(frame: np.ndarray, skins: dict[str, Skin], skin: str = "auto") -> list[Found]:
    """Every cell grid on ``frame`` (BGR uint8), each with its skin's lattice or the reason it is not
    a whole, readable board; largest first."""
    if frame is None or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise BoardNotFoundError("the frame is not a BGR uint8 image", skin=None if skin == "auto" else skin)
    check_skin_name(skin, skins)
    looks = list(skins.values()) if skin == "auto" else [skins[skin]]
    if min(frame.shape[:2]) < 20:
        return []  # no board fits (find_edges needs two pixels each way; a board needs many more)
    edges = find_edges(frame)
    found: list[Found] = []
    grids = find_grids(frame, edges)
    for grid in grids:
        judged = [_judge(frame, edges, grid, looks)]
        if judged[0].lattice is None and grid.parts:
            # Joined from groups on one lattice that are no board together: two boards side by side
            # (two React pages at one zoom, 26 px apart: one 16x48 board that "goes on" past its sides)
            # are each judged on its own.
            parts = [_judge(frame, edges, part, looks) for part in grid.parts]
            if any(part.lattice is not None for part in parts):
                judged = parts
        for one in judged:
            # Pieces of one board that the structure saw apart (an open area with no lines between its
            # cells splits the raised ones in two) grow to the same lattice: one board. Grids a pixel or
            # two apart over one board (Windows XP's look at 79%: pitches 0.5% apart) stay two boards,
            # and the choice is refused: the better fit is no witness of which reads right (there the
            # lattice fitted better read two flags as 5s).
            if one.lattice is None or _new_board(one.lattice, found):
                found.append(one)
    families = [look for look in looks if look.family]
    if not grids and families:
        # A board with no line between its opened cells whose covered cells make a strip a few lines
        # wide leaves the structure no 4x4 grid. A look read from its structure grows such a strip to
        # the board's frame; only a whole board so found is taken (else nothing was found, as before).
        for grid in find_grids(frame, edges, across=NARROW):
            if _off_picture(frame, grid):
                continue  # no whole board: its cells cannot all be cut from the picture
            judged = _judge_family(frame, grid, families[0])
            if judged.lattice is not None and min(judged.lattice.rows, judged.lattice.cols) >= MIN_CELLS \
                    and _new_board(judged.lattice, found):
                found.append(judged)
    return found


def _new_board(lattice: Lattice, found: list[Found]) -> bool:
    """Whether no board found already lies on exactly ``lattice``."""
    return all(lattice != other.lattice for other in found)


NARROW = 2  # lines across a strip of covered cells the classic look may grow to a board


def locate_board(frame: np.ndarray, skins: dict[str, Skin], skin: str = "auto", *, within: Rect | None = None) -> Lattice:
    """The board's lattice on ``frame``. ``skin`` is a skin name or "auto" (try all). With ``within``
    (a rectangle of the frame, such as the game's window) the board inside it is taken, else the
    only complete board on the frame.

    Raises BoardNotFoundError when no complete board is visible (or several, and none was asked
    for), naming what was seen and where; SkinError for an unknown skin name.
    """
    return locate_found(frame, skins, skin, within=within).lattice


def locate_found(frame: np.ndarray, skins: dict[str, Skin], skin: str = "auto", *, within: Rect | None = None) -> Found:
    """``locate_board``'s board with how well its look fits it (``Found.confidence``)."""
    found = locate_boards(frame, skins, skin)
    if within is not None:
        found = [f for f in found if within.contains_rect(_rect(f.grid))] or found
    boards = [f for f in found if f.lattice is not None and not f.refusal]
    skin_name = None if skin == "auto" else skin
    if len(boards) == 1:
        log.debug("located %s", boards[0].describe())
        return boards[0]
    if len(boards) > 1:
        names = "; ".join(f.describe() for f in boards)
        raise BoardNotFoundError(
            f"{len(boards)} complete boards on the screen ({names}): close or move all but one, or give the "
            f"board's lattice", skin=skin_name, reason="several boards")
    if not found:
        raise BoardNotFoundError("no Minesweeper board found: nothing on the frame looks like a grid of cells "
                                 "(at least 4x4)", skin=skin_name, reason="no grid of cells")
    best = found[0]
    rough = best.rough_fit() if skin == "auto" else ""
    also = f"; {rough}: {untaught(skins[best.taken_for], looks=not (best.round_it or best.short))}" if rough else ""
    raise BoardNotFoundError(f"no complete Minesweeper board found: {best.describe()}: {best.refusal}{also}",
                             skin=skin_name, reason=best.refusal)


def _rect(grid: Grid) -> Rect:
    left, top, right, bottom = grid.box()
    return Rect(int(np.floor(left)), int(np.floor(top)), int(np.ceil(right - left)), int(np.ceil(bottom - top)))


def _off_picture(frame: np.ndarray, grid: Grid) -> list[str]:
    """The sides by which ``grid`` runs into the picture's edge (it may go on off screen there)."""
    height, width = frame.shape[:2]
    left, top, right, bottom = grid.box()
    return [s for s, out in (("left", left < EDGE_MARGIN), ("top", top < EDGE_MARGIN),
                             ("right", right > width - EDGE_MARGIN), ("bottom", bottom > height - EDGE_MARGIN)) if out]


def _judge(frame: np.ndarray, edges, grid: Grid, skins: list[Skin]) -> Found:
    sides = _off_picture(frame, grid)
    if sides:
        return Found(grid, None, 0.0, f"it runs into the {' and '.join(sides)} edge of the picture (partly off screen)")
    families = [s for s in skins if s.family]
    cut = cut_sides(grid, edges)
    if cut:
        refusal = (f"its cells go on past its {' and '.join(cut)} side: part of the board is hidden (cut by its "
                   f"window or covered by another one)")
        if families:
            # A look with no grid line between opened cells: the structure saw only the part its raised
            # cells bound; or the structure took lines round the board for cells. Grown to its frame (or
            # trimmed to its cells) in that look, the board must no longer go on anywhere, and its frame
            # tells where it ends (``classic.cells_past``, ``classic.framed_unlike``), not the shape of its
            # last faces' corners, nor the separators the structure saw going on past a side: a page's
            # layout scaled by a factor that is not whole draws faint seams between its rows across the
            # panel round the board (Windows XP's look at 120-160%), which go on past it as a cut board's
            # separators do (every such board was refused as cut). A window over a side, its edge at any
            # pixel across the line it cuts, is refused by the look's own tests (drawn boards with a
            # window over a side, whole or in part: 562 refused, none read, with or without asking the
            # separators again).
            family = _judge_family(frame, grid, families[0])
            if family.lattice is not None:
                return family
        return Found(grid, None, 0.0, refusal)
    by_name = {s.name: s for s in skins}
    skins = [s for s in skins if not s.family]
    found = _judge_by_pictures(frame, grid, skins) if skins else None
    if families and (found is None or found.unmatched):
        # No taught client's pictures fit: a look read from its structure may (the classic look).
        return _judge_family(frame, grid, families[0])
    if families and (found.round_it and found.confidence < CERTAIN or found.short):
        # A taught client's pictures fit the cells only roughly, and the board was refused for what
        # lies round it (its cells going on, grown past the grid found, cut past a side): another
        # client's pictures take what lies round the board for cells (minesweeper-for-web at 90%: its
        # panel's margin, whose white edge and grey repeat a covered cell's top, grew the board by
        # kmines' pictures and cut it straight by react-minesweeper's; a grey page round it went on
        # as kmines' cells). Or, however well they fit, it was refused as a standard board its window
        # cuts on its size alone, nothing on the picture showing the cut: a fresh board is all covered
        # cells, which many clients draw alike (the React page's fresh 12x12 boards were taken for
        # xbomb's 16x16). The look read from its structure judges the grid on its own, with its own
        # checks of the frame (each side drawn like its partner) and the edges, and is taken where it
        # finds the whole board; else the refusal stands. (Not for other refusals: there the grid
        # itself is what is refused, and a board under a dialog is looked for several times a second.)
        family = _judge_family(frame, grid, families[0])
        return family if family.lattice is not None else found
    if families and found.lattice is not None:
        # A taught client's pictures fit the cells' pattern only roughly: another client drawn alike
        # may be before us (a classic-look page with react-minesweeper's grey raised cells, 4 levels
        # off; a Windows 3.1 clone whose covered cells pass for the React page's, its opened ones not).
        # Where the pictures' colours are not the cells' at all, or some cells they do not read, the
        # look read from the structure is asked too, and taken where it reads more of the board;
        # else the taught client's reading refuses it as before. However closely they fit, where
        # they leave cells unread and the look reads every cell, each cell they read surely as they
        # do (``_reads_alike``), the look is taken: the client drawn in another of its looks
        # (gnome-mines' other tiles: its covered cells, fitted 0.90-0.98 by its own tiles' pictures,
        # its numbers in other colours). A look told by faces is taken so only.
        from .classic import CLEAR, RAISED, read_classic
        from .read import read_visible

        rough = found.confidence < CERTAIN
        chars = np.array([[ch or "~" for ch in row] for row in read_visible(frame, found.lattice, by_name)])
        unread = int((chars == "~").sum())
        if unread or (rough and _other_colours(frame, found.lattice, chars, by_name)):
            family = _judge_family(frame, grid, families[0])
            if family.lattice is None:
                return found
            reading = read_classic(frame, family.lattice)
            if _reads_alike(reading, chars) or _finished_whole(reading, family.lattice):
                return family
            # Told by its relief, the look is taken where it reads more of a roughly fitted board.
            unclear = int((reading.confidence < CLEAR).sum())
            if rough and reading.look == RAISED and (not unread or unclear < unread):
                return family
    return found


def _reads_alike(reading, chars: np.ndarray) -> bool:
    """Whether the look read from its structure (``reading``: a ``classic.ClassicReading``) reads
    every cell surely, and each cell a taught client's pictures read surely (``chars``: (rows, cols),
    "~" where they do not) as they do: two readers from different evidence agreeing, as where the look
    reads what the pictures leave unread (``read._second_reader``). A board a taught client's pictures
    fit is read in a look told by its faces only so: a gnome-mines board shown in grey levels, its
    tinted number cells near its covered cells' grey, read a 4 as a flag in that look."""
    from .classic import CLEAR

    if chars.size != len(reading.chars) or (reading.confidence < CLEAR).any():
        return False
    sure = chars.reshape(-1) != "~"
    return bool((reading.chars[sure] == chars.reshape(-1)[sure]).all())


def _finished_whole(reading, lattice: Lattice) -> bool:
    """Whether the look read from its structure (``reading``) reads every cell surely, as a finished game
    whose every number is the count of the mines it shows round it (``classic.finished_game_fits``):
    the game's own rules as the second witness, where the taught client's pictures are no witness (a
    lost board of gnome-mines' "default" tiles, dimmed at the loss: its pictures read its opened cells
    as covered, surely)."""
    from .classic import CLEAR, finished_game_fits

    return bool((reading.confidence >= CLEAR).all()) and finished_game_fits(reading.chars, lattice.rows, lattice.cols)


def _other_colours(frame: np.ndarray, lattice: Lattice, chars: np.ndarray, skins: dict[str, Skin]) -> bool:
    """Whether the cells that ``lattice``'s skin reads surely (``chars``, "~" where it does not) have
    colours other than its pictures', by more than its client's own colours ever are as captured
    (``colour_cast.NOISE_OFF``). Cells it does not read (a number unlike its own, the pointer over
    one) say nothing either way. A restored 16-bit capture is compared as the read's check compares it
    (``colour_cast.check_colours``): with the pictures as such a capture shows them (a classic-look page
    at 90% in 16 bits was 3 levels off react-minesweeper's pictures as they are, 4 off them as a 16-bit
    capture shows them: taken for the React page here, then refused for its colours)."""
    from .colour_cast import NOISE_OFF, colour_offset, restored_16_bit

    return colour_offset(frame, lattice, chars, skins[lattice.skin], restored_16_bit(frame))[0] > NOISE_OFF


def _judge_family(frame: np.ndarray, grid: Grid, skin: Skin) -> Found:
    """The grid as a board of a look read from its structure (``classic``), grown to its frame, or why
    it is not one.

    The cell's face is taken as its whole box in this look (bevels included), so the box is centred
    on it. Cells in this look are square: where the rows' pitch exceeds the columns' (or the reverse)
    by more than a pixel, the excess is space between lines of cells, which may lie all on one side of
    each (a page's inline-block cells have a line's spacing below each row): a box centred on the
    face then ends in that space, the board's edge short of its frame. Where the centred boxes are
    refused for what lies round them, the boxes moved along that axis by up to the excess are judged
    too (nearest first), and the first that shows a whole board is taken."""
    (cx, cy), (px, py) = grid.centre, grid.pitch
    centred = (cx - px / 2, cy - py / 2)
    first = _judge_family_at(frame, grid, skin, centred)
    if first.lattice is not None or not first.round_it:
        return first
    excess_x, excess_y = (int(excess) if excess >= SPACED else 0 for excess in (px - py, py - px))
    moves = [(sign * d, 0) for d in range(1, excess_x + 1) for sign in (1, -1)] + \
            [(0, sign * d) for d in range(1, excess_y + 1) for sign in (1, -1)]
    for dx, dy in moves:
        moved = _judge_family_at(frame, grid, skin, (centred[0] + dx, centred[1] + dy))
        if moved.lattice is not None:
            return moved
    return first


# Pixels by which one pitch must exceed the other for the excess to be taken as space between lines
# of cells (a least-squares pitch of square cells is a fraction of a pixel off either way).
SPACED = 1.5


def _judge_family_at(frame: np.ndarray, grid: Grid, skin: Skin, origin: tuple[float, float]) -> Found:
    """``_judge_family_on`` the straight lattice at ``origin``; where that is refused and the grid's
    lines of faces stray from it (cells of uneven widths: GTK gives a window's spare pixels to some
    lines, and the straight lattice's boxes lie up to two pixels off them, where a mark's shape is cut by
    the gap beside it: a mine on a lost board of gnome-mines' tiles at 33 px), on the lattice whose boxes
    follow the lines, centred on their faces, moved as ``origin`` moves the straight one's."""
    straight = Lattice(skin.name, origin, grid.pitch, grid.rows, grid.cols)
    whole = _whole_pixels(straight)
    found = _judge_family_on(frame, grid, skin, whole)
    if found.lattice is None and _faces_stray(grid):
        (cx, cy), (px, py) = grid.centre, grid.pitch
        lines = _following_lines(grid, straight, whole, (0.5, 0.5))
        if lines is not None:
            lines = lines.translated(origin[0] - (cx - px / 2), origin[1] - (cy - py / 2))
            moved = _judge_family_on(frame, grid, skin, lines)
            return moved if moved.lattice is not None else found
    return found


def _judge_family_on(frame: np.ndarray, grid: Grid, skin: Skin, lattice: Lattice) -> Found:
    """The grid as a board of a look read from its structure on ``lattice`` (placed on the cells' edges,
    trimmed to the lines that hold its cells, grown to its frame), or why it is not one."""
    from . import classic

    lattice = classic.placed(frame, lattice)
    lattice, reading = classic.trimmed(frame, lattice, classic.read_classic(frame, lattice))
    score, why = classic.judge(reading, lattice.rows, lattice.cols)
    if why:
        return Found(grid, None, score, f"its cells match no known skin, nor the {skin.name} look: {why}: a client "
                                        f"nobody taught, or not a board (a client is taught with {HOW_TO_TEACH})")
    lattice, reading, going_on = classic.grown_to_frame(frame, lattice, reading)
    score, why = classic.judge(reading, lattice.rows, lattice.cols)
    if why:
        return Found(grid, None, score, f"grown to its frame, its cells match the {skin.name} look poorly: {why}")
    if going_on:
        return Found(grid, None, 0.0, f"cells like its own show past its {' and '.join(going_on)} side: the board "
                                      f"goes on there, or its edge cannot be told from what surrounds it", round_it=True)
    unlike = classic.framed_unlike(frame, lattice, reading.covered)
    if unlike:
        side, partner = unlike[0]
        return Found(grid, None, 0.0, f"its frame by its {side} side is not drawn like the one by its {partner} "
                                      f"side: a window's edge along a line between its cells may hide part of it",
                     round_it=True)
    edges = _edge_refusal(frame, lattice)
    if edges:
        return Found(grid, None, 0.0, edges, round_it=True)
    pieces = pieces_beyond(frame, lattice, board_pictures(frame, lattice), OWN_PIECE_AREA)
    if pieces:
        return Found(grid, None, 0.0, f"a piece of a cell like its own shows past its {' and '.join(pieces)} side, cut "
                                      f"straight: part of the board is hidden (covered by another window)", round_it=True)
    return Found(grid, lattice, score, "")


def _likeliest_scales(frame: np.ndarray, placed: list[Lattice], skin: Skin) -> tuple[list[Lattice], float]:
    """The placements at the desktop scales whose first look (``_quick_match``, of each scale's first
    placement) fits within SCALE_MARGIN of the best scale's: the others are not aligned and
    scored at all. And the first one kept's sample, the skin's first look."""
    looks = {}
    for lattice in placed:
        if lattice.scale not in looks:
            looks[lattice.scale] = _quick_match(frame, lattice, skin)
    best = max(looks.values())
    kept = [lattice for lattice in placed if looks[lattice.scale] >= best - SCALE_MARGIN]
    return kept, looks[kept[0].scale]


# The wrong desktop scale's sample fits 0.11 to 0.25 worse than the right one's (gnome-mines at 41 to
# 99 px at 100%, at 46 to 92 px at 200%: gaps half or twice as wide as its pictures').
SCALE_MARGIN = 0.05


def _following(placed: list[Lattice]) -> Lattice:
    """Of a skin's placements, the first whose boxes follow the faces line by line, else the first."""
    return next((lattice for lattice in placed if not lattice.straight), placed[0])


def _edge_refusal(frame: np.ndarray, lattice: Lattice) -> str:
    """Why a board found whole may still go on past the picture's edge or a window's ('' if not)."""
    near = near_frame(frame, lattice)
    if near:
        return (f"it ends less than {NEAR_LINES} px from the {' and '.join(near)} edge of the picture: the board "
                f"may go on off screen")
    cut = cut_at_frame(frame, lattice)
    if cut:
        return (f"a piece of a further line of its cells shows past its {' and '.join(cut)} side, at the edge of "
                f"the picture: the board goes on off screen")
    cut = cut_straight(frame, lattice)
    if cut:
        return (f"a piece of a further line of its cells shows past its {' and '.join(cut)} side, cut straight: "
                f"part of the board is hidden (cut by its window or covered by another one)")
    return ""


def _judge_by_pictures(frame: np.ndarray, grid: Grid, skins: list[Skin]) -> Found:
    height, width = frame.shape[:2]
    # A skin places its pitch boxes round the faces found, and alignment moves them: a board near the
    # picture's edge can have a skin's boxes past it (cut there, a cell is no cell: an empty crop).
    room = Rect(0, 0, width, height).expanded(-int(np.ceil(ALIGN_REACH)) - 1)
    placements = {s.name: [p for p in _skin_lattices(grid, s) if room.contains_rect(p.board_rect())] for s in skins}
    if not any(placements.values()):
        return Found(grid, None, 0.0, "it runs into the edge of the picture (partly off screen)")
    best: tuple[float, Lattice] | None = None
    blank = ""  # a skin whose every placement reads as a blank area
    # Each skin judges the board as its pictures show it: on their background (``background``), found
    # along the lines between the cells, which boxes that follow the faces follow best.
    seen = {s.name: as_skin_background(frame, _following(placements[s.name]), s) for s in skins if placements[s.name]}
    looked = {s.name: _likeliest_scales(seen[s.name], placements[s.name], s) for s in skins if placements[s.name]}
    placements = {name: kept for name, (kept, _) in looked.items()}
    quick = sorted(((looked[s.name][1], s) for s in skins if s.name in looked), key=lambda q: -q[0])

    def aligned(skin: Skin) -> None:
        nonlocal best, blank
        for placed in placements[skin.name]:
            refined = refine(seen[skin.name], skin, placed, (ALIGN_REACH, ALIGN_REACH))
            # Boxes placed line by line from the faces are judged where they were placed too: the few
            # lines that judge a nudge can favour one that fits them and misplaces the rest (two
            # lower rows of a GTK board moved every row a pixel down).
            for lattice in [refined] + ([placed] if not placed.straight and placed != refined else []):
                scores, chars = _cell_scores(seen[skin.name], lattice, skin)
                if blank_area(chars.reshape(lattice.rows, lattice.cols)):
                    # No game shows a board with no room for a mine (``plausible``): a skin whose opened
                    # cells look like another client's covered ones (sgt-mines' like a Tk clone's 1 px
                    # raised buttons, fresh) fits the cells, not the board.
                    blank = blank or skin.name
                    continue
                score = float(scores.mean())
                if best is None or score > best[0]:
                    best = (score, lattice)

    behind = []  # skins far behind the best at first look: not aligned
    for first_look, skin in quick:
        if best is not None and best[0] >= CERTAIN:
            break
        if first_look < quick[0][0] - QUICK_MARGIN:
            behind.append(skin)  # alignment does not make up that much, as a rule
            continue
        aligned(skin)
    if best is None or best[0] < CERTAIN:
        # No skin fits surely: those left behind get a second look, a pixel each way. Placed from the
        # faces' centres, a box can be a pixel off where its pictures lie, and sharp bevels match
        # nothing a pixel off (the React page at 99%: 0.16 where it was placed, 0.85 once aligned,
        # behind xbomb's 0.70 and never aligned).
        for skin in behind:
            if _quick_match(seen[skin.name], placements[skin.name][0], skin, nudged=True) >= quick[0][0] - QUICK_MARGIN:
                aligned(skin)
    if best is None or best[0] < SKIN_MATCH:
        matched = f" (best {best[1].skin}, {best[0]:.2f})" if best else ""
        why = (f"its cells match no known skin{matched}: a client nobody taught (screenbot new-skin), or not a board"
               if best or not blank else f"its cells read as {blank}'s open empty cells, with no room for a mine: a blank area, not a board")
        return Found(grid, None, best[0] if best else 0.0, why, unmatched=True)
    score, lattice = best
    skin = next(s for s in skins if s.name == lattice.skin)
    whole, going_on = grow(seen[skin.name], lattice, skin)
    if going_on:
        return Found(grid, None, score, f"cells of {skin.name} go on past its {' and '.join(going_on)} side: only "
                                        f"part of the board was found", round_it=True, skin=skin.name)
    grown = whole != lattice
    if grown:
        # Lines of cells the structure did not see as cells (a stipple, faces cut by digits), read as
        # cells by the skin: the board is bigger than the grid found. Checked again as a whole.
        rect = whole.board_rect()
        if rect.left < EDGE_MARGIN or rect.top < EDGE_MARGIN or rect.right > width - EDGE_MARGIN or rect.bottom > height - EDGE_MARGIN:
            return Found(grid, None, score, "its cells go on to the edge of the picture (partly off screen)", round_it=True,
                         skin=skin.name)
        on_it = as_skin_background(frame, whole, skin)
        lattice = refine(on_it, skin, whole, (1.0, 1.0))
        score = float(_cell_scores(on_it, lattice, skin)[0].mean())
        if score < SKIN_MATCH:
            return Found(grid, None, score, f"grown over the cells past its sides, it matches {skin.name} poorly ({score:.2f})",
                         round_it=True, skin=skin.name)
    # What lies past the board is compared with its cells as the picture shows both.
    edges = _edge_refusal(frame, lattice)
    if edges:
        return Found(grid, None, score, edges, round_it=True, skin=skin.name)
    on_it = as_skin_background(frame, lattice, skin)
    pieces = pieces_beyond(on_it, lattice, skin_pictures(skin, lattice))
    if pieces:
        return Found(grid, None, score, f"a piece of a cell of {skin.name} shows past its {' and '.join(pieces)} side, cut "
                                        f"straight: part of the board is hidden (covered by another window)",
                     round_it=True, skin=skin.name)
    over = sides_drawn_over(on_it, lattice, skin)
    if over:
        return Found(grid, None, score, f"its {' and '.join(over)} line of cells is partly hidden along its length "
                                        f"(a window's border or another window drawn over it): its cells cannot be read",
                     round_it=grown, skin=skin.name)
    short = _short_of_standard(lattice, skin)
    return Found(grid, lattice, score, short, short=bool(short))


# A board this close to one of the client's standard sizes (a share of each side), but smaller, is that
# standard board cut by its window: GTK clips a board whose window is too small for it, and the cut
# can fall exactly between two rows of cells, where nothing on the picture shows it (gnome-mines'
# expert board in its own default 610x460 window shows 12x20 whole cells). Custom boards that small
# are refused too; they can be read with an explicit lattice.
NEAR_STANDARD = 0.35


def _short_of_standard(lattice: Lattice, skin: Skin) -> str:
    """Why a board a little short of one of the client's standard sizes is refused ('' if not)."""
    size = (lattice.rows, lattice.cols)
    for rows, cols in skin.board_sizes:
        if size == (rows, cols):
            return ""
    for rows, cols in skin.board_sizes:
        if rows * (1 - NEAR_STANDARD) <= lattice.rows <= rows and cols * (1 - NEAR_STANDARD) <= lattice.cols <= cols:
            return (f"it has {lattice.rows}x{lattice.cols} cells, a little smaller than {skin.name}'s {rows}x{cols}: its window "
                    f"probably cuts it (make the window larger; for a custom board of this size give its lattice)")
    return ""


# A board whose cells stray further than this (px) from a straight lattice gets a box per cell width.
STRAY = 0.75
# Boxes that follow their faces are tried only where each is within this (px) of the pitch.
TWO_WIDTHS = 1.5


def _skin_lattices(grid: Grid, skin: Skin) -> list[Lattice]:
    """The grid as pitch boxes placed around the faces the way the skin's templates place them, one or
    two ways for the skin's fit to choose from (``_judge``): on whole pixels when the pitch is whole
    to within a pixel over the board, and boxes that follow each column's and row's own faces when
    those stray from a straight lattice. Straying faces are either cells of two widths (GTK gives some
    cells a pixel more, and the widths can still add up to whole pixels) or faces of several kinds on
    a straight board (a lost board's mines and borders): only the templates can tell which. Each way
    at each desktop scale the skin's client follows (``device_scales``) whose drawn pitch its
    pictures come near: the fit chooses that too."""
    return [lattice for scale in _device_scales(skin, grid.pitch) for lattice in _placed(grid, skin, scale)]


def _device_scales(skin: Skin, pitch: tuple[float, float]) -> list[float]:
    """The desktop scales (``Lattice.scale``) a board of this pitch may be drawn at by the skin's client:
    1, and each other one its profile names (``device_scales``: gnome-mines draws at 200% too) that
    leaves a drawn pitch no smaller than SCALED_LEAST of its smallest pictures'."""
    smallest = min((t.pitch[0] for t in skin.templates), default=0.0)
    return [1.0] + [float(scale) for scale in skin.profile.get("device_scales", ()) if scale != 1
                    and pitch[0] / scale >= SCALED_LEAST * smallest]


# A desktop scale is tried only where it leaves cells no smaller than this share of the smallest
# pictures (gnome-mines' 23 px: no cell under 20 px at 100%, none under 40 px at 200%).
SCALED_LEAST = 0.85


def _placed(grid: Grid, skin: Skin, scale: float) -> list[Lattice]:
    """``_skin_lattices`` at one desktop scale."""
    fx, fy = (0.5, 0.5) if grid.boxes else face_phase(skin, round(grid.pitch[0] / scale))
    (cx, cy), (px, py) = grid.centre, grid.pitch
    straight = Lattice(skin.name, (cx - fx * px, cy - fy * py), (px, py), grid.rows, grid.cols, scale=scale)
    whole = _whole_pixels(straight)
    if not _faces_stray(grid):
        return [whole]
    lines = _following_lines(grid, straight, whole, (fx, fy))
    # A few columns whose faces sit off (xbomb's lost board: green borders and bombs where black lines
    # were) pull the least-squares pitch off a whole number of pixels and bend the boxes that follow
    # the faces; the median step and phase keep to the columns that agree.
    col_x, row_y = grid.centres
    steady = _whole_pixels(_median_lattice(skin.name, col_x, row_y, fx, fy, scale))
    return [lattice for lattice, kept in ((whole, whole is not straight), (lines, lines is not None),
                                          (steady, steady != whole)) if kept]


def _faces_stray(grid: Grid) -> bool:
    """Whether the grid's lines of faces stray from its straight lattice by more than STRAY px."""
    (cx, cy), (px, py) = grid.centre, grid.pitch
    col_x, row_y = grid.centres
    stray = max(np.abs(col_x - cx - px * np.arange(grid.cols)).max(), np.abs(row_y - cy - py * np.arange(grid.rows)).max())
    return stray > STRAY and grid.rows >= 2 and grid.cols >= 2


def _following_lines(grid: Grid, straight: Lattice, whole: Lattice, phase: tuple[float, float]) -> Lattice | None:
    """The lattice whose boxes follow the grid's lines of faces (``grid.line_edges``; ``phase``: the
    face centre's share of its box), where each box is within TWO_WIDTHS of the pitch; None where one is
    not. ``whole``: ``straight`` on whole pixels, or ``straight`` itself where its client does not draw so."""
    (fx, fy), (px, py) = phase, straight.pitch
    (lefts, rights), (tops, bottoms) = grid.extents
    xs, ys = line_edges(lefts, rights, fx, px), line_edges(tops, bottoms, fy, py)
    if whole is not straight:
        # A client that draws on whole pixels draws each box on them too, wider or not.
        xs, ys = np.round(xs), np.round(ys)
    # Boxes a pixel wider or narrower than the pitch, as a toolkit draws them (a pixel of its own: two
    # of the screen's at 200%); a line of faces much narrower is cut or covered (a window's border
    # over it), not a line of smaller cells.
    if max(np.abs(np.diff(xs) - px).max(), np.abs(np.diff(ys) - py).max()) > TWO_WIDTHS * straight.scale:
        return None
    return Lattice.from_edges(straight.skin, tuple(float(x) for x in xs), tuple(float(y) for y in ys), straight.scale)


def _median_lattice(name: str, col_x: np.ndarray, row_y: np.ndarray, fx: float, fy: float, scale: float) -> Lattice:
    """A straight lattice through the columns' and rows' face centres by the median step and phase."""
    (px, ox), (py, oy) = _median_line(col_x), _median_line(row_y)
    return Lattice(name, (ox - fx * px, oy - fy * py), (px, py), len(row_y), len(col_x), scale=scale)


def _median_line(at: np.ndarray) -> tuple[float, float]:
    """(step, phase) of ``at[i] ~ phase + step * i`` by medians."""
    step = float(np.median(np.diff(at)))
    return step, float(np.median(at - step * np.arange(len(at))))


WHOLE_PIXELS = 1.0  # px over the board by which a pitch may miss a whole number of pixels and be put on it


def _whole_pixels(lattice: Lattice) -> Lattice:
    """The lattice on whole pixels when its pitch is a whole number of pixels to within a pixel over
    the board: a client that draws at an integer pitch gets boxes that cut each cell exactly like its
    templates (a least-squares pitch of 19.99 leaves the last cells' boxes a pixel off, and a
    fractional origin rounds differently from cell to cell), and a board grown from a small piece
    (``beyond.grow``) does not drift off its cells (19.09 from a 7x9 piece of a 19 px board). Scaled
    pages (37.5 px) stay as they are. Alignment nudges by whole pixels after."""
    (ox, oy), (px, py) = lattice.origin, lattice.pitch
    whole = round(px), round(py)
    if abs(px - whole[0]) * lattice.cols >= WHOLE_PIXELS or abs(py - whole[1]) * lattice.rows >= WHOLE_PIXELS:
        return lattice
    return Lattice(lattice.skin, (float(round(ox)), float(round(oy))), (float(whole[0]), float(whole[1])),
                   lattice.rows, lattice.cols, scale=lattice.scale)


@functools.lru_cache(maxsize=256)
def face_phase(skin: Skin, pitch: int) -> tuple[float, float]:
    """Where in its pitch box the skin draws a cell's face (its centre, as a share of the box), from the
    covered template captured nearest this pitch, or the open "0" one when the covered cell is a
    picture with no face of its own (minegauler's butterflies); the middle when neither has one."""
    for char in "#0":
        pictures = [t for t in skin.templates if t.char == char]
        if not pictures:
            continue
        image = min(pictures, key=lambda t: abs(np.log(t.pitch[0] / max(pitch, 1)))).image
        # Pad with the template's own border pixels so a face touching the box edge stays closed.
        faces = cell_faces(find_edges(np.pad(image, ((1, 1), (1, 1), (0, 0)), mode="constant")))
        if not len(faces):
            continue
        i = int(np.argmax(faces.width * faces.height))
        height, width = image.shape[:2]
        if faces.width[i] * faces.height[i] < FACE_SHARE * width * height:
            continue  # a piece of a picture, not a face
        return float((faces.cx[i] - 1) / width), float((faces.cy[i] - 1) / height)
    return 0.5, 0.5


FACE_SHARE = 0.25  # of the pitch box: a template's largest flat area smaller than this is no face


QUICK_CELLS = 24  # cells sampled to order the skins before the full alignment
# Skins whose first look scores this far below the best one's are not aligned at all (unless the best
# fit is uncertain: ``_judge_by_pictures``). On the labelled screenshots alignment raised a skin's first
# look by 0.1 at most.
QUICK_MARGIN = 0.2


def _quick_match(frame: np.ndarray, lattice: Lattice, skin: Skin, nudged: bool = False) -> float:
    """Mean confidence of a few cells spread over the skin's first placement of the grid, unaligned:
    enough to try the right skin first. ``nudged``: at the best of the placement and its eight
    neighbours a pixel away, which alignment reaches whatever else it does (``_judge_by_pictures``'s
    second look)."""
    rng = np.random.default_rng(0)
    count = min(QUICK_CELLS, lattice.rows * lattice.cols)
    picks = rng.choice(lattice.rows * lattice.cols, size=count, replace=False)
    # The placements judged lie ALIGN_REACH + 1 px inside the frame (``_judge_by_pictures``): a pixel
    # each way stays on it.
    near = [lattice.translated(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)] if nudged else [lattice]
    return max(float(_cell_scores(frame, each, skin, picks)[0].mean()) for each in near)


def _cell_scores(frame: np.ndarray, lattice: Lattice, skin: Skin,
                 picks: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Match confidence of the lattice's cells (all, or the flat indices ``picks``), 0 for a cell that
    looks most like a board's surroundings; and the state each reads as."""
    if picks is None:
        cells = cell_images(frame, lattice)
    else:
        cells = canonical_crops(frame, [lattice.cell_rect(*divmod(int(index), lattice.cols)) for index in picks])
    matches = match_cells(cells, skin.bank(lattice.drawn_pitch))
    return np.where(matches.chars == OUTSIDE, 0.0, matches.confidence), matches.chars
