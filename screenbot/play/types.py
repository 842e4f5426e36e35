"""What the play loop works with: its settings, the board it located, the interfaces of what it drives
(screen, vision; the game window is a ``screenbot.platforms.GameWindow``), and the errors that stop it."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Protocol

import numpy as np

from ..errors import ScreenError
from ..geometry import Lattice, Rect
from ..platforms.base import GameWindow


class PlayError(ScreenError):
    """The loop had to stop; ``frame_path`` is where the frame that stopped it was saved."""

    def __init__(self, message: str, /, *, frame_path: str | None = None, **details: object) -> None:
        saved = f" (frame saved to {frame_path})" if frame_path else ""
        super().__init__(message + saved, frame_path=frame_path, **details)
        self.frame_path = frame_path


class InconsistentReadingError(PlayError):
    """The board read off the screen cannot be right; nothing was clicked on it."""


class WindowLostError(PlayError):
    """The game window was closed, or the board is covered or gone from the screen."""


class LookChangedError(PlayError):
    """The board no longer reads under the skin ``auto`` chose for the session, or reads as a board
    that cannot be right, and reads whole under another (``skin``): a board with no cell open shows
    only covered cells, which two looks can share.
    The session goes on with the other skin and its client's profile. ``fresh``: the board it reads
    whole is a new game's, no cell open, so the other skin too was chosen on covered cells alone."""

    def __init__(self, message: str, /, *, skin: str, fresh: bool = False) -> None:
        super().__init__(message, skin=skin)
        self.skin = skin
        self.fresh = fresh
        self.so_far: GameSoFar | None = None  # the game in progress, when one was (``Player.play``)


@dataclass(frozen=True, slots=True)
class GameSoFar:
    """What the game in progress had taken when the session went on in another look: the player that
    plays it on counts from here, so its result is the whole game's (its seconds, steps, moves)."""

    seconds: float = 0.0
    steps: int = 0
    actions: int = 0
    guesses: int = 0
    unread: int = 0


class Screen(Protocol):
    def grab(self, region: tuple[int, int, int, int] | None = None) -> np.ndarray: ...


class Vision(Protocol):
    """The board-reading functions, bound to the skins in use."""

    # -> lattice with .origin, .pitch, .rows, .cols, .skin, in ``frame``'s pixels. ``origin``: where the
    # frame's top-left pixel is on the screen (a locator that searches ignores it; a lattice given by
    # hand, ``screenbot.given_lattice``, is in screen pixels and needs it).
    def locate(self, frame: np.ndarray, origin: tuple[int, int] = (0, 0), within: Rect | None = None): ...

    # -> reading with .board, .min_confidence. ``needed``: a (rows, cols) bool array of the cells the
    # caller will use (None: all); the others may read as anything and are never refused.
    def read(self, frame: np.ndarray, lattice, needed: np.ndarray | None = None): ...


@dataclass(slots=True)
class Surroundings:
    """What every part of a session looks at and waits on: the screen and its extent, the eyes, the game
    window (None when none is followed) and the clock. One object shared by the parts, so a screen
    swapped after construction (tests count or check the grabs) is the one they all use."""

    screen: Screen
    screen_rect: Rect
    vision: Vision
    window: GameWindow | None = None
    clock: Callable[[], float] = time.perf_counter
    sleep: Callable[[float], None] = time.sleep


@dataclass(frozen=True, slots=True)
class PlayConfig:
    games: int = 1
    flag_mines: bool = False
    chord: bool = False
    dry_run: bool = False
    mines: int | None = None  # overrides the profile's total
    first_click: tuple[int, int] | None = None  # overrides the profile's choice
    rechecks: int = 3  # re-captures of a suspicious reading before giving up
    max_steps: int = 5000  # per game; a game needs at most rows*cols steps
    failure_dir: Path = Path(".")
    # The first game is one already in progress (the session went on in another look mid-game): a
    # finished board is that game's end, counted, not a finished game to start anew uncounted.
    in_progress: GameSoFar | None = None


@dataclass(frozen=True, slots=True)
class Located:
    """A board found on the screen: its lattice in screen pixels (clicks), the region around it that is
    captured, and the same lattice in that region's frame (reading)."""

    geometry: Lattice  # in absolute screenshot pixels
    region: Rect
    lattice: Lattice  # moved into ``region``'s frame
    window: Rect | None

    @classmethod
    def around(cls, geometry: Lattice, window: Rect | None, margin: tuple[int, int], bounds: Rect) -> Located:
        """The board ``geometry`` with the region captured around it: its whole cells and ``margin``
        pixels more on each side (x, y), within ``bounds``."""
        region = geometry.inner_rect().expanded(*margin).clipped(bounds)
        return cls(geometry, region, geometry.translated(-region.left, -region.top), window)

    def moved(self, window: Rect) -> Located:
        """The same board after its window moved (same size) to ``window``."""
        assert self.window is not None
        dx, dy = window.left - self.window.left, window.top - self.window.top
        return Located(self.geometry.translated(dx, dy), self.region.translated(dx, dy), self.lattice, window)
