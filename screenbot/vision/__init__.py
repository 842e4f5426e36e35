"""The bot's eyes: find the Minesweeper board on a frame and read every cell.

    from screenbot.vision import load_skins, locate_board, read_board, Reading

    skins = load_skins()                          # templates/<skin>/ folders
    lattice = locate_board(frame, skins, "auto")  # -> screenbot.geometry.Lattice
    reading = read_board(frame, lattice, skins)   # -> Reading(board, confidence, min_confidence, lattice)

Frames are BGR uint8 NumPy arrays (``screenbot.capture``). Errors: BoardNotFoundError (no complete
board, partly off screen or covered), UnrecognizedCellError(row, col, score), SkinError.
"""

from .locate import locate_board
from .read import READ_CONFIDENCE, Reading, frames_agree, read_board, read_stable, read_visible
from .skins import TEMPLATES_DIR, Skin, load_skins

__all__ = [
    "READ_CONFIDENCE",
    "TEMPLATES_DIR",
    "Reading",
    "Skin",
    "frames_agree",
    "load_skins",
    "locate_board",
    "read_board",
    "read_visible",
    "read_stable",
]
