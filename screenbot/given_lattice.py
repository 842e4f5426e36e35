"""``--lattice LEFT,TOP,PITCH,ROWSxCOLS``: a board placed by hand, for when the locator misses it.

``read``, ``hint`` and ``play`` take it. The locator is then never run: the given lattice (in the pixels
of the image, or of the screen for ``play`` and the live ``hint``) is used for every frame.

- ``parse_lattice`` is the argparse type: the text into a ``GivenLattice`` (no skin yet).
- ``choose_skin`` reads the lattice with the skin asked for, or with every loaded skin and keeps the
  one with the highest mean confidence: the one function all three commands pick the skin with.
- ``GivenLatticeVision`` wraps a vision (its ``read``) so that ``locate`` returns the given lattice
  moved into the grabbed frame, after checking a board still reads there.

Heavy imports (the vision package, OpenCV) happen inside the functions, so ``--help`` stays cheap.
"""

from __future__ import annotations

import argparse
import logging
import math
from dataclasses import dataclass

from .errors import BoardNotFoundError, SkinError, UnrecognizedCellError

log = logging.getLogger(__name__)

EXAMPLE = "49,160.3,23x22.94,16x30"
# Two skins whose mean confidences are this close read the cells equally well: on a board with every
# cell covered, gnome-mines and react-minesweeper tiles are both "covered" to the reader (one screenshot
# of 234 picks the wrong one). The choice stands, with a warning.
NEAR_TIE = 0.02
# A reading whose mean confidence is below this is refused: on the 234 screenshots of fixtures/screens
# the true lattice reads at 0.87 or more, while lattices moved by a third or half of a cell read at 0.73
# at most (and only on boards where every cell is covered, whose tiles pass for other skins' tiles; on
# any other board a moved lattice does not read at all). Played, such a lattice would click cell edges.
MIN_MEAN_CONFIDENCE = 0.8
# Below this a "cell" is a few pixels: nothing any client draws, and too small to compare with templates.
MIN_PITCH = 4.0


class LatticeOffFrameError(BoardNotFoundError):
    """The given lattice is not fully on the image or screen (a usage error: exit 2 in the commands)."""


@dataclass(frozen=True, slots=True)
class GivenLattice:
    """What ``--lattice`` says: cell (0, 0)'s pitch box starts at ``origin``; floats allowed."""

    origin: tuple[float, float]
    pitch: tuple[float, float]
    rows: int
    cols: int

    def with_skin(self, skin: str):
        """The vision ``Lattice`` of this placement read with ``skin``."""
        from .geometry import Lattice

        return Lattice(skin, self.origin, self.pitch, self.rows, self.cols)

    def describe(self) -> str:
        (ox, oy), (px, py) = self.origin, self.pitch
        right, bottom = ox + self.cols * px, oy + self.rows * py
        return (f"{self.rows}x{self.cols} cells of {px:g}x{py:g} px covering x {ox:g} to {right:g}, "
                f"y {oy:g} to {bottom:g}")


