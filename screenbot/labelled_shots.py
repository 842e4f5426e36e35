"""Labelled screenshots on disk: ``<name>.png`` + ``<name>.txt`` (true board) + ``<name>.json`` (meta).

The JSON holds the true lattice in the PNG's own pixels, the client, the tags, how the truth was
obtained, and whether templates may be cut from it. This module reads them (``read-bench`` times the
reader on them); the lab's capture tools in a checkout write them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.board import Board, parse_board

from .geometry import Lattice


@dataclass(frozen=True, slots=True, eq=False)
class StoredShot:
    name: str
    client: str
    image_path: Path
    board: Board
    lattice: Lattice  # in the PNG's pixels
    tags: tuple[str, ...]
    for_templates: bool
    full_frame: bool

    def image(self) -> np.ndarray:
        from .capture import load_image

        return load_image(self.image_path)


def load_shots(folder: Path) -> list[StoredShot]:
    """Every labelled screenshot in ``folder``. InputError (exit 2) names a file that is not one: JSON
    that does not parse or lacks the lattice or client, a board text that is not a board."""
    from solver.errors import BoardFormatError

    from .errors import InputError
    from .inputs import read_text

    shots = []
    for meta_path in sorted(folder.glob("*.json")):
        try:
            meta = json.loads(read_text(meta_path, what="labelled screenshot's JSON"))
            lattice = Lattice.from_json(meta["lattice"])
            client, tags = meta["client"], tuple(meta.get("tags", ()))
            if not isinstance(client, str) or not all(isinstance(tag, str) for tag in tags):
                raise TypeError("client and tags must be text")
            numbers = (*lattice.origin, *lattice.pitch)
            if len(numbers) != 4 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in numbers) \
                    or not all(isinstance(n, int) and n > 0 for n in (lattice.rows, lattice.cols)) \
                    or min(lattice.pitch) <= 0:
                raise ValueError("origin and pitch must be two numbers each (pitch above 0), rows and cols counts")
        except json.JSONDecodeError as exc:
            raise InputError(f"{meta_path}: not JSON: {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InputError(f"{meta_path}: not a labelled screenshot's JSON (it needs \"client\" and a "
                             f"\"lattice\" with skin, origin, pitch, rows and cols): {exc!r}") from None
        board_path = meta_path.with_suffix(".txt")
        try:
            board = parse_board(read_text(board_path, what="board text"))
        except BoardFormatError as exc:
            raise InputError(f"{board_path}: {exc}") from None
        if (board.rows, board.cols) != (lattice.rows, lattice.cols):
            raise InputError(f"{board_path}: a {board.rows}x{board.cols} board, but {meta_path.name} gives a "
                             f"{lattice.rows}x{lattice.cols} lattice")
        shots.append(
            StoredShot(
                name=meta_path.stem,
                client=client,
                image_path=meta_path.with_suffix(".png"),
                board=board,
                lattice=lattice,
                tags=tags,
                for_templates=bool(meta.get("for_templates")),
                full_frame=bool(meta.get("full_frame")),
            )
        )
    return shots
