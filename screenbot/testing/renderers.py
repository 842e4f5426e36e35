"""Renderers of a simulated board: flat colours per state (read back by ``FlatVision``, a fake of the
vision module) or a skin's own template pictures (read by the real vision code)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.board import UNREAD, Board

from ..errors import BoardNotFoundError, UnrecognizedCellError
from ..geometry import Rect
from ..geometry import Lattice

BACKGROUND = (40, 40, 40)
WINDOW_FACE = (200, 200, 200)


# One BGR colour per cell character; chosen far apart so a reader cannot confuse them.
FLAT_COLOURS: dict[str, tuple[int, int, int]] = {
    "#": (120, 120, 120),
    "F": (0, 0, 255),
    "*": (0, 0, 0),
    "X": (0, 0, 128),
    "W": (255, 0, 255),
    "?": (0, 255, 255),
    **{str(n): (255 - 20 * n, 60 + 20 * n, 255 * (n % 2)) for n in range(9)},
    # A number no picture of the skin matches (``UNREAD``): what the reader makes of a number the skin
    # lacks, or of one caught half drawn (``SimulatedClient.half_drawn_for``).
    UNREAD: (200, 100, 40),
}


class FlatRenderer:
    """Paints each cell as a flat square of its state's colour with a 1-pixel dark gap."""

    def __init__(self, pitch: int = 16) -> None:
        self.pitch = pitch

    def cell(self, ch: str) -> np.ndarray:
        tile = np.zeros((self.pitch, self.pitch, 3), np.uint8)
        tile[:-1, :-1] = FLAT_COLOURS[ch]
        return tile


