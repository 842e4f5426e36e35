"""Teach the reader a client nobody tuned for: from screenshots plus their true boards, make a skin.

Finding the lattice needs no templates, because the true board is known: ``fit`` finds the pitch,
the comb of cell borders, the alignment with the least spread and the board's whole-pixel edges.
Then, where a line shared by neighbouring cells leaves two alignments equally good (a box starting on
the line or ending on it), the one whose boxes start with the cell's own drawing is taken, as in the
hand-made skins, unless only the other lets the locator read the screenshots back.

Before anything is written, every cell is compared with the average picture of each true state: a
cell that looks like another state's cells rather than its own is most likely a typing slip in the
board text, and is reported by row and column instead of being learnt as a wrong picture.

The cells are then cut into ``templates/<name>/cells`` and a default ``profile.json`` is written.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.board import Board

from ..errors import ScreenError
from .cut import VARIANT_DISTANCE, LabelledImage, cut_cells, like_a_cell, write_cells
from .fit import Fit, canonical_cells, fit_known, fit_lattice, fit_lines, mislabelled, room_around
from ..geometry import Lattice
from .skins import CANONICAL, CHAR_STATES, OUTSIDE, to_canonical

log = logging.getLogger(__name__)

BLOCK_SIDES = (2, 3)  # blocks of cells kept as "not a cell" pictures (see _block_pictures)
MAX_BLOCK_PICTURES = 6  # distinct block pictures per block size  # a shifted grid this close to the best one fits as well
# Every state a board can show, in the order they are listed to the user.
ALL_STATES = "#012345678F?*XW"


class NewSkinError(ScreenError):
    """The screenshots and boards given to ``new-skin`` cannot make a skin (the message says why)."""


@dataclass(frozen=True, slots=True)
class Taught:
    """What ``make_skin`` learnt: the lattice found on each screenshot, the states it has pictures
    of, and the cell sizes (pitches, px) they were cut at."""

    fits: tuple[Fit, ...]
    states: str
    pitches: tuple[tuple[float, float], ...]

    @property
    def missing(self) -> str:
        return "".join(ch for ch in ALL_STATES if ch not in self.states)


def default_profile(name: str) -> dict:
    """A profile for a client nobody described yet: safe guesses, to be edited by hand. Its "play"
    section lets ``play`` play it: the restart is found by trying the usual ways, a win's dialog (if
    any) is closed with Escape, and every click waits for its cell to change."""
    return {
        "client": name,
        "first_click": "safe",
        "mine_total": None,
        "win_requires_all_flags": False,
        "hover_highlight": False,
        "loss_shown": "unknown (edit me)",
        "win_shown": "unknown (edit me)",
        "play": {
            "restart": "find",
            "after_win": {"keys": ["escape"], "wait": 0.05, "focus": False},
            "redraw_timeout": 1.0,
            "settle": 0.02,
            "restart_timeout": 3.0,
            "flood": "8",
            "confirm_clicks": "cell",
        },
    }


def make_skin(name: str, examples: list[tuple[np.ndarray, Board]], templates_dir: Path,
              shot_names: list[str] | None = None, lattices: list[Lattice] | None = None,
              trust_labels: bool = False) -> Taught:
    """Fit every example, cut its cells into ``templates_dir/name`` and write a profile if none exists.

    Raises BoardNotFoundError when no grid of a board's size fits its screenshot, NewSkinError when
    a board's text disagrees with its picture (cells that look like another state's) or when no
    screenshot shows anything around the board (the reader needs that to tell cells from window).

    ``lattices``, when given, say roughly where each example's cells are (``learn`` found them by
    structure): only their edges are snapped to whole pixels, instead of searching the whole picture.
    ``trust_labels``: the boards come from pictures already grouped by look (``learn``), so a single
    cell that looks like another state's (the covered cell lit under the pointer looks like an
    opened one) is a second look of its state, not a typing slip."""
    names = shot_names or [f"screenshot {i + 1}" for i in range(len(examples))]
    if lattices is not None:
        fits = [fit_known(image, board, lattice) for (image, board), lattice in zip(examples, lattices)]
    else:
        fits = [fit_lines(image, board, fit_lattice(image, board, name)) for image, board in examples]
    if not any(room_around(image, fit.lattice) for (image, _), fit in zip(examples, fits)):
        # The locator compares candidate cells with what surrounds a board, and cannot work without it.
        raise NewSkinError("no screenshot shows what is around the board (a cell's width or more of the window "
                           "on some side): take screenshots of the whole window, not of the board alone")
    slips = []
    for (image, board), fit, shot in zip(examples, fits, names):
        found = mislabelled(image, fit.lattice, board)
        if len(found) > max(3, 0.05 * board.rows * board.cols):
            # Not a few typing slips: the grid found is not this board's (or the text is another shot's).
            lat = fit.lattice
            raise NewSkinError(
                f"{shot}: the best {board.rows}x{board.cols} grid found (pitch {lat.pitch[0]:.2f}x{lat.pitch[1]:.2f} px, "
                f"top-left cell at ({lat.origin[0]:.0f}, {lat.origin[1]:.0f})) does not fit the board text: "
                f"{len(found)} cells look like another state's cells. Check that the text is this screenshot's "
                f"board, every row and column of it, in order")
        for r, c, given, like in ([] if trust_labels else found):
            slips.append(f"{shot}: row {r}, col {c} is {given!r} in the board text but looks like the {like!r} cells")
    if slips:
        raise NewSkinError("the board text disagrees with the picture (rows and columns count from 0):\n  "
                           + "\n  ".join(slips[:12]) + ("\n  ..." if len(slips) > 12 else ""))
    pitch = float(np.mean([f.lattice.pitch for f in fits]))
    fits = _choose_alignment(name, examples, fits, pitch)
    cells = _cut(examples, fits)
    folder = templates_dir / name
    write_cells(cells, folder)
    profile_path = folder / "profile.json"
    if not profile_path.exists():
        profile_path.write_text(json.dumps(default_profile(name), indent=1) + "\n", encoding="utf-8")
    states = "".join(ch for ch in ALL_STATES if any(key[0] == ch for key in cells))
    pitches = tuple(sorted({(round(f.lattice.pitch[0], 2), round(f.lattice.pitch[1], 2)) for f in fits}))
    return Taught(tuple(fits), states, pitches)


def _cut(examples: list[tuple[np.ndarray, Board]], fits: list[Fit]) -> dict:
    labelled = [LabelledImage(image, fit.lattice, board) for (image, board), fit in zip(examples, fits)]
    cells = cut_cells(labelled, max_variants=4)
    if not any(key[0] == OUTSIDE for key in cells):
        raise NewSkinError("what is around the board looks like the board's own cells on every screenshot, so "
                           "cells could not be told from the window: take screenshots showing more of the window")
    # A block of cells that looks like one cell (see-through empty cells with faint lines between them,
    # KMines) would make the reader take that cell for "not a cell": such blocks are left out.
    singles = np.stack([to_canonical(p) for key, pictures in cells.items() if key[0] != OUTSIDE
                        for p in pictures]).astype(np.float32)
    for key, pictures in _block_pictures(examples, fits).items():
        cells.setdefault(key, []).extend(p for p in pictures if not like_a_cell(to_canonical(p), singles))
    return cells


def _block_pictures(examples: list[tuple[np.ndarray, Board]], fits: list[Fit]) -> dict:
    """Blocks of 2x2 and 3x3 cells, stored as "not a cell" at twice and three times the pitch.

    A skin knows one cell size well; on a board of smaller cells the locator also tries multiples
    of their pitch, and a block of small covered cells, scaled down, can pass for one big cell: a
    gnome-mines "classic" skin taught at 46 px read a 16x16 board of 23 px cells as a 5x5 board, and
    a kmines skin taught at 29 px a 30x16 board of 16 px cells as 6x10, without an error. With these
    pictures such a lattice is refused, and the board is found at its own pitch."""
    found: dict[tuple[str, float, float], list[np.ndarray]] = {}
    for (image, board), fit in zip(examples, fits):
        lat = fit.lattice
        for side in BLOCK_SIDES:
            key = (OUTSIDE, round(side * lat.pitch[0], 2), round(side * lat.pitch[1], 2))
            kept = found.setdefault(key, [])
            seen = [to_canonical(p).astype(np.int16) for p in kept]
            for r in range(lat.rows - side + 1):
                for c in range(lat.cols - side + 1):
                    if len(kept) >= MAX_BLOCK_PICTURES:
                        break
                    block = Lattice(lat.skin, (lat.origin[0] + c * lat.pitch[0], lat.origin[1] + r * lat.pitch[1]),
                                    (side * lat.pitch[0], side * lat.pitch[1]), 1, 1).cell_rect(0, 0)
                    crop = image[block.top : block.bottom, block.left : block.right]
                    canon = to_canonical(crop).astype(np.int16)
                    if all(float(np.abs(canon - other).mean()) >= VARIANT_DISTANCE for other in seen):
                        kept.append(crop.copy())
                        seen.append(canon)
    return found


def _choose_alignment(name: str, examples: list[tuple[np.ndarray, Board]], fits: list[Fit], pitch: float) -> list[Fit]:
    """Where several whole-pixel alignments fit the true boards equally well, the one whose pictures
    let the locator find and read the screenshots themselves (the pictures are the same either way;
    where their boxes start is not, and the locator's search for where cells start can prefer one)."""
    import tempfile

    from .locate import locate_board
    from .read import read_board
    from .skins import load_skins

    shifts = sorted({shift for fit in fits for shift in fit.ties})
    if not shifts:
        return fits

    def shifted(shift: tuple[int, int]) -> list[Fit]:
        return [fit if shift == (0, 0) or shift not in fit.ties else
                Fit(fit.lattice.translated(*shift), fit.spread, fit.ties) for fit in fits]

    # Tried in the order of the convention the hand-made skins follow, which the locator works best
    # with: a box starts where its cell's own drawing starts, and the line or gap it shares with the
    # next cell (the same for every state) ends it.
    order = sorted([(0, 0), *shifts], key=lambda shift: -sum(
        _starts_with_the_cell(image, fit.lattice, board) for (image, board), fit in zip(examples, shifted(shift))))
    best, best_score = fits, -1
    for shift in order:
        trial = shifted(shift)
        with tempfile.TemporaryDirectory(prefix="screenbot-new-skin-") as tmp:
            write_cells(_cut(examples, trial), Path(tmp) / name)
            (Path(tmp) / name / "profile.json").write_text(json.dumps(default_profile(name)), encoding="utf-8")
            skins = load_skins(tmp)
            score = 0
            for (image, board), fit in zip(examples, trial):
                try:
                    lattice = locate_board(image, skins, name)
                    score += read_board(image, lattice, skins).board.grid == board.grid
                except ScreenError:
                    pass
        log.info("new-skin %s: grid shifted by %s reads %d of %d screenshots", name, shift, score, len(examples))
        if score > best_score:
            best, best_score = trial, score
        if best_score == len(examples):
            break
    return best


def _starts_with_the_cell(image: np.ndarray, lattice: Lattice, board: Board) -> float:
    """How much more the boxes' first row and column differ between states than their last ones."""
    flat = canonical_cells(image, lattice)
    if flat is None:
        return float("-inf")
    chars = np.array([ch for _, _, ch in board.cells()])
    cells = flat.reshape(-1, CANONICAL, CANONICAL, 3)
    means = np.stack([cells[chars == ch].mean(axis=0) for ch in sorted(set(chars.tolist()))])
    spread = means.var(axis=0).mean(axis=2)  # (CANONICAL, CANONICAL): how much states differ per pixel
    return float(spread[0, :].mean() + spread[:, 0].mean() - spread[-1, :].mean() - spread[:, -1].mean())


def state_names(chars: str) -> str:
    """'4', '?' -> '4 (four), ? (question)' style list for messages: the board character and the
    picture name it is stored under."""
    return ", ".join(ch if ch.isdigit() else f"{ch} ({CHAR_STATES[ch]})" for ch in chars)
