"""Cut reference cell images out of labelled screenshots into a skin's ``cells/`` folder.

Used by the lab's ``templates`` command (captures from the real clients) and ``screenbot new-skin`` (a new
client's screenshots plus their true boards). Identical pictures are stored once; distinct pictures of
the same state (a hover-lit covered cell, a size-specific rendering) become separate variants.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.board import Board

from ..geometry import Lattice
from .colour_cast import picture_colour
from .skins import LIT, OUTSIDE, STATE_CHARS, template_kind, template_name, to_canonical

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
        for r, c, ch in _cells_and_ring(item):
            rect = _box(lat, r, c)
            if rect.left < 0 or rect.top < 0 or rect.right > item.image.shape[1] or rect.bottom > item.image.shape[0]:
                continue
            crop = item.image[rect.top : rect.bottom, rect.left : rect.right]
            canon = to_canonical(crop).astype(np.int16)
            variants = groups.setdefault((ch, *pitch), [])
            for variant in variants:
                if float(np.abs(canon - variant.ref).mean()) < VARIANT_DISTANCE:
                    variant.add(crop, canon)
                    break
            else:
                variants.append(_Variant(crop, canon))
    _drop_outside_lookalikes(groups)
    result = {}
    for key, variants in groups.items():
        if not variants:
            continue
        variants.sort(key=lambda v: -v.count)
        keep = max_variants * 3 if key[0] == OUTSIDE else max_variants
        result[key] = [v.picture() for v in variants[:keep]]
    return result


class _Variant:
    """Cell pictures of one state within VARIANT_DISTANCE of the first one seen (``ref``, to which the
    others are compared). Its picture is the member nearest to their mean, not the first: the first
    seen may be a board-edge cell whose box holds a line of the frame (minegauler), near enough to the
    rest to join them but a poor picture of them (the reader then took every inner 0 for the window)."""

    def __init__(self, crop: np.ndarray, canon: np.ndarray) -> None:
        self.members: list[tuple[np.ndarray, np.ndarray]] = []
        self.add(crop, canon)

    @property
    def ref(self) -> np.ndarray:
        return self.members[0][1]

    @property
    def count(self) -> int:
        return len(self.members)

    def add(self, crop: np.ndarray, canon: np.ndarray) -> None:
        self.members.append((crop.copy(), canon))

    def picture(self) -> np.ndarray:
        mean = np.mean([canon for _, canon in self.members], axis=0)
        return min(self.members, key=lambda m: float(np.abs(m[1] - mean).mean()))[0]


# An "outside" picture this close (RMS, 0-255) to a real cell picture is dropped: next to a board with
# bevels or grid lines, the frame can look like an open cell, and it must not compete with one.
OUTSIDE_MIN_DISTANCE = 12.0


def _drop_outside_lookalikes(groups: dict) -> None:
    for key in [k for k in groups if k[0] == OUTSIDE]:
        cells = [variant.ref for other, variants in groups.items() if other[0] != OUTSIDE and other[1:] == key[1:]
                 for variant in variants]
        if cells:
            stack = np.stack(cells).astype(np.float32)
            groups[key] = [variant for variant in groups[key] if not like_a_cell(variant.ref, stack)]


def like_a_cell(canon: np.ndarray, stack: np.ndarray) -> bool:
    """Whether the canonical picture ``canon`` of something that is not a cell is within
    OUTSIDE_MIN_DISTANCE (RMS) of one of the canonical cell pictures stacked in ``stack`` (float32)."""
    rms = np.sqrt(((stack - canon.astype(np.float32)) ** 2).reshape(len(stack), -1).mean(axis=1))
    return bool(rms.min() < OUTSIDE_MIN_DISTANCE)


def _cells_and_ring(item: LabelledImage):
    """Every cell with its true state, then the ring of boxes just outside the board as OUTSIDE."""
    yield from item.board.cells()
    rows, cols = item.board.rows, item.board.cols
    for c in range(-1, cols + 1):
        yield -1, c, OUTSIDE
        yield rows, c, OUTSIDE
    for r in range(rows):
        yield r, -1, OUTSIDE
        yield r, cols, OUTSIDE


def _box(lattice: Lattice, row: int, col: int):
    """Like Lattice.cell_rect, but also for boxes just outside the board."""
    from ..geometry import Rect

    (x0, x1), (y0, y1) = _span(lattice, col, 0), _span(lattice, row, 1)
    left, top = round(x0), round(y0)
    return Rect(left, top, round(x1) - left, round(y1) - top)


def _span(lattice: Lattice, k: int, axis: int) -> tuple[float, float]:
    """Where box ``k`` starts and ends along ``axis`` (0 columns, 1 rows); a box just outside the board
    (k -1 or one past the last) is as wide as the box beside it."""
    if lattice.straight:
        start, pitch = lattice.origin[axis], lattice.pitch[axis]
        return start + k * pitch, start + (k + 1) * pitch
    edges = lattice.col_edges() if axis == 0 else lattice.row_edges()
    if k < 0:
        return edges[0] - (edges[1] - edges[0]), edges[0]
    if k >= len(edges) - 1:
        return edges[-1], edges[-1] + (edges[-1] - edges[-2])
    return edges[k], edges[k + 1]


def write_cells(cells: dict[tuple[str, float, float], list[np.ndarray]], skin_dir: Path, *, replace: bool = True) -> int:
    """Write the pictures as ``skin_dir/cells/<state>-<pitch>-<n>.png``; returns how many."""
    import cv2

    folder = skin_dir / "cells"
    folder.mkdir(parents=True, exist_ok=True)
    # The colours of the looks under the pointer the old pictures named (``Template.lit``): the labels
    # do not say which cell the pointer lit, so a picture cut again in such a colour keeps the name.
    lit = [(STATE_CHARS[kind[0]], picture_colour(cv2.imread(str(old))))
           for old in folder.glob(f"*{LIT}.png") if (kind := template_kind(old.stem)) and kind[0] in STATE_CHARS]
    if replace:
        for old in folder.glob("*.png"):
            # Pictures named ...-r<n>.png were added by hand from rules-checked games: kept.
            if not old.stem.split("-")[-1].startswith("r"):
                old.unlink()
    written = 0
    for (ch, px, py), pictures in sorted(cells.items()):
        for i, picture in enumerate(pictures):
            colour = picture_colour(picture) if lit else None
            was_lit = any(state == ch and np.abs(colour - known).max() <= LIT_SAME for state, known in lit)
            cv2.imwrite(str(folder / template_name(ch, (px, py), f"{i}{LIT}" if was_lit else i)), picture)
            written += 1
    return written


# Two pictures whose middles differ by no more than this in colour (levels, any channel) are one look.
LIT_SAME = 2.0