class ClassicRenderer:
    """The classic Windows look: a covered cell raised by a light bevel top and left and a dark one
    bottom and right, an opened cell flat in the same face colour with a 1-pixel grey line top and
    left. Only the rim tells a covered cell from an opened empty one. (The face is Windows' silver, a
    shade off the simulated window's: the real look has a sunken frame round the board, not drawn here,
    that tells the board from the window.)"""

    FACE = (192, 192, 192)
    LIGHT = (255, 255, 255)
    DARK = (128, 128, 128)
    DIGITS = {1: (255, 0, 0), 2: (0, 128, 0), 3: (0, 0, 255), 4: (128, 0, 0), 5: (0, 0, 128),
              6: (128, 128, 0), 7: (0, 0, 0), 8: (128, 128, 128)}

    def __init__(self, pitch: int = 16) -> None:
        self.pitch = pitch
        self.bevel = max(1, pitch // 8)
        self._tiles: dict[str, np.ndarray] = {}

    def cell(self, ch: str) -> np.ndarray:
        if ch not in self._tiles:
            self._tiles[ch] = self._draw(ch)
        return self._tiles[ch]

    def _draw(self, ch: str) -> np.ndarray:
        import cv2

        p, b = self.pitch, self.bevel
        tile = np.empty((p, p, 3), np.uint8)
        tile[:] = self.FACE
        middle = (p // 2, p // 2)
        if ch in "#F?":
            for k in range(b):  # the bevel's two triangles meet on the diagonals
                tile[k, : p - k] = self.LIGHT
                tile[: p - k, k] = self.LIGHT
                tile[p - 1 - k, k + 1 :] = self.DARK
                tile[k + 1 :, p - 1 - k] = self.DARK
            if ch == "F":
                pole = p // 2
                tile[p // 4 : 3 * p // 4, pole] = (0, 0, 0)
                cv2.fillPoly(tile, [np.array([[pole, p // 4], [pole, p // 2], [p // 4, 3 * p // 8]], np.int32)], (0, 0, 255))
            elif ch == "?":
                cv2.putText(tile, "?", (p // 4, 3 * p // 4), cv2.FONT_HERSHEY_PLAIN, p / 24, (0, 0, 0), 1)
            return tile
        if ch == "X":
            tile[:] = (0, 0, 255)
        tile[0, :] = self.DARK
        tile[:, 0] = self.DARK
        if ch in "*XW":
            cv2.circle(tile, middle, max(2, p // 4), (0, 0, 0), -1)
        if ch == "W":
            cv2.line(tile, (2, 2), (p - 3, p - 3), (0, 0, 255), 1)
            cv2.line(tile, (p - 3, 2), (2, p - 3), (0, 0, 255), 1)
        if ch.isdigit() and ch != "0":
            cv2.putText(tile, ch, (p // 4, 3 * p // 4), cv2.FONT_HERSHEY_PLAIN, p / 16, self.DIGITS[int(ch)], 1 + p // 16)
        return tile


class TemplateRenderer:
    """Pastes a skin's template images (``images``: cell character -> BGR tile of one pitch box)."""

    def __init__(self, images: dict[str, np.ndarray]) -> None:
        shapes = {img.shape[:2] for img in images.values()}
        if len(shapes) != 1:
            raise ValueError(f"template tiles differ in size: {sorted(shapes)}")
        height, width = next(iter(shapes))
        if height != width:
            raise ValueError(f"template tiles are {width}x{height}: the simulated client needs square cells")
        self.images = images
        self.pitch = height

    @classmethod
    def from_skin(cls, folder, pitch: int | None = None) -> TemplateRenderer:
        """Tiles from ``templates/<skin>/cells/<state>-<pitch>-<n>.png``, all captured at one pitch
        (the given one, else the pitch with templates for the most states)."""
        from pathlib import Path

        from ..capture import load_image
        from ..vision.skins import STATE_CHARS, _TEMPLATE_NAME

        by_pitch: dict[str, dict[str, np.ndarray]] = {}
        for path in sorted(Path(folder, "cells").glob("*.png")):
            match = _TEMPLATE_NAME.match(path.stem)
            if not match or match["py"] or match["state"] not in STATE_CHARS:
                continue
            tiles = by_pitch.setdefault(match["px"], {})
            tiles.setdefault(STATE_CHARS[match["state"]], load_image(path))
        if pitch is not None:
            key = next((k for k in by_pitch if float(k) == pitch), None)
        else:
            key = max(by_pitch, key=lambda k: (len(by_pitch[k]), float(k)), default=None)
        if key is None:
            raise ValueError(f"no square templates{f' at pitch {pitch}' if pitch else ''} in {folder}")
        return cls(by_pitch[key])

    def cell(self, ch: str) -> np.ndarray:
        return self.images[ch]


@dataclass(frozen=True, slots=True)
class FlatReading:
    board: Board
    min_confidence: float = 1.0
    lattice: Lattice | None = None


class FlatVision:
    """A fake of the vision module for frames painted by ``FlatRenderer``.

    ``locate`` finds the bounding box of cell-coloured pixels; ``read`` samples each cell's centre and
    raises UnrecognizedCellError for a colour that is no cell state (a dialog, another window)."""

    def __init__(self, pitch: int = 16, skin: str = "flat") -> None:
        self.pitch = pitch
        self.skin = skin
        self._by_key = {_key(colour): ch for colour, ch in {colour: ch for ch, colour in FLAT_COLOURS.items()}.items()}

    def locate(self, frame: np.ndarray, origin: tuple[int, int] = (0, 0), within: Rect | None = None) -> Lattice:
        # Each pixel's colour as one number, compared with each state's (the play loop grabs often).
        keys = _keys(frame)
        covered = np.zeros(keys.shape, bool)
        for key in self._by_key:
            covered |= keys == key
        ys, xs = np.nonzero(covered)
        if len(xs) == 0:
            raise BoardNotFoundError("no board on the frame", skin=self.skin)
        left, top = int(xs.min()), int(ys.min())
        cols = (int(xs.max()) - left) // self.pitch + 1
        rows = (int(ys.max()) - top) // self.pitch + 1
        return Lattice(self.skin, (left, top), (self.pitch, self.pitch), rows, cols)

    def read(self, frame: np.ndarray, lattice: Lattice, needed: np.ndarray | None = None) -> FlatReading:
        states = self._centre_states(frame, lattice)
        if states is None:
            raise BoardNotFoundError("the board runs off the frame", skin=self.skin)
        rows = []
        for r, states_row in enumerate(states):
            for c, ch in enumerate(states_row):
                if ch is None and (needed is None or needed[r][c]):
                    raise UnrecognizedCellError("no cell state has this colour", row=r, col=c, score=0.0)
            # A cell not needed that reads as nothing: its reading says nothing.
            rows.append("".join(ch or "#" for ch in states_row))
        return FlatReading(Board(tuple(rows)), 1.0, lattice)

    def read_visible(self, frame: np.ndarray, lattice: Lattice) -> list[list[str | None]]:
        """Each cell's state where its centre shows one, None where it does not (something over it)."""
        states = self._centre_states(frame, lattice)
        return states if states is not None else [[None] * lattice.cols for _ in range(lattice.rows)]

    def _centre_states(self, frame: np.ndarray, lattice: Lattice) -> list[list[str | None]] | None:
        """The state each cell's centre colour is (None: no state's colour), or None when a centre is
        off the frame."""
        ox, oy = lattice.origin
        px, py = lattice.pitch
        height, width = frame.shape[:2]
        xs = [int(ox + c * px + px // 2) for c in range(lattice.cols)]
        ys = [int(oy + r * py + py // 2) for r in range(lattice.rows)]
        if not all(0 <= x < width for x in xs) or not all(0 <= y < height for y in ys):
            return None
        # The centres' colours, all at once.
        at = _keys(frame[np.array(ys, np.intp)][:, np.array(xs, np.intp)]).tolist()
        return [[self._by_key.get(key) for key in row] for row in at]


def _key(colour) -> int:
    b, g, r = (int(v) for v in colour)
    return (b << 16) | (g << 8) | r


def _keys(frame: np.ndarray) -> np.ndarray:
    """Each pixel's BGR colour as one number (``_key``)."""
    pixels = frame.astype(np.int32)
    return (pixels[..., 0] << 16) | (pixels[..., 1] << 8) | pixels[..., 2]
