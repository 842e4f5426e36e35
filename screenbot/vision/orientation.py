"""Is a screenshot the way round the client drew it? (for pictures given as files: ``read``, ``hint --image``)

A screenshot mirrored, flipped or turned half round still shows a grid of cells, and most cells still
match a picture of the skin (a covered cell, a 0, a mine look alike either way); a flag turned round
can pass for a "?" (gnome-mines': seen read so at confidence 0.61, with exit 0). No single cell tells;
the whole board does: the client drew its pictures one way round, so its board reads best the way it
was drawn. The board, cut out with a margin, is read turned each way with the same skin; if a turned
reading is clearer than the one given, the picture is refused as turned.
"""

from __future__ import annotations

import numpy as np

from ..errors import BoardNotFoundError, ImplausibleBoardError, SkinError, UnrecognizedCellError

# The ways a picture can be turned over without changing its grid's shape, and what to call each.
TURNS = {
    "mirrored left to right": lambda image: image[:, ::-1],
    "upside down": lambda image: image[::-1],
    "turned half round": lambda image: image[::-1, ::-1],
}
# Mean confidence by which a turned reading must beat the given one (ties are symmetric boards).
CLEARER = 0.01


def check_orientation(frame: np.ndarray, reading, skins: dict) -> None:
    """Raise ImplausibleBoardError when the board of ``reading`` on ``frame`` reads more clearly turned
    over than as given."""
    from .locate import locate_board
    from .read import read_board

    lattice = reading.lattice
    margin = int(np.ceil(max(lattice.pitch)))
    rect = lattice.board_rect().expanded(margin)
    height, width = frame.shape[:2]
    crop = frame[max(0, rect.top) : min(height, rect.bottom), max(0, rect.left) : min(width, rect.right)]
    given = float(np.mean(reading.confidence))
    one = {lattice.skin: skins[lattice.skin]}
    for name, turn in TURNS.items():
        turned = np.ascontiguousarray(turn(crop))
        try:
            other = read_board(turned, locate_board(turned, one, lattice.skin), one)
        except (BoardNotFoundError, UnrecognizedCellError, SkinError):
            continue
        clearer = float(np.mean(other.confidence))
        if clearer > given + CLEARER:
            raise ImplausibleBoardError(
                f"the picture looks {name}: its {lattice.rows}x{lattice.cols} {lattice.skin} board reads more clearly "
                f"so (mean confidence {clearer:.2f} against {given:.2f}); read screenshots the way the client drew them")
