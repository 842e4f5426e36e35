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
    shots = []
    for meta_path in sorted(folder.glob("*.json")):
        meta = json.loads(meta_path.read_text())
        lat = meta["lattice"]
        lattice = Lattice.from_json(lat)
        shots.append(
            StoredShot(
                name=meta_path.stem,
                client=meta["client"],
                image_path=meta_path.with_suffix(".png"),
                board=parse_board(meta_path.with_suffix(".txt").read_text()),
                lattice=lattice,
                tags=tuple(meta.get("tags", ())),
                for_templates=bool(meta.get("for_templates")),
                full_frame=bool(meta.get("full_frame")),
            )
        )
    return shots
