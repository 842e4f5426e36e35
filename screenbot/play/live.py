"""Wire the loop to the real desktop: mss screen, pyautogui mouse, vision, the client's window.

Import order matters (see ``screenbot.mouse``): the screen and DISPLAY first, pyautogui last.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import BoardNotFoundError
from ..geometry import Rect
from ..mouse import ScreenScale
from .outcome import is_fresh
from .profile import PlayProfile, load_profile, profile_from_dict

log = logging.getLogger(__name__)


class SkinVision:
    """The vision functions bound to the loaded skins and the skin being played."""

    def __init__(self, skins, skin: str = "auto", *, chosen: bool = False, rough: str = "") -> None:
        from ..vision import locate_board, read_board

        self._locate, self._read = locate_board, read_board
        self.skins = skins
        self.skin = skin
        # ``skin`` was chosen by ``auto`` on a board with no cell open: by covered cells, which another
        # look may share (``other_look``).
        self.chosen = chosen
        # How ``auto`` took the board for ``skin``'s when its pictures fit only roughly ('' when they fit
        # closely, or the skin was named): a refusal to read it then may mean a client nobody taught.
        self.rough = rough
        self._before_teaching = None  # the skins as loaded, once pictures were taught

    def locate(self, frame: np.ndarray, origin: tuple[int, int] = (0, 0), within: Rect | None = None):
        """The board found on ``frame``, in its pixels; ``origin`` is the frame's place on the screen,
        ``within`` the game window on the screen, when known: its board is the one taken when other
        Minesweeper boards are on the frame too."""
        inside = within.translated(-origin[0], -origin[1]) if within is not None else None
        return self._locate(frame, self.skins, skin=self.skin, within=inside)

    def other_look(self, frame: np.ndarray) -> str | None:
        """The skin, other than the session's, under which the one board on ``frame`` reads whole; None
        when the session's skin was not chosen on covered cells alone (given by name, or chosen on a
        board with cells open), or no other skin reads the board."""
        if not self.chosen:
            return None
        from ..errors import BoardNotFoundError, UnrecognizedCellError

        try:
            lattice = self._locate(frame, self.skins, skin="auto")
            if lattice.skin == self.skin:
                return None
            self._read(frame, lattice, self.skins)
        except (BoardNotFoundError, UnrecognizedCellError):
            return None
        return lattice.skin

    def read(self, frame: np.ndarray, lattice, needed: np.ndarray | None = None):
        # A number the skin never saw (a learnt skin's first 6) is played as an unread number, not a stop.
        return self._read(frame, lattice, self.skins, unread=True, needed=needed)

    def reads_whole_boards(self, lattice) -> bool:
        """Whether the look of ``lattice`` is read from the whole board's structure (a family skin: the
        classic look), not cell by cell from pictures, so a part of the board is never read alone."""
        return bool(self.skins[lattice.skin].family)

    def read_visible(self, frame: np.ndarray, lattice):
        """Each cell's state where it reads surely, None where something covers it."""
        from ..vision.read import read_visible

        return read_visible(frame, lattice, self.skins)

    def teach(self, frame: np.ndarray, lattice, named: dict[tuple[int, int], str]) -> None:
        """Add the pictures of ``named`` cells ((row, col) -> state) of ``frame`` to the skin for the rest
        of this session (nothing is written to disk)."""
        from ..vision.skins import Skin, Template, to_canonical

        skin = self.skins[lattice.skin]
        taught = []
        for (row, col), char in sorted(named.items()):
            rect = lattice.cell_rect(row, col)
            image = np.ascontiguousarray(frame[rect.top : rect.bottom, rect.left : rect.right])
            taught.append(Template(char, tuple(lattice.pitch), to_canonical(image), image,
                                   Path(f"{char}-seen-in-play-r{row}-c{col}")))
        if self._before_teaching is None:
            self._before_teaching = self.skins
        self.skins = {**self.skins, skin.name: Skin(skin.name, skin.templates + tuple(taught), skin.profile, skin.family)}

    def forget_taught(self) -> bool:
        """Withdraw every picture taught this session; True when there were some. A reading they took
        part in that cannot be right says one was named wrong (a number counted on a finished board,
        one of whose mines was misread: seen once on KMines, whose cells show the picture behind)."""
        if self._before_teaching is None:
            return False
        self.skins, self._before_teaching = self._before_teaching, None
        return True


def load_skins(directory: Path | None = None):
    """The skins in ``directory``, or by default the shipped ones and the user's (``skin_folders``)."""
    from ..vision import load_skins as vision_load_skins

    return vision_load_skins(directory)


@dataclass(frozen=True, slots=True)
class FoundGame:
    skin: str
    window: int | None  # the desktop's id of the window holding the board, when one was found
    board: Rect  # where the board was seen, in screen pixels
    lattice: object | None = None  # the lattice given with --lattice (screen pixels, skin chosen)
    chosen: bool = False  # the skin was chosen by ``auto`` among several, on a board with no cell open
    rough: str = ""  # how ``auto`` took the board for the skin's, where its pictures fit only roughly


def refined_lattice(frame, skins, lattice):
    """A lattice measured by other means (a client's start function) nudged, up to 2 px, to where its
    skin's pictures fit best: the pictures of a skin sit a pixel one way or the other of a grid line."""
    from ..vision.align import refine

    return refine(frame, skins[lattice.skin], lattice, (2.0, 2.0))