def parse_lattice(text: str) -> GivenLattice:
    """The argparse type of ``--lattice``: ``LEFT,TOP,PITCH,ROWSxCOLS``, PITCH one number or ``PXxPY``."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 4:
        raise argparse.ArgumentTypeError(f"expected LEFT,TOP,PITCH,ROWSxCOLS such as {EXAMPLE}, got {text!r}")
    left, top = (_number(part, name, text) for part, name in zip(parts[:2], ("LEFT", "TOP")))
    pitches = parts[2].lower().split("x")
    if len(pitches) not in (1, 2):
        raise argparse.ArgumentTypeError(f"PITCH must be one number or PXxPY such as 23x22.94, got {parts[2]!r} in {text!r}")
    pitch = [_number(p, "PITCH", text) for p in pitches]
    if any(p <= 0 for p in pitch):
        raise argparse.ArgumentTypeError(f"the pitch must be above zero, got {parts[2]!r} in {text!r}")
    if any(p < MIN_PITCH for p in pitch):
        raise argparse.ArgumentTypeError(f"the pitch must be at least {MIN_PITCH:g} px, got {parts[2]!r} in {text!r}")
    size = parts[3].lower().split("x")
    try:
        rows, cols = (int(n) for n in size)
    except ValueError:
        raise argparse.ArgumentTypeError(f"ROWSxCOLS must be two whole numbers such as 16x30, got {parts[3]!r} in {text!r}") from None
    if rows < 1 or cols < 1:
        raise argparse.ArgumentTypeError(f"the board needs at least 1 row and 1 column, got {parts[3]!r} in {text!r}")
    return GivenLattice((left, top), (pitch[0], pitch[-1]), rows, cols)


def _number(part: str, name: str, text: str) -> float:
    try:
        value = float(part)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{name} must be a number, got {part!r} in {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{name} must be a finite number, got {part!r} in {text!r}")
    return value


def check_on_frame(given: GivenLattice, frame, what: str = "image") -> None:
    """Raise LatticeOffFrameError unless every cell of ``given`` is on ``frame`` (``what`` names it)."""
    height, width = frame.shape[:2]
    rect = given.with_skin("").board_rect()
    if rect.left < 0 or rect.top < 0 or rect.right > width or rect.bottom > height:
        raise LatticeOffFrameError(
            f"--lattice: the board ({given.describe()}) is not fully on the {width}x{height} {what}",
            reason="lattice off the frame",
        )


def choose_skin(frame, given: GivenLattice, skins, skin: str = "auto", *, what: str = "image", crops_dir=None):
    """Read ``given`` on ``frame`` and return the ``Reading`` (its ``.lattice`` carries the skin).

    With ``skin="auto"`` every loaded skin reads it and the highest mean confidence among those that
    read without an error wins; if none reads, the error of the skin that came closest is raised
    (UnrecognizedCellError with the highest score, else BoardNotFoundError or SkinError). A winner
    below MIN_MEAN_CONFIDENCE is refused too (BoardNotFoundError: the lattice is off by part of a cell).
    LatticeOffFrameError when the lattice is not fully on the frame, SkinError for an unknown skin.
    """
    from .vision import read_board
    from .vision.skins import check_skin_name

    check_skin_name(skin, skins)
    check_on_frame(given, frame, what)
    read: list[tuple[float, str, object]] = []
    failures: list[tuple[float, Exception]] = []
    for name in sorted(skins) if skin == "auto" else [skin]:
        try:
            reading = read_board(frame, given.with_skin(name), skins, crops_dir=crops_dir)
        except (UnrecognizedCellError, BoardNotFoundError, SkinError) as exc:
            failures.append((getattr(exc, "score", -1.0), exc))
            continue
        read.append((float(reading.confidence.mean()), name, reading))
    if read:
        read.sort(key=lambda entry: -entry[0])
        (score, name, reading), rivals = read[0], read[1:]
        if score < MIN_MEAN_CONFIDENCE:
            raise BoardNotFoundError(
                f"--lattice: the cells there read only weakly, at best as {name} (mean confidence {score:.2f}, "
                f"where a board read on its own lattice scores above {MIN_MEAN_CONFIDENCE}): the lattice is "
                "probably off by part of a cell; check LEFT,TOP and PITCH",
                skin=name, reason="lattice reads weakly",
            )
        close = [f"{other} ({other_score:.3f})" for other_score, other, _ in rivals if score - other_score < NEAR_TIE]
        if close:
            log.warning("--lattice: skin %s (mean confidence %.3f) reads these cells about as well as %s; taking %s "
                        "(pass the skin's name if that is wrong: --skin, or --client for play and the live hint)",
                        name, score, ", ".join(close), name)
        return reading
    if not failures:
        raise SkinError("no skins are loaded", skin=skin)
    raise max(failures, key=lambda failure: failure[0])[1]


class GivenLatticeVision:
    """A vision that never searches: ``locate`` returns the given lattice in the grabbed frame's pixels.

    ``lattice`` is a vision ``Lattice`` (with its skin) in screen pixels; ``vision`` does the reading.
    ``locate(frame, origin)``, ``origin`` being the screen position of the frame's top-left pixel, raises
    BoardNotFoundError when the lattice is not on the frame or no board reads there (the game window
    moved, changed size or is covered): the board does not move unless its window does.
    """

    def __init__(self, vision, lattice) -> None:
        self.vision = vision
        self.lattice = lattice
        self.skin = lattice.skin

    def locate(self, frame, origin: tuple[int, int] = (0, 0), within=None):
        local = self.lattice.translated(-origin[0], -origin[1])
        height, width = frame.shape[:2]
        rect = local.board_rect()
        where = f"the board given with --lattice (cells at {self.lattice.board_rect()} on the screen)"
        advice = "if the game window moved or changed size, measure the board again and pass the new --lattice"
        if rect.left < 0 or rect.top < 0 or rect.right > width or rect.bottom > height:
            raise BoardNotFoundError(
                f"{where} is not inside the captured area {width}x{height} at {tuple(origin)}; {advice}",
                skin=self.skin, reason="lattice off the frame",
            )
        try:
            reading = self.vision.read(frame, local)
        except (UnrecognizedCellError, BoardNotFoundError) as exc:
            raise BoardNotFoundError(f"{where} does not read as a board: {exc}; {advice}",
                                     skin=self.skin, reason="lattice unreadable") from exc
        confidence = getattr(reading, "confidence", None)
        if confidence is not None and float(confidence.mean()) < MIN_MEAN_CONFIDENCE:
            raise BoardNotFoundError(
                f"{where} reads only weakly (mean confidence {float(confidence.mean()):.2f}): it is off by part "
                f"of a cell; {advice}", skin=self.skin, reason="lattice reads weakly",
            )
        return local

    def read(self, frame, lattice, needed=None):
        return self.vision.read(frame, lattice, needed)
