"""Cut reference cell images out of labelled screenshots into a skin's ``cells/`` folder.

Used by ``screenbot templates`` (captures from the real clients) and ``screenbot new-skin`` (a new
client's screenshots plus their true boards). Identical pictures are stored once; distinct pictures of
the same state (a hover-lit covered cell, a size-specific rendering) become separate variants.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.board import Board

from .lattice import Lattice
from .skins import template_name, to_canonical

log = logging.getLogger(__name__)

# Two canonical pictures closer than this (mean absolute difference) are the same variant.
VARIANT_DISTANCE = 4.0


@dataclass(frozen=True, slots=True, eq=False)
class LabelledImage:
    image: np.ndarray  # BGR frame
    lattice: Lattice
    board: Board


def cut_cells(images: list[LabelledImage], max_variants: int = 3) -> dict[tuple[str, float, float], list[np.ndarray]]:
    """Distinct cell pictures per (char, pitch_x, pitch_y), most frequent first."""
    groups: dict[tuple[str, float, float], list[tuple[np.ndarray, np.ndarray, int]]] = {}
    for item in images:
        lat = item.lattice
        if (lat.rows, lat.cols) != (item.board.rows, item.board.cols):
            raise ValueError(f"lattice is {lat.rows}x{lat.cols} but the board is {item.board.rows}x{item.board.cols}")
        pitch = (round(lat.pitch[0], 2), round(lat.pitch[1], 2))
        for r, c, ch in item.board.cells():
            rect = lat.cell_rect(r, c)
            crop = item.image[rect.top : rect.bottom, rect.left : rect.right]
            canon = to_canonical(crop).astype(np.int16)
            variants = groups.setdefault((ch, *pitch), [])
            for i, (pic, ref, count) in enumerate(variants):
                if float(np.abs(canon - ref).mean()) < VARIANT_DISTANCE:
                    variants[i] = (pic, ref, count + 1)
                    break
            else:
                variants.append((crop.copy(), canon, 1))
    result = {}
    for key, variants in groups.items():
        variants.sort(key=lambda v: -v[2])
        result[key] = [pic for pic, _, _ in variants[:max_variants]]
    return result


def write_cells(cells: dict[tuple[str, float, float], list[np.ndarray]], skin_dir: Path, *, replace: bool = True) -> int:
    """Write the pictures as ``skin_dir/cells/<state>-<pitch>-<n>.png``; returns how many."""
    import cv2

    folder = skin_dir / "cells"
    folder.mkdir(parents=True, exist_ok=True)
    if replace:
        for old in folder.glob("*.png"):
            old.unlink()
    written = 0
    for (ch, px, py), pictures in sorted(cells.items()):
        for i, picture in enumerate(pictures):
            cv2.imwrite(str(folder / template_name(ch, (px, py), i)), picture)
            written += 1
    return written
