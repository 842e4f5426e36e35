"""Is a screenshot the way round the client drew it? (for pictures given as files: ``read``, ``hint --image``)

A screenshot mirrored, flipped or turned half round still shows a grid of cells, and most cells still
match a picture of the skin (a covered cell, a 0, a mine look alike either way); a flag turned round
can pass for a "?" (gnome-mines': seen read so at confidence 0.61, with exit 0). No single cell tells;
the whole board does: the client drew its pictures one way round, so its board reads best the way it
was drawn. The board, cut out with a margin, is read turned each way with the same skin; if a turned
reading is clearer than the one given, the picture is refused as turned.

Clearer means nearer the skin's pictures, on the cells the two readings name differently: a turned
picture lies far from every picture, the one given near its own. A read's confidence does not say so:
it also asks how far the second nearest state is, and two states drawn alike but for a small mark (a
flag and a "?") are always near each other: gnome-mines' flags at a 23.1 px pitch read at 0.68, nearer
their own picture than any other cell of the board, and mirrored, read as "?" at 0.74 (a HighContrast
board refused as mirrored). The classic look's readings measure structure, not pictures: there the
confidence is what is compared.
"""

from __future__ import annotations

import numpy as np

from ..errors import BoardNotFoundError, ImplausibleBoardError, SkinError, UnrecognizedCellError

# The ways a picture can be turned over: name -> (turn, the turn back). A grid turned a quarter round
# or transposed is still a grid (of cols x rows cells), and classic-look bevels turned so can still read.
TURNS = {
    "mirrored left to right": (lambda a: a[:, ::-1], lambda a: a[:, ::-1]),
    "upside down": (lambda a: a[::-1], lambda a: a[::-1]),
    "turned half round": (lambda a: a[::-1, ::-1], lambda a: a[::-1, ::-1]),
    "turned a quarter round": (lambda a: np.rot90(a, -1), lambda a: np.rot90(a, 1)),
    "turned a quarter round the other way": (lambda a: np.rot90(a, 1), lambda a: np.rot90(a, -1)),
    "transposed": (lambda a: a.swapaxes(0, 1), lambda a: a.swapaxes(0, 1)),
}
# By how much, on the cells the two readings name differently, a turned reading's mean nearness (or
# confidence, for the classic look) must beat the given reading's. Only those cells tell: a board's
# symmetric cells read the same both ways, and a few turned flags among hundreds of cells barely move a
# whole board's mean (0.01 on gnome-mines' 16x30 board with 20 flags mirrored, whose own flags read at a
# confidence of 0.61 at that size).
CLEARER = 0.05
# A board whose every cell matches its skin's pictures at least this well is not looked at turned: a
# picture turned over that still matches a state's picture this closely is that state's look (a turned
# flag that passed for a "?" did so at 0.61). Looking costs a reading per turn (about 0.4 s CPU each on a
# 16x30 board). The classic look is always looked at: its confidences measure structure, not pictures.
SURE = 0.9


def check_orientation(frame: np.ndarray, reading, skins: dict) -> None:
    """Raise ImplausibleBoardError when the board of ``reading`` on ``frame`` reads more clearly turned
    over than as given."""
    from .locate import locate_board
    from .read import nearness, read_board

    lattice = reading.lattice
    if reading.min_confidence >= SURE and not skins[lattice.skin].family:
        return
    margin = int(np.ceil(max(lattice.pitch)))
    rect = lattice.board_rect().expanded(margin)
    height, width = frame.shape[:2]
    crop = frame[max(0, rect.top) : min(height, rect.bottom), max(0, rect.left) : min(width, rect.right)]
    skin = skins[lattice.skin]
    one = {lattice.skin: skin}
    ours_by_cell = reading.confidence if skin.family else nearness(frame, lattice, skin)
    for name, (turn, back) in TURNS.items():
        turned = np.ascontiguousarray(turn(crop))
        try:
            other = read_board(turned, turned_lattice := locate_board(turned, one, lattice.skin), one)
        except (BoardNotFoundError, UnrecognizedCellError, SkinError):
            continue
        chars = back(np.array([list(row) for row in other.board.grid]))  # the turned reading, turned back
        if chars.shape != (lattice.rows, lattice.cols):
            continue
        differ = chars != np.array([list(row) for row in reading.board.grid])
        if not differ.any():
            continue
        theirs_by_cell = other.confidence if skin.family else nearness(turned, turned_lattice, skin)
        theirs, ours = float(back(theirs_by_cell)[differ].mean()), float(ours_by_cell[differ].mean())
        if theirs > ours + CLEARER:
            raise ImplausibleBoardError(
                f"the picture looks {name}: {int(differ.sum())} cells of its {lattice.rows}x{lattice.cols} {lattice.skin} "
                f"board read otherwise so, and nearer its pictures ({theirs:.2f} against {ours:.2f}); read "
                f"screenshots the way the client drew them")