def find_game(screen, skins, desktop, skin: str = "auto", lattice=None) -> FoundGame:
    """Locate a board on the whole screen, then the top-level window of ``desktop`` that holds it.

    ``lattice``, a ``screenbot.given_lattice.GivenLattice`` in screen pixels, replaces the search: only
    the skin is chosen (``skin``, or the one that reads it best). LatticeOffFrameError when it is not
    fully on the screen."""
    from ..given_lattice import choose_skin
    from ..vision.locate import locate_found

    with desktop.overlays_hidden():  # a hint overlay over the game would hide the whole-cell look locating needs
        frame = screen.grab()
    rough = ""
    if lattice is None:
        try:
            located = locate_found(frame, skins, skin)
            found, rough = located.lattice, located.rough_fit() if skin == "auto" else ""
        except BoardNotFoundError as exc:
            stacked = desktop.stacked() if exc.reason == "several boards" else []
            if not stacked:  # not several boards, or a desktop that knows no windows to tell them apart
                raise
            found = _topmost_board(frame, skins, skin, getattr(screen, "origin", (0, 0)), stacked)
    else:
        found = choose_skin(frame, lattice, skins, skin, what="screen").lattice
    ox, oy = found.origin
    px, py = found.pitch if isinstance(found.pitch, (tuple, list)) else (found.pitch, found.pitch)
    board = Rect(int(ox), int(oy), int(px * found.cols), int(py * found.rows))
    return FoundGame(found.skin, desktop.window_holding(board), board, found if lattice is not None else None,
                     chosen=skin == "auto" and lattice is None and len(skins) > 1 and _no_cell_open(frame, found, skins),
                     rough=rough)


def _no_cell_open(frame: np.ndarray, lattice, skins) -> bool:
    """Whether the board at ``lattice`` has no cell open (covered cells and "?" marks only): all a skin
    chosen on it was chosen by."""
    from ..errors import MinesweeperError
    from ..vision import read_board

    try:
        return is_fresh(read_board(frame, lattice, skins).board)
    except MinesweeperError:
        return False


def game_vision(skins, found: FoundGame):
    """The vision to play or hint ``found`` with: the skin's locator, or the lattice given by hand."""
    vision = SkinVision(skins, found.skin, chosen=found.chosen, rough=found.rough)
    if found.lattice is None:
        return vision
    from ..given_lattice import GivenLatticeVision

    return GivenLatticeVision(vision, found.lattice)


def _topmost_board(frame: np.ndarray, skins, skin: str, origin: tuple[int, int], stacked: list[Rect]):
    """Of several complete boards on the screen, the one in the window stacked highest (``stacked``:
    the windows bottom to top; the one the user looked at last); BoardNotFoundError naming them when no
    window tells them apart."""
    from ..vision.locate import locate_boards

    boards = [f.lattice for f in locate_boards(frame, skins, skin) if f.lattice is not None and not f.refusal]

    def height(lattice) -> int:
        rect = lattice.board_rect().translated(origin[0], origin[1])
        return max((i for i, window in enumerate(stacked) if window.contains_rect(rect)), default=-1)

    ranks = sorted(((height(b), b) for b in boards), key=lambda rb: rb[0])
    if len(ranks) < 2 or ranks[-1][0] < 0 or ranks[-1][0] == ranks[-2][0]:
        names = "; ".join(f"{b.rows}x{b.cols} {b.skin} at {b.board_rect()}" for b in boards)
        raise BoardNotFoundError(f"{len(boards)} complete boards and no window stacked above the others ({names})",
                                 reason="several boards")
    log.info("%d boards on the screen: playing the one in the topmost window", len(boards))
    return ranks[-1][1]


def measure_scale(screen, mouse) -> ScreenScale:
    """Screenshot pixels per click point, measured now (HiDPI / Retina / Windows scaling)."""
    width, height = screen.size
    origin = getattr(screen, "origin", (0, 0))
    return ScreenScale.measure(Rect(origin[0], origin[1], width, height), mouse.size())


def profile_for(skin: str) -> PlayProfile:
    from ..errors import SkinError
    from ..skin_folders import skin_folder

    try:
        folder = skin_folder(skin)
    except SkinError:
        from ..vision.classic import CLASSIC, CLASSIC_PROFILE

        if skin != CLASSIC:
            raise
        return profile_from_dict(skin, CLASSIC_PROFILE)  # the built-in look; a skin folder of its name replaces it
    return load_profile(skin, folder.parent)


def check_client(skins, name: str, *, to_play: bool) -> None:
    """Refuse a ``--client``/``--skin`` name before any screen work: unknown, or (``to_play``) a skin
    whose profile has no "play" section, so the bot would not know how to start or end its games."""
    from ..vision.skins import check_skin_name

    check_skin_name(name, skins)
    if to_play and name != "auto":
        check_playable(profile_for(name))


def check_playable(profile: PlayProfile) -> None:
    from ..errors import SkinError

    if profile.restart.is_empty and not profile.find_restart:
        raise SkinError(
            'its profile has no "play" section (how the client starts a new game): it can be read and '
            "hinted, not played",
            skin=profile.skin,
        )
