"""Writes labelled screenshots in the format ``screenbot.labelled_shots`` reads.

The PNG is the client's window plus a margin, at most 160 px around the board (or the full screen
for ``full`` shots), so fixtures stay small; the JSON holds the true lattice in the PNG's own pixels, the client, the tags, how the truth was
obtained, and whether templates may be cut from it.
"""

from __future__ import annotations

import json
from pathlib import Path

from solver.board import format_board

from .sessions import LabelledShot

MARGIN = 24
BOARD_MARGIN = 160
TRUTH_SOURCES = {
    "gnome-mines": "rules: end-of-game mines, numbers recomputed and checked against the pictures",
    "xdemineur": "rules: end-of-game mines, numbers recomputed and checked against the pictures",
    "react-minesweeper": "page state: React component state read through the DevTools protocol",
    "sgt-mines": "rules: the mine layout is dealt through the game id, every click simulated by the game's rules",
}


def save_shot(shot: LabelledShot, folder: Path, *, for_templates: bool, full_frame: bool = False,
              margin: int = MARGIN) -> Path:
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    frame = shot.frame
    if full_frame:
        left, top, crop = 0, 0, frame
    else:
        # The window plus a margin, but no more than BOARD_MARGIN around the board (a browser window
        # is mostly not game), to keep the fixtures small.
        wl, wt, ww, wh = shot.window
        board = shot.lattice.board_rect()
        left = max(0, wl - margin, board.left - BOARD_MARGIN)
        top = max(0, wt - margin, board.top - BOARD_MARGIN)
        right = min(frame.shape[1], wl + ww + margin, board.right + BOARD_MARGIN)
        bottom = min(frame.shape[0], wt + wh + margin, board.bottom + BOARD_MARGIN)
        crop = frame[top:bottom, left:right]
    lattice = shot.lattice.translated(-left, -top)
    path = folder / f"{shot.name}.png"
    cv2.imwrite(str(path), crop, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    (folder / f"{shot.name}.txt").write_text(format_board(shot.board), encoding="utf-8")
    meta = {
        "client": shot.client,
        "lattice": lattice.to_json(),
        "tags": list(shot.tags),
        "for_templates": for_templates,
        "full_frame": full_frame,
        "truth": TRUTH_SOURCES.get(shot.client, "unknown"),
    }
    (folder / f"{shot.name}.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return path
